package link

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"errors"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"tapelab/engine/spec"
	"tapelab/engine/train"
	"tapelab/wasm/app"
)

// pack deflates raw with the v1 dictionary and adds the prefix, as Encode
// does, so that tests can make links from hand-written envelopes.
func pack(t *testing.T, raw string) string {
	t.Helper()
	var buf bytes.Buffer
	w, err := flate.NewWriterDict(&buf, flate.BestCompression, []byte(dictionary))
	if err != nil {
		t.Fatal(err)
	}
	w.Write([]byte(raw))
	w.Close()
	return Prefix + base64.RawURLEncoding.EncodeToString(buf.Bytes())
}

// cnnModel is an image classifier a drawing fits.
const cnnModel = `{"version":1,"input":[1,8,8],"layers":[{"type":"flatten"},{"type":"linear","out":3}],"loss":"cross_entropy","seed":1}`

const defaultModel = `{"version":1,"input":[2],"layers":[{"type":"linear","out":4},{"type":"tanh"},{"type":"linear","out":1}],"loss":"mse","seed":7}`

func TestRoundTrip(t *testing.T) {
	for _, f := range fixtures {
		t.Run(f.name, func(t *testing.T) {
			s := f.want(t)
			l, err := Encode(s)
			if err != nil {
				t.Fatal(err)
			}
			if strings.ContainsAny(l, "+/=#?& ") {
				t.Errorf("link %q has characters that are not URL-fragment safe", l)
			}
			got, err := Decode("#" + l)
			if err != nil {
				t.Fatal(err)
			}
			equalStates(t, got, s)
			again, _ := Encode(got)
			if again != l {
				t.Errorf("re-encoding the decoded state gives a different link")
			}
		})
	}
}

// TestFlagOrder: equal flag sets give equal links.
// TestCompareRoundTrip encodes optimizers compared beside the model's,
// with every setting off its default, and reads the same settings back.
func TestCompareRoundTrip(t *testing.T) {
	m := Default().Model
	adam := train.DefaultOptimizer("adam")
	adam.LR, adam.Betas, adam.Eps, adam.WeightDecay = 0.01, [2]float64{0.8, 0.99}, 1e-6, 0.001
	st := &State{Model: m, View: ViewTrain, Compare: []train.OptimizerConfig{train.DefaultOptimizer("momentum"), adam}}
	l, err := Encode(st)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Decode(l)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got.Compare, st.Compare) {
		t.Errorf("compare read back %+v, want %+v", got.Compare, st.Compare)
	}
	raw, _ := JSON(st)
	if !strings.Contains(string(raw), `"compare":[{"name":"momentum"},{"name":"adam","lr":0.01,"betas":[0.8,0.99],"eps":0.000001,"weight_decay":0.001}]`) {
		t.Errorf("the envelope writes %s", raw)
	}
}

func TestFlagOrder(t *testing.T) {
	a, b := Default(), Default()
	a.Flags.Hide = []string{"lr", "batch", "lr"}
	b.Flags.Hide = []string{"batch", "lr"}
	la, err := Encode(a)
	if err != nil {
		t.Fatal(err)
	}
	if lb, _ := Encode(b); la != lb {
		t.Errorf("same flags, different links: %s vs %s", la, lb)
	}
}

