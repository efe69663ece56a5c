package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"tapelab/engine/ir"
	"tapelab/engine/nn"
	"tapelab/engine/nn/nntest"
	"tapelab/engine/tensor"
)

// runCLI runs `go run . args...` in-process and returns stdout, stderr and
// the error main would print.
func runCLI(t *testing.T, args ...string) (string, string, error) {
	t.Helper()
	var out, errOut bytes.Buffer
	for _, c := range Commands() {
		if c.Name == args[0] {
			err := c.Run(context.Background(), args[1:], &out, &errOut)
			return out.String(), errOut.String(), err
		}
	}
	t.Fatalf("no command %q", args[0])
	return "", "", nil
}

// gradResult is the JSON object `grad` prints.
type gradResult struct {
	Loss    float64        `json:"loss"`
	Outputs [][]float64    `json:"outputs"`
	Grads   map[string]any `json:"grads"`
	// EvalOutputs are the eval-mode outputs; only the PyTorch script prints them.
	EvalOutputs [][]float64 `json:"eval_outputs"`
	// Torch is the torch version that wrote a golden file.
	Torch string               `json:"torch"`
	order []string             // grads keys in printed order
	flat  map[string][]float64 // grads flattened
}

func parseGrad(t *testing.T, s string) *gradResult {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(s))
	dec.DisallowUnknownFields()
	var r gradResult
	if err := dec.Decode(&r); err != nil {
		t.Fatalf("grad output is not the documented JSON object: %v\n%s", err, s)
	}
	r.flat = map[string][]float64{}
	for k, v := range r.Grads {
		r.flat[k] = nntest.Flat(v)
	}
	// key order, from the raw text
	var raw struct {
		Grads json.RawMessage `json:"grads"`
	}
	_ = json.Unmarshal([]byte(s), &raw)
	d := json.NewDecoder(bytes.NewReader(raw.Grads))
	d.Token()
	for d.More() {
		k, _ := d.Token()
		r.order = append(r.order, k.(string))
		var skip any
		d.Decode(&skip)
	}
	return &r
}

// TestGradByHand checks `grad` on a 2-2-1 tanh network with mse against
// the chain rule written out by hand.
func TestGradByHand(t *testing.T) {
	out, errOut, err := runCLI(t, "grad", "-model", "testdata/mlp.json", "-data", "testdata/mlp_data.json")
	if err != nil || errOut != "" {
		t.Fatalf("grad: %v %s", err, errOut)
	}
	r := parseGrad(t, out)
	x := [][]float64{{1, 2}, {0, -1}, {0.5, 0.5}}
	y := []float64{1, 0, -1}
	w0 := [][]float64{{0.5, -1}, {0.25, 2}}
	b0 := []float64{0.1, -0.2}
	w2 := []float64{1.5, -0.75}
	const b2, n = 0.125, 3.0
	var loss float64
	gw0 := [2][2]float64{}
	gb0 := [2]float64{}
	gw2 := [2]float64{}
	gb2 := 0.0
	for r := range x {
		var h [2]float64
		p := b2
		for o := 0; o < 2; o++ {
			h[o] = math.Tanh(x[r][0]*w0[o][0] + x[r][1]*w0[o][1] + b0[o])
			p += h[o] * w2[o]
		}
		loss += (p - y[r]) * (p - y[r]) / n
		dp := 2 * (p - y[r]) / n // dL/dp
		gb2 += dp
		for o := 0; o < 2; o++ {
			gw2[o] += dp * h[o]
			dz := dp * w2[o] * (1 - h[o]*h[o])
			gb0[o] += dz
			gw0[o][0] += dz * x[r][0]
			gw0[o][1] += dz * x[r][1]
		}
	}
	want := map[string][]float64{
		"0.weight": {gw0[0][0], gw0[0][1], gw0[1][0], gw0[1][1]},
		"0.bias":   gb0[:], "2.weight": gw2[:], "2.bias": {gb2},
	}
	close := func(a, b float64) bool { return math.Abs(a-b) <= 1e-14*math.Max(1, math.Abs(b)) }
	if !close(r.Loss, loss) {
		t.Errorf("loss = %v, by hand %v", r.Loss, loss)
	}
	for k, w := range want {
		for i := range w {
			if !close(r.flat[k][i], w[i]) {
				t.Errorf("%s[%d] = %v, by hand %v", k, i, r.flat[k][i], w[i])
			}
		}
	}
	if got := strings.Join(r.order, " "); got != "0.weight 0.bias 2.weight 2.bias" {
		t.Errorf("grads in order %q, want state_dict order", got)
	}
	if len(r.Outputs) != 3 || len(r.Outputs[0]) != 1 {
		t.Errorf("outputs = %v, want 3 rows of 1", r.Outputs)
	}
}

