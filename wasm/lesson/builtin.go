package lesson

import (
	"embed"
	"fmt"
)

//go:embed builtin/*.json
var builtinFiles embed.FS

// builtinOrder is the order the examples menu shows the built-in lessons
// in, by file name under builtin/.
var builtinOrder = []string{"chain-rule", "fan-in", "linear-backward"}

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
	for _, name := range builtinOrder {
		data, err := builtinFiles.ReadFile("builtin/" + name + ".json")
		if err != nil {
			return nil, err
		}
		l, err := Decode(data)
		if err != nil {
			return nil, fmt.Errorf("built-in lesson %s: %w", name, err)
		}
		out = append(out, Builtin{Name: name, Lesson: l})
	}
	return out, nil
}
