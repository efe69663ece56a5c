package layout

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// readEverywhere returns the tape of x = param(1.0), a0 = x * 1 and then
// aN = aN-1 + x up to n statements: x (a parameter) and the constant 1
// are leaves, and x feeds every node of a chain of n-1, one per column.
func readEverywhere(n int) []Node {
	ns := []Node{{W: 60, H: 40, Leaf: true, Above: true}, {W: 60, H: 40, Leaf: true}, {W: 80, H: 40, Parents: []int{0, 1}}}
	for i := 1; i <= n-2; i++ {
		ns = append(ns, Node{W: 80, H: 40, Parents: []int{len(ns) - 1, 0}})
	}
	return ns
}

// points returns the number of points of l's edges, and of its jumps.
func points(l *Layout) (pts, jumps int) {
	for _, e := range l.Edges {
		pts += len(e.Points)
		if e.Jump {
			jumps++
		}
	}
	return pts, jumps
}

// TestJumpsKeepTheDrawingLinear lays out tapes whose edges would pass
// quadratically many columns: the drawing keeps its promises (checkLayout,
// and checkFold for every fold), its longest edges jump, and its edges
// have O(nodes + edges) points in one row and in every fold.
func TestJumpsKeepTheDrawingLinear(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	// A chain read by a random earlier node at each step, with the
	// leaves of readEverywhere.
	wide := readEverywhere(300)
	for i := 3; i < len(wide); i++ {
		wide[i].Parents[1] = r.IntN(i - 1)
	}
	for _, tc := range []struct {
		name  string
		nodes []Node
	}{
		{"read everywhere 100", readEverywhere(100)},
		{"read everywhere 1000", readEverywhere(1000)},
		{"random reads 300", wide},
	} {
		l, err := Compute(tc.nodes, Options{})
		if err != nil {
			t.Fatal(err)
		}
		size := len(tc.nodes) + len(l.Edges)
		pts, jumps := points(l)
		if jumps == 0 {
			t.Errorf("%s: no edge jumps", tc.name)
		}
		// Four points per edge and two per column passed, within a
		// budget of 2 per node and edge and 64, and six per jump.
		if most := 4*(len(l.Edges)-jumps) + 2*(2*size+64) + 6*jumps; pts > most {
			t.Errorf("%s: %d points for %d nodes and %d edges, want at most %d", tc.name, pts, len(tc.nodes), len(l.Edges), most)
		}
		if len(tc.nodes) <= 300 {
			checkLayout(t, tc.nodes, l) // quadratic in the boxes
		}
		for rows := 2; rows <= MostRows; rows++ {
			f := l.Wrap(rows)
			if len(tc.nodes) <= 300 {
				checkFold(t, tc.name, l, f)
			}
			// A fold adds at most two points per row an edge turns into.
			if fp, _ := points(f); fp > pts+2*(rows-1)*len(l.Edges) {
				t.Errorf("%s: %d rows have %d points, one row %d", tc.name, rows, fp, pts)
			}
			for _, e := range f.Edges {
				if strings.Count(e.Path(), "C") != len(e.Points)/2-1 {
					t.Fatalf("%s %d rows: edge %d→%d has the wrong curves: %s", tc.name, rows, e.From, e.To, e.Path())
				}
			}
		}
	}
}

// TestSmallTapesDoNotJump checks that the tapes of the other tests, whose
// edges pass few columns, are routed through their columns as before.
func TestSmallTapesDoNotJump(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	tapes := [][]Node{mlpTape(1), mlpTape(12), mlpTape(30), readEverywhere(12)}
	for k := 0; k < 50; k++ {
		tapes = append(tapes, randomDAG(r, 5+r.IntN(120)))
	}
	for i, ns := range tapes {
		l, err := Compute(ns, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if _, jumps := points(l); jumps > 0 {
			t.Errorf("tape %d (%d nodes) has %d jumps", i, len(ns), jumps)
		}
	}
}

// TestLanes checks that the jumps of one node share a lane, and that two
// nodes' jumps share one only where they do not overlap: over a chain of
// 200 (node i in column i-1), x (column 0) feeds the first 50 and jumps to
// the farthest of them, node 3 jumps to the end and so needs a lane of its
// own, and node 100, past x's last jump, jumps to the end in x's lane.
func TestLanes(t *testing.T) {
	ns := readEverywhere(200)
	for i := 52; i < len(ns); i++ {
		ns[i].Parents = ns[i].Parents[:1]
	}
	c := 100
	ns[198].Parents = []int{197, 3}
	ns[199].Parents = []int{198, c}
	g := newGrid(ns, Options{}.withDefaults())
	g.assignColumns()
	g.splitLongEdges()
	lanes := g.assignLanes()
	laneOf := map[int]map[int]bool{}
	for _, ch := range g.chains {
		if ch.jump {
			if laneOf[ch.from] == nil {
				laneOf[ch.from] = map[int]bool{}
			}
			laneOf[ch.from][ch.lane] = true
		}
	}
	for from, ls := range laneOf {
		if len(ls) != 1 {
			t.Errorf("node %d's jumps are in %d lanes", from, len(ls))
		}
	}
	if !laneOf[0][0] || laneOf[3][0] || laneOf[c] == nil || !laneOf[c][0] {
		t.Errorf("lanes %v over %d lanes; want x and node %d in lane 0, node 3 in another", laneOf, lanes, c)
	}
	if lanes != 2 {
		t.Errorf("%d lanes, want 2", lanes)
	}
}

// TestCrossingsCount checks the crossing count against the count of every
// pair of links, on tapes routed with and without jumps.
func TestCrossingsCount(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 9))
	tapes := [][]Node{mlpTape(4), readEverywhere(80)}
	for k := 0; k < 30; k++ {
		tapes = append(tapes, randomDAG(r, 5+r.IntN(150)))
	}
	for i, ns := range tapes {
		g := newGrid(ns, Options{}.withDefaults())
		g.assignColumns()
		g.splitLongEdges()
		for round := 0; round < 3; round++ {
			if got, want := g.crossings(), pairCrossings(g); got != want {
				t.Fatalf("tape %d: %d crossings, every pair gives %d", i, got, want)
			}
			for c := 1; c < len(g.cols); c++ { // another order to count
				g.sortBy(g.cols[c], func(v *vertex) []int { return v.preds })
			}
		}
	}
}

// pairCrossings counts the pairs of links between adjacent columns that
// cross, pair by pair.
func pairCrossings(g *grid) int {
	total := 0
	type link struct{ a, b int }
	for c := 0; c+1 < len(g.cols); c++ {
		var ls []link
		for _, u := range g.cols[c] {
			for _, w := range g.vs[u].succs {
				ls = append(ls, link{g.vs[u].pos, g.vs[w].pos})
			}
		}
		for i := range ls {
			for j := i + 1; j < len(ls); j++ {
				if (ls[i].a-ls[j].a)*(ls[i].b-ls[j].b) < 0 {
					total++
				}
			}
		}
	}
	return total
}

func BenchmarkComputeReadEverywhere1000(b *testing.B) {
	ns := readEverywhere(1000)
	for b.Loop() {
		if _, err := Compute(ns, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
