package graph

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"tapelab/engine/autograd"
	"tapelab/engine/op"
	"tapelab/engine/randprog"
	"tapelab/engine/tensor"
)

// sameAttrs reports whether a and b are equal field by field, floats by
// their bits (-0.0 differs from +0.0) and shapes by their dimensions, so
// that an attribute added to op.Attrs is compared too.
func sameAttrs(a, b op.Attrs) bool {
	va, vb := reflect.ValueOf(a), reflect.ValueOf(b)
	for i := range va.NumField() {
		fa, fb := va.Field(i), vb.Field(i)
		switch x := fa.Interface().(type) {
		case float64:
			if math.Float64bits(x) != math.Float64bits(fb.Float()) {
				return false
			}
		case tensor.Shape:
			if y := fb.Interface().(tensor.Shape); (x == nil) != (y == nil) || !x.Equal(y) {
				return false
			}
		default:
			if !reflect.DeepEqual(x, fb.Interface()) {
				return false
			}
		}
	}
	return true
}

// sameNode reports how tape node a differs from b: kind, name, op (the
// very catalogue entry), attributes, parents, requires-grad flag, shape and
// value (tensor.Identical).
func sameNode(a, b *autograd.Node) error {
	switch {
	case a.Kind != b.Kind:
		return fmt.Errorf("kind %v vs %v", a.Kind, b.Kind)
	case a.Name != b.Name:
		return fmt.Errorf("name %q vs %q", a.Name, b.Name)
	case a.Op != b.Op:
		return fmt.Errorf("op %v vs %v", opName(a.Op), opName(b.Op))
	case !sameAttrs(a.Attrs, b.Attrs):
		return fmt.Errorf("attrs %v vs %v", a.Attrs, b.Attrs)
	case !slices.Equal(a.Parents, b.Parents):
		return fmt.Errorf("parents %v vs %v", a.Parents, b.Parents)
	case a.RequiresGrad != b.RequiresGrad:
		return fmt.Errorf("requires-grad %v vs %v", a.RequiresGrad, b.RequiresGrad)
	case !a.Value.Shape.Equal(b.Value.Shape):
		return fmt.Errorf("shape %v vs %v", a.Value.Shape, b.Value.Shape)
	case !tensor.Identical(a.Value, b.Value):
		return fmt.Errorf("value %v vs %v", a.Value, b.Value)
	}
	return nil
}

func opName(o *op.Op) string {
	if o == nil {
		return "none"
	}
	return fmt.Sprintf("%s (%p)", o.Name, o)
}

// checkTapeStructure: Compiled.Tape(), Compile's tape and LowerChecked's
// tape have one node per value of the graph and agree node by node (see
// sameNode); each node is the graph's value (kind, name, op, attributes,
// operands as parents, flag, shape) holding Eval's value. mutate, when not
// nil, breaks the graph CompileChecked compiles (the others use g).
func checkTapeStructure(c *randprog.Case, _ *rand.Rand, mutate func(*Graph) *Graph) error {
	g, err := build(c)
	if err != nil {
		return fmt.Errorf("build: %v", err)
	}
	in := c.Tensors()
	vals, err := Eval(g, in)
	if err != nil {
		return err
	}
	gc := g
	if mutate != nil {
		gc = mutate(g)
	}
	cc, err := CompileChecked(gc, in)
	if err != nil {
		return fmt.Errorf("CompileChecked: %v", err)
	}
	ct, _, err := Compile(g, in)
	if err != nil {
		return fmt.Errorf("Compile: %v", err)
	}
	lt, err := LowerChecked(g, in)
	if err != nil {
		return fmt.Errorf("LowerChecked: %v", err)
	}
	tapes := []struct {
		name string
		t    *autograd.Tape
	}{{"Compiled.Tape()", cc.Tape()}, {"Compile", ct}, {"LowerChecked", lt}}
	for _, tp := range tapes {
		if tp.t.Len() != g.Len() {
			return fmt.Errorf("%s: %d nodes for %d values", tp.name, tp.t.Len(), g.Len())
		}
	}
	for k := range g.Values {
		v := &g.Values[k]
		want := autograd.Node{Kind: v.Kind, Name: v.Name, Op: v.Op, Attrs: v.Attrs, Parents: v.Args,
			RequiresGrad: v.RequiresGrad, Value: vals[k]}
		for _, tp := range tapes {
			if err := sameNode(tp.t.Node(k), &want); err != nil {
				return fmt.Errorf("%s: node %d differs from the graph's value: %v", tp.name, k, err)
			}
		}
		for _, tp := range tapes[1:] {
			if err := sameNode(tapes[0].t.Node(k), tp.t.Node(k)); err != nil {
				return fmt.Errorf("node %d: %s vs %s: %v", k, tapes[0].name, tp.name, err)
			}
		}
	}
	return nil
}

func TestCompiledTapeMatchesCompile(t *testing.T) {
	forPrograms(t, config, func(c *randprog.Case, r *rand.Rand) error { return checkTapeStructure(c, r, nil) })
}

func TestCompiledTapeCatchesMutants(t *testing.T) {
	caughtShare(t, checkTapeStructure)
}
