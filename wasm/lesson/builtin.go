package lesson

import (
	_ "embed" // the built-in lessons' files
	"fmt"
)

// The built-in lessons' files, each embedded as a string of its own: an
// embed.FS would link time's formatting into the page (a file's
// modification time), for nothing.
var (
	//go:embed builtin/chain-rule.json
	builtinChainRule string
	//go:embed builtin/fan-in.json
	builtinFanIn string
	//go:embed builtin/linear-backward.json
	builtinLinearBackward string
)

// builtinOrder is the order the examples menu shows the built-in lessons
// in, each by its file name under builtin/ and with that file.
var builtinOrder = []struct{ name, file string }{
	{"chain-rule", builtinChainRule},
	{"fan-in", builtinFanIn},
	{"linear-backward", builtinLinearBackward},
}

// Builtin is one lesson of the examples menu.
type Builtin struct {
	// Name is the lesson's stable name (its file under builtin/).
	Name string
	// Lesson is the decoded lesson.
	Lesson *Lesson
}

// Builtins decodes the built-in lessons, in menu order. The documents are
// embedded at build time and kept as fixtures, so an error here means the
// build is broken; the page reports it rather than showing a broken
// menu.
func Builtins() ([]Builtin, error) {
	out := make([]Builtin, 0, len(builtinOrder))
	for _, b := range builtinOrder {
		l, err := Decode([]byte(b.file))
		if err != nil {
			return nil, fmt.Errorf("built-in lesson %s: %w", b.name, err)
		}
		out = append(out, Builtin{Name: b.name, Lesson: l})
	}
	return out, nil
}
