package state

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"tapelab/engine/autograd"
	"tapelab/engine/nn"
	"tapelab/engine/program"
	"tapelab/engine/spec"
	"tapelab/engine/tensor"
	"tapelab/engine/train"
	"tapelab/static"
	"tapelab/wasm/app"
	"tapelab/wasm/link"
)

func model() *spec.Model {
	return spec.New(tensor.Shape{2}, nn.MSE, nn.NewLinear(1))
}

// addDataFile gives s the named dataset's data file (if it has one), as
// the page fetches it before it opens a link on that dataset.
func addDataFile(t *testing.T, s *State, name string) {
	t.Helper()
	if train.DataFile(name) == "" {
		return
	}
	d, err := static.Digits()
	if err != nil {
		t.Fatal(err)
	}
	s.AddDataFile(name, d)
}

// TestLinksSurviveReplaceThenLink opens every kept link, replaces the
// state by it and asks the state for its link: what a link carries comes
// back as it was.
func TestLinksSurviveReplaceThenLink(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "link", "testdata", "*.link"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no kept links: %v", err)
	}
	progs, _ := filepath.Glob(filepath.Join("..", "link", "testdata", "programs", "*.link"))
	for _, f := range append(files, progs...) {
		t.Run(filepath.Base(f), func(t *testing.T) {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			frag := strings.TrimSpace(string(b))
			st, err := link.Open(frag)
			if err != nil {
				t.Fatal(err)
			}
			s := New(link.DefaultDataset)
			if st.Model != nil {
				addDataFile(t, s, st.Model.Dataset.Name) // as the page fetches it before opening the link
			}
			s.Replace(st)
			if err := s.Opened(); err != nil {
				t.Fatalf("Replace: %v", err)
			}
			want, err := link.Encode(st)
			if err != nil {
				t.Fatal(err)
			}
			got, err := link.Encode(s.Link())
			if err != nil {
				t.Fatal(err)
			}
			if got != want && !filledIn(st, s.Link()) {
				gs, _ := link.Open(got)
				t.Errorf("the state's link differs from the one it opened:\n got %+v\nwant %+v", gs, st)
			}
			// The state's own link comes back exactly.
			again := New(link.DefaultDataset)
			if st.Model != nil {
				addDataFile(t, again, st.Model.Dataset.Name)
			}
			again.Replace(s.Link())
			if err := again.Opened(); err != nil {
				t.Fatal(err)
			}
			if twice, _ := link.Encode(again.Link()); twice != got {
				t.Errorf("the state's own link did not survive a second trip")
			}
		})
	}
}

// filledIn reports whether out is in but for the parameters in does not
// name, which the state's link carries with their seeded values.
func filledIn(in, out *link.State) bool {
	if in.Model == nil || out.Model == nil || len(in.Model.Params) >= len(out.Model.Params) {
		return false
	}
	for name, v := range in.Model.Params {
		w := out.Model.Params[name]
		if w == nil || !slices.Equal(v.Data, w.Data) {
			return false
		}
	}
	c := *out
	m := *out.Model
	m.Params = in.Model.Params
	c.Model = &m
	a, _ := link.Encode(in)
	b, _ := link.Encode(&c)
	return a == b
}

