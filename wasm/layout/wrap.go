package layout

import "math"

// Folding a long drawing into rows, like a snake: the first row runs left
// to right, the second right to left under it, and so on; an edge that
// leaves a row turns round at its end into the next.
const (
	wrapRowGap = 36.0 // the space between two rows
	wrapTurn   = 32.0 // the room an edge turning round takes beside the rows
	// MostRows is the most rows Wrap folds a drawing into, and a row has
	// at least two columns.
	MostRows = 8
)

// Wrap returns the drawing l (of one row, as Compute returns it) folded
// into rows of roughly equal width: odd rows run right to left (their
// columns mirrored; boxes keep their content), each row's edges turn round
// at its end into the next. The cuts fall between columns, preferring
// gaps few edges cross. rows is limited to [1, min(MostRows, Cols/2)];
// one row returns l itself. The result is a pure function of l and rows.
func (l *Layout) Wrap(rows int) *Layout {
	f, ok := l.fold(rows)
	if !ok {
		return l
	}
	rows = f.rows
	// at maps a point of column c (x the left or right side of something
	// w wide there) to the folded drawing.
	at := func(c int, x, yy, w float64) Point {
		r := f.rowOf[c]
		if r%2 == 0 {
			return Point{f.x0 + x - f.left[r], yy + f.dy[r]}
		}
		return Point{f.x1 - (x + w - f.left[r]), yy + f.dy[r]}
	}
	out := &Layout{
		Boxes:     make([]Box, len(l.Boxes)),
		Edges:     make([]Edge, len(l.Edges)),
		Width:     f.width,
		Height:    f.height,
		Cols:      l.Cols,
		Rows:      rows,
		Crossings: l.Crossings,
	}
	for i, b := range l.Boxes {
		p := at(b.Col, b.X, b.Y, b.W)
		out.Boxes[i] = Box{X: p.X, Y: p.Y, W: b.W, H: b.H, Col: b.Col}
	}
	var cols []int
	for k, e := range l.Edges {
		pts := e.Points
		if e.Jump {
			pts, cols = l.splitLane(e, f.start, cols[:0])
		}
		col := func(j int) int {
			if e.Jump {
				return cols[j]
			}
			return l.Boxes[e.From].Col + j/2
		}
		g := Edge{From: e.From, To: e.To, Operand: e.Operand, Points: make([]Point, len(pts)), Jump: e.Jump}
		for j, p := range pts {
			g.Points[j] = at(col(j), p.X, p.Y, 0)
			if j > 0 && j%2 == 0 && f.rowOf[col(j)] != f.rowOf[col(j-1)] {
				tx := f.x1 + wrapTurn // an even row turns round on the right
				if f.rowOf[col(j-1)]%2 == 1 {
					tx = f.x0 - wrapTurn
				}
				g.Turns = append(g.Turns, Turn{At: j, X: tx})
			}
		}
		out.Edges[k] = g
	}
	return out
}

// splitLane returns the points of jump e of l (of one row) with its lane
// ended at the end of each row it leaves and begun again at the start of
// the next, the rows beginning at the columns start, and the column of
// each point, appended to cols.
func (l *Layout) splitLane(e Edge, start, cols []int) ([]Point, []int) {
	s, d := l.Boxes[e.From].Col, l.Boxes[e.To].Col
	p := e.Points
	y := p[2].Y
	pts := append(make([]Point, 0, len(p)+2*(len(start)-2)), p[0], p[1], p[2])
	cols = append(cols, s, s, s+1)
	for _, c := range start[1 : len(start)-1] {
		if c <= s+1 || c > d-1 {
			continue
		}
		a, b := l.Columns[c-1], l.Columns[c]
		pts = append(pts, Point{a.X + a.W, y}, Point{b.X, y})
		cols = append(cols, c-1, c)
	}
	pts = append(pts, p[3], p[4], p[5])
	return pts, append(cols, d-1, d, d)
}

// folding is where Wrap puts the rows of a fold: each column's row, each
// row's left end in the drawing of one row and its shift down, the rows'
// left and right ends, and the folded drawing's size.
type folding struct {
	rows          int
	start         []int // the first column of each row, then len(Columns)
	rowOf         []int
	left, dy      []float64
	x0, x1        float64
	width, height float64
}

