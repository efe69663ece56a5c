package train_test

import (
	"encoding/json"
	"math"
	"os"
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