// TestReplaceThenLink replaces the state by a link's and asks for it back:
// the view, flags, training settings and points survive the trip.
func TestReplaceThenLink(t *testing.T) {
	m := model()
	m.Dataset = DefaultTraining("xor").Data
	m.Dataset.Name = "xor"
	m.Optimizer = DefaultTraining("xor").Optimizer
	m.Optimizer.LR = 0.3
	m.BatchSize = 7
	in := &link.State{Model: m, View: link.ViewTrain,
		Flags:  link.Flags{Hide: []string{"lr"}, Lock: []string{"model"}, Presenter: true},
		Points: &link.Points{X: [][]float64{{1, 2}}, Y: []float64{1}}}
	s := New(link.DefaultDataset)
	s.Replace(in)
	if err := s.Opened(); err != nil {
		t.Fatal(err)
	}
	if s.View() != link.ViewTrain || s.Training().Dataset != PointsDataset || s.Training().Data.Name != "xor" ||
		!s.Locked("model") || !s.Locked("lr") || s.Locked("stepper") || s.Dataset() != "xor" {
		t.Fatalf("after Replace: view %q, training %+v, flags %+v, dataset %q", s.View(), s.Training(), s.Flags(), s.Dataset())
	}
	out := s.Link()
	om := out.Model
	if out.View != link.ViewTrain || out.Points != in.Points || !out.Flags.Presenter || om.BatchSize != 7 ||
		om.Optimizer.LR != 0.3 || om.Dataset.Name != "xor" {
		t.Errorf("Link gave view %q, points %v, flags %+v, model batch %d, lr %v, dataset %q",
			out.View, out.Points, out.Flags, om.BatchSize, om.Optimizer.LR, om.Dataset.Name)
	}
	// Without points the dataset's name is the menu's.
	s.SetPoints(nil)
	s.SetTraining(DefaultTraining("moons"))
	if out := s.Link(); out.Points != nil || out.Model.Dataset.Name != "moons" {
		t.Errorf("without points: points %v, dataset %q", out.Points, out.Model.Dataset.Name)
	}
}

// TestReplaceWithoutDataset opens a model document shared without a
// dataset: the training view uses the default dataset's full settings.
func TestReplaceWithoutDataset(t *testing.T) {
	s := New(link.DefaultDataset)
	s.Replace(&link.State{Model: model()})
	if err := s.Opened(); err != nil {
		t.Fatal(err)
	}
	if got := s.Training(); got.Dataset != link.DefaultDataset || got.Data != DefaultTraining(link.DefaultDataset).Data {
		t.Errorf("training %+v, want the default dataset %q", got, link.DefaultDataset)
	}
	if s.View() != link.ViewStep {
		t.Errorf("view %q, want %q", s.View(), link.ViewStep)
	}
}

// TestReplaceKeepsWhatApplies opens a link whose position the tape never
// reaches: the error names it and the model stands.
func TestReplaceKeepsWhatApplies(t *testing.T) {
	s := New(link.DefaultDataset)
	s.Replace(&link.State{Model: model(), Pos: link.Position{Phase: link.PhaseForward, Node: 999}})
	err := s.Opened()
	if err == nil || !strings.Contains(err.Error(), "pos.node") {
		t.Fatalf("error %v, want one naming pos.node", err)
	}
	if s.Model().Doc().Input.Size() != 2 || s.Source().Stepper() == nil {
		t.Errorf("the link's model was not recorded: %v", s.Model().Doc())
	}
}

// TestChangesAreAnnounced checks that every method that changes the
// state tells its listeners what it changed.
func TestChangesAreAnnounced(t *testing.T) {
	s := New(link.DefaultDataset)
	told := follow(s)
	recorded := Step | Selection | Position
	d := s.Model().Doc()
	edited := d
	edited.Seed++
	for _, c := range []struct {
		name string
		do   func()
		want Change
	}{
		{"SetView", func() { s.SetView(link.ViewTrain) }, View},
		{"SetFlags", func() { s.SetFlags(link.Flags{Embed: true}) }, Flags},
		{"SetTraining", func() { s.SetTraining(DefaultTraining("xor")) }, Training},
		{"SetPoints", func() { s.SetPoints(&link.Points{}) }, Points},
		{"SetTrained", func() { s.SetTrained(d, nil) }, Trained},
		{"Edit", func() { _ = s.Edit(edited) }, recorded},
		{"Undo", func() { s.Undo() }, recorded | Doc},
		{"Redo", func() { s.Redo() }, recorded | Doc},
		{"SetModes", func() { _ = s.SetModes(app.Modes{Compiled: true}) }, recorded},
		{"SetDataset", func() { _ = s.SetDataset("xor") }, recorded},
		{"Select", func() { s.Select(2) }, Selection},
		{"Move", func() { s.Move((*app.Stepper).Step) }, Position | Selection},
		{"Jump", func() { s.Jump(func(st *app.Stepper) bool { st.ToEnd(); return true }) }, Position},
		{"SetProgramMode", func() { s.SetProgramMode(true) }, recorded | Editing | View},
		{"EditProgram", func() { _ = s.EditProgram("a = param(1.0)\nb = a * a\n") }, recorded},
		{"OpenProgram", func() { _ = s.OpenProgram("a = param(2.0)\n", app.Modes{}) }, recorded | Doc | Editing | View},
		{"SetForward", func() { s.SetForward([][]float64{{1}}) }, Forward},
		{"Replace", func() { s.Replace(&link.State{Model: model()}) }, All},
	} {
		*told = (*told)[:0]
		c.do()
		if len(*told) != 1 || (*told)[0].c != c.want {
			t.Errorf("%s told %v, want %b alone", c.name, *told, c.want)
		}
	}
}

