package cli

import (
	"context"
	"fmt"
	"io"
	"path/filepath"

	"tapelab/engine/pytorch"
)

// runExport is `go run . export -model M.json [-data D.json] -format
// pytorch`: runnable PyTorch code that rebuilds the model as an
// nn.Sequential in float64 and loads its exact parameters (seeded or given)
// with load_state_dict. With -data the file carries the data as X and Y,
// and running it prints the train-mode loss `grad` prints for them.
func runExport(_ context.Context, args []string, stdout, stderr io.Writer) error {
	flags := NewFlagSet("export", stderr)
	model := flags.String("model", "", "model spec `M.json`")
	data := flags.String("data", "", "data file `D.json` to carry as X and Y (optional): the code then prints their loss")
	format := flags.String("format", "pytorch", "output `format`; only pytorch is supported")
	if err := parseFlags(flags, args); err != nil {
		return err
	}
	if *format != "pytorch" {
		return fmt.Errorf("-format %q: only pytorch is supported", *format)
	}
	sm, m, err := loadModel(*model)
	if err != nil {
		return err
	}
	var batch *pytorch.Batch
	if *data != "" {
		d, err := loadData(*data, m)
		if err != nil {
			return err
		}
		x, y := d.Batch(m)
		batch = &pytorch.Batch{X: x, Y: y}
	}
	code, err := pytorch.Code(sm, m, filepath.Base(*model), batch)
	if err != nil {
		return err
	}
	_, err = stdout.Write(code)
	return err
}
