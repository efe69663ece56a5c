package ir

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"tapelab/engine/graph"
	"tapelab/engine/op"
	"tapelab/engine/randprog"
	"tapelab/engine/tensor"
)

// TestCatalogueOpsAreComplete checks the op package's promise that Lower's
// fragment rests on: every catalogue op has operands, a shape rule, a
// forward and a VJP, all graph.Builder asks of an op.
func TestCatalogueOpsAreComplete(t *testing.T) {
	for _, o := range op.All() {
		if len(o.Operands) == 0 || o.Infer == nil || o.Forward == nil || o.VJP == nil {
			t.Errorf("%s: operands %d, shape rule %v, forward %v, VJP %v", o.Name, len(o.Operands), o.Infer != nil, o.Forward != nil, o.VJP != nil)
		}
	}
}

// cloneGraph returns a deep copy of g's nodes; payload entries are shared
// (breakers replace them, never modify them).
func cloneGraph(g *Graph) *Graph {
	c := &Graph{Nodes: make([]Node, len(g.Nodes)), Payload: Payload{}}
	for i, n := range g.Nodes {
		n.Parents = append([]int{}, n.Parents...)
		n.OutShape = n.OutShape.Clone()
		n.Attrs = Attrs{Input: n.Attrs.Input, Attrs: n.Attrs.Op()}
		c.Nodes[i] = n
	}
	for id, e := range g.Payload {
		c.Payload[id] = e
	}
	return c
}

// breakers change one thing of one node of a graph, at random: its kind,
// a parent, the number of parents, its declared shape, an attribute, its
// payload or its input index. Many results still pass CheckShapes (tanh
// becomes sigmoid, a parent becomes another of the same shape).
var breakers = []func(r *rand.Rand, g *Graph, n *Node){
	func(r *rand.Rand, g *Graph, n *Node) {
		kinds := append([]string{KindInput, KindConst, KindParam}, opNames()...)
		n.Kind = kinds[r.IntN(len(kinds))]
	},
	func(r *rand.Rand, g *Graph, n *Node) {
		if len(n.Parents) > 0 {
			n.Parents[r.IntN(len(n.Parents))] = r.IntN(n.ID+1) - r.IntN(2)
		}
	},
	func(r *rand.Rand, g *Graph, n *Node) {
		if len(n.Parents) > 0 && r.IntN(2) == 0 {
			n.Parents = n.Parents[:len(n.Parents)-1]
		} else if n.ID > 0 {
			n.Parents = append(n.Parents, r.IntN(n.ID))
		}
	},
	func(r *rand.Rand, g *Graph, n *Node) {
		if n.ID > 0 && r.IntN(2) == 0 {
			n.OutShape = g.Nodes[r.IntN(n.ID)].OutShape.Clone()
		} else {
			n.OutShape = tensor.Shape{1 + r.IntN(4), 1 + r.IntN(4)}[:r.IntN(3)]
		}
	},
	func(r *rand.Rand, g *Graph, n *Node) {
		switch r.IntN(5) {
		case 0:
			n.Attrs.Axis = r.IntN(4) - 1
		case 1:
			n.Attrs.Alpha = r.NormFloat64()
		case 2:
			n.Attrs.Stride = r.IntN(3)
		case 3:
			n.Attrs.Kernel = r.IntN(3)
		default:
			n.Attrs.Shape = tensor.Shape{1 + r.IntN(8)}
		}
	},
	func(r *rand.Rand, g *Graph, n *Node) {
		switch r.IntN(3) {
		case 0:
			delete(g.Payload, n.ID)
		case 1:
			g.Payload[n.ID] = &Entry{Value: NewTensor("", tensor.Zeros(n.OutShape))}
		default:
			w := tensor.Zeros(tensor.Shape{1 + r.IntN(3), 1 + r.IntN(3)})
			g.Payload[n.ID] = &Entry{Weight: NewTensor("w", w), Bias: NewTensor("b", tensor.Zeros(w.Shape[:1]))}
		}
	},
	func(r *rand.Rand, g *Graph, n *Node) { n.Attrs.Input = r.IntN(3) },
}

func opNames() []string {
	var names []string
	for _, o := range op.All() {
		names = append(names, o.Name)
	}
	return names
}

