package cli

import (
	"bytes"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"tapelab/engine/spec"
	"tapelab/engine/tensor"
	"tapelab/engine/train"
	"tapelab/static"
)

// The digits CNN (testdata/digits_cnn.json): conv2d 4×3×3 → relu →
// max_pool2d 2 → flatten → linear 10, cross_entropy, seed 1, on the digits
// (half for training), Adam at lr 0.01 with batches of 32 for 500 steps.
const (
	digitsModel = "testdata/digits_cnn.json"
	// digitsBatch is a mini-batch of digits: the first 32 examples of the
	// model's training set (TestDigitsBatchFile checks it).
	digitsBatch = "testdata/digits_cnn_data.json"
	// digitsAccuracy is the test accuracy the model must reach in its 500
	// steps (it reaches 0.9600, 863 of the 899 test images).
	digitsAccuracy = 0.95
)

// updateDigits rewrites digitsBatch (then run testdata/torch_goldens.py for
// its PyTorch golden, which TestGradMatchesPyTorch compares):
//
//	go test ./internal/cli -run DigitsBatchFile -update-digits
var updateDigits = flag.Bool("update-digits", false, "rewrite "+digitsBatch)

// TestDigitsCNNTrains trains the digits CNN with `train` as its spec says
// and checks the stated test accuracy, and that the printed parameters,
// put back into the spec, give the model that reached it.
func TestDigitsCNNTrains(t *testing.T) {
	out, errOut, err := runCLI(t, "train", "-model", digitsModel, "-every", "100")
	if err != nil || errOut != "" {
		t.Fatalf("train: %v %s", err, errOut)
	}
	l := parseTrain(t, out)
	last := l.steps[len(l.steps)-1]
	t.Logf("digits CNN after %v steps: loss %.4f, train accuracy %.4f, test accuracy %.4f",
		last["step"], last["train_loss"], last["train_accuracy"], last["test_accuracy"])
	if len(l.steps) != 5 || last["step"] != 500 {
		t.Fatalf("logged %d steps, the last %v; want 5, the last 500 (the spec's steps)", len(l.steps), last["step"])
	}
	if acc := last["test_accuracy"]; !(acc >= digitsAccuracy) {
		t.Errorf("test accuracy %.4f after 500 steps, want ≥ %v", acc, digitsAccuracy)
	}

	trained := digitsWithParams(t, l.params)
	_, test, err := static.Load(trained.Dataset)
	if err != nil {
		t.Fatal(err)
	}
	m, err := trained.Build()
	if err != nil {
		t.Fatal(err)
	}
	tr, err := train.NewTrainer(m, test, trained.Optimizer, trained.BatchSize, trained.Seed)
	if err != nil {
		t.Fatal(err)
	}
	mt, err := tr.Evaluate(test)
	if err != nil {
		t.Fatal(err)
	}
	if mt.Accuracy != last["test_accuracy"] {
		t.Errorf("the printed params give test accuracy %v, the log says %v", mt.Accuracy, last["test_accuracy"])
	}
}

// digitsWithParams returns the digits model with the given params (the
// `train` output's form).
func digitsWithParams(t *testing.T, params []byte) *spec.Model {
	t.Helper()
	doc, err := os.ReadFile(digitsModel)
	if err != nil {
		t.Fatal(err)
	}
	doc = append(bytes.TrimRight(bytes.TrimSpace(doc), "}"), `, "params": `...)
	doc = append(append(doc, params...), '}')
	sm, err := spec.Decode(doc)
	if err != nil {
		t.Fatalf("the printed params do not fit the spec: %v", err)
	}
	return sm
}

