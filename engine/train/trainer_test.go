package train_test

import (
	"math"
	"testing"

	"tapelab/engine/nn"
	"tapelab/engine/spec"
	"tapelab/engine/tensor"
	"tapelab/engine/train"
)

// fromSpec decodes a model document and returns the built model, its
// generated train and test sets and a trainer configured by the document.
func fromSpec(t *testing.T, doc string) (*train.Trainer, *train.Dataset, *train.Dataset) {
	t.Helper()
	sm, err := spec.Decode([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	m, err := sm.Build()
	if err != nil {
		t.Fatal(err)
	}
	tr, te, err := train.Generate(sm.Dataset)
	if err != nil {
		t.Fatal(err)
	}
	trainer, err := train.NewTrainer(m, tr, sm.Optimizer, sm.BatchSize, sm.Seed)
	if err != nil {
		t.Fatal(err)
	}
	return trainer, tr, te
}

// TestTrainingLearns trains playground-sized models on generated sets and
// checks the test metrics a working loop must reach.
func TestTrainingLearns(t *testing.T) {
	tests := []struct {
		name, doc string
		steps     int
		minAcc    float64 // on the test set; NaN: regression
		maxLoss   float64
	}{
		{"circle bce adam", `{"version":1,"input":[2],"layers":[{"type":"linear","out":8},{"type":"tanh"},{"type":"linear","out":8},{"type":"tanh"},{"type":"linear","out":1}],
			"loss":"bce_with_logits","seed":1,"dataset":{"name":"circle","noise":0.05},"optimizer":{"name":"adam","lr":0.03}}`, 800, 0.95, 0.2},
		{"xor ce momentum", `{"version":1,"input":[2],"layers":[{"type":"linear","out":8},{"type":"relu"},{"type":"linear","out":2}],
			"loss":"cross_entropy","seed":2,"dataset":{"name":"xor"},"optimizer":{"name":"momentum","lr":0.01},"batch_size":16}`, 1500, 0.93, 0.25},
		{"gauss mse sgd", `{"version":1,"input":[2],"layers":[{"type":"linear","out":4},{"type":"tanh"},{"type":"linear","out":1}],
			"loss":"mse","seed":3,"dataset":{"name":"gauss"},"optimizer":{"lr":0.03}}`, 500, 0.97, 0.05},
		{"moons with dropout and batch norm", `{"version":1,"input":[2],"layers":[{"type":"linear","out":16},{"type":"batch_norm"},{"type":"relu"},{"type":"dropout","p":0.1},{"type":"linear","out":2}],
			"loss":"cross_entropy","seed":4,"dataset":{"name":"moons","noise":0.1},"optimizer":{"name":"adam","lr":0.02},"batch_size":32}`, 800, 0.95, 0.2},
		{"sine regression", `{"version":1,"input":[1],"layers":[{"type":"linear","out":16},{"type":"tanh"},{"type":"linear","out":1}],
			"loss":"mse","seed":5,"dataset":{"name":"sine","n":200},"optimizer":{"name":"adam","lr":0.02}}`, 1500, math.NaN(), 0.01},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tr, trainSet, testSet := fromSpec(t, tc.doc)
			before, err := tr.Evaluate(testSet)
			if err != nil {
				t.Fatal(err)
			}
			for range tc.steps {
				if _, err := tr.Step(); err != nil {
					t.Fatal(err)
				}
			}
			after, err := tr.Evaluate(testSet)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("test loss %.4f → %.4f, accuracy %.3f → %.3f", before.Loss, after.Loss, before.Accuracy, after.Accuracy)
			if !(after.Loss < before.Loss) || after.Loss > tc.maxLoss {
				t.Errorf("test loss %v → %v, want below %v", before.Loss, after.Loss, tc.maxLoss)
			}
			if math.IsNaN(tc.minAcc) != math.IsNaN(after.Accuracy) || after.Accuracy < tc.minAcc {
				t.Errorf("test accuracy %v, want ≥ %v", after.Accuracy, tc.minAcc)
			}
			if tr.Steps() != tc.steps {
				t.Errorf("Steps() = %d", tr.Steps())
			}
			_ = trainSet
		})
	}
}