// torchPython returns a Python interpreter that can import torch, or ""
// when there is none. With TAPELAB_TORCH=required, which ./build.sh test
// sets after it installed Debian's python3-torch, a missing torch fails t
// instead: CI runs the PyTorch comparisons, never skips them.
func torchPython(t *testing.T) string {
	t.Helper()
	for _, py := range []string{"/usr/bin/python3", "python3"} {
		if exec.Command(py, "-c", "import torch").Run() == nil {
			return py
		}
	}
	if os.Getenv("TAPELAB_TORCH") == "required" {
		t.Fatal("no python3 with torch here (Debian: apt-get install python3-torch), and TAPELAB_TORCH=required")
	}
	return ""
}

// cliModels are the test models: together they hold every layer type and
// every loss (dropout with p = 0, since PyTorch's masks are its own).
var cliModels = []string{"mlp", "classifier", "softmax_bce", "cnn", "layer_norm", "digits_cnn", "lenet_avg"}

// TestCLIModelsCoverTheRegistry checks that the test models hold every
// registered layer type and every loss.
func TestCLIModelsCoverTheRegistry(t *testing.T) {
	seen := map[string]bool{}
	for _, name := range cliModels {
		sm, _, err := loadModel("testdata/" + name + ".json")
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range sm.Layers {
			seen[l.Type()] = true
		}
		seen[string(sm.Loss)] = true
	}
	for _, lt := range nn.LayerTypes() {
		if !seen[lt.Name] {
			t.Errorf("no test model has a %s layer", lt.Name)
		}
	}
	for _, l := range nn.Losses() {
		if !seen[string(l)] {
			t.Errorf("no test model trains with %s", l)
		}
	}
}

// TestGradMatchesPyTorch checks that `grad` gives PyTorch's train-mode
// loss, outputs and gradients on each test model, and the model PyTorch's
// eval-mode outputs, to within 1e-12 relative: always against the
// checked-in goldens testdata/NAME_torch.json (written by
// testdata/torch_goldens.py from the exported code), and also against a
// live PyTorch run of the exported code when a python3 with torch is here
// (Debian: apt-get install python3-torch).
func TestGradMatchesPyTorch(t *testing.T) {
	py := torchPython(t)
	if py == "" {
		t.Log("no python3 with torch here: comparing with the checked-in goldens only")
	}
	dir := t.TempDir()
	for _, name := range cliModels {
		model := "testdata/" + name + ".json"
		data := "testdata/" + name + "_data.json"
		golden, err := os.ReadFile("testdata/" + name + "_torch.json")
		if err != nil {
			t.Fatalf("%s: %v (run /usr/bin/python3 internal/cli/testdata/torch_goldens.py)", name, err)
		}
		g := parseGrad(t, string(golden))
		if g.Torch == "" {
			t.Errorf("%s: the golden does not say which torch wrote it", name)
		}
		matchesPyTorch(t, name+" (golden)", model, data, g)
		if py == "" {
			continue
		}
		code, _, err := runCLI(t, "export", "-model", model, "-format", "pytorch")
		if err != nil {
			t.Fatalf("%s: export: %v", name, err)
		}
		file := filepath.Join(dir, name+".py")
		if err := os.WriteFile(file, []byte(code), 0o644); err != nil {
			t.Fatal(err)
		}
		tout, err := exec.Command(py, "testdata/torch_grad.py", file, data).CombinedOutput()
		if err != nil {
			t.Fatalf("%s: PyTorch: %v\n%s", name, err, tout)
		}
		matchesPyTorch(t, name+" (live)", model, data, parseGrad(t, string(tout)))
	}
}

