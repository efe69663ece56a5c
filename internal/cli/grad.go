package cli

import (
	"bytes"
	"context"
	"errors"
	"io"

	"tapelab/engine/nn"
	"tapelab/engine/tensor"
)

// runGrad is `go run . grad -model M.json -data D.json` (or
// `go run . grad -program P`, see gradProgram): one forward and
// backward pass in train mode, printed as one JSON object
// {"loss": L, "outputs": [[...], ...], "grads": {"0.weight": [[...]], ...}}.
// Outputs are the model's output rows (flattened examples); grads hold
// every trainable parameter in state_dict order, nested by its shape (a
// parameter the loss does not reach has a zero gradient). Dropout masks are
// drawn from the spec's seed. -precision float32 runs the pass in float32
// storage (nn.Pass.SetPrecision).
func runGrad(_ context.Context, args []string, stdout, stderr io.Writer) error {
	flags := NewFlagSet("grad", stderr)
	model := flags.String("model", "", "model spec `M.json`")
	data := flags.String("data", "", "data file `D.json`: {\"x\": [[...], ...], \"y\": [...]}")
	prog := flags.String("program", "", "program file `P` (engine/program) instead of a model and data")
	var prec precisionFlag
	flags.Var(&prec, "precision", precisionUsage)
	if err := parseFlags(flags, args); err != nil {
		return err
	}
	if err := oneSource(flags, *model, *prog); err != nil {
		return err
	}
	if *prog != "" {
		return gradProgram(*prog, prec.p, stdout)
	}
	sm, m, err := loadModel(*model)
	if err != nil {
		return err
	}
	if *data == "" {
		return errors.New("-data is required (a data file {\"x\": [[...]], \"y\": [...]})")
	}
	d, err := loadData(*data, m)
	if err != nil {
		return err
	}
	x, y := d.Batch(m)
	p := nn.NewPass(m)
	p.SetPrecision(prec.p)
	if err := p.Forward(x, y, nn.Train, sm.Seed); err != nil {
		return err
	}
	if err := p.Backward(); err != nil {
		return err
	}
	var b bytes.Buffer
	b.WriteString(`{"loss": `)
	if err := jsonNumber(&b, p.Loss(), func() string { return "loss" }); err != nil {
		return err
	}
	b.WriteString(`, "outputs": `)
	if err := writeRows(&b, p.Output(), "outputs"); err != nil {
		return err
	}
	b.WriteString(`, "grads": `)
	ps := m.Seq.Params()
	err = writeParams(&b, m, "grads", func(i int) *tensor.Tensor {
		if ps[i].Buffer {
			return nil
		}
		if g := p.Grad(i); g != nil {
			return g
		}
		return tensor.Zeros(ps[i].Shape)
	})
	if err != nil {
		return err
	}
	b.WriteString("}\n")
	_, err = stdout.Write(b.Bytes())
	return err
}
