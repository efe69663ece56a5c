package app

import (
	"errors"
	"slices"
	"strconv"

	"tapelab/engine/autograd"
	"tapelab/engine/tensor"
	"tapelab/engine/train"
)

// Update is the stepper's update phase: after the backward pass, the
// optimizer's step one parameter tensor at a time (the tape's parameter
// leaves that take a gradient, in id order: model.parameters() order),
// written into the leaves, then the next forward, which evaluates the same
// batch again with the new weights. The optimizer's state carries from one
// phase to the next, as a training loop's does; each step can be taken
// back exactly.
type Update struct {
	cfg    train.OptimizerConfig
	opt    train.Optimizer
	params []int                  // the parameter leaves, in id order
	n      int                    // tensors updated in this phase
	before [][]float64            // per tensor: its weights at the start of the phase
	grads  []*tensor.Tensor       // the gradients the phase uses (taken by its first step)
	states []train.OptimizerState // states[k]: the optimizer's state before tensor k's step
	phases int                    // the phases done
	last   *NextForward           // what the last next forward found
}

// NextForward is what the forward pass after an update phase found: the
// loss before and after the update (summed over the output's elements),
// the first-order prediction of the change and its formula.
type NextForward struct {
	Phase     int // update phases done, this one included
	Old, New  float64
	Predicted float64
	Formula   string
}

// errNoUpdate is SetOptimizer's error for a stepper that cannot update.
var errNoUpdate = errors.New("the update phase needs the dense pass (the single-output pass cannot evaluate the new weights)")

// SetOptimizer gives the stepper the optimizer of its update phase. The
// same settings keep the optimizer and its state; new ones take back an
// unfinished phase and start from a fresh state. The single-output pass
// has no update phase (an error).
func (s *Stepper) SetOptimizer(c train.OptimizerConfig) error {
	if !s.dense {
		return errNoUpdate
	}
	if s.upd != nil && s.upd.cfg == c {
		return nil
	}
	opt, err := train.NewOptimizer(c)
	if err != nil {
		return err
	}
	s.upd.rewind(s)
	u := &Update{cfg: c, opt: opt}
	for i := range s.tape.Len() {
		if nd := s.tape.Node(i); nd.Op == nil && nd.Kind == autograd.Param && nd.RequiresGrad {
			u.params = append(u.params, i)
		}
	}
	s.upd = u
	return nil
}

// Optimizer returns the update phase's settings, and false when the
// stepper has none.
func (s *Stepper) Optimizer() (train.OptimizerConfig, bool) {
	if s.upd == nil {
		return train.OptimizerConfig{}, false
	}
	return s.upd.cfg, true
}

// Updating reports whether the stepper is in its update phase: the
// backward pass is done and an optimizer is set. Update and UnUpdate move
// it.
func (s *Stepper) Updating() bool {
	return s.upd != nil && s.cur.Position().Phase == autograd.PhaseDone
}

// UpdateCounts reports the tensors updated in this phase and how many
// there are (update n/P), and the phases done before it.
func (s *Stepper) UpdateCounts() (n, total, phases int) {
	if s.upd == nil {
		return 0, 0, 0
	}
	return s.upd.n, len(s.upd.params), s.upd.phases
}

// Params lists the parameter leaves the update phase steps, in order.
func (s *Stepper) Params() []int {
	if s.upd == nil {
		return nil
	}
	return s.upd.params
}

// Update takes the update phase's next step: the optimizer's step of the
// next parameter tensor, or, once every tensor is updated, the next
// forward (the cursor evaluates the batch again with the new weights and
// stops before the first VJP). It reports false outside the update phase.
func (s *Stepper) Update() bool {
	u := s.upd
	if !s.Updating() {
		return false
	}
	if u.n == 0 {
		u.before = make([][]float64, len(u.params))
		u.grads = make([]*tensor.Tensor, len(u.params))
		u.states = u.states[:0]
		for k, i := range u.params {
			u.before[k] = slices.Clone(s.tape.Node(i).Value.Data)
			if g := s.cur.Grad(i); g != nil {
				u.grads[k] = g.Clone()
			}
		}
	}
	if u.n < len(u.params) {
		u.states = append(u.states, u.opt.State())
		u.opt.StepTensor(u.n, len(u.params), s.tape.Node(u.params[u.n]).Value, u.grads[u.n])
		u.n++
		s.focus = u.params[u.n-1]
		return true
	}
	u.phases++
	nf := &NextForward{Phase: u.phases, Old: s.loss()}
	var gg, gd float64
	for k, i := range u.params {
		if g := u.grads[k]; g != nil {
			for j, w := range s.tape.Node(i).Value.Data {
				gg += g.Data[j] * g.Data[j]
				gd += g.Data[j] * (w - u.before[k][j])
			}
		}
	}
	nf.Predicted, nf.Formula = u.cfg.FirstOrder(gg, gd)
	u.n, u.before, u.grads, u.last = 0, nil, nil, nf
	s.resetCursor()
	s.ForwardToEnd()
	nf.New = s.loss()
	s.focus = s.Output()
	return true
}

