package ir

import (
	"errors"
	"fmt"

	"tapelab/engine/graph"
	"tapelab/engine/nn"
	"tapelab/engine/op"
	"tapelab/engine/tensor"
)

// The stages of a Pipeline, in the order they run.
const (
	StageExport  = "export"       // a model becomes an IR graph (FromModel)
	StageDecode  = "decode"       // a JSON document becomes an IR graph (Decode)
	StageCheck   = "check"        // Check: structure
	StageShapes  = "check shapes" // CheckShapes: every declared shape inferred
	StageLower   = "lower"        // Lower: the engine's SSA graph
	StageFeed    = "feed"         // Feed: the inputs and the payload as the lowered graph's leaves
	StageCompile = "compile"      // graph.CompileChecked: every value, domains checked
)

// Stage is one stage of a Pipeline and how it went.
type Stage struct {
	Name string
	// Ran is false for the stages after the first that failed.
	Ran bool
	// Err is the stage's error, naming the IR node at fault where there is
	// one; nil when the stage passed or did not run.
	Err error
}

// String shows the stage as a view lists it: "check ✓", "check shapes ✗
// node 2 (tanh): …" or "lower (not run)".
func (s Stage) String() string {
	switch {
	case !s.Ran:
		return s.Name + " (not run)"
	case s.Err != nil:
		return s.Name + " ✗ " + s.Err.Error()
	}
	return s.Name + " ✓"
}

// Pipeline is one run of an IR graph through the engine, stage by stage:
// [export or decode,] check, check shapes, lower, feed, compile. Every stage
// is listed; the first that fails ends the run and the later ones are
// listed as not run. The lower stage never refuses a graph that passed
// check shapes (see Lower): it is listed so that a view shows the whole
// path.
type Pipeline struct {
	Stages []Stage
	// IR is the graph run (nil when export or decode failed).
	IR *Graph
	// Graph is the lowered graph and IDs maps each IR node id to the
	// lowered value holding its result (nil unless lower passed).
	Graph *graph.Graph
	IDs   []int
	// Compiled is the compiled graph (nil unless every stage passed).
	Compiled *graph.Compiled
	failed   bool
}

// Run runs g through check, check shapes, lower, feed (inputs[k] for graph
// input k) and compile.
func Run(g *Graph, inputs ...*tensor.Tensor) *Pipeline {
	p := &Pipeline{}
	p.rest(g, inputs)
	return p
}

// RunJSON decodes a tapelab.ir.v1 document (as a link carries it) and runs
// it as Run does.
func RunJSON(data []byte, inputs ...*tensor.Tensor) *Pipeline {
	p := &Pipeline{}
	var g *Graph
	p.stage(StageDecode, func() (err error) { g, err = Decode(data); return err })
	p.rest(g, inputs)
	return p
}

// RunModel exports m as FromModel(m, batch, mode, seed, loss) does and runs
// the graph as Run does; inputs are x and, with loss, the targets.
func RunModel(m *nn.Model, batch int, mode nn.Mode, seed uint64, loss bool, inputs ...*tensor.Tensor) *Pipeline {
	p := &Pipeline{}
	var g *Graph
	p.stage(StageExport, func() (err error) { g, err = FromModel(m, batch, mode, seed, loss); return err })
	p.rest(g, inputs)
	return p
}

// rest runs the stages from check on.
func (p *Pipeline) rest(g *Graph, inputs []*tensor.Tensor) {
	if !p.failed {
		p.IR = g
	}
	var feed []*tensor.Tensor
	p.stage(StageCheck, func() error { return Check(g) })
	p.stage(StageShapes, func() error { return inferShapes(g) })
	p.stage(StageLower, func() (err error) { p.Graph, p.IDs, err = lowerChecked(g, lowerOp); return err })
	p.stage(StageFeed, func() (err error) { feed, err = feedChecked(g, inputs); return err })
	p.stage(StageCompile, func() (err error) {
		p.Compiled, err = graph.CompileChecked(p.Graph, feed)
		return p.atNode(err)
	})
}

// stage runs f unless an earlier stage failed, and lists the stage.
func (p *Pipeline) stage(name string, f func() error) {
	if p.failed {
		p.Stages = append(p.Stages, Stage{Name: name})
		return
	}
	err := f()
	p.failed = err != nil
	p.Stages = append(p.Stages, Stage{Name: name, Ran: true, Err: err})
}

// atNode restates an error of the lowered graph at the IR node whose
// result the failing value holds.
func (p *Pipeline) atNode(err error) error {
	var e *op.Error
	if !errors.As(err, &e) || e.Node < 0 {
		return err
	}
	for id, v := range p.IDs {
		if v == e.Node {
			c := *e
			c.Node = id
			return &c
		}
	}
	return err
}

// Err returns the first failing stage's error, prefixed with the stage's
// name, or nil when every stage passed.
func (p *Pipeline) Err() error {
	for _, s := range p.Stages {
		if s.Err != nil {
			return fmt.Errorf("%s: %w", s.Name, s.Err)
		}
	}
	return nil
}

// Output returns the lowered value holding the IR graph's result (its last
// node), or -1 when the graph was not lowered.
func (p *Pipeline) Output() int {
	if len(p.IDs) == 0 {
		return -1
	}
	return p.IDs[len(p.IDs)-1]
}