// TestRecordingLetsGoOfThePinnedNode checks that a node pinned in the
// inspector is let go when the tape it belongs to is recorded again or
// the stepper moves.
func TestRecordingLetsGoOfThePinnedNode(t *testing.T) {
	s := New(link.DefaultDataset)
	for name, change := range map[string]func(){
		"SetModes": func() { _ = s.SetModes(app.Modes{Single: true}) },
		"Move":     func() { s.Move(func(*app.Stepper) (autograd.Event, bool) { return autograd.Event{}, false }) },
		"Jump":     func() { s.Jump(func(*app.Stepper) bool { return false }) },
		"Edit":     func() { _ = s.Edit(s.Model().Doc()) },
	} {
		s.Select(3)
		change()
		if got := s.Selected(); got != -1 {
			t.Errorf("after %s the pinned node is %d, want -1", name, got)
		}
	}
}

// TestLinkCarriesInspectedWeights inspects a training step (weights and
// batch) in the stepping view: its link carries both, until an edit
// records the model from its seed again.
func TestLinkCarriesInspectedWeights(t *testing.T) {
	s := New(link.DefaultDataset)
	s.SetView(link.ViewTrain)
	pg := s.Model()
	w := pg.Model().StateDictCopy()
	for _, v := range w {
		for i := range v.Data {
			v.Data[i] = 0.25
		}
	}
	b := pg.Batch()
	if err := s.Inspect(pg.Doc(), w, b); err != nil {
		t.Fatal(err)
	}
	st := s.Link()
	if s.View() != link.ViewStep || len(st.Model.Params) != len(w) || st.Batch == nil || len(st.Batch.X) != b.X.Shape[0] {
		t.Fatalf("after Inspect: view %q, %d params (want %d), batch %v", s.View(), len(st.Model.Params), len(w), st.Batch)
	}
	for name, v := range st.Model.Params {
		if v.Data[0] != 0.25 {
			t.Errorf("param %s = %v, want the inspected 0.25", name, v.Data[0])
		}
	}
	_ = s.Edit(pg.Doc())
	if st := s.Link(); st.Model.Params != nil || st.Batch != nil {
		t.Errorf("after an edit the link still carries weights (%d) or a batch (%v)", len(st.Model.Params), st.Batch)
	}
}

// TestProgramModeStaysInTheSteppingView checks that a program is never
// shown in the training view.
func TestProgramModeStaysInTheSteppingView(t *testing.T) {
	s := New(link.DefaultDataset)
	s.SetView(link.ViewTrain)
	s.SetProgramMode(true)
	if s.View() != link.ViewStep {
		t.Errorf("Program mode in view %q", s.View())
	}
	s.SetView(link.ViewTrain)
	if s.View() != link.ViewStep {
		t.Errorf("SetView(train) in Program mode gave view %q", s.View())
	}
	if st := s.Link(); st.Program != s.Program().Text() || st.Model != nil {
		t.Errorf("Program mode's link: program %q, model %v", st.Program, st.Model)
	}
}

