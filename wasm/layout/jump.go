package layout

import (
	"cmp"
	"container/heap"
	"slices"
)

// longest returns the most columns an edge of the drawing is routed
// through, one vertex (dummy point) per column; a longer edge jumps over
// them in a lane above the drawing, with a constant number of points.
// While all the edges' passes add up to at most a budget linear in the
// size of the tape (2 per node and edge, and 64), every edge is routed
// through its columns (ncols is more than any edge passes); beyond it,
// the longest edges jump, as few as keep the passes within the budget.
// So the drawing has O(nodes + edges) points whatever the tape, where
// routing every edge would be quadratic (a value read by every later
// node of a long chain passes every column).
func (g *grid) longest(ncols int) int {
	count := make([]int, ncols) // the edges by the number of columns they pass
	passes, edges := 0, 0
	for to, n := range g.nodes {
		for _, from := range n.Parents {
			k := g.vs[to].col - g.vs[from].col - 1
			count[k]++
			passes += k
			edges++
		}
	}
	budget := 2*(len(g.nodes)+edges) + 64
	if passes <= budget {
		return ncols
	}
	sum := 0
	for k := 1; k < ncols; k++ {
		if sum += k * count[k]; sum > budget {
			return k - 1
		}
	}
	return ncols
}

// assignLanes gives each jump its lane and returns the number of lanes.
// The jumps of one node share a lane, which runs from the node's column
// to its farthest jump's target; two nodes' jumps share a lane where they
// do not overlap (interval partitioning: as few lanes as any column
// needs), in O(J log J) for J jumps.
func (g *grid) assignLanes() int {
	end := make([]int, len(g.nodes)) // the farthest column a node jumps to; -1 for none
	for i := range end {
		end[i] = -1
	}
	var from []int // the nodes that jump, in order of their columns
	for _, ch := range g.chains {
		if !ch.jump {
			continue
		}
		if end[ch.from] < 0 {
			from = append(from, ch.from)
		}
		end[ch.from] = max(end[ch.from], g.vs[ch.to].col)
	}
	if len(from) == 0 {
		return 0
	}
	slices.SortStableFunc(from, func(a, b int) int { return cmp.Or(cmp.Compare(g.vs[a].col, g.vs[b].col), cmp.Compare(a, b)) })
	lane := make([]int, len(g.nodes))
	// busy holds the lanes in use as end·k + lane, k more than any lane,
	// so that the lane freed first is on top; free the lanes freed since.
	k := len(from) + 1
	var busy, free ints
	lanes := 0
	for _, i := range from {
		start := g.vs[i].col
		for busy.Len() > 0 && busy[0]/k <= start {
			heap.Push(&free, heap.Pop(&busy).(int)%k)
		}
		if free.Len() > 0 {
			lane[i] = heap.Pop(&free).(int)
		} else {
			lane[i] = lanes
			lanes++
		}
		heap.Push(&busy, end[i]*k+lane[i])
	}
	for c := range g.chains {
		if ch := &g.chains[c]; ch.jump {
			ch.lane = lane[ch.from]
		}
	}
	return lanes
}

// ints is a min-heap of ints (container/heap).
type ints []int

func (h ints) Len() int           { return len(h) }
func (h ints) Less(i, j int) bool { return h[i] < h[j] }
func (h ints) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *ints) Push(x any)        { *h = append(*h, x.(int)) }
func (h *ints) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
