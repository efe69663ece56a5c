package graph_test

import (
	"fmt"

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