// TestSetDatasetRefusesUnknown checks that an unknown dataset is an error
// and changes nothing.
func TestSetDatasetRefusesUnknown(t *testing.T) {
	s := New(link.DefaultDataset)
	before := s.Model().Batch()
	if err := s.SetDataset("no-such-set"); err == nil {
		t.Fatal("no error for an unknown dataset")
	}
	if s.Dataset() != link.DefaultDataset || s.Model().Batch().X != before.X {
		t.Errorf("an unknown dataset changed the state: dataset %q", s.Dataset())
	}
}

// TestFlagsAreCopied checks that the flags a caller passes or gets cannot
// change the state behind its back.
func TestFlagsAreCopied(t *testing.T) {
	s := New(link.DefaultDataset)
	f := link.Flags{Lock: []string{"model"}}
	s.SetFlags(f)
	f.Lock[0] = "stepper"
	got := s.Flags()
	got.Lock[0] = "share"
	if !s.Locked("model") || s.Locked("stepper") || s.Locked("share") {
		t.Errorf("the state's flags changed from outside: %+v", s.Flags())
	}
}

// digitsLink opens the kept link of a model on the digits, a dataset read
// from a data file.
func digitsLink(t *testing.T) *link.State {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "link", "testdata", "digits-cnn.link"))
	if err != nil {
		t.Fatal(err)
	}
	st, err := link.Open(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// TestLinkWaitsForItsDataFile opens a link on a dataset read from a data
// file before the file is there: the state stays as it was and gives the
// link back as it came; the file applies the link (All), and the step is
// then the link's.
func TestLinkWaitsForItsDataFile(t *testing.T) {
	st := digitsLink(t)
	want, _ := link.Encode(st)
	s := New(link.DefaultDataset)
	before := s.Model().Doc()
	told := follow(s)
	s.Replace(st)
	if len(*told) != 1 || (*told)[0].c != Opened {
		t.Errorf("a waiting link told %v, want Opened alone", *told)
	}
	if s.Waiting() != "digits" {
		t.Fatalf("Waiting() = %q, want digits", s.Waiting())
	}
	if err := s.Opened(); err != nil || !s.Model().Doc().Equal(before) {
		t.Fatalf("while waiting: error %v, model %v (want the one it had)", err, s.Model().Doc())
	}
	if got, _ := link.Encode(s.Link()); got != want {
		t.Errorf("while waiting the state's link is not the one it took")
	}
	*told = (*told)[:0]
	addDataFile(t, s, "digits")
	if len(*told) != 1 || (*told)[0].c != All {
		t.Errorf("the data file told %v, want All alone", *told)
	}
	if s.Waiting() != "" || s.Opened() != nil || !s.Model().Doc().Equal(docOf(st.Model)) {
		t.Errorf("after the file: waiting %q, model %v", s.Waiting(), s.Model().Doc())
	}
}

// TestForwardFitsTheProgram checks that forward mode's direction follows
// the program's leaves: one that no longer fits is the first leaf's
// one-hot, and the link carries the fitted direction.
func TestForwardFitsTheProgram(t *testing.T) {
	s := New(link.DefaultDataset)
	if err := s.OpenProgram("a = param(2.0)\nb = param([1.0, 2.0])\nc = a * sum(b)\n", app.Modes{}); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name     string
		set, get [][]float64
	}{
		{"off", nil, nil},
		{"fits", [][]float64{{0.5}, {0, 2}}, [][]float64{{0.5}, {0, 2}}},
		{"misfit", [][]float64{{1}, {0}}, [][]float64{{1}, {0, 0}}},
	} {
		s.SetForward(c.set)
		if got := s.Forward(); !reflect.DeepEqual(got, c.get) {
			t.Errorf("%s: Forward() = %v, want %v", c.name, got, c.get)
		}
		if got := s.Link().Forward; !reflect.DeepEqual(got, c.get) {
			t.Errorf("%s: the link carries %v, want %v", c.name, got, c.get)
		}
		if _, err := link.Encode(s.Link()); err != nil {
			t.Errorf("%s: the state's link does not encode: %v", c.name, err)
		}
	}
}

