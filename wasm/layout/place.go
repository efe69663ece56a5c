package layout

import (
	"cmp"
	"slices"
)

// place assigns every vertex a vertical centre: first stacked, then pulled
// towards its neighbours' mean row by isotonic regression, which keeps the
// column's order and the gaps between boxes.
func (g *grid) place() {
	for _, col := range g.cols {
		y := 0.0
		for i, v := range col {
			if i > 0 {
				y += g.sep(col[i-1], v)
			}
			g.vs[v].y = y
		}
	}
	preds := func(v *vertex) []int { return v.preds }
	succs := func(v *vertex) []int { return v.succs }
	for r := 0; r < g.opt.Refines; r++ {
		if r%2 == 0 {
			for c := 1; c < len(g.cols); c++ {
				g.settle(g.cols[c], preds, nil)
			}
		} else {
			for c := len(g.cols) - 2; c >= 0; c-- {
				g.settle(g.cols[c], succs, nil)
			}
		}
	}
	for r := 0; r < 2; r++ {
		for c := range g.cols {
			g.settle(g.cols[c], preds, succs)
		}
	}
}

// sep is the least distance between the centres of vertically adjacent
// vertices a (above) and b.
func (g *grid) sep(a, b int) float64 {
	va, vb := &g.vs[a], &g.vs[b]
	gap := g.opt.RowGap
	if !va.real && !vb.real {
		gap = g.opt.DummyH
	}
	return (va.h+vb.h)/2 + gap
}

// settle moves the vertices of one column as close as the gaps allow to the
// mean row of their neighbours (given by nb and, when set, nb2).
func (g *grid) settle(col []int, nb, nb2 func(*vertex) []int) {
	type block struct {
		w, wt float64
		n     int
	}
	off := make([]float64, len(col))
	for i := 1; i < len(col); i++ {
		off[i] = off[i-1] + g.sep(col[i-1], col[i])
	}
	blocks := make([]block, 0, len(col))
	for i, v := range col {
		vv := &g.vs[v]
		sum, n := 0.0, 0.0
		add := func(us []int) {
			for _, u := range us {
				// parameters follow the chain they feed; they do not steer it
				wu := 1.0
				if g.vs[u].above && !vv.above {
					wu = 1e-6
				}
				sum += wu * g.vs[u].y
				n += wu
			}
		}
		add(nb(vv))
		if nb2 != nil {
			add(nb2(vv))
		}
		want, w := vv.y, 0.25
		if n > 0 {
			want, w = sum/n, max(n, 0.25)
		}
		if vv.above {
			w *= 1e-6 // and give way to it
		}
		b := block{w: w, wt: w * (want - off[i]), n: 1}
		for len(blocks) > 0 {
			top := blocks[len(blocks)-1]
			if top.wt/top.w <= b.wt/b.w {
				break
			}
			b = block{w: top.w + b.w, wt: top.wt + b.wt, n: top.n + b.n}
			blocks = blocks[:len(blocks)-1]
		}
		blocks = append(blocks, b)
	}
	i := 0
	for _, b := range blocks {
		z := b.wt / b.w
		for k := 0; k < b.n; k++ {
			g.vs[col[i]].y = z + off[i]
			i++
		}
	}
}

