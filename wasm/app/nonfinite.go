package app

import (
	"tapelab/engine/autograd"
	"tapelab/engine/op"
	"tapelab/engine/tensor"
)

// Format is the floating-point format the stepper's values are held in,
// as its reasons for a NaN or ∞ quote it (a float32 switch plugs in here).
var Format = op.Float64

// faults is what a stepper knows of the NaN and ∞ its steps made: per
// node, the first non-finite element of its value and of its VJP's
// contributions (0: none; the check runs on the step's event, so a node
// is scanned once per step), the first node of each pass that made one,
// and whether the last step was that node.
type faults struct {
	val, grad []float64
	first     [2]int // forward, backward; -1: none yet
	stop      bool
}

func (f *faults) reset(n int) {
	f.val, f.grad = make([]float64, n), make([]float64, n)
	f.first, f.stop = [2]int{-1, -1}, false
}

// saw notes step e of the stepper: a forward value or a VJP's
// contributions holding NaN or ∞, or a step taken back.
func (f *faults) saw(e autograd.Event) {
	i, pass := e.Node, 0
	if i < 0 || i >= len(f.val) {
		return
	}
	v := 0.0
	switch e.Kind {
	case autograd.EventForward:
		v = firstBad(e.Value)
		f.val[i] = v
	case autograd.EventBackward:
		for _, c := range e.Contribs {
			if v = firstBad(c.Value); v != 0 {
				break
			}
		}
		f.grad[i], pass = v, 1
	case autograd.EventUndoForward:
		f.val[i] = 0
	case autograd.EventUndoBackward:
		f.grad[i], pass = 0, 1
	}
	switch {
	case v != 0 && f.first[pass] < 0:
		f.first[pass], f.stop = i, true
	case v == 0 && f.first[pass] == i:
		f.first[pass] = -1
	}
}

// firstBad returns t's first NaN or infinite element, or 0 when there is none.
func firstBad(t *tensor.Tensor) float64 {
	if t == nil {
		return 0
	}
	if e := op.FirstNonFinite(t); e >= 0 {
		return t.Data[e]
	}
	return 0
}

// state adds node i's flags: NonFinite, and FirstNonFinite for the first
// node of a pass that made a NaN or ∞.
func (f *faults) state(i int) State {
	var st State
	if f.val[i] != 0 || f.grad[i] != 0 {
		st |= NonFinite
	}
	if f.first[0] == i || f.first[1] == i {
		st |= FirstNonFinite
	}
	return st
}

// Bad returns the first NaN or infinite element of node i's value, else
// of its VJP step's contributions, or 0 when the steps so far made none.
func (s *Stepper) Bad(i int) float64 {
	if i < 0 || i >= len(s.nan.val) {
		return 0
	}
	if v := s.nan.val[i]; v != 0 {
		return v
	}
	return s.nan.grad[i]
}

// Faults explains node i's NaN or ∞: its value's first non-finite
// element and its VJP step's, each with its reason (autograd.Fault), in
// that order; nil when its steps so far made none.
func (s *Stepper) Faults(i int) []autograd.Fault {
	var out []autograd.Fault
	if s.Bad(i) == 0 {
		return nil
	}
	if s.nan.val[i] != 0 {
		if f, ok := s.tape.ForwardFault(i, Format); ok {
			out = append(out, f)
		}
	}
	if s.nan.grad[i] != 0 {
		if f, ok := s.tape.BackwardFault(i, s.cur.Grad(i), s.steps[i], Format); ok {
			out = append(out, f)
		}
	}
	return out
}

// Stopped reports whether the last step made the first NaN or ∞ of its
// pass (forward or backward): where playing stops.
func (s *Stepper) Stopped() bool { return s.nan.stop }

// ToFault steps until a step makes the first NaN or ∞ of its pass and
// reports true there; with none on the tape it goes back to the start
// and reports false.
func (s *Stepper) ToFault() bool {
	for {
		if _, ok := s.Step(); !ok {
			s.Reset()
			return false
		}
		if s.Stopped() {
			return true
		}
	}
}

// NaNMark is node i's badge for its NaN or ∞ (Bad), for the tape and its
// text list: "!−∞" on the first node of its pass, "NaN" on the nodes it
// spread to, "" on a finite node.
func (s *Stepper) NaNMark(i int) string {
	v := s.Bad(i)
	if v == 0 {
		return ""
	}
	if s.nan.state(i).Has(FirstNonFinite) {
		return "!" + NumInf(v)
	}
	return NumInf(v)
}

// NumInf formats v as the reasons for a NaN or ∞ quote values, ∞ as ∞
// (op.Num).
func NumInf(v float64) string { return op.Num(v) }