// checkLowers is the fragment statement on one graph: Lower (with rule)
// succeeds exactly when CheckShapes does, and otherwise fails with
// CheckShapes' error; the lowered graph passes graph's Check, holds each op
// node as the instruction it names (sameInstructions), and when it is
// small, evaluating it equals Denote on zero inputs (equivalence).
func checkLowers(g *Graph, rule opRule) (lowered bool, err error) {
	serr := CheckShapes(g)
	lg, ids, lerr := lowerWith(g, rule)
	switch {
	case serr != nil && lerr == nil:
		return false, fmt.Errorf("Lower accepted a graph CheckShapes refuses (%v)", serr)
	case serr != nil:
		if lerr.Error() != serr.Error() {
			return false, fmt.Errorf("Lower failed with %q, CheckShapes with %q", lerr, serr)
		}
		return false, nil
	case lerr != nil:
		return false, fmt.Errorf("Lower refused a graph CheckShapes accepts: %v", lerr)
	}
	if err := lg.Check(); err != nil {
		return true, fmt.Errorf("the lowered graph does not check: %v", err)
	}
	if err := sameInstructions(g, lg, ids); err != nil {
		return true, err
	}
	total := 0
	for i := range g.Nodes {
		total += g.Nodes[i].OutShape.Size()
	}
	if total > 1<<12 {
		return true, nil
	}
	var inputs []*tensor.Tensor
	for _, s := range inputShapes(g) {
		inputs = append(inputs, tensor.Zeros(s))
	}
	return true, equivalence(&irCase{g: g, inputs: inputs}, rule)
}

// wellShapedGraphs runs check on the exported graph of each of n random
// programs and on three broken copies of it (one to three breakers each),
// and reports how many graphs passed CheckShapes.
func wellShapedGraphs(t *testing.T, n int, check func(g *Graph) (bool, error)) (graphs, lowered int) {
	t.Helper()
	for seed := uint64(0); seed < uint64(n); seed++ {
		c := randomIR(t, seed, randprog.Config{Finite: seed%2 == 0})
		if c == nil {
			continue
		}
		r := rand.New(rand.NewPCG(seed, 17))
		for variant := 0; variant < 4; variant++ {
			g := c.g
			if variant > 0 {
				g = cloneGraph(c.g)
				for range 1 + r.IntN(3) {
					breakers[r.IntN(len(breakers))](r, g, &g.Nodes[r.IntN(len(g.Nodes))])
				}
			}
			ok, err := check(g)
			if err != nil {
				enc, _ := Encode(g)
				t.Fatalf("seed %d, variant %d: %v\n%s", seed, variant, err, enc)
			}
			graphs++
			if ok {
				lowered++
			}
		}
	}
	return graphs, lowered
}

// TestEveryWellShapedGraphLowers is the statement of Lower's fragment (see
// Lower): on 1,000 exported random programs (200 with -short) and three
// broken copies of each, Lower succeeds exactly on the graphs CheckShapes
// accepts.
func TestEveryWellShapedGraphLowers(t *testing.T) {
	n := 1000
	if testing.Short() {
		n = 200
	}
	graphs, lowered := wellShapedGraphs(t, n, func(g *Graph) (bool, error) { return checkLowers(g, lowerOp) })
	t.Logf("%d graphs, %d passed CheckShapes and lowered", graphs, lowered)
	if lowered < n+graphs/10 {
		t.Errorf("only %d of %d graphs passed CheckShapes: the broken copies test little", lowered, graphs)
	}
}

// TestNarrowerLoweringIsCaught shows the fragment test has teeth: a
// lowering that refuses one kind the catalogue offers (as the removed
// fragment check would have, had an op lacked a VJP) is reported.
func TestNarrowerLoweringIsCaught(t *testing.T) {
	for _, kind := range []string{"tanh", "linear", "concat"} {
		refuse := func(b *graph.Builder, o *op.Op, a op.Attrs, args []op.Value) op.Value {
			if o.Name == kind {
				return op.NoValue
			}
			return lowerOp(b, o, a, args)
		}
		caught := false
		for seed := uint64(0); seed < 500 && !caught; seed++ {
			c := randomIR(t, seed, randprog.Config{Finite: true})
			if c == nil {
				continue
			}
			_, err := checkLowers(c.g, refuse)
			caught = err != nil
		}
		if !caught {
			t.Errorf("a lowering that refuses %s went unnoticed", kind)
		}
	}
}