// TestShapesCNNTrains trains the same CNN with 5 outputs, as the digits
// model's spec says, on the shapes with noise 0.2.
func TestShapesCNNTrains(t *testing.T) {
	doc, err := os.ReadFile(digitsModel)
	if err != nil {
		t.Fatal(err)
	}
	doc = bytes.Replace(doc, []byte(`"out": 10`), []byte(`"out": 5`), 1)
	doc = bytes.Replace(doc, []byte(`"name": "digits"`), []byte(`"name": "shapes", "noise": 0.2`), 1)
	file := filepath.Join(t.TempDir(), "shapes_cnn.json")
	if err := os.WriteFile(file, doc, 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, err := runCLI(t, "train", "-model", file, "-every", "500")
	if err != nil {
		t.Fatal(err)
	}
	last := parseTrain(t, out).steps[0]
	t.Logf("shapes CNN (noise 0.2) after 500 steps: test accuracy %.4f", last["test_accuracy"])
	if acc := last["test_accuracy"]; !(acc >= 0.93) { // 0.936: 234 of the 250 test images
		t.Errorf("test accuracy %.4f on the shapes after 500 steps, want ≥ 0.93", acc)
	}
}

// TestImageDatasetErrors checks that `train` says why a model does not fit
// an image dataset.
func TestImageDatasetErrors(t *testing.T) {
	dir := t.TempDir()
	tests := []struct{ doc, want string }{
		{`{"version":1,"input":[2],"layers":[{"type":"linear","out":10}],"loss":"cross_entropy","dataset":{"name":"digits"}}`,
			"dataset: examples have 64 features, the model input [2] needs 2"},
		{`{"version":1,"input":[1,8,8],"layers":[{"type":"flatten"},{"type":"linear","out":10}],"loss":"cross_entropy","dataset":{"name":"digits","n":2000}}`,
			"dataset.n: must be a whole number from 2 to 1797"},
	}
	for i, tc := range tests {
		file := filepath.Join(dir, strconv.Itoa(i)+".json")
		if err := os.WriteFile(file, []byte(tc.doc), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, _, err := runCLI(t, "train", "-model", file, "-steps", "1"); err == nil || err.Error() != file+": "+tc.want {
			t.Errorf("%s: err = %v, want %s: %s", tc.doc, err, file, tc.want)
		}
	}
}

// TestDigitsBatchFile checks that the mini-batch data file holds the first
// 32 examples of the digits model's training set.
func TestDigitsBatchFile(t *testing.T) {
	sm, m, err := loadModel(digitsModel)
	if err != nil {
		t.Fatal(err)
	}
	tr, _, err := static.Load(sm.Dataset)
	if err != nil {
		t.Fatal(err)
	}
	const n = 32
	x := tr.X.Data[:n*64]
	y := tr.Y.Data[:n]
	if *updateDigits {
		var b bytes.Buffer
		b.WriteString(`{"x": `)
		if err := writeNested(&b, tensor.Shape{n, 64}, x, "x"); err != nil {
			t.Fatal(err)
		}
		b.WriteString(",\n \"y\": ")
		if err := writeNested(&b, tensor.Shape{n}, y, "y"); err != nil {
			t.Fatal(err)
		}
		b.WriteString("}\n")
		if err := os.WriteFile(digitsBatch, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	d, err := loadData(digitsBatch, m)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(d.X.Data, x) || !slices.Equal(d.Y.Data, y) {
		t.Errorf("%s is not the first %d examples of the digits training set (go test -run Digits -update-digits rewrites it)", digitsBatch, n)
	}
}

// tensorLine matches one entry of the exported state_dict.
var tensorLine = regexp.MustCompile(`(?m)^    "([^"]+)": torch\.tensor\((.*), dtype=torch\.float64\),$`)

// TestDigitsCNNExport checks `export` for the digits CNN, seeded and
// trained: the modules, the loss, and a state_dict holding exactly the
// model's parameters (every float64 read back to the same bits); the code
// must compile (python3 -m py_compile).
func TestDigitsCNNExport(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Fatal("python3 is needed to check the exported code:", err)
	}
	out, _, err := runCLI(t, "train", "-model", digitsModel, "-steps", "20", "-every", "20")
	if err != nil {
		t.Fatal(err)
	}
	trainedFile := filepath.Join(t.TempDir(), "digits_trained.json")
	enc, err := spec.Encode(digitsWithParams(t, parseTrain(t, out).params))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(trainedFile, enc, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, model := range []string{digitsModel, trainedFile} {
		code, _, err := runCLI(t, "export", "-model", model, "-format", "pytorch")
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{
			"INPUT_SHAPE = (1, 8, 8)",
			"nn.Conv2d(1, 4, kernel_size=3, stride=1, padding=0),  # 0",
			"nn.ReLU(),  # 1",
			"nn.MaxPool2d(kernel_size=2, stride=2),  # 2",
			"nn.Flatten(),  # 3",
			"nn.Linear(36, 10, bias=True),  # 4",
			"model.load_state_dict(state_dict)",
			"loss_fn = nn.CrossEntropyLoss()",
		} {
			if !strings.Contains(code, want) {
				t.Errorf("%s: the exported code lacks %q", model, want)
			}
		}
		_, m, err := loadModel(model)
		if err != nil {
			t.Fatal(err)
		}
		entries := tensorLine.FindAllStringSubmatch(code, -1)
		if len(entries) != len(m.Params) {
			t.Fatalf("%s: %d state_dict entries, the model has %d parameters", model, len(entries), len(m.Params))
		}
		for i, e := range entries {
			p := m.Seq.Params()[i]
			got := numbers(t, e[2])
			if e[1] != p.Name || !slices.Equal(got, m.Params[i].Data) {
				t.Errorf("%s: state_dict entry %d is %s with %d numbers, want %s = %v", model, i, e[1], len(got), p.Name, m.Params[i].Data)
			}
		}
		file := filepath.Join(t.TempDir(), "digits_cnn.py")
		if err := os.WriteFile(file, []byte(code), 0o644); err != nil {
			t.Fatal(err)
		}
		if out, err := exec.Command(py, "-m", "py_compile", file).CombinedOutput(); err != nil {
			t.Errorf("%s: the exported code does not compile: %v\n%s", model, err, out)
		}
	}
}

// numbers parses the numbers of a nested Python list literal in order.
func numbers(t *testing.T, list string) []float64 {
	t.Helper()
	var out []float64
	for _, f := range strings.FieldsFunc(list, func(r rune) bool { return r == '[' || r == ']' || r == ',' || r == ' ' }) {
		v, err := strconv.ParseFloat(f, 64)
		if err != nil {
			t.Fatalf("%q in the state_dict is not a number", f)
		}
		out = append(out, v)
	}
	return out
}
