package train_test

import (
	"encoding/json"
	"math"
	"os"
	"strings"
	"testing"

	"tapelab/engine/nn"
	"tapelab/engine/nn/nntest"
	"tapelab/engine/tensor"
	"tapelab/engine/train"
)

// TestOptimizersMatchTorch replays torch.optim trajectories
// (testdata/torch_optim.py): SGD, SGD with momentum and Adam, with and
// without weight decay, 4 steps each.
func TestOptimizersMatchTorch(t *testing.T) {
	data, err := os.ReadFile("testdata/optim_golden.json")
	if err != nil {
		t.Fatal(err)
	}
	var g struct {
		Init map[string]any
		X, Y [][]float64
		Runs []struct {
			Settings struct {
				Name              string
				LR, Momentum, Eps float64
				WeightDecay       float64 `json:"weight_decay"`
				Betas             []float64
			}
			Steps []map[string]any
		}
	}
	if err := json.Unmarshal(data, &g); err != nil {
		t.Fatal(err)
	}
	for _, run := range g.Runs {
		s := run.Settings
		c := train.DefaultOptimizer(s.Name)
		c.LR, c.WeightDecay = s.LR, s.WeightDecay
		if s.Momentum != 0 {
			c.Momentum = s.Momentum
		}
		if s.Eps != 0 {
			c.Eps = s.Eps
		}
		if len(s.Betas) == 2 {
			c.Betas = [2]float64{s.Betas[0], s.Betas[1]}
		}
		t.Run(s.Name, func(t *testing.T) {
			seq, err := nn.NewSeq(tensor.Shape{3}, nn.NewLinear(4), nn.Tanh{}, nn.NewLinear(2))
			if err != nil {
				t.Fatal(err)
			}
			m, _ := nn.NewModel(seq, nn.MSE, 0, nn.InitPyTorch)
			for k, v := range g.Init {
				i := m.Index(k)
				copy(m.Params[i].Data, nntest.Flat(v))
			}
			opt, err := train.NewOptimizer(c)
			if err != nil {
				t.Fatal(err)
			}
			// per is stepped one tensor at a time on a copy of the
			// weights, each tensor's step taken, undone with SetState and
			// taken again: its bits must be the whole Step's.
			per, _ := train.NewOptimizer(c)
			perW := make([]*tensor.Tensor, len(m.Params))
			for i, w := range m.Params {
				perW[i] = w.Clone()
			}
			p := nn.NewPass(m)
			grads := make([]*tensor.Tensor, len(m.Params))
			for step, want := range run.Steps {
				if err := p.Forward(tensor.Matrix(g.X), tensor.Matrix(g.Y), nn.Train, 0); err != nil {
					t.Fatal(err)
				}
				if err := p.Backward(); err != nil {
					t.Fatal(err)
				}
				for i := range grads {
					grads[i] = p.Grad(i)
				}
				opt.Step(m.Params, grads)
				for i, w := range perW {
					st, old := per.State(), w.Clone()
					per.StepTensor(i, len(perW), w, grads[i])
					per.SetState(st)
					copy(w.Data, old.Data)
					per.StepTensor(i, len(perW), w, grads[i])
				}
				for i, w := range perW {
					if !tensor.Identical(w, m.Params[i]) {
						t.Fatalf("step %d: tensor %d stepped alone %v, by Step %v", step+1, i, w.Data, m.Params[i].Data)
					}
				}
				for k, v := range want {
					w := nntest.Flat(v)
					for j, got := range m.Params[m.Index(k)].Data {
						if math.Abs(got-w[j]) > 1e-12*math.Max(1, math.Abs(w[j])) {
							t.Fatalf("%+v step %d: %s[%d] = %v, torch %v", c, step+1, k, j, got, w[j])
						}
					}
				}
			}
		})
	}
}