// sameInstructions checks that each op node of g is lowered to one
// instruction of the very catalogue op its kind names, with the node's
// attributes (floats by their bits) and its parents' values as operands in
// order (a one-parent linear or conv2d node then its weight and bias
// leaves, named as Lower names them).
func sameInstructions(g *Graph, lg *graph.Graph, ids []int) error {
	for i := range g.Nodes {
		n := &g.Nodes[i]
		if leaf(n.Kind) {
			continue
		}
		v := &lg.Values[ids[i]]
		o, _ := op.Lookup(n.Kind)
		var args []int
		for _, p := range n.Parents {
			args = append(args, ids[p])
		}
		if paramBearing(n) {
			e := g.Payload[n.ID]
			if len(v.Args) != 3 || lg.Values[v.Args[1]].Name != paramName(n, "weight", e.Weight) || lg.Values[v.Args[2]].Name != paramName(n, "bias", e.Bias) {
				return fmt.Errorf("node %d (%s): lowered operands %v do not end with its weight and bias", i, n.Kind, v.Args)
			}
			args = append(args, v.Args[1], v.Args[2])
		}
		switch {
		case v.Op != o:
			return fmt.Errorf("node %d (%s): lowered to op %s at %p, the catalogue's is at %p", i, n.Kind, v.Op.Name, v.Op, o)
		case !slices.Equal(v.Args, args):
			return fmt.Errorf("node %d (%s): lowered operands %v, its parents are values %v", i, n.Kind, v.Args, args)
		case !sameBits(reflect.ValueOf(v.Attrs), reflect.ValueOf(n.Attrs.Attrs)):
			return fmt.Errorf("node %d (%s): lowered attrs %v, the node's %v", i, n.Kind, v.Attrs, n.Attrs.Attrs)
		}
	}
	return nil
}

// TestFragmentCatchesBrokenLowering runs the fragment statement with
// lowering rules broken in the three ways every new property test must
// notice: an op whose VJP is wrong (a copy of the catalogue op; the forward
// is right, so only the structure shows it), two like-shaped operands
// swapped, and an attribute dropped where the shape rule still accepts it.
func TestFragmentCatchesBrokenLowering(t *testing.T) {
	perturbed := map[*op.Op]*op.Op{}
	for _, o := range op.All() {
		p := *o
		vjp := o.VJP
		p.VJP = func(dx []*tensor.Tensor, dy, y *tensor.Tensor, x []*tensor.Tensor, a op.Attrs) {
			vjp(dx, dy, y, x, a)
			if dx[0] != nil {
				dx[0].Data[0] += 0.25
			}
		}
		perturbed[o] = &p
	}
	rules := map[string]opRule{
		"wrong VJP": func(b *graph.Builder, o *op.Op, a op.Attrs, args []op.Value) op.Value {
			return lowerOp(b, perturbed[o], a, args)
		},
		"swapped parents": func(b *graph.Builder, o *op.Op, a op.Attrs, args []op.Value) op.Value {
			if i, j := 0, len(args)-1; j > 0 && args[i] != args[j] && b.Shape(args[i]).Equal(b.Shape(args[j])) {
				args = append([]op.Value(nil), args...)
				args[i], args[j] = args[j], args[i]
			}
			return lowerOp(b, o, a, args)
		},
		"dropped attribute": func(b *graph.Builder, o *op.Op, a op.Attrs, args []op.Value) op.Value {
			in := make([]tensor.Shape, len(args))
			for i, v := range args {
				in[i] = b.Shape(v)
			}
			want, err1 := o.Shape(nil, in, a)
			got, err2 := o.Shape(nil, in, op.Attrs{})
			if err1 == nil && err2 == nil && got.Equal(want) {
				a = op.Attrs{}
			}
			return lowerOp(b, o, a, args)
		},
	}
	for name, rule := range rules {
		eligible, caught := 0, 0
		for seed := uint64(0); seed < 200; seed++ {
			c := randomIR(t, seed, randprog.Config{Finite: true})
			if c == nil {
				continue
			}
			lg, _, err := lowerWith(c.g, lowerOp)
			if err != nil {
				t.Fatal(err)
			}
			bad, _, err := lowerWith(c.g, rule)
			if err == nil && lg.String() == bad.String() && name != "wrong VJP" {
				continue // the rule changed nothing here
			}
			eligible++
			if _, err := checkLowers(c.g, rule); err != nil {
				caught++
			}
		}
		t.Logf("%s: caught in %d of %d graphs it changes", name, caught, eligible)
		if eligible < 20 || caught != eligible {
			t.Errorf("%s: caught in %d of %d graphs it changes", name, caught, eligible)
		}
	}
}
