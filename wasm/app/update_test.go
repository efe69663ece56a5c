package app

import (
	"reflect"
	"slices"
	"testing"

	"tapelab/engine/autograd"
	"tapelab/engine/tensor"
	"tapelab/engine/train"
)

// TestUpdatePhaseIsTheTrainingStep steps K update phases one tensor at a
// time, with a step back and forth at each, and checks the weights on the
// tape against optimizer steps on one-shot gradients of fresh recordings,
// bit for bit, for SGD, momentum and Adam with weight decay.
func TestUpdatePhaseIsTheTrainingStep(t *testing.T) {
	adam := train.DefaultOptimizer("adam")
	adam.LR, adam.Betas, adam.Eps, adam.WeightDecay = 0.03, [2]float64{0.5, 0.9}, 1e-6, 0.05
	mom := train.DefaultOptimizer("momentum")
	mom.WeightDecay = 0.1
	sgd := train.DefaultOptimizer("sgd")
	sgd.WeightDecay = 0.01
	for _, c := range []train.OptimizerConfig{sgd, mom, adam} {
		for _, modes := range []Modes{{}, {Compiled: true}} {
			p := newTestPlayground(t, modes)
			ref := p.Model().Clone()
			opt, _ := train.NewOptimizer(c)
			s := p.Stepper()
			if err := s.SetOptimizer(c); err != nil {
				t.Fatal(err)
			}
			params := s.Params()
			if len(params) != len(ref.Params) {
				t.Fatalf("%d parameter leaves, the model has %d", len(params), len(ref.Params))
			}
			var oldLoss float64
			for phase := 1; phase <= 3; phase++ {
				r, err := Record(ref, p.Batch(), Modes{}, p.seed)
				if err != nil {
					t.Fatal(err)
				}
				var g autograd.Grads
				if err := r.Tape.BackwardDense(r.Loss, tensor.Scalar(1), &g); err != nil {
					t.Fatal(err)
				}
				grads := make([]*tensor.Tensor, len(ref.Params))
				for i, n := range r.ParamNodes {
					grads[i] = g.Of(n)
				}
				opt.Step(ref.Params, grads)
				s.ToEnd()
				if phase > 1 && s.LastForward().New != s.loss() {
					t.Fatalf("the next forward's loss %v, the tape's %v", s.LastForward().New, s.loss())
				}
				oldLoss = s.loss()
				for k := range params {
					if !s.Update() {
						t.Fatalf("no update of tensor %d", k)
					}
					if n, total, done := s.UpdateCounts(); n != k+1 || total != len(params) || done != phase-1 {
						t.Fatalf("counts %d/%d, %d phases", n, total, done)
					}
					// back and again: the same bits
					if !s.UnUpdate() || !s.Update() {
						t.Fatal("no step back and again")
					}
					if s.Rule(params[k], 0) == "" {
						t.Fatalf("no rule for tensor %d", k)
					}
				}
				for k, i := range params {
					if !tensor.Identical(s.Tape().Node(i).Value, ref.Params[k]) {
						t.Fatalf("%s %+v phase %d: tensor %d is %v, the optimizer's %v", c.Name, modes, phase, k, s.Tape().Node(i).Value.Data, ref.Params[k].Data)
					}
				}
				if !s.Update() { // next forward
					t.Fatal("no next forward")
				}
				nf := s.LastForward()
				if nf.Old != oldLoss || nf.Phase != phase || nf.New == nf.Old || nf.Predicted == 0 {
					t.Fatalf("next forward %+v (old loss %v)", nf, oldLoss)
				}
				if c := s.Counts(); c.Forward != c.ForwardTotal || c.Backward != 0 {
					t.Fatalf("after the next forward the counters are %+v", c)
				}
				if s.UnUpdate() {
					t.Fatal("a next forward was taken back as an update")
				}
				st := s.OptimizerState()
				if st.Steps[0] != phase {
					t.Fatalf("optimizer steps %v", st.Steps)
				}
			}
		}
	}
}

func TestUpdateRewindsOnReset(t *testing.T) {
	p := newTestPlayground(t, Modes{})
	s := p.Stepper()
	if err := s.SetOptimizer(train.DefaultOptimizer("adam")); err != nil {
		t.Fatal(err)
	}
	w := s.Tape().Node(s.Params()[0]).Value.Clone()
	s.ToEnd()
	if !s.Update() || tensor.Identical(w, s.Tape().Node(s.Params()[0]).Value) {
		t.Fatal("the first tensor did not change")
	}
	s.Reset()
	if !tensor.Identical(w, s.Tape().Node(s.Params()[0]).Value) {
		t.Error("Reset kept an unfinished update phase's weights")
	}
	if ps := newTestPlayground(t, Modes{Single: true}); ps.Stepper().SetOptimizer(train.DefaultOptimizer("sgd")) == nil {
		t.Error("the single-output pass took an optimizer")
	}
}

