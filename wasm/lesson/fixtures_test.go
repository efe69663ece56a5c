package lesson

import (
	"flag"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"tapelab/engine/tensor"
	"tapelab/engine/train"
	"tapelab/internal/kept"
	"tapelab/wasm/app"
	"tapelab/wasm/link"
)

var updateFixtures = flag.Bool("update", false, "rewrite the kept lessons in testdata and builtin (only when adding one: existing ones must never change)")

// fixtures are kept version 1 lessons: testdata/NAME.json holds the
// document and testdata/NAME.lesson the link fragment the v1 encoder
// wrote, and want is the lesson they must keep decoding to.
var fixtures = []struct {
	name string
	want func(t *testing.T) *Lesson
}{
	{"update-stop", func(*testing.T) *Lesson {
		// the default model stopped after the momentum step of its first
		// tensor, and a question on that tensor's new weight
		st := link.Default()
		st.Model.Optimizer = train.OptimizerConfig{Name: "momentum", LR: 0.1, Momentum: 0.5, Betas: [2]float64{0.9, 0.999}, Eps: 1e-8}
		st.Model.Params = map[string]*tensor.Tensor{
			"0.weight": tensor.Matrix([][]float64{{0.5, -0.25}, {0.125, 1}, {-1, 0.75}, {0.25, 0.5}}),
			"0.bias":   tensor.Vector(0.1, -0.2, 0.3, -0.4),
			"2.weight": tensor.Matrix([][]float64{{1, -0.5, 0.25, -0.125}}),
			"2.bias":   tensor.Vector(0.05),
		}
		st.Batch = &link.Points{X: [][]float64{{1, 2}, {-3, 0.5}}, Y: []float64{0.3, -0.25}}
		st.Pos = link.Position{Phase: link.PhaseDone, Node: -1}
		st.Update = &link.Update{N: 1, Steps: []int{1, 1, 1, 1},
			Buffers: [][][]float64{{{0.5, 0.25, -0.125, 0, 1, -1, 0.5, 0.25}, {0.1, 0.2, 0.3, 0.4}, {-0.5, 0.5, -0.25, 0.25}, {0.75}}}}
		return &Lesson{Title: "One update", Stops: []Stop{
			{State: link.Default(), Caption: "Step forward, backward, then → on into the update."},
			{State: st, Caption: "The optimizer stepped **0.weight**: b ← μ·b + g, w ← w − η·b.", Question: &Question{Node: 2, Of: OfValue, Element: 0, Answer: AnswerNumber}},
		}}
	}},
	{"one-stop", func(*testing.T) *Lesson {
		return &Lesson{Title: "One stop", Stops: []Stop{{State: link.Default()}}}
	}},
	{"model-and-program", func(t *testing.T) *Lesson {
		mid := link.Default()
		mid.Pos = link.Position{Phase: link.PhaseBackward, Node: 12}
		mid.Modes = app.Modes{Single: true, L2: 0.01}
		mid.Flags = link.Flags{Presenter: true, Hide: []string{"share"}}
		return &Lesson{Title: "Models, programs & <b>markup</b> in a title", Stops: []Stop{
			{State: link.Default(), Caption: "Plain **bold** `code`\nnext line\n\nsecond <img src=x onerror=alert(1)> paragraph"},
			{State: mid, Caption: "A question on a gradient.", Select: ptr(6), Question: &Question{Node: 4, Of: OfGrad, Element: 3, Answer: AnswerNumber}},
			{State: &link.State{Program: example(t, "lecture"), View: link.ViewStep, Pos: link.Position{Phase: link.PhaseDone, Node: -1}, Modes: app.Modes{Compiled: true}},
				Question: &Question{Node: 0, Of: OfValue, Answer: AnswerSign}},
		}}
	}},
}

// TestFixtures proves that every kept lesson still decodes, from its
// document and from its link, to the lesson it was made from, that the
// encoder still writes the document byte for byte, and that it packs it in
// a link no longer than the kept one (the kept links were deflated by
// compress/flate, as the encoder deflates them; the document they hold is
// compared, not the compressed bytes, which a change of compressor may
// change).
func TestFixtures(t *testing.T) {
	for _, f := range fixtures {
		t.Run(f.name, func(t *testing.T) {
			want := f.want(t)
			docPath := filepath.Join("testdata", f.name+".json")
			linkPath := filepath.Join("testdata", f.name+".lesson")
			doc := kept.File(t, docPath, *updateFixtures, func() ([]byte, error) { return Encode(want) })
			frag := kept.File(t, linkPath, *updateFixtures, func() ([]byte, error) {
				f, err := Fragment(want)
				return []byte(f), err
			})
			fromDoc, err := Decode(doc)
			if err != nil {
				t.Fatalf("the kept lesson %s no longer decodes: %v", docPath, err)
			}
			fromLink, err := DecodeFragment("#" + strings.TrimSpace(string(frag)))
			if err != nil {
				t.Fatalf("the kept lesson link %s no longer decodes: %v", linkPath, err)
			}
			equalLessons(t, fromDoc, want)
			equalLessons(t, fromLink, want)
			if got, _ := Encode(want); string(got) != strings.TrimSpace(string(doc)) {
				t.Errorf("the encoder no longer writes %s:\n got %s\nwant %s", docPath, got, doc)
			}
			got, err := Fragment(want)
			if err != nil {
				t.Fatal(err)
			}
			stored := strings.TrimSpace(string(frag))
			if len(got) > len(stored) {
				t.Errorf("the encoder writes %d characters for the kept link %s of %d", len(got), linkPath, len(stored))
			}
			gotDoc, err := link.Inflate(got[len(Prefix):])
			if err != nil {
				t.Fatal(err)
			}
			keptDoc, err := link.Inflate(stored[len(Prefix):])
			if err != nil {
				t.Fatal(err)
			}
			if string(gotDoc) != string(keptDoc) {
				t.Errorf("the encoder's link holds another document than %s:\n got %s\nwant %s", linkPath, gotDoc, keptDoc)
			}
		})
	}
}

// equalLessons compares two lessons, each stop's state through its
// canonical envelope (which covers a model's parameters bit for bit).
func equalLessons(t *testing.T, got, want *Lesson) {
	t.Helper()
	if got.Title != want.Title || len(got.Stops) != len(want.Stops) {
		t.Fatalf("lesson %q with %d stops, want %q with %d", got.Title, len(got.Stops), want.Title, len(want.Stops))
	}
	for i := range want.Stops {
		g, w := got.Stops[i], want.Stops[i]
		gj, err := link.JSON(g.State)
		if err != nil {
			t.Fatal(err)
		}
		wj, err := link.JSON(w.State)
		if err != nil {
			t.Fatal(err)
		}
		if string(gj) != string(wj) {
			t.Errorf("stop %d state:\n got %s\nwant %s", i, gj, wj)
		}
		if g.Caption != w.Caption || !reflect.DeepEqual(g.Question, w.Question) {
			t.Errorf("stop %d: caption %q question %+v, want %q %+v", i, g.Caption, g.Question, w.Caption, w.Question)
		}
	}
}