func TestSorted(t *testing.T) {
	for _, tt := range []struct{ in, want []string }{
		{nil, nil},
		{[]string{}, nil},
		{[]string{"lr"}, []string{"lr"}},
		{[]string{"lr", "batch", "lr"}, []string{"batch", "lr"}},
		{[]string{"b", "a", "c", "a", "b", "a"}, []string{"a", "b", "c"}},
		{[]string{"a", "b", "c"}, []string{"a", "b", "c"}},
		{[]string{"", "z", ""}, []string{"", "z"}},
	} {
		in := slices.Clone(tt.in)
		if got := sorted(in); !slices.Equal(got, tt.want) || (got == nil) != (tt.want == nil) {
			t.Errorf("sorted(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if !slices.Equal(in, tt.in) {
			t.Errorf("sorted(%q) changed its argument to %q", tt.in, in)
		}
	}
}

func TestDecodeErrors(t *testing.T) {
	good, err := Encode(Default())
	if err != nil {
		t.Fatal(err)
	}
	weights, err := os.ReadFile(filepath.Join("testdata", "classifier-weights.link"))
	if err != nil {
		t.Fatal(err)
	}
	w := strings.TrimSpace(string(weights))
	bomb := func() string {
		var buf bytes.Buffer
		fw, _ := flate.NewWriterDict(&buf, flate.BestCompression, []byte(dictionary))
		fw.Write([]byte(`{"model":` + defaultModel + `,"view":"`))
		fw.Write(bytes.Repeat([]byte("a"), MaxExpanded+10))
		fw.Write([]byte(`"}`))
		fw.Close()
		return Prefix + base64.RawURLEncoding.EncodeToString(buf.Bytes())
	}()
	tests := []struct {
		name, link string
		part, msg  string
	}{
		{"empty", "#", "prefix", "empty"},
		{"old scheme", "#activation=tanh&batchSize=10", "prefix", "not a TapeLab link"},
		{"future version", "#v2.abc", "prefix", `starts with "v2"`},
		{"not base64", "#v1.ab*cd", "base64", "character 3"},
		{"truncated", "#" + w[:3+(len(w)-3)/8*4], "deflate", "cut short"},
		{"truncated mid-character", "#" + w[:3+(len(w)-3)/8*4+1], "base64", "cut"},
		{"truncated default", "#" + good[:len(good)-3], "", ""},
		{"zip bomb", bomb, "deflate", "expands to more than"},
		{"not json", pack(t, `model`), "envelope", "not valid JSON"},
		{"unknown field", pack(t, `{"model":`+defaultModel+`,"colour":"red"}`), "envelope", `unknown field "colour"`},
		{"no model", pack(t, `{"view":"train"}`), "model", "missing"},
		{"bad model", pack(t, `{"model":{"version":1,"input":[2],"layers":[{"type":"linear","out":0}],"loss":"mse","seed":7}}`), "model", "layers[0].out"},
		{"model type", pack(t, `{"model":[1,2]}`), "model", "must be a JSON object"},
		{"bad view", pack(t, `{"model":`+defaultModel+`,"view":"graph"}`), "view", `"graph" is not a view`},
		{"view type", pack(t, `{"model":`+defaultModel+`,"view":3}`), "view", "want string"},
		{"bad phase", pack(t, `{"model":`+defaultModel+`,"pos":{"phase":"sideways","node":1}}`), "pos.phase", "not a phase"},
		{"no phase", pack(t, `{"model":`+defaultModel+`,"pos":{"node":1}}`), "pos.phase", "missing"},
		{"negative node", pack(t, `{"model":`+defaultModel+`,"pos":{"phase":"backward","node":-3}}`), "pos.node", "≥ 0"},
		{"fractional node", pack(t, `{"model":`+defaultModel+`,"pos":{"phase":"backward","node":1.5}}`), "pos.node", "want int"},
		{"bad control", pack(t, `{"model":`+defaultModel+`,"flags":{"hide":["lr","colour"]}}`), "flags.hide[1]", `"colour" is not a control`},
		{"negative l2", pack(t, `{"model":`+defaultModel+`,"modes":{"l2":-1}}`), "modes.l2", "≥ 0"},
		{"compare not a list", pack(t, `{"model":`+defaultModel+`,"compare":{"name":"adam"}}`), "compare", "a list of optimizers"},
		{"compare bad field", pack(t, `{"model":`+defaultModel+`,"compare":[{"name":"adam"},{"lr":"fast"}]}`), "compare", "compare[1].lr"},
		{"compare unknown key", pack(t, `{"model":`+defaultModel+`,"compare":[{"rate":0.1}]}`), "compare", "compare[0].rate: unknown field"},
		{"compare bad lr", pack(t, `{"model":`+defaultModel+`,"compare":[{"name":"momentum","lr":-1}]}`), "compare[0].lr", "> 0"},
		{"compare bad beta", pack(t, `{"model":`+defaultModel+`,"compare":[{},{"name":"adam","betas":[0.9,1]}]}`), "compare[1].betas[1]", "[0, 1)"},
		{"compare too many", pack(t, `{"model":`+defaultModel+`,"compare":[{},{},{}]}`), "compare", "at most 2"},
		{"compare of a program", pack(t, `{"program":"a = param(1.0)\nb = a * a","compare":[{}]}`), "compare", "program"},
		{"ragged points", pack(t, `{"model":`+defaultModel+`,"points":{"x":[[1,2],[3]],"y":[0,1]}}`), "points.x[1]", "1 numbers"},
		{"points count", pack(t, `{"model":`+defaultModel+`,"points":{"x":[[1,2]],"y":[0,1]}}`), "points", "1 inputs but 2 targets"},
		{"points half", pack(t, `{"model":`+defaultModel+`,"points":{"x":[[1,2]]}}`), "points", "both x and y"},
		{"batch half", pack(t, `{"model":`+defaultModel+`,"batch":{"y":[1]}}`), "batch", "both x and y"},
		{"batch width", pack(t, `{"model":`+defaultModel+`,"batch":{"x":[[1,2,3]],"y":[1]}}`), "batch.x[0]", "3 numbers"},
		{"batch class", pack(t, `{"model":{"version":1,"input":[2],"layers":[{"type":"linear","out":2}],"loss":"cross_entropy","seed":7},"batch":{"x":[[1,2]],"y":[2]}}`), "batch.y[0]", "whole number from 0 to 1"},
		{"points class", pack(t, `{"model":{"version":1,"input":[2],"layers":[{"type":"linear","out":2}],"loss":"cross_entropy","seed":7},"points":{"x":[[1,2]],"y":[0.5]}}`), "points.y[0]", "class 0.5"},
		{"wide targets", pack(t, `{"model":{"version":1,"input":[2],"layers":[{"type":"linear","out":3}],"loss":"mse","seed":7},"batch":{"x":[[1,2]],"y":[1]}}`), "batch.y", "shape [3]"},
		{"trailing", pack(t, `{"model":`+defaultModel+`}{}`), "envelope", "trailing"},
		{"ends early", pack(t, `{"model":`+defaultModel), "envelope", "ends early"},
		{"duplicate key", pack(t, `{"model":`+defaultModel+`,"view":"train","view":"step"}`), "view", "appears more than once"},
		{"null point", pack(t, `{"model":`+defaultModel+`,"points":{"x":[[1,null]],"y":[0]}}`), "points.x[0][1]", "want float64, got a JSON null"},
		{"huge l2", pack(t, `{"model":`+defaultModel+`,"modes":{"l2":1e999}}`), "modes.l2", "want float64, got a JSON number 1e999"},
		{"unknown nested field", pack(t, `{"model":`+defaultModel+`,"flags":{"hidden":["lr"]}}`), "envelope", `unknown field "hidden"`},
		{"not an object", pack(t, `[1]`), "envelope", "want an object, got a JSON array"},
		{"accumulate type", pack(t, `{"model":`+defaultModel+`,"accumulate":1}`), "accumulate", "want bool, got a JSON number 1"},
		{"drawing on points", pack(t, `{"model":`+defaultModel+`,"drawing":{"example":0,"strokes":[[1,2]]}}`), "drawing", "one-channel square images"},
		{"drawing odd", pack(t, `{"model":`+cnnModel+`,"drawing":{"example":0,"strokes":[[1,2,3]]}}`), "drawing.strokes[0]", "want x, y pairs"},
		{"drawing no example", pack(t, `{"model":`+cnnModel+`,"drawing":{"strokes":[[1,2]]}}`), "drawing.example", "got -1"},
		{"drawing nan", pack(t, `{"model":`+cnnModel+`,"drawing":{"example":1,"strokes":[[1,2],[3,"x"]]}}`), "drawing.strokes[1][1]", "want float64"},
		{"drawing empty stroke", pack(t, `{"model":`+cnnModel+`,"drawing":{"example":1,"strokes":[[1,2],[]]}}`), "drawing.strokes[1]", "want x, y pairs, at least one"},
		{"drawing no strokes", pack(t, `{"model":`+cnnModel+`,"drawing":{"example":1,"strokes":[]}}`), "drawing.strokes", "0 numbers, want 2 to"},
		{"drawing field", pack(t, `{"model":`+cnnModel+`,"drawing":{"example":1,"ink":[]}}`), "envelope", `unknown field "ink"`},
		{"drawing in a program", pack(t, `{"program":"a = param(1.0)\n","drawing":{"example":0,"strokes":[[1,2]]}}`), "drawing", "belongs to a model"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := Decode(tt.link)
			if err == nil {
				t.Fatalf("decoded %q without error: %+v", tt.link, s)
			}
			var le *Error
			if !errors.As(err, &le) {
				t.Fatalf("error %v is a %T, want *link.Error", err, err)
			}
			if tt.part != "" && le.Part != tt.part {
				t.Errorf("error %q names part %q, want %q", err, le.Part, tt.part)
			}
			if !strings.Contains(err.Error(), tt.msg) {
				t.Errorf("error %q does not say %q", err, tt.msg)
			}
			if tt.name == "empty" {
				return // Open treats an empty fragment as no link
			}
			// The page's fallback: the default model with the message.
			def, oerr := Open(tt.link)
			if oerr == nil || def == nil || def.Model == nil {
				t.Fatalf("Open(%q) = %v, %v; want the default state and the error", tt.link, def, oerr)
			}
		})
	}
}