// TestEveryTestModelHasAGolden checks that torch_goldens.py, which writes
// a golden for every NAME.json with a NAME_data.json, and cliModels agree.
func TestEveryTestModelHasAGolden(t *testing.T) {
	files, err := filepath.Glob("testdata/*_data.json")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range files {
		names = append(names, strings.TrimSuffix(filepath.Base(f), "_data.json"))
	}
	if want := slices.Sorted(slices.Values(cliModels)); !slices.Equal(names, want) {
		t.Errorf("data files for %v, cliModels %v", names, want)
	}
}

// matchesPyTorch compares `grad` on the model and data files, and the
// model's eval-mode outputs, with PyTorch's result theirs.
func matchesPyTorch(t *testing.T, name, model, data string, theirs *gradResult) {
	t.Helper()
	out, _, err := runCLI(t, "grad", "-model", model, "-data", data)
	if err != nil {
		t.Fatalf("%s: grad: %v", name, err)
	}
	ours := parseGrad(t, out)
	close := func(a, b float64) bool { return math.Abs(a-b) <= 1e-12*math.Max(1, math.Abs(b)) }
	if !close(ours.Loss, theirs.Loss) {
		t.Errorf("%s: loss %v, PyTorch %v", name, ours.Loss, theirs.Loss)
	}
	of, tf := slices.Concat(ours.Outputs...), slices.Concat(theirs.Outputs...)
	if len(tf) == 0 {
		t.Errorf("%s: PyTorch gives no outputs", name)
	}
	for i := range tf {
		if len(of) != len(tf) || !close(of[i], tf[i]) {
			t.Fatalf("%s: outputs %v, PyTorch %v", name, ours.Outputs, theirs.Outputs)
		}
	}
	// Eval mode (batch norm on its running statistics), before training.
	_, m, err := loadModel(model)
	if err != nil {
		t.Fatal(err)
	}
	d, err := loadData(data, m)
	if err != nil {
		t.Fatal(err)
	}
	x, _ := d.Batch(m)
	p := nn.NewPass(m)
	if err := p.Forward(x, nil, nn.Eval, 0); err != nil {
		t.Fatal(err)
	}
	ef := slices.Concat(theirs.EvalOutputs...)
	for i, v := range p.Output().Data {
		if len(ef) != len(p.Output().Data) || !close(v, ef[i]) {
			t.Fatalf("%s: eval outputs %v, PyTorch %v", name, p.Output(), theirs.EvalOutputs)
		}
	}
	if len(theirs.order) == 0 || !reflect.DeepEqual(ours.order, theirs.order) {
		t.Errorf("%s: grads for %v, PyTorch has %v", name, ours.order, theirs.order)
	}
	for _, k := range theirs.order {
		for i, v := range theirs.flat[k] {
			if len(ours.flat[k]) != len(theirs.flat[k]) || !close(ours.flat[k][i], v) {
				t.Errorf("%s: grad %s[%d] = %v, PyTorch %v", name, k, i, ours.flat[k][i], v)
				break
			}
		}
	}
}

// TestExportCompiles checks that the exported code of every test model is
// valid Python (python3 -m py_compile), with or without torch installed.
func TestExportCompiles(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Fatal("python3 is needed to check the exported code:", err)
	}
	dir := t.TempDir()
	for _, name := range cliModels {
		code, _, err := runCLI(t, "export", "-model", "testdata/"+name+".json")
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, want := range []string{"nn.Sequential(", "model.load_state_dict(state_dict)", "loss_fn = nn."} {
			if !strings.Contains(code, want) {
				t.Errorf("%s: exported code lacks %q", name, want)
			}
		}
		file := filepath.Join(dir, name+".py")
		if err := os.WriteFile(file, []byte(code), 0o644); err != nil {
			t.Fatal(err)
		}
		if out, err := exec.Command(py, "-m", "py_compile", file).CombinedOutput(); err != nil {
			t.Errorf("%s: exported code does not compile: %v\n%s", name, err, out)
		}
	}
}