func TestRuleShowsTheNumbers(t *testing.T) {
	adam := train.DefaultOptimizer("adam")
	adam.Betas, adam.Eps, adam.WeightDecay = [2]float64{0.5, 0.9}, 1e-6, 0.1
	tests := []struct {
		c    train.OptimizerConfig
		e    train.Elem
		want []string
	}{
		{train.DefaultOptimizer("sgd"), train.Elem{W: 0.5, G: 2, New: 0.44, T: 1},
			[]string{"w ← w − η·g = 0.5 − 0.03·2 = 0.44"}},
		{train.OptimizerConfig{Name: "sgd", LR: 0.1, WeightDecay: 0.5}, train.Elem{W: 1, G: 2, New: 0.75, T: 1},
			[]string{"w ← w − η·(g + λ·w) = 1 − 0.1·(2 + 0.5·1) = 0.75"}},
		{train.DefaultOptimizer("momentum"), train.Elem{W: 1, G: 2, After: []float64{2}, New: 0.94, T: 1},
			[]string{"b ← g = 2 (the first step)", "w ← w − η·b = 1 − 0.03·2 = 0.94"}},
		{train.OptimizerConfig{Name: "momentum", LR: 0.03, Momentum: 0.9, WeightDecay: 0.5}, train.Elem{W: 1, G: 0.5, Before: []float64{2}, After: []float64{2.8}, New: 0.916, T: 2},
			[]string{"d = g + λ·w = 0.5 + 0.5·1 = 1", "b ← μ·b + d = 0.9·2 + 1 = 2.8", "w ← w − η·b = 1 − 0.03·2.8 = 0.916"}},
		{train.DefaultOptimizer("momentum"), train.Elem{W: 1, G: 1, Before: []float64{2}, After: []float64{2.8}, New: 0.916, T: 2},
			[]string{"b ← μ·b + g = 0.9·2 + 1 = 2.8", "w ← w − η·b = 1 − 0.03·2.8 = 0.916"}},
		{train.DefaultOptimizer("sgd"), train.Elem{W: -0.5, G: -2, New: -0.44, T: 1},
			[]string{"w ← w − η·g = -0.5 − 0.03·(-2) = -0.44"}},
		{adam, train.Elem{W: 1, G: 0.9, Before: []float64{1, 2}, After: []float64{1, 0.3}, New: 0.5, T: 2},
			[]string{"g ← g + λ·w = 0.9 + 0.1·1 = 1",
				"m ← β₁m + (1−β₁)g = 0.5·1 + 0.5·1 = 1",
				"v ← β₂v + (1−β₂)g² = 0.9·2 + 0.1·1² = 0.3",
				"m̂ = m/(1−β₁ᵗ) = 1/(1−0.5^2) = 1.33333",
				"v̂ = v/(1−β₂ᵗ) = 0.3/(1−0.9^2) = 1.57895",
				"w ← w − η·m̂/(√v̂ + ε) = 1 − 0.001·1.33333/(√1.57895 + 1e-06) = 0.5"}},
	}
	for _, tc := range tests {
		got := strings.Split(tc.c.Rule(tc.e), "\n")
		if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
			t.Errorf("%s: got\n%s\nwant\n%s", tc.c.Name, strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
		}
	}
	sgd := train.DefaultOptimizer("sgd")
	if v, f := sgd.FirstOrder(5, 1); v != -0.03*5 || f != "−η·‖g‖²" {
		t.Errorf("sgd's first-order change %v %q", v, f)
	}
	if v, f := adam.FirstOrder(5, -0.25); v != -0.25 || f != "g·Δw" {
		t.Errorf("adam's first-order change %v %q", v, f)
	}
}

func TestOptimizerSettings(t *testing.T) {
	tests := []struct {
		mut  func(*train.OptimizerConfig)
		want string
	}{
		{func(c *train.OptimizerConfig) { c.Name = "lbfgs" }, `name: unknown optimizer "lbfgs" (want sgd, momentum, adam)`},
		{func(c *train.OptimizerConfig) { c.LR = math.Inf(1) }, "lr: must be a finite number > 0"},
		{func(c *train.OptimizerConfig) { c.Momentum = 1 }, "momentum: must be in [0, 1)"},
		{func(c *train.OptimizerConfig) { c.Betas[0] = -0.1 }, "betas[0]: must be in [0, 1)"},
		{func(c *train.OptimizerConfig) { c.Eps = 0 }, "eps: must be a finite number > 0"},
		{func(c *train.OptimizerConfig) { c.WeightDecay = math.NaN() }, "weight_decay: must be a finite number ≥ 0"},
	}
	for _, tc := range tests {
		c := train.DefaultOptimizer("adam")
		tc.mut(&c)
		if _, err := train.NewOptimizer(c); err == nil || err.Error() != tc.want {
			t.Errorf("err = %v, want %s", err, tc.want)
		}
	}
	if c := train.DefaultOptimizer("momentum"); c.Momentum != 0.9 || c.LR != 0.03 {
		t.Errorf("momentum defaults %+v", c)
	}
	if c := train.DefaultOptimizer("adam"); c.LR != 0.001 || c.Betas != [2]float64{0.9, 0.999} || c.Eps != 1e-8 {
		t.Errorf("adam defaults %+v", c)
	}
}
