package layout

import (
	"errors"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// mlpTape builds the node list of one training step of an MLP with the given
// widths, recorded the way a tape would: x and the target first, then per
// layer W, b, matmul, add_bias and (except last) tanh, then the loss.
func mlpTape(layers int) []Node {
	var ns []Node
	leaf := func(above bool) int {
		ns = append(ns, Node{W: 90, H: 40, Leaf: true, Above: above})
		return len(ns) - 1
	}
	op := func(w float64, parents ...int) int {
		ns = append(ns, Node{W: w, H: 40, Parents: parents})
		return len(ns) - 1
	}
	h := leaf(false)
	y := leaf(false)
	for l := 0; l < layers; l++ {
		w := leaf(true)
		b := leaf(true)
		h = op(110, h, w)
		h = op(120, h, b)
		if l < layers-1 {
			h = op(90, h)
		}
	}
	d := op(80, h, y)
	sq := op(80, d, d) // a value used twice, as in (p-t)·(p-t)
	op(80, sq)
	return ns
}

// randomDAG returns n nodes, the first few leaves, each op with 1–3 earlier
// parents (repeats allowed).
func randomDAG(r *rand.Rand, n int) []Node {
	ns := make([]Node, n)
	for i := range ns {
		ns[i] = Node{W: 40 + float64(r.IntN(100)), H: 30 + float64(r.IntN(20))}
		if i < 3 || r.IntN(5) == 0 {
			ns[i].Leaf, ns[i].Above = true, r.IntN(2) == 0
			continue
		}
		for k := 1 + r.IntN(3); k > 0; k-- {
			ns[i].Parents = append(ns[i].Parents, r.IntN(i))
		}
	}
	return ns
}

func overlap(a, b Box) bool {
	return a.X < b.X+b.W && b.X < a.X+a.W && a.Y < b.Y+b.H && b.Y < a.Y+a.H
}

// checkLayout verifies the promises of Compute on one input.
func checkLayout(t *testing.T, ns []Node, l *Layout) {
	t.Helper()
	if len(l.Boxes) != len(ns) {
		t.Fatalf("%d boxes for %d nodes", len(l.Boxes), len(ns))
	}
	wantEdges := 0
	for _, n := range ns {
		wantEdges += len(n.Parents)
	}
	if len(l.Edges) != wantEdges {
		t.Fatalf("%d edges, want %d", len(l.Edges), wantEdges)
	}
	for i, a := range l.Boxes {
		if a.X < 0 || a.Y < 0 || a.X+a.W > l.Width || a.Y+a.H > l.Height {
			t.Errorf("box %d %+v outside the %gx%g drawing", i, a, l.Width, l.Height)
		}
		for j := i + 1; j < len(l.Boxes); j++ {
			if overlap(a, l.Boxes[j]) {
				t.Errorf("boxes %d %+v and %d %+v overlap", i, a, j, l.Boxes[j])
			}
		}
		for _, p := range ns[i].Parents {
			if l.Boxes[p].Col >= a.Col {
				t.Errorf("edge %d->%d does not go right: columns %d, %d", p, i, l.Boxes[p].Col, a.Col)
			}
		}
	}
	for _, e := range l.Edges {
		if len(e.Points) < 4 || len(e.Points)%2 != 0 {
			t.Fatalf("edge %d->%d has %d points", e.From, e.To, len(e.Points))
		}
		for k := 1; k < len(e.Points); k++ {
			p, q := e.Points[k-1], e.Points[k]
			if q.X < p.X {
				t.Errorf("edge %d->%d goes left at point %d: %v then %v", e.From, e.To, k, p, q)
			}
			if k%2 == 1 { // a level run inside a column: must not cross a box
				if p.Y != q.Y {
					t.Errorf("edge %d->%d run %d not level", e.From, e.To, k)
				}
				for b, box := range l.Boxes {
					inside := p.Y > box.Y && p.Y < box.Y+box.H && p.X < box.X+box.W && q.X > box.X
					if inside && b != e.From && b != e.To {
						t.Errorf("edge %d->%d runs through box %d", e.From, e.To, b)
					}
				}
			} else { // a curve across a gap: no box may lie in it
				for b, box := range l.Boxes {
					if box.X < q.X && box.X+box.W > p.X {
						t.Errorf("edge %d->%d gap %v..%v contains box %d", e.From, e.To, p, q, b)
					}
				}
			}
		}
	}
}

func TestComputeInvariants(t *testing.T) {
	cases := []struct {
		name  string
		nodes []Node
	}{
		{"empty", nil},
		{"single", []Node{{W: 10, H: 10}}},
		{"mlp1", mlpTape(1)},
		{"mlp2", mlpTape(2)},
		{"mlp12", mlpTape(12)},
	}
	r := rand.New(rand.NewPCG(1, 2))
	for k := 0; k < 20; k++ {
		cases = append(cases, struct {
			name  string
			nodes []Node
		}{"random", randomDAG(r, 5+r.IntN(70))})
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			l, err := Compute(c.nodes, Options{})
			if err != nil {
				t.Fatal(err)
			}
			checkLayout(t, c.nodes, l)
		})
	}
}

