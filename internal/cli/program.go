package cli

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"

	"tapelab/engine/ir"
	"tapelab/engine/program"
	"tapelab/engine/tensor"
)

// loadProgram reads and parses the program file at path; its errors read
// "P: line L, col C: …".
func loadProgram(path string) (*program.Program, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	p, err := program.Parse(string(src))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return p, nil
}

// precisionFlag is -precision: float64 (the default) or float32 (float32
// storage, tensor.Precision); Set refuses anything else, naming both.
type precisionFlag struct{ p tensor.Precision }

// String returns the precision's name.
func (f *precisionFlag) String() string { return f.p.String() }

// Set parses s as the precision.
func (f *precisionFlag) Set(s string) (err error) {
	f.p, err = tensor.ParsePrecision("", s)
	return err
}

// precisionUsage is -precision's help line.
const precisionUsage = "arithmetic `P`: float64, or float32 (float32 storage: every leaf and every op's result rounded to float32; see engine/README.md)"

// oneSource rejects -model together with -program, and with -program
// every other flag of the command but -precision (they describe models: a
// program's data and shapes are in its text).
func oneSource(flags *flag.FlagSet, model, prog string) error {
	if model != "" && prog != "" {
		return errors.New("give -model or -program, not both")
	}
	if prog == "" {
		return nil
	}
	var err error
	flags.Visit(func(f *flag.Flag) {
		if f.Name != "program" && f.Name != "precision" && err == nil {
			err = fmt.Errorf("-%s applies to models; a program's data and shapes are in its text", f.Name)
		}
	})
	return err
}

// gradProgram is `go run . grad -program P`: the program's output and the
// gradient of every param and input, keyed by variable name in statement
// order, each a number or nested lists in the leaf's shape:
// {"output": V, "grads": {"a": G, …}}. A non-scalar output is seeded with
// ones (the gradients of the sum of its entries). In float32 the numbers
// are float32 values, written exactly.
func gradProgram(path string, prec tensor.Precision, stdout io.Writer) error {
	p, err := loadProgram(path)
	if err != nil {
		return err
	}
	r, err := p.GradAt(prec)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	var b bytes.Buffer
	b.WriteString(`{"output": `)
	if err := writeNested(&b, r.Output.Shape, r.Output.Data, "output"); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	b.WriteString(`, "grads": {`)
	for i, l := range p.Leaves() {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strconv.Quote(l.Name))
		b.WriteString(": ")
		g := r.Grads[i]
		if err := writeNested(&b, g.Shape, g.Data, "grads."+l.Name); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
	}
	b.WriteString("}}\n")
	_, err = stdout.Write(b.Bytes())
	return err
}

// irProgram is `go run . ir -program P`: the program recorded on a
// graph.Builder and exported with ir.FromGraph (params in the payload,
// inputs as input nodes in statement order), checked by lowering it.
func irProgram(path string, stdout io.Writer) error {
	p, err := loadProgram(path)
	if err != nil {
		return err
	}
	if _, err := p.Compile(); err != nil { // domain faults, with their place
		return fmt.Errorf("%s: %w", path, err)
	}
	if p.Output() != p.Len()-1 {
		name, at := p.OutputVar()
		return fmt.Errorf("%s: %v: the output %s is not the last value computed, and an IR graph's result is its last node; end with an operation",
			path, at, name)
	}
	g, err := p.Graph()
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	params := map[string]*tensor.Tensor{}
	for _, l := range p.Leaves() {
		if l.Param {
			params[l.Name] = l.Value
		}
	}
	doc, err := ir.FromGraph(g, params)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if _, err := ir.Lower(doc); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	data, err := ir.Encode(doc)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	_, err = stdout.Write(data)
	return err
}
