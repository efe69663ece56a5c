package link_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tapelab/engine/budget"
	"tapelab/engine/program"
	"tapelab/engine/spec"
	"tapelab/engine/train"
	"tapelab/wasm/app"
	"tapelab/wasm/lesson"
	"tapelab/wasm/link"
)

// shipped is one document TapeLab ships or tests with, and its cost.
type shipped struct {
	name string
	cost budget.Cost
}

// shippedDocuments measures every document the page ships (the default
// model on each dataset, the default CNN on each image dataset, the
// gallery's programs, the built-in lessons' stops) and every kept link
// fixture the e2e tests open.
func shippedDocuments(t *testing.T) []shipped {
	t.Helper()
	var out []shipped
	model := func(name string, m *spec.Model, rows int) {
		seq, err := m.Seq()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		c, err := budget.Model(seq, m.Loss, max(m.BatchSize, 1))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		out = append(out, shipped{name + " (training step)", c})
		if rows > 0 {
			if c, err = budget.Evaluation(seq, m.Loss, rows); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			out = append(out, shipped{name + " (evaluation)", c})
		}
	}
	prog := func(name, src string) {
		p, err := program.Parse(src)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		c, err := budget.Program(p)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		out = append(out, shipped{name, c})
	}
	state := func(name string, s *link.State) {
		if s.Program != "" {
			prog(name, s.Program)
			return
		}
		points, batch := 0, 0
		if s.Points != nil {
			points = len(s.Points.X)
		}
		if s.Batch != nil {
			batch = len(s.Batch.X)
		}
		model(name, s.Model, max(budget.Examples(s.Model, points), batch))
	}
	for _, d := range train.DatasetNames() {
		doc := app.DefaultDoc()
		if in := train.ExampleShape(d); len(in) == 3 {
			doc = app.DefaultCNN(in, len(train.ClassNames(d)))
		}
		m := spec.New(doc.Input, doc.Loss, doc.Layers...)
		m.Dataset = train.DefaultData(d)
		m.Dataset.N = min(m.Dataset.N, train.MaxExamples)
		model("default model on "+d, m, m.Dataset.N)
		// The playground's largest dataset size.
		m.Dataset.N = train.MaxExamples
		if d != "digits" {
			model("default model on 100,000 examples of "+d, m, m.Dataset.N)
		}
	}
	for _, e := range program.Examples() {
		prog("gallery "+e.Name, e.Text)
	}
	builtins, err := lesson.Builtins()
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range builtins {
		for i, s := range b.Lesson.Stops {
			state("lesson "+b.Name+" stop "+string(rune('0'+i)), s.State)
		}
	}
	links, _ := filepath.Glob("testdata/*.link")
	more, _ := filepath.Glob("testdata/programs/*.link")
	for _, f := range append(links, more...) {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		s, err := link.Decode(strings.TrimSpace(string(raw)))
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		state(f, s)
	}
	return out
}

// TestShippedDocumentsAreWellWithinBudget: every document the page ships
// or the e2e tests open costs at most a tenth of each default limit, so
// that the limits refuse only what no lesson needs.
func TestShippedDocumentsAreWellWithinBudget(t *testing.T) {
	l := budget.Default()
	tenth := budget.Limits{Nodes: l.Nodes / 10, Edges: l.Edges / 10, Elements: l.Elements / 10, MultiplyAdds: l.MultiplyAdds / 10}
	docs := shippedDocuments(t)
	if len(docs) < 20 {
		t.Fatalf("measured only %d documents", len(docs))
	}
	for _, d := range docs {
		tot := d.cost.Total()
		t.Logf("%-50s %6d nodes %6d edges %9.3g elements %9.3g multiply-adds", d.name, tot.Nodes, tot.Edges, tot.Elements, tot.MultiplyAdds)
		if err := d.cost.Check(tenth); err != nil {
			t.Errorf("%s uses more than a tenth of the budget: %v", d.name, err)
		}
	}
}