// TestProgramUpdatePhase steps a program's update phase: SGD moves each
// param(...) leaf by −η·g, and the next forward evaluates the program on
// the new values.
func TestProgramUpdatePhase(t *testing.T) {
	p, err := NewProgramPlayground("a = param(2.0)\nb = param(-1.0)\ny = a * a + a * b\n")
	if err != nil {
		t.Fatal(err)
	}
	s := p.Stepper()
	if err := s.SetOptimizer(train.OptimizerConfig{Name: "sgd", LR: 0.1, Betas: [2]float64{0.9, 0.999}, Eps: 1e-8}); err != nil {
		t.Fatal(err)
	}
	s.ToEnd()
	if len(s.Params()) != 2 {
		t.Fatalf("parameters %v, want a and b", s.Params())
	}
	for s.Update() && s.Updating() {
	}
	// dy/da = 2a + b = 3, dy/db = a = 2: a = 2 − 0.3, b = −1 − 0.2
	a, b := s.Value(s.Params()[0]).Data[0], s.Value(s.Params()[1]).Data[0]
	if a != 2-0.1*3 || b != -1-0.1*2 {
		t.Fatalf("a = %v, b = %v", a, b)
	}
	nf := s.LastForward()
	if nf == nil || nf.Old != 2 || nf.New != a*a+a*b || nf.Predicted != -0.1*13 || nf.Formula != "−η·‖g‖²" {
		t.Fatalf("the next forward %+v", nf)
	}
}

// TestProgramParams: a program's weights are the text's until an update
// phase moves them (Params is nil until then); mid-phase they are those
// the phase started from; SetParams puts them on a fresh recording,
// whose stepper then steps the same values, and refuses a name that is
// not a param and a row of the wrong size, changing nothing.
func TestProgramParams(t *testing.T) {
	src := "x = input(3.0)\na = param([2.0, 0.5])\nb = param(-1.0)\ny = sum(a * a * x) + b * sum(a)\n"
	p, err := NewProgramPlayground(src)
	if err != nil {
		t.Fatal(err)
	}
	s := p.Stepper()
	if err := s.SetOptimizer(train.DefaultOptimizer("adam")); err != nil {
		t.Fatal(err)
	}
	s.ToEnd()
	s.Update()
	if w := p.Params(); w != nil {
		t.Fatalf("mid first phase, the weights are the text's, but Params = %v", w)
	}
	for s.Update() && s.Updating() {
	}
	s.ToEnd()
	s.Update() // a updated in the second phase, b not yet
	w := p.Params()
	if len(w) != 2 || !slices.Equal(w["a"], s.Before(1)) || w["b"][0] != s.Value(2).Data[0] || w["b"][0] == -1 {
		t.Fatalf("Params = %v; a before its step %v, b %v", w, s.Before(1), s.Value(2).Data)
	}
	q, err := NewProgramPlayground(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range []map[string][]float64{{"x": {1}}, {"a": {1}}} {
		if err := q.SetParams(bad); err == nil {
			t.Errorf("SetParams(%v) took it", bad)
		}
	}
	if q.Params() != nil {
		t.Fatalf("a refused SetParams changed the weights: %v", q.Params())
	}
	if err := q.SetParams(w); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(q.Params(), w) {
		t.Fatalf("after SetParams, Params = %v, want %v", q.Params(), w)
	}
	s.UnUpdate()
	s.Reset()
	r := q.Stepper()
	s.ToEnd()
	r.ToEnd()
	if a, b := TapeText(s), TapeText(r); a != b {
		t.Errorf("the program with the set weights steps\n%s\nwant\n%s", b, a)
	}
}

// TestResumeFreshState: the state a fresh optimizer gives (no steps, empty
// buffers), which a link shared in the first update phase carries, resumes
// on any tape; a state of the wrong size does not.
func TestResumeFreshState(t *testing.T) {
	for _, name := range train.OptimizerNames() {
		p, err := NewProgramPlayground("a = param(2.0)\nb = param(-1.0)\ny = a * a + a * b\n")
		if err != nil {
			t.Fatal(err)
		}
		s := p.Stepper()
		if err := s.SetOptimizer(train.DefaultOptimizer(name)); err != nil {
			t.Fatal(err)
		}
		s.ToEnd()
		fresh := s.OptimizerState()
		if err := s.Resume(fresh, 1); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if n, _, _ := s.UpdateCounts(); n != 1 {
			t.Fatalf("%s: resumed at update %d", name, n)
		}
		bad := train.OptimizerState{Steps: []int{1}, Buffers: fresh.Buffers}
		if err := s.Resume(bad, 0); err == nil {
			t.Errorf("%s: Resume took steps for 1 of 2 tensors", name)
		}
	}
}