// TestTrainingIsReproducible: the same document trains to bit-identical
// parameters (shuffle, dropout masks and init all come from the seed).
func TestTrainingIsReproducible(t *testing.T) {
	doc := `{"version":1,"input":[2],"layers":[{"type":"linear","out":6},{"type":"dropout","p":0.3},{"type":"relu"},{"type":"linear","out":2}],
		"loss":"cross_entropy","seed":11,"dataset":{"name":"spiral","noise":0.2},"optimizer":{"name":"adam"}}`
	a, _, _ := fromSpec(t, doc)
	b, _, _ := fromSpec(t, doc)
	for range 100 {
		la, err1 := a.Step()
		lb, err2 := b.Step()
		if err1 != nil || err2 != nil || math.Float64bits(la) != math.Float64bits(lb) {
			t.Fatalf("losses %v %v (%v, %v)", la, lb, err1, err2)
		}
	}
	for i, p := range a.Model().Params {
		if !tensor.Identical(p, b.Model().Params[i]) {
			t.Fatalf("parameter %d differs", i)
		}
	}
}

// TestTrainingStopsOnNaNAndInf: each kind of numeric fault stops training
// with the step and the first layer where it appeared.
func TestTrainingStopsOnNaNAndInf(t *testing.T) {
	model := func(t *testing.T, loss nn.Loss, layers []nn.Layer, params map[string][]float64) *nn.Model {
		seq, err := nn.NewSeq(tensor.Shape{1}, layers...)
		if err != nil {
			t.Fatal(err)
		}
		m, err := nn.NewModel(seq, loss, 0, nn.InitPyTorch)
		if err != nil {
			t.Fatal(err)
		}
		for k, v := range params {
			copy(m.Params[m.Index(k)].Data, v)
		}
		return m
	}
	data := func(x, y float64) *train.Dataset {
		return &train.Dataset{X: tensor.Matrix([][]float64{{x}, {x}}), Y: tensor.Matrix([][]float64{{y}, {y}})}
	}
	lin := nn.Linear{Out: 1}
	sgd := train.DefaultOptimizer("sgd")
	tests := []struct {
		name  string
		m     *nn.Model
		d     *train.Dataset
		opt   train.OptimizerConfig
		step  int
		want  string
		layer int
	}{
		{"output overflows", model(t, nn.MSE, []nn.Layer{nn.NewLinear(1), nn.Tanh{}, lin}, map[string][]float64{"0.weight": {1e308}}),
			data(10, 0), sgd, 1, "step 1: layer 0 (linear): output is +Inf", 0},
		{"NaN in the middle", model(t, nn.MSE, []nn.Layer{lin, lin, nn.Tanh{}, lin}, map[string][]float64{"0.weight": {1e300}, "1.weight": {-1e300}}),
			data(1, 0), sgd, 1, "step 1: layer 1 (linear): output is -Inf", 1},
		{"loss overflows", model(t, nn.MSE, []nn.Layer{lin}, map[string][]float64{"0.weight": {1e200}}),
			data(1, 0), sgd, 1, "step 1: loss (mse) is +Inf although every layer's output is finite", -1},
		{"gradient overflows", model(t, nn.MSE, []nn.Layer{lin, lin, lin}, map[string][]float64{"0.weight": {1e-310}, "1.weight": {1e150}, "2.weight": {1e150}}),
			data(1e10, 0), sgd, 1, "step 1: layer 0 (linear): gradient of 0.weight is +Inf", 0},
		{"update overflows", model(t, nn.MSE, []nn.Layer{lin}, map[string][]float64{"0.weight": {1}}),
			data(1, 0), train.OptimizerConfig{Name: "sgd", LR: 1e308, Betas: [2]float64{0.9, 0.999}, Eps: 1e-8}, 1, "step 1: layer 0 (linear): 0.weight after the update is -Inf", 0},
		{"diverges later", model(t, nn.MSE, []nn.Layer{lin, nn.Tanh{}, lin}, map[string][]float64{"0.weight": {0.5}, "2.weight": {0.5}}),
			data(1, 1e150), train.OptimizerConfig{Name: "sgd", LR: 1e150, Betas: [2]float64{0.9, 0.999}, Eps: 1e-8}, 2, "", -2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tr, err := train.NewTrainer(tc.m, tc.d, tc.opt, 2, 0)
			if err != nil {
				t.Fatal(err)
			}
			var stepErr error
			for i := 0; i < 10 && stepErr == nil; i++ {
				_, stepErr = tr.Step()
			}
			ne, ok := stepErr.(*train.NumericError)
			if !ok {
				t.Fatalf("err = %v (%T), want a *train.NumericError", stepErr, stepErr)
			}
			if ne.Step != tc.step || tc.want != "" && ne.Error() != tc.want || tc.layer != -2 && ne.Layer != tc.layer {
				t.Errorf("err = %v (step %d, layer %d)\nwant  %s (step %d, layer %d)", ne, ne.Step, ne.Layer, tc.want, tc.step, tc.layer)
			}
			t.Log(ne)
		})
	}
}

