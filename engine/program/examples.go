package program

import (
	"embed"
	"strings"
)

// Example is one program of the gallery.
type Example struct {
	// Name is the example's stable name (its file under examples/).
	Name string
	// Caption is its one-line description.
	Caption string
	// Text is the program, without the caption.
	Text string
}

//go:embed examples/*.tl
var exampleFiles embed.FS

// gallery is the order the page shows the examples in.
var gallery = []string{"micrograd", "lecture", "neuron", "fanin", "mlp", "softmax_ce", "skipped"}

// Examples returns the gallery: each program with its caption, in the order
// the page shows them. Each file under examples/ starts with its caption as
// a comment line; the rest is the program.
func Examples() []Example {
	out := make([]Example, 0, len(gallery))
	for _, name := range gallery {
		data, err := exampleFiles.ReadFile("examples/" + name + ".tl")
		if err != nil {
			panic("program: " + err.Error()) // the files are embedded at build time
		}
		first, rest, _ := strings.Cut(string(data), "\n")
		out = append(out, Example{Name: name, Caption: strings.TrimPrefix(first, "# "), Text: rest})
	}
	return out
}
