package app

import (
	"errors"
	"strings"

	"tapelab/engine/autograd"
	"tapelab/engine/graph"
	"tapelab/engine/ir"
	"tapelab/engine/nn"
	"tapelab/engine/op"
	"tapelab/engine/tensor"
)

// Batch is one mini-batch: inputs X [n, input...] and targets Y [n, target...].
type Batch struct {
	X, Y *tensor.Tensor
}

// Modes selects how a training step is recorded and differentiated.
type Modes struct {
	// Compiled records the step with graph.Builder and evaluates it with
	// graph.CompileChecked instead of running it on an eager Session.
	Compiled bool
	// Single differentiates the loss alone with single-output backward
	// (graph.Compiled.BackwardFrom), which visits the loss's dependencies
	// and only those visits beyond them that keep it bit-identical to the
	// dense pass, instead of the dense pass.
	Single bool
	// Eval records the model in evaluation mode (dropout off, batch norm on
	// its running statistics) instead of training mode.
	Eval bool
	// L2, when positive, adds the penalty L2·Σ W⊙W over every weight to the
	// loss, so that each weight feeds two nodes (its layer and the penalty)
	// and its gradient is summed from both: the += of backpropagation.
	L2 float64
}

// NNMode is the nn mode Modes selects.
func (m Modes) NNMode() nn.Mode {
	if m.Eval {
		return nn.Eval
	}
	return nn.Train
}

// Roles of tape nodes in a training step.
const (
	RoleInput   = "input"
	RoleTarget  = "target"
	RolePred    = "prediction"
	RoleMetric  = "metric"
	RoleLoss    = "loss"
	RoleData    = "data loss"
	RolePenalty = "L2 penalty"
)

// Recording is one training step recorded on a tape: the inputs, targets and
// parameters as leaves, the model's forward pass, a metric beside the loss
// (the mean prediction, which the loss does not depend on) and the loss,
// recorded last.
type Recording struct {
	Tape   *autograd.Tape
	Loss   int
	Pred   int
	Metric int
	Data   int // the data loss (the loss itself without a penalty)
	Modes  Modes
	// Graph and Compiled are set in compiled mode.
	Graph    *graph.Graph
	Compiled *graph.Compiled
	// ParamNodes maps each model parameter (in Seq.Params order) to its node.
	ParamNodes []int
	// IR is set when the recording is an opened IR document's graph
	// (Playground.OpenIR), not a training step: its pipeline.
	IR        *ir.Pipeline
	leaves    []*tensor.Tensor                // compiled mode: the values Graph was compiled with
	recompile func() (*graph.Compiled, error) // an opened IR document: its pipeline again
}

// errNoTape is Recording.Compile's error for a recording with no tape.
var errNoTape = errors.New("app: the recording has no tape to compile")

// Compile compiles the recorded step afresh, for a pass of its own (a
// Compiled's reverse passes share its gradient buffers): in compiled mode
// the recorded graph with its leaves, in eager mode the snapshot of the
// tape (graph.FromTape), whose value ids are the tape's node ids.
func (r *Recording) Compile() (*graph.Compiled, error) {
	if r.recompile != nil {
		return r.recompile()
	}
	if r.Tape == nil {
		return nil, errNoTape
	}
	g, leaves := r.Graph, r.leaves
	if g == nil {
		var err error
		if g, leaves, err = graph.FromTape(r.Tape); err != nil {
			return nil, err
		}
	}
	return graph.CompileChecked(g, leaves)
}

// Roles returns each node's role in the step ("" for the rest); an opened
// IR document's graph has only its result.
func (r *Recording) Roles() []string {
	roles := make([]string, r.Tape.Len())
	if r.IR != nil {
		roles[r.Loss] = RoleResult
		return roles
	}
	roles[0], roles[1] = RoleInput, RoleTarget
	roles[r.Pred], roles[r.Metric] = RolePred, RoleMetric
	if r.Data != r.Loss {
		roles[r.Data] = RoleData
	}
	roles[r.Loss] = RoleLoss
	return roles
}

// Listing returns the compiled graph one value per line (graph.Graph's
// String), or nil in eager mode.
func (r *Recording) Listing() []string {
	if r.Graph == nil {
		return nil
	}
	return strings.Split(strings.TrimRight(r.Graph.String(), "\n"), "\n")
}

// marks are the values of a step program the views single out.
type marks struct{ pred, metric, data op.Value }

// stepProgram is the training step over inputs [x, y, params...]: the
// forward pass, the metric, the data loss and, with an L2 penalty, the
// penalty and the total loss. It reports the marked values through mk.
func stepProgram(m *nn.Model, modes Modes, seed uint64, mk *marks) op.Program {
	return func(o op.Ops, in []op.Value) op.Value {
		p := m.Seq.Forward(o, in[0], in[2:], modes.NNMode(), seed, nil)
		mk.pred = p
		mk.metric = op.Mean(o, p)
		loss := m.Loss.Apply(o, p, in[1])
		mk.data = loss
		if modes.L2 <= 0 {
			return loss
		}
		pen := op.NoValue
		for i, ps := range m.Seq.Params() {
			if ps.Buffer || !strings.HasSuffix(ps.Name, ".weight") {
				continue
			}
			w := in[2+i]
			sq := op.Sum(o, op.Mul(o, w, w))
			if pen == op.NoValue {
				pen = sq
			} else {
				pen = op.Add(o, pen, sq)
			}
		}
		if pen == op.NoValue {
			return loss
		}
		return op.Add(o, loss, op.Scale(o, pen, modes.L2))
	}
}

