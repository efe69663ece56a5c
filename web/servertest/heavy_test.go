package servertest

import (
	"testing"

	"tapelab/engine/budget"
	"tapelab/engine/program"
	"tapelab/engine/spec"
)

// TestHeavyDocsAreNearTheBudget: every heavy document is within the work
// budget the share service enforces, and for each limit but the edges'
// some document uses more than half of it, so that the load test loads
// the server with the dearest documents it can be given.
func TestHeavyDocsAreNearTheBudget(t *testing.T) {
	l := budget.Default()
	var most budget.Part
	for _, d := range HeavyDocs() {
		var c budget.Cost
		var err error
		if src, p, perr := program.DecodeDocument(d.Doc); perr == nil {
			if len(src) > program.MaxSource {
				t.Errorf("%s: %d bytes, over the text limit", d.Name, len(src))
			}
			c, err = budget.Program(p)
		} else {
			m, merr := spec.Decode(d.Doc)
			if merr != nil {
				t.Fatalf("%s: neither a program (%v) nor a model (%v)", d.Name, perr, merr)
			}
			seq, serr := m.Seq()
			if serr != nil {
				t.Fatal(serr)
			}
			c, err = budget.Model(seq, m.Loss, m.BatchSize)
		}
		if err != nil {
			t.Fatalf("%s: %v", d.Name, err)
		}
		if err := c.Check(l); err != nil {
			t.Errorf("%s is over the budget: %v", d.Name, err)
		}
		tot := c.Total()
		t.Logf("%-50s %5d nodes %6d edges %8.2g elements %8.2g multiply-adds", d.Name, tot.Nodes, tot.Edges, tot.Elements, tot.MultiplyAdds)
		most.Nodes, most.Elements, most.MultiplyAdds = max(most.Nodes, tot.Nodes), max(most.Elements, tot.Elements), max(most.MultiplyAdds, tot.MultiplyAdds)
	}
	if 2*most.Nodes <= l.Nodes || 2*most.Elements <= l.Elements || 2*most.MultiplyAdds <= l.MultiplyAdds {
		t.Errorf("the heaviest documents use at most %d nodes, %.2g elements and %.2g multiply-adds of %d, %.2g and %.2g: not near the budget",
			most.Nodes, most.Elements, most.MultiplyAdds, l.Nodes, l.Elements, l.MultiplyAdds)
	}
}
