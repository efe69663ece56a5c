package cli

import (
	"bufio"
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"

	"tapelab/engine/spec"
	"tapelab/engine/tensor"
	"tapelab/engine/train"
)

// trainLog is `train`'s output: the logged steps, then the final params.
type trainLog struct {
	steps  []map[string]float64
	params json.RawMessage
}

func parseTrain(t *testing.T, out string) trainLog {
	t.Helper()
	var l trainLog
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, `{"params": `) {
			var p struct {
				Params json.RawMessage `json:"params"`
			}
			if err := json.Unmarshal([]byte(line), &p); err != nil || l.params != nil {
				t.Fatalf("bad params line %q: %v", line, err)
			}
			l.params = p.Params
			continue
		}
		if l.params != nil {
			t.Fatalf("line after the params: %q", line)
		}
		var s map[string]float64
		if err := json.Unmarshal([]byte(line), &s); err != nil {
			t.Fatalf("log line %q is not a JSON object of numbers: %v", line, err)
		}
		l.steps = append(l.steps, s)
	}
	if l.params == nil {
		t.Fatalf("no params line in\n%s", out)
	}
	return l
}

// TestTrainCommand trains the 2-2-1 network on its data file and checks
// the log (which steps, which fields, learning), that the run is
// reproducible, that it equals engine/train's Trainer driven directly, and
// that the printed params are valid spec params: put back into the spec,
// `grad` reports the last logged train_loss.
func TestTrainCommand(t *testing.T) {
	args := []string{"train", "-model", "testdata/mlp.json", "-data", "testdata/mlp_data.json", "-steps", "50", "-every", "5"}
	out, errOut, err := runCLI(t, args...)
	if err != nil || errOut != "" {
		t.Fatalf("train: %v %s", err, errOut)
	}
	again, _, _ := runCLI(t, args...)
	if again != out {
		t.Fatal("two runs printed different output")
	}
	l := parseTrain(t, out)
	if len(l.steps) != 10 {
		t.Fatalf("logged %d steps, want 10 (every 5 of 50)", len(l.steps))
	}
	for i, s := range l.steps {
		if s["step"] != float64(5*(i+1)) || len(s) != 3 {
			t.Errorf("line %d = %v, want step %d with loss and train_loss only (no test set)", i, s, 5*(i+1))
		}
	}
	if first, last := l.steps[0]["train_loss"], l.steps[9]["train_loss"]; !(last < first/2) {
		t.Errorf("train_loss went from %v to %v: not learning", first, last)
	}

	// The same training through engine/train directly.
	sm, m, err := loadModel("testdata/mlp.json")
	if err != nil {
		t.Fatal(err)
	}
	d, err := loadData("testdata/mlp_data.json", m)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := train.NewTrainer(m, d, sm.Optimizer, sm.BatchSize, sm.Seed)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 50; i++ {
		if _, err := tr.Step(); err != nil {
			t.Fatal(err)
		}
	}
	sm.Params = map[string]*tensor.Tensor{}
	for i, p := range m.Seq.Params() {
		sm.Params[p.Name] = m.Params[i]
	}
	enc, err := spec.Encode(sm)
	if err != nil {
		t.Fatal(err)
	}
	// The printed params, put into the spec, give the same document.
	var doc map[string]json.RawMessage
	data, _ := os.ReadFile("testdata/mlp.json")
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	doc["params"] = l.params
	data, _ = json.Marshal(doc)
	back, err := spec.Decode(data)
	if err != nil {
		t.Fatalf("the printed params are not valid spec params: %v", err)
	}
	enc2, _ := spec.Encode(back)
	if string(enc) != string(enc2) {
		t.Errorf("train printed params that differ from train.Trainer's:\n%s\n%s", enc2, enc)
	}
	trained := writeTemp(t, "trained.json", string(data))
	gout, _, err := runCLI(t, "grad", "-model", trained, "-data", "testdata/mlp_data.json")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := parseGrad(t, gout).Loss, l.steps[9]["train_loss"]; got != want {
		t.Errorf("grad on the trained params: loss %v, train logged %v", got, want)
	}
}

