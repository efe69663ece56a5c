package layout

import (
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// TestWrap folds tapes into rows and checks the fold: every box inside
// the drawing, no two overlapping, the rows stacked without sharing a
// line, even rows running left to right and odd rows right to left, every
// edge starting at its parent's out side and ending at its child's in
// side, and one turn per row boundary it crosses.
func TestWrap(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	tapes := []struct {
		name  string
		nodes []Node
	}{
		{"mlp8", mlpTape(8)},
		{"mlp16", mlpTape(16)},
		{"random40", randomDAG(r, 40)},
		{"random80", randomDAG(r, 80)},
	}
	for _, tp := range tapes {
		base, err := Compute(tp.nodes, Options{})
		if err != nil {
			t.Fatal(err)
		}
		for rows := 2; rows <= 5; rows++ {
			f := base.Wrap(rows)
			want := min(rows, MostRows, base.Cols/2)
			if f.Rows != want {
				t.Errorf("%s: Wrap(%d) made %d rows, want %d", tp.name, rows, f.Rows, want)
				continue
			}
			checkFold(t, tp.name, base, f)
			if g := base.Wrap(rows); !reflect.DeepEqual(f, g) {
				t.Errorf("%s: Wrap(%d) differs between calls", tp.name, rows)
			}
			if f.Width >= base.Width {
				t.Errorf("%s: %d rows are %.0f wide, one row %.0f", tp.name, rows, f.Width, base.Width)
			}
		}
		if base.Wrap(1) != base {
			t.Errorf("%s: Wrap(1) is not the drawing itself", tp.name)
		}
		sizes := base.RowSizes()
		if want := min(MostRows, base.Cols/2); len(sizes) != want {
			t.Errorf("%s: RowSizes gives %d folds, want %d", tp.name, len(sizes), want)
		}
		for i, s := range sizes {
			if f := base.Wrap(i + 1); s != [2]float64{f.Width, f.Height} {
				t.Errorf("%s: RowSizes()[%d] = %v, Wrap(%d) is %vx%v", tp.name, i, s, i+1, f.Width, f.Height)
			}
		}
		if s := base.Wrap(3).RowSizes(); len(s) != 0 {
			t.Errorf("%s: a folded drawing has fold sizes %v", tp.name, s)
		}
	}
}

// checkFold checks f, base folded into rows.
func checkFold(t *testing.T, name string, base, f *Layout) {
	t.Helper()
	for _, b := range f.Boxes {
		if b.X < 0 || b.Y < 0 || b.X+b.W > f.Width+1e-9 || b.Y+b.H > f.Height+1e-9 {
			t.Fatalf("%s %d rows: box %+v outside %vx%v", name, f.Rows, b, f.Width, f.Height)
		}
	}
	for i := range f.Boxes {
		for j := i + 1; j < len(f.Boxes); j++ {
			if overlap(f.Boxes[i], f.Boxes[j]) {
				t.Fatalf("%s %d rows: boxes %d and %d overlap", name, f.Rows, i, j)
			}
		}
	}
	start := base.cuts(f.Rows)
	rowOf := make([]int, f.Cols)
	for r := range f.Rows {
		if start[r+1]-start[r] < 2 {
			t.Fatalf("%s %d rows: row %d has %d columns", name, f.Rows, r, start[r+1]-start[r])
		}
		for c := start[r]; c < start[r+1]; c++ {
			rowOf[c] = r
		}
	}
	// Each row lies wholly below the one before.
	top, bot := make([]float64, f.Rows), make([]float64, f.Rows)
	for r := range top {
		top[r], bot[r] = 1e18, -1e18
	}
	for _, b := range f.Boxes {
		r := rowOf[b.Col]
		top[r], bot[r] = min(top[r], b.Y), max(bot[r], b.Y+b.H)
	}
	for r := 1; r < f.Rows; r++ {
		if top[r] <= bot[r-1] {
			t.Fatalf("%s %d rows: row %d (from y %.0f) is not below row %d (to y %.0f)", name, f.Rows, r, top[r], r-1, bot[r-1])
		}
	}
	// Direction: within a row, columns run left to right on even rows.
	for i, b := range f.Boxes {
		for j, o := range f.Boxes {
			if rowOf[b.Col] != rowOf[o.Col] || b.Col >= o.Col {
				continue
			}
			ltr := b.X+b.W <= o.X
			if (rowOf[b.Col]%2 == 0) != ltr {
				t.Fatalf("%s %d rows: boxes %d (col %d) and %d (col %d) in row %d run the wrong way", name, f.Rows, i, b.Col, j, o.Col, rowOf[b.Col])
			}
		}
	}
	for _, e := range f.Edges {
		src, dst := f.Boxes[e.From], f.Boxes[e.To]
		p0, p1 := e.Points[0], e.Points[len(e.Points)-1]
		if !onSide(p0, src, rowOf[src.Col]%2 == 0) || !onSide(p1, dst, rowOf[dst.Col]%2 == 1) {
			t.Fatalf("%s %d rows: edge %d→%d runs from %v to %v, boxes %+v and %+v", name, f.Rows, e.From, e.To, p0, p1, src, dst)
		}
		if n := rowOf[dst.Col] - rowOf[src.Col]; len(e.Turns) != n {
			t.Fatalf("%s %d rows: edge %d→%d crosses %d rows and turns %d times", name, f.Rows, e.From, e.To, n, len(e.Turns))
		}
		if len(e.Turns) > 0 && strings.Count(e.Path(), "C") != len(e.Points)/2-1 {
			t.Fatalf("%s: the path of a turning edge has the wrong curves: %s", name, e.Path())
		}
	}
}

// onSide reports whether p is on box b's right side (right set) or left.
func onSide(p Point, b Box, right bool) bool {
	x := b.X
	if right {
		x += b.W
	}
	return abs(p.X-x) < 1e-6 && p.Y >= b.Y-1e-6 && p.Y <= b.Y+b.H+1e-6
}

func abs(v float64) float64 { return max(v, -v) }

// TestPickRows checks the choice of the fold for a viewport.
func TestPickRows(t *testing.T) {
	// One row 3000×300; folds 1600×640, 1100×980, 850×1320.
	sizes := [][2]float64{{3000, 300}, {1600, 640}, {1100, 980}, {850, 1320}}
	cases := []struct {
		name   string
		vw, vh float64
		want   int
	}{
		{"wide enough for one row", 3000 * 0.8, 400, 1},
		{"tall: the fold that fits largest", 800, 1000, 4},
		{"tie at the largest scale: fewer rows", 2000, 10000, 3},
		{"nothing fits readably: most rows whose height fits", 500, 700, 2},
		{"nothing fits even in height", 300, 100, 1},
	}
	for _, c := range cases {
		if got := PickRows(sizes, c.vw, c.vh, 0.75, 1.6); got != c.want {
			t.Errorf("%s: %gx%g picks %d rows, want %d", c.name, c.vw, c.vh, got, c.want)
		}
	}
	if got := PickRows(nil, 100, 100, 0.75, 1.6); got != 1 {
		t.Errorf("no sizes: %d rows, want 1", got)
	}
}
