package program

import (
	_ "embed" // the examples' files
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

// The examples' files, each embedded as a string of its own: an embed.FS
// would link time's formatting into the page (a file's modification time),
// for nothing.
var (
	//go:embed examples/micrograd.tl
	exampleMicrograd string
	//go:embed examples/lecture.tl
	exampleLecture string
	//go:embed examples/neuron.tl
	exampleNeuron string
	//go:embed examples/fanin.tl
	exampleFanin string
	//go:embed examples/mlp.tl
	exampleMlp string
	//go:embed examples/softmax_ce.tl
	exampleSoftmaxCe string
	//go:embed examples/skipped.tl
	exampleSkipped string
	//go:embed examples/newton.tl
	exampleNewton string
	//go:embed examples/hvp.tl
	exampleHvp string
	//go:embed examples/gradient_penalty.tl
	exampleGradientPenalty string
)

// gallery is the order the page shows the examples in, each with its file.
var gallery = []struct{ name, file string }{
	{"micrograd", exampleMicrograd},
	{"lecture", exampleLecture},
	{"neuron", exampleNeuron},
	{"fanin", exampleFanin},
	{"mlp", exampleMlp},
	{"softmax_ce", exampleSoftmaxCe},
	{"skipped", exampleSkipped},
	{"newton", exampleNewton},
	{"hvp", exampleHvp},
	{"gradient_penalty", exampleGradientPenalty},
}

// Examples returns the gallery: each program with its caption, in the order
// the page shows them. Each file under examples/ starts with its caption as
// a comment line; the rest is the program.
func Examples() []Example {
	out := make([]Example, 0, len(gallery))
	for _, g := range gallery {
		first, rest, _ := strings.Cut(g.file, "\n")
		out = append(out, Example{Name: g.name, Caption: strings.TrimPrefix(first, "# "), Text: rest})
	}
	return out
}