func TestModelErrorUnwraps(t *testing.T) {
	_, err := Decode(pack(t, `{"model":{"version":1,"input":[2],"layers":[{"type":"linear","out":-1}],"loss":"mse","seed":7}}`))
	var se *spec.Error
	if !errors.As(err, &se) || se.Path != "layers[0].out" {
		t.Fatalf("error %v does not unwrap to the spec's error for layers[0].out", err)
	}
}

func TestOpenEmpty(t *testing.T) {
	for _, f := range []string{"", "#"} {
		s, err := Open(f)
		if err != nil || s.Model == nil || s.View != ViewStep {
			t.Errorf("Open(%q) = %+v, %v; want the default state", f, s, err)
		}
	}
}

// stepperFor records the playground's step for a link's model.
func stepperFor(t *testing.T, s *State) *app.Stepper {
	t.Helper()
	d := app.Doc{Input: s.Model.Input, Layers: s.Model.Layers, Loss: s.Model.Loss, Seed: s.Model.Seed}
	x := [][]float64{{0.5, -1}, {1, 2}, {-0.25, 0.75}, {3, 1}}
	b, err := app.MiniBatch(newMatrix(x), newMatrix([][]float64{{1}, {0}, {1}, {0}}), 4, d.Loss)
	if err != nil {
		t.Fatal(err)
	}
	pg, err := app.New(d, b)
	if err != nil {
		t.Fatal(err)
	}
	if err := pg.SetModes(s.Modes); err != nil {
		t.Fatal(err)
	}
	return pg.Stepper()
}