// fold returns how l folds into rows rows (limited as Wrap limits them),
// or false when that is one row or l is folded already.
func (l *Layout) fold(rows int) (folding, bool) {
	rows = min(rows, MostRows, len(l.Columns)/2)
	if rows <= 1 || l.Rows != 1 {
		return folding{}, false
	}
	start := l.cuts(rows) // the first column of each row, then len(Columns)
	f := folding{rows: rows, start: start, rowOf: make([]int, len(l.Columns)), left: make([]float64, rows), dy: make([]float64, rows)}
	for r := range rows {
		for c := start[r]; c < start[r+1]; c++ {
			f.rowOf[c] = r
		}
	}
	width := 0.0
	top, bot := make([]float64, rows), make([]float64, rows)
	for r := range rows {
		a, b := l.Columns[start[r]], l.Columns[start[r+1]-1]
		f.left[r] = a.X
		width = max(width, b.X+b.W-a.X)
		top[r], bot[r] = math.Inf(1), math.Inf(-1)
	}
	extend := func(r int, y0, y1 float64) { top[r], bot[r] = min(top[r], y0), max(bot[r], y1) }
	for _, b := range l.Boxes {
		extend(f.rowOf[b.Col], b.Y, b.Y+b.H)
	}
	for _, e := range l.Edges {
		c := l.Boxes[e.From].Col
		if !e.Jump {
			for j, p := range e.Points {
				extend(f.rowOf[c+j/2], p.Y, p.Y)
			}
			continue
		}
		// A jump's ends, and its lane in every row it runs along.
		d := l.Boxes[e.To].Col
		p := e.Points
		extend(f.rowOf[c], p[0].Y, p[0].Y)
		extend(f.rowOf[d], p[5].Y, p[5].Y)
		for r := f.rowOf[c+1]; r <= f.rowOf[d-1]; r++ {
			extend(r, p[2].Y, p[2].Y)
		}
	}
	m := l.Columns[0].X
	lt := 0.0 // room for turns on the left, from the third row on
	if rows > 2 {
		lt = wrapTurn
	}
	f.x0, f.x1 = m+lt, m+lt+width // the rows' left and right ends
	y := m
	for r := range rows {
		f.dy[r] = y - top[r]
		y += bot[r] - top[r] + wrapRowGap
	}
	f.width, f.height = f.x1+wrapTurn+m, y-wrapRowGap+m
	return f, true
}

// cuts returns the first column of each of rows rows, then len(Columns):
// each cut is the gap between columns nearest its share of the width,
// where a gap that more edges cross counts as farther.
func (l *Layout) cuts(rows int) []int {
	n := len(l.Columns)
	cross := make([]int, n+1) // edges crossing the gap after column c
	for _, e := range l.Edges {
		cross[l.Boxes[e.From].Col]++
		cross[l.Boxes[e.To].Col]--
	}
	for c := 1; c < n; c++ {
		cross[c] += cross[c-1]
	}
	x0, x1 := l.Columns[0].X, l.Columns[n-1].X+l.Columns[n-1].W
	start := make([]int, 0, rows+1)
	start = append(start, 0)
	for k := 1; k < rows; k++ {
		want := x0 + float64(k)*(x1-x0)/float64(rows)
		best, cost := -1, math.Inf(1)
		// Leave each row, the one before, this one and those after it,
		// two columns.
		for c := start[k-1] + 2; c+2*(rows-k) <= n; c++ {
			mid := (l.Columns[c-1].X + l.Columns[c-1].W + l.Columns[c].X) / 2
			if d := math.Abs(mid-want) + 60*float64(max(cross[c-1]-1, 0)); d < cost {
				best, cost = c, d
			}
		}
		if best < 0 {
			break
		}
		start = append(start, best)
	}
	return append(start, n)
}

// RowSizes returns the width and height of l folded into 1, 2, … rows, as
// many as Wrap makes (index r-1 is r rows).
func (l *Layout) RowSizes() [][2]float64 {
	most := max(1, min(MostRows, len(l.Columns)/2))
	out := make([][2]float64, 0, most)
	if l.Rows != 1 {
		return out
	}
	out = append(out, [2]float64{l.Width, l.Height})
	for r := 2; r <= most; r++ {
		f, ok := l.fold(r)
		if !ok || f.rows != r {
			break
		}
		out = append(out, [2]float64{f.width, f.height})
	}
	return out
}

// PickRows returns how many rows to fold a drawing into for a viewport
// of vw × vh fitted as View.Fit fits it with the scale limits lo and hi,
// given the sizes of its folds as RowSizes gives them (index r-1 for r
// rows): one row when it fits at lo; else the fold that fits largest
// (fewer rows on a tie at hi); and when no fold fits at lo, the most rows
// whose height fits at lo, so that the drawing pans along one axis only.
func PickRows(sizes [][2]float64, vw, vh, lo, hi float64) int {
	if len(sizes) == 0 {
		return 1
	}
	scale := func(s [2]float64) float64 { return min(vw/s[0], vh/s[1]) }
	if scale(sizes[0]) >= lo {
		return 1
	}
	best, bs := 1, min(scale(sizes[0]), hi)
	for i, s := range sizes[1:] {
		if v := min(scale(s), hi); v > bs+1e-9 {
			best, bs = i+2, v
		}
	}
	if bs >= lo {
		return best
	}
	best = 1
	for i, s := range sizes {
		if s[1]*lo <= vh {
			best = i + 1
		}
	}
	return best
}