// TestIRCommand checks that `ir` prints a document that decodes, checks,
// and evaluates (ir.Denote) to the model's eval-mode output, and with
// -loss -mode train to the loss `grad` reports.
func TestIRCommand(t *testing.T) {
	for _, name := range cliModels {
		model := "testdata/" + name + ".json"
		_, m, err := loadModel(model)
		if err != nil {
			t.Fatal(err)
		}
		d, err := loadData("testdata/"+name+"_data.json", m)
		if err != nil {
			t.Fatal(err)
		}
		x, y := d.Batch(m)
		n := x.Shape[0]
		out, _, err := runCLI(t, "ir", "-model", model, "-batch", strconv.Itoa(n))
		if err != nil {
			t.Fatalf("%s: ir: %v", name, err)
		}
		g, err := ir.Decode([]byte(out))
		if err != nil {
			t.Fatalf("%s: the printed IR does not decode: %v", name, err)
		}
		vals, err := ir.Denote(g, x)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		p := nn.NewPass(m.Clone())
		if err := p.Forward(x, nil, nn.Eval, 0); err != nil {
			t.Fatal(err)
		}
		if got := vals[len(vals)-1]; !tensor.Identical(got, p.Output()) {
			t.Errorf("%s: IR gives %v, the model %v", name, got, p.Output())
		}

		out, _, err = runCLI(t, "ir", "-model", model, "-batch", strconv.Itoa(n), "-mode", "train", "-loss")
		if err != nil {
			t.Fatalf("%s: ir -loss: %v", name, err)
		}
		if g, err = ir.Decode([]byte(out)); err != nil {
			t.Fatal(err)
		}
		if vals, err = ir.Denote(g, x, y); err != nil {
			t.Fatal(err)
		}
		gout, _, err := runCLI(t, "grad", "-model", model, "-data", "testdata/"+name+"_data.json")
		if err != nil {
			t.Fatal(err)
		}
		if got, want := vals[len(vals)-1].Data[0], parseGrad(t, gout).Loss; got != want {
			t.Errorf("%s: IR loss %v, grad's loss %v", name, got, want)
		}
	}
}

// TestWriteNestedNamesTheNumberJSONCannotHold writes tensors as JSON
// arrays, and for a NaN or an infinity names the element by its indices.
func TestWriteNestedNamesTheNumberJSONCannotHold(t *testing.T) {
	for _, tt := range []struct {
		shape        tensor.Shape
		data         []float64
		want, errMsg string
	}{
		{tensor.Shape{2, 2}, []float64{1, -0.5, 0, 3}, "[[1, -0.5], [0, 3]]", ""},
		{tensor.Shape{}, []float64{2}, "2", ""},
		{tensor.Shape{2, 2}, []float64{1, 2, math.NaN(), 4}, "", "w[1][0] is NaN, which JSON cannot hold"},
		{tensor.Shape{}, []float64{math.Inf(-1)}, "", "w is -Inf, which JSON cannot hold"},
	} {
		var b bytes.Buffer
		err := writeNested(&b, tt.shape, tt.data, "w")
		switch {
		case tt.errMsg == "" && err != nil:
			t.Errorf("%v: %v", tt.shape, err)
		case tt.errMsg != "" && (err == nil || err.Error() != tt.errMsg):
			t.Errorf("%v: error %v, want %q", tt.shape, err, tt.errMsg)
		case tt.errMsg == "" && b.String() != tt.want:
			t.Errorf("%v: wrote %q, want %q", tt.shape, b.String(), tt.want)
		}
	}
}
