// Package cli holds TapeLab's headless commands: grad, train, ir and export.
// Each reads a model spec (engine/spec, version 1 JSON), or for grad and ir
// a program (engine/program), and writes JSON or code to stdout; errors
// name the file and the JSON path, layer or program line and column at
// fault.
package cli

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"

	"tapelab/engine/nn"
	"tapelab/engine/spec"
	"tapelab/engine/tensor"
)

// Command is one command-line tool: `go run . <Name> [flags]`.
type Command struct {
	Name    string
	Summary string
	Run     func(ctx context.Context, args []string, stdout, stderr io.Writer) error
}

// Commands lists the headless model tools in the order `go run . help`
// shows them.
func Commands() []Command {
	return []Command{
		{"grad", "one forward and backward pass of a model on a data file, or of a program, as JSON", runGrad},
		{"train", "train a model and print its losses and final parameters, as JSON lines", runTrain},
		{"ir", "print a model or a program as tapelab.ir.v1 JSON", runIR},
		{"export", "print a model as runnable PyTorch code", runExport},
	}
}

// NewFlagSet returns a flag set for the command name that reports errors
// instead of exiting, and prints its help to stderr.
func NewFlagSet(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	return fs
}

// loadModel reads and validates the model spec at path and builds it.
func loadModel(path string) (*spec.Model, *nn.Model, error) {
	if path == "" {
		return nil, nil, errors.New("-model is required (a model spec JSON file)")
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	sm, err := spec.Decode(data)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	nm, err := sm.Build()
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	return sm, nm, nil
}

// parseFlags parses a command's flags and rejects positional arguments
// after them, naming the command (the flag set's name).
func parseFlags(flags *flag.FlagSet, args []string) error {
	if err := flags.Parse(args); err != nil {
		return err
	}
	if rest := flags.Args(); len(rest) > 0 {
		cmd := flags.Name()
		return fmt.Errorf("%s takes no arguments, got %q (flags go before them; see `go run . %s -h`)", cmd, rest, cmd)
	}
	return nil
}

// jsonNumber formats v so that parsing it gives the same float64 bits
// (strconv 'g' with the shortest exact precision; -0 stays -0). NaN and
// ±Inf have no JSON form: the error names where the value sits.
func jsonNumber(b *bytes.Buffer, v float64, where func() string) error {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return fmt.Errorf("%s is %v, which JSON cannot hold", where(), v)
	}
	b.WriteString(strconv.FormatFloat(v, 'g', -1, 64))
	return nil
}

// writeNested writes data as nested JSON arrays of the given shape (a bare
// number for the scalar shape []). where names the value in errors: a NaN
// or an infinity, which JSON cannot hold, is named by its indices.
func writeNested(b *bytes.Buffer, shape tensor.Shape, data []float64, where string) error {
	for k, v := range data[:shape.Size()] {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			for _, i := range shape.Index(k) {
				where += fmt.Sprintf("[%d]", i)
			}
			return jsonNumber(b, v, func() string { return where })
		}
	}
	b.WriteString(shape.Nested(data, func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }))
	return nil
}

// writeRows writes a batch [n, ...] as n flat JSON rows.
func writeRows(b *bytes.Buffer, t *tensor.Tensor, where string) error {
	n := t.Shape[0]
	return writeNested(b, tensor.Shape{n, len(t.Data) / n}, t.Data, where)
}

// writeParams writes the model's named tensors as a JSON object in
// state_dict order, each nested by its shape (the spec's "params" form).
// value returns the tensor to write for parameter i, or nil to skip it.
func writeParams(b *bytes.Buffer, m *nn.Model, what string, value func(i int) *tensor.Tensor) error {
	b.WriteByte('{')
	first := true
	for i, p := range m.Seq.Params() {
		t := value(i)
		if t == nil {
			continue
		}
		if !first {
			b.WriteString(", ")
		}
		first = false
		b.WriteString(strconv.Quote(p.Name) + ": ")
		if err := writeNested(b, p.Shape, t.Data, fmt.Sprintf("%s[%q]", what, p.Name)); err != nil {
			return err
		}
	}
	b.WriteByte('}')
	return nil
}