func TestParamsAboveAndChainStraight(t *testing.T) {
	ns := mlpTape(12)
	if len(ns) < 60 {
		t.Fatalf("test tape has only %d nodes", len(ns))
	}
	l, err := Compute(ns, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if l.Crossings != 0 {
		t.Errorf("an MLP tape drew with %d crossings, want 0", l.Crossings)
	}
	for i, n := range ns {
		if !n.Above {
			continue
		}
		for j, m := range ns {
			if !m.Above && l.Boxes[j].Col == l.Boxes[i].Col && l.Boxes[j].Y < l.Boxes[i].Y {
				t.Errorf("param %d is below node %d in column %d", i, j, l.Boxes[i].Col)
			}
		}
		// a parameter sits one column before its consumer
		for j, m := range ns {
			for _, p := range m.Parents {
				if p == i && l.Boxes[j].Col != l.Boxes[i].Col+1 {
					t.Errorf("param %d in column %d feeds node %d in column %d", i, l.Boxes[i].Col, j, l.Boxes[j].Col)
				}
			}
		}
	}
	// the chain's tanh nodes lie on one row: readable at 60+ nodes
	var rows []float64
	for i, n := range ns {
		if len(n.Parents) == 1 && !n.Leaf && n.W == 90 {
			rows = append(rows, l.Boxes[i].Y)
		}
	}
	for _, y := range rows {
		if d := y - rows[0]; d > 1 || d < -1 {
			t.Errorf("chain rows drift: %v", rows)
			break
		}
	}
	if l.Height > 400 {
		t.Errorf("a 12-layer MLP is %g px tall; the chain should stay compact", l.Height)
	}
}

func TestDeterministic(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 9))
	ns := randomDAG(r, 80)
	a, err := Compute(ns, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for k := 0; k < 3; k++ {
		b, _ := Compute(ns, Options{})
		if !reflect.DeepEqual(a, b) {
			t.Fatal("two runs on the same input differ")
		}
	}
}

func TestComputeErrors(t *testing.T) {
	cases := []struct {
		name  string
		nodes []Node
		want  error
		text  string
	}{
		{"forward parent", []Node{{W: 1, H: 1, Parents: []int{1}}, {W: 1, H: 1}}, ErrParent, "node 0 has parent 1"},
		{"self parent", []Node{{W: 1, H: 1, Parents: []int{0}}}, ErrParent, "node 0"},
		{"negative parent", []Node{{W: 1, H: 1}, {W: 1, H: 1, Parents: []int{-1}}}, ErrParent, "node 1"},
		{"zero width", []Node{{W: 0, H: 1}}, ErrSize, "node 0"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Compute(c.nodes, Options{})
			if !errors.Is(err, c.want) || !strings.Contains(err.Error(), c.text) {
				t.Fatalf("err = %v, want %v mentioning %q", err, c.want, c.text)
			}
		})
	}
}

func TestEdgePath(t *testing.T) {
	e := Edge{Points: []Point{{10, 20}, {30, 20}, {50, 40}, {60, 40}}}
	want := "M10 20 L30 20 C40 20 40 40 50 40 L60 40"
	if got := e.Path(); got != want {
		t.Fatalf("Path() = %q, want %q", got, want)
	}
}

func BenchmarkCompute60(b *testing.B) {
	ns := mlpTape(12)
	for b.Loop() {
		if _, err := Compute(ns, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
