package layout

import (
	"cmp"
	"slices"
)

// vertex is a real node or a dummy point where a long edge crosses a column.
type vertex struct {
	col   int
	h     float64
	above bool
	real  bool
	leaf  bool
	key   int     // initial sort key: node id, or the id of a dummy's target
	pos   int     // index within its column
	y     float64 // centre
	preds []int   // linked vertices in the previous column
	succs []int   // linked vertices in the next column
}

// chain is one tape edge as the vertices it passes through.
type chain struct {
	from, to, operand int
	verts             []int
	// jump marks an edge drawn over the columns between its ends, in a
	// lane above the drawing (see longest), instead of through them:
	// verts is then its two ends, which are not linked.
	jump bool
	lane int // a jump's lane, 0 nearest the boxes
}

// grid is the working state of one Compute call.
type grid struct {
	nodes  []Node
	opt    Options
	vs     []vertex
	chains []chain
	cols   [][]int // vertex ids per column, in order
	bary   []float64
}

func newGrid(nodes []Node, opt Options) *grid {
	g := &grid{nodes: nodes, opt: opt, vs: make([]vertex, len(nodes), 2*len(nodes))}
	for i, n := range nodes {
		g.vs[i] = vertex{h: n.H, above: n.Above, real: true, key: i}
		g.vs[i].leaf = g.isLeaf(i)
	}
	return g
}

// isLeaf reports whether node i is placed by its consumers.
func (g *grid) isLeaf(i int) bool { return g.nodes[i].Leaf && len(g.nodes[i].Parents) == 0 }

// assignColumns puts each node at its longest-path depth over non-leaf
// parents, and each leaf one column before its first consumer.
func (g *grid) assignColumns() {
	n := len(g.nodes)
	firstUse := make([]int, n)
	for i := range firstUse {
		firstUse[i] = -1
	}
	for i := range n {
		if g.isLeaf(i) {
			continue
		}
		c := 0
		for _, p := range g.nodes[i].Parents {
			if g.isLeaf(p) {
				c = max(c, 1)
			} else {
				c = max(c, g.vs[p].col+1)
			}
		}
		g.vs[i].col = c
	}
	for i := range n {
		for _, p := range g.nodes[i].Parents {
			if g.isLeaf(p) && (firstUse[p] < 0 || g.vs[i].col < firstUse[p]) {
				firstUse[p] = g.vs[i].col
			}
		}
	}
	for i := range n {
		if g.isLeaf(i) {
			g.vs[i].col = max(firstUse[i]-1, 0)
		}
	}
}

// splitLongEdges routes every edge through one vertex per column it
// passes, but for the edges that pass more columns than longest allows,
// which jump over them.
func (g *grid) splitLongEdges() {
	ncols := 0
	for i := range g.vs {
		ncols = max(ncols, g.vs[i].col+1)
	}
	most := g.longest(ncols)
	for to, n := range g.nodes {
		for k, from := range n.Parents {
			ch := chain{from: from, to: to, operand: k, verts: []int{from}}
			if g.vs[to].col-g.vs[from].col-1 > most {
				ch.verts, ch.jump = append(ch.verts, to), true
				g.chains = append(g.chains, ch)
				continue
			}
			prev := from
			for c := g.vs[from].col + 1; c < g.vs[to].col; c++ {
				d := len(g.vs)
				g.vs = append(g.vs, vertex{col: c, h: g.opt.DummyH, key: to})
				g.link(prev, d)
				ch.verts = append(ch.verts, d)
				prev = d
			}
			g.link(prev, to)
			ch.verts = append(ch.verts, to)
			g.chains = append(g.chains, ch)
		}
	}
	g.cols = make([][]int, ncols)
	for v := range g.vs {
		g.cols[g.vs[v].col] = append(g.cols[g.vs[v].col], v)
	}
	for _, col := range g.cols {
		slices.SortStableFunc(col, func(a, b int) int {
			va, vb := &g.vs[a], &g.vs[b]
			if va.above != vb.above {
				return order(va.above)
			}
			return cmp.Compare(va.key, vb.key)
		})
		g.renumber(col)
	}
}

func (g *grid) link(a, b int) {
	g.vs[a].succs = append(g.vs[a].succs, b)
	g.vs[b].preds = append(g.vs[b].preds, a)
}

func (g *grid) renumber(col []int) {
	for i, v := range col {
		g.vs[v].pos = i
	}
}

// order reduces crossings by alternating barycenter sweeps, keeping the best
// ordering seen. Above vertices always stay first in their column.
func (g *grid) order() {
	best := g.crossings()
	saved := g.snapshot()
	for round := 0; round < g.opt.Sweeps && best > 0; round++ {
		for c := 1; c < len(g.cols); c++ {
			g.sortBy(g.cols[c], func(v *vertex) []int { return v.preds })
		}
		for c := len(g.cols) - 2; c >= 0; c-- {
			g.sortBy(g.cols[c], func(v *vertex) []int { return v.succs })
		}
		if x := g.crossings(); x < best {
			best, saved = x, g.snapshot()
		}
	}
	g.restore(saved)
}

func (g *grid) sortBy(col []int, nb func(*vertex) []int) {
	if len(g.bary) < len(g.vs) {
		g.bary = make([]float64, len(g.vs))
	}
	bary := g.bary
	for _, v := range col {
		vv := &g.vs[v]
		ns := nb(vv)
		if len(ns) == 0 {
			bary[v] = float64(vv.pos)
			continue
		}
		s := 0.0
		for _, u := range ns {
			s += float64(g.vs[u].pos)
		}
		bary[v] = s / float64(len(ns))
	}
	slices.SortStableFunc(col, func(a, b int) int {
		va, vb := &g.vs[a], &g.vs[b]
		if va.above != vb.above {
			return order(va.above)
		}
		if ba, bb := bary[a], bary[b]; ba != bb {
			return cmp.Compare(ba, bb)
		}
		return cmp.Compare(va.pos, vb.pos)
	})
	g.renumber(col)
}

// crossings counts pairs of links between adjacent columns that cross:
// per pair of columns, the inversions of the links' right ends once they
// are sorted by their left ends, counted with a Fenwick tree, in
// O(L log L) for L links.
func (g *grid) crossings() int {
	total := 0
	var ends, tree []int
	for c := 0; c+1 < len(g.cols); c++ {
		ends = ends[:0]
		for _, u := range g.cols[c] { // in the order of their positions
			first := len(ends)
			for _, w := range g.vs[u].succs {
				ends = append(ends, g.vs[w].pos)
			}
			slices.SortStableFunc(ends[first:], cmp.Compare[int]) // shares the page's stable sort of []int: 2 KB less wasm
		}
		tree = slices.Grow(tree[:0], len(g.cols[c+1])+1)[:len(g.cols[c+1])+1]
		clear(tree)
		for i, b := range ends {
			// The links before this one that end below it cross it.
			le := 0
			for k := b + 1; k > 0; k -= k & -k {
				le += tree[k]
			}
			total += i - le
			for k := b + 1; k < len(tree); k += k & -k {
				tree[k]++
			}
		}
	}
	return total
}

func (g *grid) snapshot() [][]int {
	s := make([][]int, len(g.cols))
	for i, col := range g.cols {
		s[i] = append([]int(nil), col...)
	}
	return s
}

func (g *grid) restore(s [][]int) {
	g.cols = s
	for _, col := range g.cols {
		g.renumber(col)
	}
}

// order compares two vertices of which one is above the other's chain:
// the one above (above is true) comes first.
func order(above bool) int {
	if above {
		return -1
	}
	return 1
}
