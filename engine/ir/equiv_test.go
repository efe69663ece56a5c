package ir

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"testing"

	"tapelab/engine/graph"
	"tapelab/engine/op"
	"tapelab/engine/randprog"
	"tapelab/engine/tensor"
)

// irCase is a random IR graph with the inputs it reads.
type irCase struct {
	g      *Graph
	inputs []*tensor.Tensor
	orig   *graph.Graph     // the recorded program it was exported from
	leaves []*tensor.Tensor // orig's leaf tensors
	desc   string
	shared bool // two input nodes were made to read one input
}

// randomIR turns a randprog program into an IR graph: the program is
// recorded by graph.Builder (its trainable leaves as params, about a third of
// its data leaves as buffers) and exported with FromGraph, which folds
// parameters into one-parent linear and conv2d nodes where it can; then,
// sometimes, two input nodes of the same shape are made to read the same
// input, as TorchLean's IR lets any number of nodes read one input.
func randomIR(t *testing.T, seed uint64, cfg randprog.Config) *irCase {
	t.Helper()
	c, err := newIRCase(seed, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// newIRCase is randomIR reporting failures as errors; it returns nil, nil
// when randprog generates nothing for the seed.
func newIRCase(seed uint64, cfg randprog.Config) (*irCase, error) {
	c := randprog.Generate(seed, cfg)
	if c == nil {
		return nil, nil
	}
	r := rand.New(rand.NewPCG(seed, 7))
	b := graph.NewBuilder()
	vals := make([]op.Value, len(c.Inputs))
	params := map[string]*tensor.Tensor{}
	var inputs []*tensor.Tensor
	for i, in := range c.Inputs {
		name := fmt.Sprintf("%d.%s", i, in.Name) // randprog repeats some names
		switch {
		case in.RequiresGrad:
			vals[i] = b.Param(name, in.Value.Shape)
			params[name] = in.Value
		case r.IntN(3) == 0:
			vals[i] = b.Buffer(name, in.Value.Shape)
			params[name] = in.Value
		default:
			vals[i] = b.Input(name, in.Value.Shape)
			inputs = append(inputs, in.Value)
		}
	}
	c.Program(b, vals)
	orig, err := b.Graph()
	if err != nil {
		return nil, fmt.Errorf("seed %d: recording the program: %v\n%v", seed, err, c)
	}
	g, err := FromGraph(orig, params)
	if err != nil {
		return nil, fmt.Errorf("seed %d: FromGraph: %v\n%v", seed, err, c)
	}
	ic := &irCase{g: g, inputs: inputs, orig: orig, leaves: c.Tensors(), desc: c.String()}
	if r.IntN(2) == 0 {
		ic.shareInput()
	}
	return ic, nil
}

// shareInput makes the last input node that has the shape of an earlier
// input node read that node's input, renumbering the inputs after it.
func (c *irCase) shareInput() {
	var first []*Node
	for i := range c.g.Nodes {
		n := &c.g.Nodes[i]
		if n.Kind != KindInput {
			continue
		}
		for _, f := range first {
			if f.OutShape.Equal(n.OutShape) {
				gone := n.Attrs.Input
				n.Attrs.Input = f.Attrs.Input
				for j := range c.g.Nodes {
					if m := &c.g.Nodes[j]; m.Kind == KindInput && m.Attrs.Input > gone {
						m.Attrs.Input--
					}
				}
				c.inputs = append(c.inputs[:gone], c.inputs[gone+1:]...)
				c.shared = true
				return
			}
		}
		first = append(first, n)
	}
}

// equivalence checks invariant 5 on one graph with the op rule given:
// lowering must succeed; where Denote meets a value outside an op's domain,
// CompileChecked on the lowered graph must fail at the same node with the
// same message; otherwise graph.Eval of the lowered graph must equal Denote
// on every node, bit for bit.
func equivalence(c *irCase, rule opRule) error {
	lg, ids, err := lowerWith(c.g, rule)
	if err != nil {
		return fmt.Errorf("Lower failed on a graph in the fragment: %v", err)
	}
	feed, err := Feed(c.g, c.inputs...)
	if err != nil {
		return fmt.Errorf("Feed: %v", err)
	}
	want, derr := Denote(c.g, c.inputs...)
	if derr != nil {
		_, cerr := graph.CompileChecked(lg, feed)
		var de, ce *op.Error
		if !errors.As(derr, &de) || !errors.As(cerr, &ce) {
			return fmt.Errorf("Denote failed with %v, CompileChecked with %v", derr, cerr)
		}
		if ids[de.Node] != ce.Node || de.Msg != ce.Msg {
			return fmt.Errorf("Denote failed at node %d (value %d): %v\nCompileChecked failed at value %d: %v", de.Node, ids[de.Node], derr, ce.Node, cerr)
		}
		return nil
	}
	got, err := graph.Eval(lg, feed)
	if err != nil {
		return fmt.Errorf("graph.Eval: %v", err)
	}
	for i := range c.g.Nodes {
		if !tensor.Identical(got[ids[i]], want[i]) {
			return fmt.Errorf("node %d (%s): lowered graph gives %v, Denote gives %v", i, c.g.Nodes[i].Kind, got[ids[i]], want[i])
		}
	}
	return nil
}

// coverage counts the forms a set of random graphs exercised.
type coverage map[string]int

func (cov coverage) add(g *Graph) {
	for i := range g.Nodes {
		n := &g.Nodes[i]
		cov[n.Kind]++
		if paramBearing(n) {
			cov[n.Kind+" (weights in the payload)"]++
		}
		if n.Kind == KindConst && g.Payload[n.ID].Value.Name != "" {
			cov["const (named buffer)"]++
		}
		if n.Kind == KindInput && n.Attrs.Input > 0 {
			cov["input index > 0"]++
		}
		for j := range g.Nodes[:i] {
			if m := &g.Nodes[j]; n.Kind == KindInput && m.Kind == KindInput && m.Attrs.Input == n.Attrs.Input {
				cov["input read by two nodes"]++
			}
		}
	}
}

// requireEveryKind fails unless every kind Lower accepts was exercised.
func (cov coverage) requireEveryKind(t *testing.T) {
	t.Helper()
	want := []string{KindInput, KindConst, KindParam, "linear (weights in the payload)",
		"conv2d (weights in the payload)", "const (named buffer)", "input index > 0", "input read by two nodes"}
	for _, o := range op.All() {
		want = append(want, o.Name)
	}
	for _, k := range want {
		if cov[k] == 0 {
			t.Errorf("no random graph exercised %q", k)
		}
	}
}

// TestLowerEqualsDenote is invariant 5: on random graphs over every kind
// Lower accepts (special IEEE values included, and a quarter of the graphs
// with domain faults), evaluating the lowered graph equals Denote bit for
// bit, and a domain fault fails both at the same node.
func TestLowerEqualsDenote(t *testing.T) {
	n := uint64(3000)
	if testing.Short() || runtime.GOARCH == "wasm" { // wasm runs about 10× slower
		n = 800
	}
	cov := coverage{}
	faults := 0
	for seed := uint64(0); seed < n; seed++ {
		c := randomIR(t, seed, randprog.Config{Faults: seed%4 == 0})
		if c == nil {
			continue
		}
		cov.add(c.g)
		if err := equivalence(c, lowerOp); err != nil {
			t.Fatalf("seed %d: %v\nprogram:\n%v", seed, err, c.desc)
		}
		if _, err := Denote(c.g, c.inputs...); err != nil {
			faults++
			continue
		}
		if c.shared {
			continue
		}
		// The export itself is faithful: the IR's result is the program's.
		orig, err := graph.Eval(c.orig, c.leaves)
		if err != nil {
			t.Fatal(err)
		}
		vals, _ := Denote(c.g, c.inputs...)
		if !tensor.Identical(orig[len(orig)-1], vals[len(vals)-1]) {
			t.Fatalf("seed %d: exported graph gives %v, the program %v", seed, vals[len(vals)-1], orig[len(orig)-1])
		}
	}
	cov.requireEveryKind(t)
	if faults == 0 {
		t.Error("no graph had a domain fault")
	}
	t.Logf("%d graphs, %d with domain faults; kinds exercised: %v", n, faults, cov)
}

// TestBrokenLoweringIsCaught breaks the lowering rule on purpose in ways
// that keep every shape valid, and checks that the property reports a
// mismatch for each: if it did not, it could not catch a real bug either.
func TestBrokenLoweringIsCaught(t *testing.T) {
	alike := func(o *op.Op) bool { return o.Infer != nil && o.Arity() == 2 && !o.Variadic }
	broken := map[string]opRule{
		"operands of sub and div swapped": func(b *graph.Builder, o *op.Op, a op.Attrs, args []op.Value) op.Value {
			if (o.Name == "sub" || o.Name == "div") && alike(o) {
				args = []op.Value{args[1], args[0]}
			}
			return lowerOp(b, o, a, args)
		},
		"attrs of scale dropped": func(b *graph.Builder, o *op.Op, a op.Attrs, args []op.Value) op.Value {
			if o.Name == "scale" {
				a = op.Attrs{}
			}
			return lowerOp(b, o, a, args)
		},
		"tanh lowered as sigmoid": func(b *graph.Builder, o *op.Op, a op.Attrs, args []op.Value) op.Value {
			if o.Name == "tanh" {
				o, _ = op.Lookup("sigmoid")
			}
			return lowerOp(b, o, a, args)
		},
		"bias of linear replaced by zeros": func(b *graph.Builder, o *op.Op, a op.Attrs, args []op.Value) op.Value {
			if o.Name == "linear" && b.Shape(args[2]).Equal(b.Shape(args[1])[:1]) {
				args = []op.Value{args[0], args[1], b.Const(tensor.Zeros(b.Shape(args[2])))}
			}
			return lowerOp(b, o, a, args)
		},
	}
	for name, rule := range broken {
		caught := -1
		for seed := uint64(0); seed < 2000 && caught < 0; seed++ {
			c := randomIR(t, seed, randprog.Config{})
			if c != nil && equivalence(c, rule) != nil {
				caught = int(seed)
			}
		}
		if caught < 0 {
			t.Errorf("%s: no random graph revealed the broken rule", name)
		} else {
			t.Logf("%s: caught at seed %d", name, caught)
		}
	}
}

// TestEveryOpHasItsOwnReference checks that Denote is independent of the
// catalogue: every op kind has a reference kernel of its own, except
// dropout, whose mask the catalogue's generator defines.
func TestEveryOpHasItsOwnReference(t *testing.T) {
	for _, o := range op.All() {
		if got, want := Reference(o.Name), o.Name != "dropout"; got != want {
			t.Errorf("Reference(%q) = %v, want %v", o.Name, got, want)
		}
	}
}