// UnUpdate takes back the update phase's last step, a tensor's update:
// its weights and the optimizer's state as they were, bit for bit. It
// reports false when there is no update to take back (a next forward is
// not: ← then steps back through the forward pass it ran).
func (s *Stepper) UnUpdate() bool {
	u := s.upd
	if u == nil {
		return false
	}
	if s.Updating() && u.n > 0 {
		u.n--
		copy(s.tape.Node(u.params[u.n]).Value.Data, u.before[u.n])
		u.opt.SetState(u.states[u.n])
		u.states = u.states[:u.n]
		s.focus = u.params[u.n]
		if u.n > 0 {
			s.focus = u.params[u.n-1]
		}
		return true
	}
	return false
}

// Before returns parameter leaf i's weights before the update phase's
// step of it, while that step has been taken in this phase; else nil.
func (s *Stepper) Before(i int) []float64 {
	if u := s.upd; u != nil && s.Updating() {
		if k := slices.Index(u.params, i); k >= 0 && k < u.n {
			return u.before[k]
		}
	}
	return nil
}

// LastForward returns what the last next forward found, or nil.
func (s *Stepper) LastForward() *NextForward {
	if s.upd == nil {
		return nil
	}
	return s.upd.last
}

// OptimizerState returns a copy of the update phase's optimizer state:
// after the steps taken, the buffers per parameter tensor and the steps
// counted.
func (s *Stepper) OptimizerState() train.OptimizerState {
	if s.upd == nil {
		return train.OptimizerState{}
	}
	return s.upd.opt.State()
}

// Rule is the update rule of the last step of parameter leaf i in this
// phase for its element k, with the real numbers (train's Rule); "" when
// that step has not been taken.
func (s *Stepper) Rule(i, k int) string {
	u := s.upd
	before := s.Before(i)
	if before == nil || k < 0 || k >= len(before) {
		return ""
	}
	j := slices.Index(u.params, i)
	e := train.Elem{W: before[k], New: s.tape.Node(i).Value.Data[k]}
	if g := u.grads[j]; g != nil {
		e.G = g.Data[k]
	}
	pre, post := u.states[j], u.opt.State()
	e.T = post.Steps[j]
	if j+1 < len(u.states) {
		post = u.states[j+1]
	}
	e.Before, e.After = elemBufs(pre, j, k), elemBufs(post, j, k)
	return u.cfg.Rule(e)
}

// elemBufs is element k of tensor j's buffers in st, nil before its first
// step.
func elemBufs(st train.OptimizerState, j, k int) []float64 {
	var out []float64
	for _, b := range st.Buffers {
		if j >= len(b) || b[j] == nil {
			return nil
		}
		out = append(out, b[j][k])
	}
	return out
}

// PhaseWeights returns parameter leaf i's weights as this update phase
// started: before its step in the phase, else as they are.
func (s *Stepper) PhaseWeights(i int) []float64 {
	if b := s.Before(i); b != nil {
		return b
	}
	return s.tape.Node(i).Value.Data
}

// PhaseState returns the optimizer's state as this update phase started
// and the tensors it has updated; ok is false while the optimizer has
// taken no step (a fresh state, nothing to carry).
func (s *Stepper) PhaseState() (st train.OptimizerState, n int, ok bool) {
	u := s.upd
	if u == nil {
		return st, 0, false
	}
	if u.n > 0 {
		return u.states[0].Clone(), u.n, true
	}
	st = u.opt.State()
	for _, k := range st.Steps {
		ok = ok || k > 0
	}
	return st, 0, ok
}

// Resume makes st the optimizer's state (a PhaseState) and, at the end of
// the backward pass, takes n update steps, as a link reopens an update
// phase. A state that does not fit the parameters is an error, and
// nothing changes; a fresh optimizer's (no steps, each buffer empty: the
// first phase's start) fits any.
func (s *Stepper) Resume(st train.OptimizerState, n int) error {
	u := s.upd
	if u == nil {
		return errNoUpdate
	}
	p := len(u.params)
	fresh := len(st.Steps) == 0
	for _, b := range st.Buffers {
		fresh = fresh && len(b) == 0
	}
	bad := !fresh && len(st.Steps) != p || len(st.Buffers) != len(train.BufferNames(u.cfg.Name)) || n < 0 || n > p || n > 0 && !s.Updating()
	for _, b := range st.Buffers {
		bad = bad || !fresh && len(b) != p
		for k := 0; !bad && k < len(b); k++ {
			bad = len(b[k]) != 0 && len(b[k]) != len(s.tape.Node(u.params[k]).Value.Data)
			if len(b[k]) == 0 {
				b[k] = nil
			}
		}
	}
	for _, k := range st.Steps {
		bad = bad || k < 0
	}
	if bad {
		return errors.New("update: the optimizer's state or position does not fit the " + strconv.Itoa(p) + " parameters of the tape")
	}
	u.opt.SetState(st)
	for range n {
		s.Update()
	}
	return nil
}

// rewind takes back an unfinished update phase (u may be nil).
func (u *Update) rewind(s *Stepper) {
	for u != nil && u.n > 0 && s.UnUpdate() {
	}
}

// resetCursor resets the cursor and forgets the steps' contributions.
func (s *Stepper) resetCursor() {
	s.cur.Reset()
	clear(s.steps)
	clear(s.fed)
}

// loss is the sum of the output's elements (its value for a scalar loss).
func (s *Stepper) loss() float64 {
	v := s.Value(s.Output())
	if v == nil {
		return 0
	}
	sum := 0.0
	for _, x := range v.Data {
		sum += x
	}
	return sum
}