// TestDrawingStaysWhileTheBatchHoldsIt: a drawing made the example is in
// the link of the stepping view, with the pixels the ink downsamples to;
// a new batch (another dataset) drops it, and so does the training view.
func TestDrawingStaysWhileTheBatchHoldsIt(t *testing.T) {
	s := New(link.DefaultDataset)
	addDataFile(t, s, "digits")
	if err := s.SetDataset("shapes"); err != nil {
		t.Fatal(err)
	}
	s.SetTraining(DefaultTraining("shapes"))
	if err := s.Edit(app.DefaultCNN(train.ExampleShape("shapes"), 5)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.UseDrawing(link.Drawing{Example: 1}); err == nil {
		t.Error("an empty drawing was accepted")
	}
	ink := app.Ink{Strokes: [][]float64{{10, 80, 150, 80}}}
	pr, err := s.UseDrawing(link.Drawing{Example: 1, Ink: ink})
	if err != nil {
		t.Fatal(err)
	}
	b := s.Model().Batch()
	if px := ink.Pixels(8); !slices.Equal(b.X.Data[64:128], px) || b.Y.Data[1] != float64(pr.Class) {
		t.Fatalf("example 1 is %v (target %v), want the drawing %v (target %d)", b.X.Data[64:128], b.Y.Data[1], px, pr.Class)
	}
	st := s.Link()
	if st.Drawing == nil || st.Drawing.Example != 1 || !reflect.DeepEqual(st.Drawing.Ink, ink) {
		t.Fatalf("the link's drawing is %+v", st.Drawing)
	}
	again := New(link.DefaultDataset)
	again.Replace(st)
	if err := again.Opened(); err != nil {
		t.Fatal(err)
	}
	if got := again.Model().Batch(); !slices.Equal(got.X.Data, b.X.Data) || !slices.Equal(got.Y.Data, b.Y.Data) {
		t.Error("the link's batch differs from the one drawn on")
	}
	s.SetView(link.ViewTrain)
	if s.Link().Drawing != nil {
		t.Error("the training view's link carries the drawing")
	}
	s.SetView(link.ViewStep)
	if err := s.SetDataset("digits"); err != nil {
		t.Fatal(err)
	}
	if s.Drawing() != nil || s.Link().Drawing != nil {
		t.Error("the drawing outlived its batch")
	}
}

// TestAnnounceRepeatsWhatReplaceAnnounced checks that a listener that
// subscribes after a link was opened (the page opens its link before the
// views follow the state) is told what Replace told: All for a link that
// applied, Opened alone for one that waits for its data file, with the
// state unchanged.
func TestAnnounceRepeatsWhatReplaceAnnounced(t *testing.T) {
	waiting := digitsLink(t)
	for _, tc := range []struct {
		name string
		st   *link.State
		want Change
	}{
		{"default", link.Default(), All},
		{"waiting", waiting, Opened},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := New(link.DefaultDataset)
			s.Replace(tc.st)
			if err := s.Opened(); err != nil {
				t.Fatal(err)
			}
			rec := s.Model().Recording()
			told := follow(s)
			s.Announce()
			if len(*told) != 1 || (*told)[0].c != tc.want {
				t.Errorf("Announce told %v, want %b alone", *told, tc.want)
			}
			if s.Model().Recording() != rec {
				t.Error("Announce recorded the step again")
			}
		})
	}
}