// Record records one training step of m on b. seed is the step's randomness
// (dropout masks). The batch is checked first; errors name what is wrong.
func Record(m *nn.Model, b Batch, modes Modes, seed uint64) (*Recording, error) {
	return record(m, b, modes, seed, false)
}

// record is Record; xGrad makes the inputs a leaf that wants a gradient
// (eager mode only), so a backward pass reaches dL/dx.
func record(m *nn.Model, b Batch, modes Modes, seed uint64, xGrad bool) (*Recording, error) {
	if b.X == nil || b.Y == nil {
		return nil, errors.New("no mini-batch to record a step on")
	}
	b = b.shaped(m.Seq.Input())
	if err := m.CheckBatch(b.X, b.Y); err != nil {
		return nil, err
	}
	ps := m.Seq.Params()
	r := &Recording{Modes: modes, ParamNodes: make([]int, len(ps))}
	var mk marks
	prog := stepProgram(m, modes, seed, &mk)
	in := make([]op.Value, 0, 2+len(ps))
	if !modes.Compiled {
		s := autograd.NewSession()
		in = append(in, s.Leaf(b.X, "x", autograd.Input, xGrad), s.Input(b.Y, "y"))
		for i, p := range ps {
			if p.Buffer {
				in = append(in, s.Buffer(m.Params[i], p.Name))
			} else {
				in = append(in, s.Param(m.Params[i], p.Name))
			}
		}
		loss := prog(s, in)
		if err := s.Err(); err != nil {
			return nil, err
		}
		r.Tape, r.Loss = s.Tape(), int(loss)
	} else {
		g := graph.NewBuilder()
		in = append(in, g.Input("x", b.X.Shape), g.Input("y", b.Y.Shape))
		vals := []*tensor.Tensor{b.X, b.Y}
		for i, p := range ps {
			if p.Buffer {
				in = append(in, g.Buffer(p.Name, p.Shape))
			} else {
				in = append(in, g.Param(p.Name, p.Shape))
			}
			vals = append(vals, m.Params[i])
		}
		loss := prog(g, in)
		gr, err := g.Graph()
		if err != nil {
			return nil, err
		}
		c, err := graph.CompileChecked(gr, vals)
		if err != nil {
			return nil, err
		}
		r.Graph, r.Compiled, r.Tape, r.Loss, r.leaves = gr, c, c.Tape(), int(loss), vals
	}
	r.Pred, r.Metric, r.Data = int(mk.pred), int(mk.metric), int(mk.data)
	for i := range ps {
		r.ParamNodes[i] = int(in[2+i])
	}
	return r, nil
}

// shaped views the batch's inputs as [n, input...] when a row holds
// exactly the model input's number of values (a dataset's 64 pixels for an
// image model's [1 8 8]); otherwise it is returned as it is.
func (b Batch) shaped(input tensor.Shape) Batch {
	x := b.X
	if len(x.Shape) == 2 && !x.Shape[1:].Equal(input) && x.Shape[1] == input.Size() {
		b.X = &tensor.Tensor{Shape: append(tensor.Shape{x.Shape[0]}, input...), Data: x.Data}
	}
	return b
}

// MiniBatch takes the first n examples of a dataset given as rows x
// [m features] and y [m targets] as a batch for a model of loss l: targets
// are class indices [n] for cross_entropy and rows [n targets] otherwise.
func MiniBatch(x, y *tensor.Tensor, n int, l nn.Loss) (Batch, error) {
	if x == nil || y == nil || x.Shape.Rank() != 2 || y.Shape.Rank() < 1 || x.Shape[0] != y.Shape[0] {
		return Batch{}, errors.New("the dataset's inputs and targets do not have one row per example")
	}
	n = min(n, x.Shape[0])
	if n < 1 {
		return Batch{}, errors.New("the dataset is empty")
	}
	fx, fy := x.Shape[1], len(y.Data)/y.Shape[0]
	bx, err := tensor.New(tensor.Shape{n, fx}, append([]float64(nil), x.Data[:n*fx]...))
	if err != nil {
		return Batch{}, err
	}
	shape := tensor.Shape{n, fy}
	if l == nn.CrossEntropy && fy == 1 {
		shape = tensor.Shape{n}
	}
	by, err := tensor.New(shape, append([]float64(nil), y.Data[:n*fy]...))
	if err != nil {
		return Batch{}, err
	}
	return Batch{X: bx, Y: by}, nil
}
