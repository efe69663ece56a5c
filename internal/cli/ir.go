package cli

import (
	"context"
	"fmt"
	"io"

	"tapelab/engine/ir"
	"tapelab/engine/nn"
)

// runIR is `go run . ir -model M.json` (or `go run . ir -program P`, see
// irProgram): the model as a tapelab.ir.v1 JSON
// document (engine/ir), checked with ir.CheckShapes and lowered with
// ir.Lower before it is printed.
func runIR(_ context.Context, args []string, stdout, stderr io.Writer) error {
	flags := NewFlagSet("ir", stderr)
	model := flags.String("model", "", "model spec `M.json`")
	batch := flags.Int("batch", 1, "batch size `N` the graph's shapes are fixed for")
	mode := flags.String("mode", "eval", "`eval` (dropout off, batch norm on running statistics) or train")
	loss := flags.Bool("loss", false, "end the graph with the loss (the targets are input 1)")
	prog := flags.String("program", "", "program file `P` (engine/program) instead of a model")
	if err := parseFlags(flags, args); err != nil {
		return err
	}
	if err := oneSource(flags, *model, *prog); err != nil {
		return err
	}
	if *prog != "" {
		return irProgram(*prog, stdout)
	}
	var md nn.Mode
	switch *mode {
	case "eval":
		md = nn.Eval
	case "train":
		md = nn.Train
	default:
		return fmt.Errorf("-mode %q: want eval or train", *mode)
	}
	if *batch < 1 {
		return fmt.Errorf("-batch %d: must be at least 1", *batch)
	}
	sm, m, err := loadModel(*model)
	if err != nil {
		return err
	}
	g, err := ir.FromModel(m, *batch, md, sm.Seed, *loss)
	if err != nil {
		return err
	}
	if _, err := ir.Lower(g); err != nil {
		return err
	}
	data, err := ir.Encode(g)
	if err != nil {
		return err
	}
	_, err = stdout.Write(data)
	return err
}