// TestDefaultModelRecordedOnRead checks that New records its default
// model only when it is read: a link that replaces the model first is
// the only step recorded, and a link that leaves the model side as it was
// (a program, one waiting for its data file) gets the default model
// recorded when the model is read. Either starts the model's history.
func TestDefaultModelRecordedOnRead(t *testing.T) {
	tests := []struct {
		name    string
		link    *link.State // nil: no link
		doc     app.Doc     // the model's document once read
		program bool        // the link opens in Program mode
		errPart string      // what Opened's error names ("": none)
	}{
		{name: "no link", doc: app.DefaultDoc()},
		{name: "a model's link", link: &link.State{Model: model()}, doc: docOf(model())},
		{name: "a program's link", link: &link.State{Program: program.Examples()[0].Text}, doc: app.DefaultDoc(), program: true},
		{name: "a link waiting for its data file", link: digitsLink(t), doc: app.DefaultDoc()},
		{name: "a batch that does not fit", link: &link.State{Model: model(), Batch: &link.Points{X: [][]float64{{1, 2}, {3, 4}}, Y: []float64{1}}}, doc: docOf(model()), errPart: "row per example"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := New(link.DefaultDataset)
			if tt.link != nil {
				s.Replace(tt.link)
			}
			if s.model.Recording() != nil {
				t.Fatal("the model was recorded before anything read it")
			}
			err := s.Opened()
			if (err == nil) != (tt.errPart == "") || err != nil && !strings.Contains(err.Error(), tt.errPart) {
				t.Errorf("Opened() = %v, want an error naming %q", err, tt.errPart)
			}
			if got := s.Model(); !got.Doc().Equal(tt.doc) || got.Stepper() == nil || got.CanUndo() {
				t.Errorf("the model read: %v, stepper %v, undo %v; want %v recorded, nothing to undo", got.Doc(), got.Stepper() != nil, got.CanUndo(), tt.doc)
			}
			if s.ProgramMode() != tt.program {
				t.Errorf("Program mode %v, want %v", s.ProgramMode(), tt.program)
			}
		})
	}
}

// BenchmarkOpenDefaultLink makes a new state, opens the page's default
// link on it and records its step, as start-up does.
func BenchmarkOpenDefaultLink(b *testing.B) {
	for b.Loop() {
		s := New(link.DefaultDataset)
		s.Replace(link.Default())
		if err := s.Opened(); err != nil {
			b.Fatal(err)
		}
	}
}

// TestBatchFollowsDataSettings checks that the step's mini-batch is taken
// from the data the document's settings generate (noise, seed), whether
// they come with a link or are changed afterwards.
func TestBatchFollowsDataSettings(t *testing.T) {
	d := app.DefaultCNN(tensor.Shape{1, 8, 8}, 5)
	m := spec.New(d.Input, d.Loss, d.Layers...)
	m.Dataset = train.DefaultData("shapes")
	m.Dataset.Noise, m.Dataset.Seed = 0.15, 2
	first := func(c train.DataConfig) []float64 {
		tr, _, err := train.Generate(c)
		if err != nil {
			t.Fatal(err)
		}
		return tr.X.Data[:BatchSize*64]
	}
	tests := []struct {
		name   string
		change func(*State)
		want   train.DataConfig
	}{
		{"the link's settings", func(*State) {}, m.Dataset},
		{"noise changed after", func(s *State) {
			tr := s.Training()
			tr.Data.Noise = 0.3
			s.SetTraining(tr)
		}, train.DataConfig{Name: "shapes", N: 500, TrainSplit: 0.5, Noise: 0.3, Seed: 2}},
		{"seed changed after", func(s *State) {
			tr := s.Training()
			tr.Data.Seed = 9
			s.SetTraining(tr)
		}, train.DataConfig{Name: "shapes", N: 500, TrainSplit: 0.5, Noise: 0.15, Seed: 9}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := New(link.DefaultDataset)
			s.Model() // the default model recorded first, as the page draws it
			s.Replace(&link.State{Model: m})
			s.Model()
			tt.change(s)
			if got := s.Model().Batch().X.Data; !slices.Equal(got, first(tt.want)) {
				t.Errorf("the step's batch is not the first examples of %+v", tt.want)
			}
		})
	}
}