// result turns the placed vertices into boxes and routed edges.
func (g *grid) result() *Layout {
	m := g.opt.Margin
	colW := make([]float64, len(g.cols))
	colX := make([]float64, len(g.cols))
	minTop, maxBot := 0.0, 0.0
	for v := range g.vs {
		vv := &g.vs[v]
		if vv.real {
			colW[vv.col] = max(colW[vv.col], g.nodes[v].W)
		}
		if top := vv.y - vv.h/2; v == 0 || top < minTop {
			minTop = top
		}
		if bot := vv.y + vv.h/2; v == 0 || bot > maxBot {
			maxBot = bot
		}
	}
	// The jumps' lanes run above the boxes, a row's gap above them and
	// an edge's room apart.
	laneY := make([]float64, g.assignLanes())
	for l := range laneY {
		laneY[l] = minTop - g.opt.RowGap - float64(l)*2*g.opt.DummyH
	}
	top := minTop
	if n := len(laneY); n > 0 {
		top = laneY[n-1] - g.opt.DummyH/2
	}
	x := m
	for c := range g.cols {
		colX[c] = x
		x += colW[c] + g.opt.ColGap
	}
	shift := m - top
	out := &Layout{
		Boxes:     make([]Box, len(g.nodes)),
		Edges:     make([]Edge, 0, len(g.chains)),
		Width:     x - g.opt.ColGap + m,
		Height:    maxBot - top + 2*m,
		Cols:      len(g.cols),
		Rows:      1,
		Columns:   make([]Span, len(g.cols)),
		Crossings: g.crossings(),
	}
	for c := range g.cols {
		out.Columns[c] = Span{colX[c], colW[c]}
	}
	if len(g.nodes) == 0 {
		out.Width, out.Height = 2*m, 2*m
	}
	for i, n := range g.nodes {
		vv := &g.vs[i]
		c := vv.col
		out.Boxes[i] = Box{X: colX[c] + (colW[c]-n.W)/2, Y: vv.y + shift - n.H/2, W: n.W, H: n.H, Col: c}
	}
	outPort, inPort := g.ports(out.Boxes, laneY)
	for k, ch := range g.chains {
		src, dst := out.Boxes[ch.from], out.Boxes[ch.to]
		e := Edge{From: ch.from, To: ch.to, Operand: ch.operand, Jump: ch.jump}
		if ch.jump {
			s, d, y := src.Col, dst.Col, laneY[ch.lane]+shift
			e.Points = []Point{{src.X + src.W, outPort[k]}, {colX[s] + colW[s], outPort[k]},
				{colX[s+1], y}, {colX[d-1] + colW[d-1], y},
				{colX[d], inPort[k]}, {dst.X, inPort[k]}}
			out.Edges = append(out.Edges, e)
			continue
		}
		e.Points = make([]Point, 0, 2*len(ch.verts))
		e.Points = append(e.Points, Point{src.X + src.W, outPort[k]}, Point{colX[src.Col] + colW[src.Col], outPort[k]})
		for _, d := range ch.verts[1 : len(ch.verts)-1] {
			dv := &g.vs[d]
			e.Points = append(e.Points, Point{colX[dv.col], dv.y + shift}, Point{colX[dv.col] + colW[dv.col], dv.y + shift})
		}
		e.Points = append(e.Points, Point{colX[dst.Col], inPort[k]}, Point{dst.X, inPort[k]})
		out.Edges = append(out.Edges, e)
	}
	return out
}

// ports spreads the edges leaving (entering) each box over its right (left)
// side, ordered by the row of the vertex at the other end of the first
// (last) step, or of a jump's lane (laneY, above every vertex), so that
// ports do not make crossings of their own. The jumps leaving a box share
// one port, as they share one lane.
func (g *grid) ports(boxes []Box, laneY []float64) (outPort, inPort []float64) {
	outPort = make([]float64, len(g.chains))
	inPort = make([]float64, len(g.chains))
	outs := make([][]int, len(g.nodes))
	ins := make([][]int, len(g.nodes))
	for k, ch := range g.chains {
		outs[ch.from] = append(outs[ch.from], k)
		ins[ch.to] = append(ins[ch.to], k)
	}
	spread := func(ks []int, box Box, next func(ch chain) int, share bool, dst []float64) {
		y := func(k int) float64 {
			if ch := &g.chains[k]; ch.jump {
				return laneY[ch.lane]
			}
			return g.vs[next(g.chains[k])].y
		}
		slices.SortStableFunc(ks, func(a, b int) int {
			if ya, yb := y(a), y(b); ya != yb {
				return cmp.Compare(ya, yb)
			}
			return cmp.Compare(g.chains[a].operand, g.chains[b].operand)
		})
		shared := func(j int) bool { return share && j > 0 && g.chains[ks[j]].jump && g.chains[ks[j-1]].jump }
		slots := len(ks)
		for j := range ks {
			if shared(j) {
				slots--
			}
		}
		slot := 0
		for j, k := range ks {
			if j > 0 && !shared(j) {
				slot++
			}
			dst[k] = box.Y + box.H*float64(slot+1)/float64(slots+1)
		}
	}
	for i := range g.nodes {
		spread(outs[i], boxes[i], func(ch chain) int { return ch.verts[1] }, true, outPort)
		spread(ins[i], boxes[i], func(ch chain) int { return ch.verts[len(ch.verts)-2] }, false, inPort)
	}
	return outPort, inPort
}