func TestSeek(t *testing.T) {
	var mid *State
	for _, f := range fixtures {
		if f.name == "mid-backward" {
			mid = f.want(t)
		}
	}
	st := stepperFor(t, mid)
	n := len(st.Nodes())
	for _, p := range []Position{{}, {PhaseForward, 3}, mid.Pos, {PhaseDone, -1}} {
		if err := Seek(st, p); err != nil {
			t.Fatalf("Seek(%+v): %v", p, err)
		}
		got := PositionOf(st)
		if p.IsStart() {
			if !got.IsStart() {
				t.Errorf("Seek to the start stands at %+v", got)
			}
			continue
		}
		if got != p {
			t.Errorf("Seek(%+v) stands at %+v", p, got)
		}
	}
	// node 9 is the metric beside the loss: single-output backward skips it
	for _, p := range []Position{{PhaseForward, n + 5}, {PhaseBackward, n + 5}, {PhaseBackward, 9}} {
		err := Seek(st, p)
		var le *Error
		if !errors.As(err, &le) || le.Part != "pos.node" {
			t.Errorf("Seek(%+v) = %v; want a pos.node error", p, err)
		}
		if !PositionOf(st).IsStart() {
			t.Errorf("a failed Seek left the stepper at %+v", PositionOf(st))
		}
	}
}

// TestSizes logs each kept link's size and checks that packing
// beats the plain JSON envelope, even percent-encoded as a URL would carry it.
func TestSizes(t *testing.T) {
	for _, f := range fixtures {
		s := f.want(t)
		raw, _ := JSON(s)
		l, _ := Encode(s)
		esc := url.PathEscape(string(raw))
		t.Logf("%-20s JSON %5d B, percent-encoded %5d chars, link #%s %5d chars", f.name, len(raw), len(esc), "", len(l)+1)
		if len(l) >= len(esc) {
			t.Errorf("%s: the link (%d chars) is not shorter than its percent-encoded JSON (%d)", f.name, len(l), len(esc))
		}
	}
	def, _ := Encode(Default())
	if len(def) > 40 {
		t.Errorf("the default link is %d characters, want a short one", len(def))
	}
}

// TestSeekQuietNode: a link made when the dense pass stepped the metric
// on its own (backward at node 9) opens at the step that now runs it.
func TestSeekQuietNode(t *testing.T) {
	st := stepperFor(t, Default())
	const metric = 9
	if !st.Quiet(metric) {
		t.Fatalf("node %d (%s) is not quiet in the dense pass", metric, st.Nodes()[metric].Title())
	}
	if err := Seek(st, Position{PhaseBackward, metric}); err != nil {
		t.Fatalf("Seek to the metric: %v", err)
	}
	if !st.State(metric).Has(app.Ran) || st.Counts().Backward != 1 {
		t.Errorf("Seek to the metric stands at %+v, %d steps, the metric's state %b", PositionOf(st), st.Counts().Backward, st.State(metric))
	}
}