func TestEvaluateMetrics(t *testing.T) {
	seq, _ := nn.NewSeq(tensor.Shape{2}, nn.Linear{Out: 2})
	m, _ := nn.NewModel(seq, nn.CrossEntropy, 0, nn.InitPyTorch)
	copy(m.Params[0].Data, []float64{1, 0, 0, 1}) // logits = x
	d := &train.Dataset{X: tensor.Matrix([][]float64{{2, 1}, {0, 3}, {5, 4}, {1, 2}}), Y: tensor.Matrix([][]float64{{0}, {1}, {1}, {1}})}
	got, err := train.Evaluate(m, d)
	if err != nil {
		t.Fatal(err)
	}
	if got.Accuracy != 0.75 {
		t.Errorf("accuracy %v, want 0.75", got.Accuracy)
	}
	want := (math.Log(1+math.Exp(-1)) + math.Log(1+math.Exp(-3)) + math.Log(1+math.Exp(1)) + math.Log(1+math.Exp(-1))) / 4
	if math.Abs(got.Loss-want) > 1e-15 {
		t.Errorf("loss %v, want %v", got.Loss, want)
	}
	seq, _ = nn.NewSeq(tensor.Shape{1}, nn.Linear{Out: 1})
	m, _ = nn.NewModel(seq, nn.MSE, 0, nn.InitPyTorch)
	r, err := train.Evaluate(m, &train.Dataset{X: tensor.Matrix([][]float64{{1}}), Y: tensor.Matrix([][]float64{{0.3}})})
	if err != nil || !math.IsNaN(r.Accuracy) {
		t.Errorf("regression accuracy %v (%v), want NaN", r.Accuracy, err)
	}
}

// TestBatchReplaysTheStep: the batch of the last step, recorded again
// before the update, gives the loss that step reported.
func TestBatchReplaysTheStep(t *testing.T) {
	tr, _, _ := fromSpec(t, `{"version":1,"input":[2],"layers":[{"type":"linear","out":4},{"type":"tanh"},{"type":"linear","out":1}],
		"loss":"mse","seed":8,"dataset":{"name":"reg-plane"},"batch_size":7}`)
	if x, y := tr.Batch(); x != nil || y != nil {
		t.Fatal("a batch before the first step")
	}
	before := tr.Model().Clone()
	loss, err := tr.Step()
	if err != nil {
		t.Fatal(err)
	}
	x, y := tr.Batch()
	if !x.Shape.Equal(tensor.Shape{7, 2}) || !y.Shape.Equal(tensor.Shape{7, 1}) {
		t.Fatalf("batch shapes %v %v", x.Shape, y.Shape)
	}
	p := nn.NewPass(before)
	if err := p.Forward(x, y, nn.Train, 0); err != nil {
		t.Fatal(err)
	}
	if p.Loss() != loss {
		t.Errorf("replayed loss %v, step reported %v", p.Loss(), loss)
	}
}