// TestTrainOnSpecDataset trains on the spec's generated dataset: lines
// carry test loss and accuracy, and the last step is logged.
func TestTrainOnSpecDataset(t *testing.T) {
	model := writeTemp(t, "M.json", `{"version": 1, "input": [2],
		"layers": [{"type": "linear", "out": 6}, {"type": "tanh"}, {"type": "linear", "out": 2}],
		"loss": "cross_entropy", "seed": 2, "dataset": {"name": "circle", "n": 60, "train_split": 0.5},
		"optimizer": {"name": "adam", "lr": 0.05}, "batch_size": 10, "steps": 23}`)
	out, _, err := runCLI(t, "train", "-model", model)
	if err != nil {
		t.Fatal(err)
	}
	l := parseTrain(t, out)
	last := l.steps[len(l.steps)-1]
	if len(l.steps) != 23 || last["step"] != 23 {
		t.Fatalf("logged %d steps ending at %v, want every step of 23 (23/20 rounds to 1)", len(l.steps), last["step"])
	}
	for _, k := range []string{"loss", "train_loss", "train_accuracy", "test_loss", "test_accuracy"} {
		if _, ok := last[k]; !ok {
			t.Errorf("last line %v has no %s", last, k)
		}
	}
}

// TestTrainErrors checks train's bad-input and divergence errors: a step
// or logging count of 0 is refused, not taken for the default, and so is
// one above the spec's MaxSteps.
func TestTrainErrors(t *testing.T) {
	diverge := writeTemp(t, "M.json", `{"version": 1, "input": [2], "layers": [{"type": "linear", "out": 1}],
		"loss": "mse", "optimizer": {"name": "sgd", "lr": 1e30}}`)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"train", "-model", "testdata/mlp.json"}, `no data: give -data D.json or a "dataset" in the model spec`},
		{[]string{"train", "-model", "testdata/mlp.json", "-data", "testdata/mlp_data.json", "-steps", "-3"}, `invalid value "-3" for flag -steps: want a whole number from 1 to 1000000000`},
		{[]string{"train", "-model", "testdata/mlp.json", "-data", "testdata/mlp_data.json", "-steps", "0"}, `invalid value "0" for flag -steps: want a whole number from 1 to 1000000000`},
		{[]string{"train", "-model", "testdata/mlp.json", "-data", "testdata/mlp_data.json", "-steps", "1e12"}, `invalid value "1e12" for flag -steps: want a whole number from 1 to 1000000000`},
		{[]string{"train", "-model", "testdata/mlp.json", "-data", "testdata/mlp_data.json", "-steps", "1000000001"}, `invalid value "1000000001" for flag -steps: want a whole number from 1 to 1000000000`},
		{[]string{"train", "-model", "testdata/mlp.json", "-data", "testdata/mlp_data.json", "-steps", "2.5"}, `invalid value "2.5" for flag -steps: want a whole number`},
		{[]string{"train", "-model", "testdata/mlp.json", "-data", "testdata/mlp_data.json", "-steps", "ten"}, `invalid value "ten" for flag -steps: want a whole number`},
		{[]string{"train", "-model", "testdata/mlp.json", "-data", "testdata/mlp_data.json", "-every", "-1"}, `invalid value "-1" for flag -every: want a whole number from 1 to 1000000000`},
		{[]string{"train", "-model", "testdata/mlp.json", "-data", "testdata/mlp_data.json", "-every", "0"}, `invalid value "0" for flag -every: want a whole number from 1 to 1000000000`},
		{[]string{"train", "-model", "testdata/mlp.json", "-data", "testdata/cnn_data.json"}, "cnn_data.json: examples have 50 features"},
		{[]string{"train", "-model", diverge, "-data", "testdata/mlp_data.json", "-steps", "100"}, "step 7: loss (mse) is +Inf"},
	} {
		out, _, err := runCLI(t, tc.args...)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: error = %v, want it to contain %q", tc.args, err, tc.want)
		}
		if strings.Contains(out, `"params"`) {
			t.Errorf("%v: printed params after an error", tc.args)
		}
	}
}

// TestTrainCounts checks the forms -steps and -every take: a whole number,
// also in exponent form, up to the spec's MaxSteps.
func TestTrainCounts(t *testing.T) {
	for _, tc := range []struct {
		steps, every string
		logged       []float64
	}{
		{"3", "1", []float64{1, 2, 3}},
		{"1e1", "5", []float64{5, 10}},
		{"4", "1e9", []float64{4}},
		{"7", "3", []float64{3, 6, 7}},
	} {
		out, _, err := runCLI(t, "train", "-model", "testdata/mlp.json", "-data", "testdata/mlp_data.json", "-steps", tc.steps, "-every", tc.every)
		if err != nil {
			t.Errorf("-steps %s -every %s: %v", tc.steps, tc.every, err)
			continue
		}
		var logged []float64
		for _, s := range parseTrain(t, out).steps {
			logged = append(logged, s["step"])
		}
		if !slices.Equal(logged, tc.logged) {
			t.Errorf("-steps %s -every %s logged steps %v, want %v", tc.steps, tc.every, logged, tc.logged)
		}
	}
}
