package ir

import (
	"math/rand/v2"
	"strings"
	"testing"

	"tapelab/engine/nn"
	"tapelab/engine/tensor"
)

// stageNames lists the names of p's stages, and the index of the first
// that failed (-1 when none).
func stageNames(p *Pipeline) ([]string, int) {
	var names []string
	failed := -1
	for i, s := range p.Stages {
		names = append(names, s.Name)
		if s.Err != nil && failed < 0 {
			failed = i
		}
	}
	return names, failed
}

// TestPipelineStages runs testdata/mlp.json and broken copies of it through
// RunJSON and checks which stage refuses each, with the node named: every
// stage that can refuse is reached, the stages after it are listed as not
// run, and an intact document passes them all with the values Denote gives.
func TestPipelineStages(t *testing.T) {
	x := tensor.Matrix([][]float64{{1, 2}, {0, -1}, {0.5, 0.5}})
	y := tensor.Matrix([][]float64{{1}, {0}, {-1}})
	all := []string{StageDecode, StageCheck, StageShapes, StageLower, StageFeed, StageCompile}
	for _, tc := range []struct {
		name   string
		repl   []string
		inputs []*tensor.Tensor
		stage  string // the stage that refuses, "" for none
		want   string // in its error
	}{
		{"intact", nil, []*tensor.Tensor{x, y}, "", ""},
		{"not JSON", []string{`{"format"`, `{format`}, []*tensor.Tensor{x, y}, StageDecode, "invalid JSON"},
		{"parent after child", []string{`"parents": [1]`, `"parents": [3]`}, []*tensor.Tensor{x, y}, StageCheck, "node 2 (tanh): parent 0 is node 3"},
		{"declared shape wrong", []string{`"kind": "tanh", "out_shape": [3, 2]`, `"kind": "tanh", "out_shape": [2, 3]`}, []*tensor.Tensor{x, y}, StageShapes, "node 2 (tanh): declared out_shape [2 3]"},
		{"input of the wrong shape", nil, []*tensor.Tensor{x, x}, StageFeed, "input 1 has shape [3 2], the graph declares [3 1]"},
		{"too few inputs", nil, []*tensor.Tensor{x}, StageFeed, "the graph reads 2 inputs, 1 were given"},
		// the first row of the linear layer is 0.5·1 − 1·2 + 0.1 = −1.4
		{"outside a domain", []string{`"kind": "tanh"`, `"kind": "log"`}, []*tensor.Tensor{x, y}, StageCompile, "node 2 log([3 2]): X[0 0] = -1.4"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := RunJSON(mlpDoc(t, tc.repl...), tc.inputs...)
			names, failed := stageNames(p)
			if strings.Join(names, ",") != strings.Join(all, ",") {
				t.Fatalf("stages %q, want %q", names, all)
			}
			if tc.stage == "" {
				if failed >= 0 || p.Err() != nil || p.Compiled == nil {
					t.Fatalf("stage %d failed: %v", failed, p.Err())
				}
				want, err := Denote(p.IR, tc.inputs...)
				if err != nil {
					t.Fatal(err)
				}
				for i := range want {
					if !tensor.Identical(p.Compiled.Values()[p.IDs[i]], want[i]) {
						t.Errorf("node %d: compiled %v, Denote %v", i, p.Compiled.Values()[p.IDs[i]], want[i])
					}
				}
				for _, st := range p.Stages {
					if st.String() != st.Name+" ✓" {
						t.Errorf("stage shows as %q", st)
					}
				}
				if p.Output() != p.IDs[len(want)-1] {
					t.Errorf("Output %d, want %d", p.Output(), p.IDs[len(want)-1])
				}
				return
			}
			if failed < 0 || names[failed] != tc.stage {
				t.Fatalf("refused at stage %d (%v), want %s", failed, p.Err(), tc.stage)
			}
			if err := p.Err(); !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), tc.stage+": ") {
				t.Errorf("error %q, want it to start with %q and contain %q", err, tc.stage+": ", tc.want)
			}
			for i, s := range p.Stages {
				if s.Ran != (i <= failed) {
					t.Errorf("stage %s: ran %v", s.Name, s.Ran)
				}
			}
			if p.Compiled != nil {
				t.Error("a refused pipeline has a Compiled")
			}
			if got := p.Stages[failed].String(); got != tc.stage+" ✗ "+p.Stages[failed].Err.Error() {
				t.Errorf("the refusing stage shows as %q", got)
			}
			if got := p.Stages[len(p.Stages)-1].String(); failed < len(p.Stages)-1 && got != StageCompile+" (not run)" {
				t.Errorf("the last stage shows as %q", got)
			}
		})
	}
}

// TestRunModel runs a model through every stage, export first, and checks
// the compiled loss against Denote; a batch of 0 is refused by export.
func TestRunModel(t *testing.T) {
	seq, err := nn.NewSeq(tensor.Shape{3}, nn.NewLinear(4), nn.Tanh{}, nn.NewLinear(2))
	if err != nil {
		t.Fatal(err)
	}
	m, err := nn.NewModel(seq, nn.MSE, 5, nn.InitPyTorch)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(3, 4))
	x, y := tensor.Zeros(tensor.Shape{2, 3}), tensor.Zeros(tensor.Shape{2, 2})
	for _, v := range []*tensor.Tensor{x, y} {
		for i := range v.Data {
			v.Data[i] = r.NormFloat64()
		}
	}
	p := RunModel(m, 2, nn.Eval, 1, true, x, y)
	names, failed := stageNames(p)
	if want := []string{StageExport, StageCheck, StageShapes, StageLower, StageFeed, StageCompile}; strings.Join(names, ",") != strings.Join(want, ",") || failed >= 0 {
		t.Fatalf("stages %q, failed at %d: %v", names, failed, p.Err())
	}
	want, err := Denote(p.IR, x, y)
	if err != nil {
		t.Fatal(err)
	}
	if got := p.Compiled.Values()[p.Output()]; !tensor.Identical(got, want[len(want)-1]) {
		t.Errorf("compiled loss %v, Denote %v", got, want[len(want)-1])
	}
	p = RunModel(m, 0, nn.Eval, 1, true, x, y)
	if _, failed := stageNames(p); failed != 0 || p.IR != nil || p.Output() != -1 {
		t.Errorf("batch 0: failed at %d (%v)", failed, p.Err())
	}
}
