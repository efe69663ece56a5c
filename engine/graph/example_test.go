package graph_test

import (
	"fmt"
	"math"

	"tapelab/engine/autograd"
	"tapelab/engine/graph"
	"tapelab/engine/op"
	"tapelab/engine/tensor"
)

// A program is recorded once on a Builder, compiled for one set of inputs
// with its domains checked, and differentiated from any one value.
func ExampleCompileChecked() {
	b := graph.NewBuilder()
	x := b.Input("x", tensor.Shape{1, 2})
	w := b.Param("w", tensor.Shape{2, 1})
	y := op.Tanh(b, op.MatMul(b, x, w))
	loss := op.Sum(b, op.Mul(b, y, y))
	op.Neg(b, w) // a branch the loss does not depend on
	g, err := b.Graph()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(g)

	c, err := graph.CompileChecked(g, []*tensor.Tensor{tensor.Matrix([][]float64{{1, 2}}), tensor.Matrix([][]float64{{0.5}, {0.25}})})
	if err != nil {
		fmt.Println(err)
		return
	}
	grads, visited, err := c.BackwardFrom(int(loss), tensor.Scalar(1))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("loss %.4f, dloss/dw %.4f, VJPs run %d (the neg branch is skipped)\n", c.Values()[loss].Data, grads[w].Data, visited)
	// Output:
	// %0 = input "x" : [1 2]
	// %1 = param "w" : [2 1] grad
	// %2 = matmul %0 %1 : [1 1] grad
	// %3 = tanh %2 : [1 1] grad
	// %4 = mul %3 %3 : [1 1] grad
	// %5 = sum %4 : [] grad
	// %6 = neg %1 : [2 1] grad
	// loss [0.5800], dloss/dw [0.6397 1.2794], VJPs run 4 (the neg branch is skipped)
}

// A Cursor steps the single-output pass BackwardFrom one VJP at a time and
// says why it visits each node: here the output depends on neg alone, but
// the product with +Inf beside it must run too (its VJP gives 0·∞ = NaN to
// x, which the dense pass adds in), and so must tanh, which that product
// feeds.
func ExampleCompiled_NewCursor() {
	b := graph.NewBuilder()
	x := b.Param("x", tensor.Shape{1})
	a := op.Tanh(b, x)
	op.Mul(b, a, b.Const(tensor.Vector(math.Inf(1))))
	y := op.Neg(b, x)
	g, _ := b.Graph()
	c, err := graph.CompileChecked(g, []*tensor.Tensor{tensor.Vector(0.5)})
	if err != nil {
		fmt.Println(err)
		return
	}
	cur, err := c.NewCursor(int(y), tensor.Vector(1))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, v := range cur.Plan() {
		fmt.Printf("visit %%%d: %s", v.Node, v.Reason)
		if v.By >= 0 {
			fmt.Printf(" (%%%d)", v.By)
		}
		fmt.Println()
	}
	for {
		if _, ok := cur.Forward(); !ok {
			break
		}
	}
	steps := 0
	for {
		if _, ok := cur.Backward(); !ok {
			break
		}
		steps++
	}
	fmt.Printf("%d steps; gradient of x: %v\n", steps, cur.Grad(int(x)).Data)
	grads, visited, _ := c.BackwardFrom(int(y), tensor.Vector(1))
	fmt.Printf("BackwardFrom visits %d; gradient of x: %v\n", visited, grads[x].Data)
	// Output:
	// visit %4: dependency
	// visit %3: 0·∞: not zero-safe
	// visit %1: fed by a visit beyond the dependencies (%3)
	// 3 steps; gradient of x: [NaN]
	// BackwardFrom visits 3; gradient of x: [NaN]
}

// An eager session's recording is snapshotted as a graph (TorchLean's
// linked session) and compiled; its reverse pass is the session's.
func ExampleFromSession() {
	s := autograd.NewSession()
	x := s.Param(tensor.Vector(0.5, -1), "x")
	y := op.Sum(s, op.Mul(s, x, x))
	g, leaves, err := graph.FromSession(s)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(g)
	c, err := graph.CompileChecked(g, leaves)
	if err != nil {
		fmt.Println(err)
		return
	}
	grads, _, _ := c.BackwardFrom(int(y), tensor.Scalar(1))
	var live autograd.Grads
	if err := s.Backward(y, &live); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("compiled snapshot:", grads[x].Data, "live session:", live.Of(int(x)).Data)
	// Output:
	// %0 = param "x" : [2] grad
	// %1 = mul %0 %0 : [2] grad
	// %2 = sum %1 : [] grad
	// compiled snapshot: [1 -2] live session: [1 -2]
}
