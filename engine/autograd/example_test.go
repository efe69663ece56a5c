package autograd_test

import (
	"fmt"

	"tapelab/engine/autograd"
	"tapelab/engine/op"
	"tapelab/engine/tensor"
)

// A playground view steps through y = x·x + x at x = 3: the forward pass
// node by node, then the reverse pass one VJP at a time, watching each
// contribution fill in a parent's gradient.
func ExampleCursor() {
	s := autograd.NewSession()
	x := s.Param(tensor.Scalar(3), "x")
	y := op.Add(s, op.Mul(s, x, x), x)

	c, err := autograd.NewCursor(s.Tape(), int(y))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer c.Close()
	view := c.Listen(64) // a view's subscription; the cursor never waits for it

	for {
		if _, ok := c.Forward(); !ok {
			break
		}
	}
	for {
		if _, ok := c.Backward(); !ok {
			break
		}
	}
	c.Undo() // take the last VJP back…
	c.Backward()

	for len(view.Ch()) > 0 {
		e := <-view.Ch()
		fmt.Printf("%s node %d", e.Kind, e.Node)
		if e.Value != nil {
			fmt.Printf(": value %v", e.Value.Data[0])
		}
		for _, k := range e.Contribs {
			before := "none"
			if k.Before != nil {
				before = fmt.Sprint(k.Before.Data[0])
			}
			fmt.Printf("; operand %d → node %d: %v + %v = %v", k.Operand, k.Parent, before, k.Value.Data[0], k.After.Data[0])
		}
		fmt.Println()
	}
	fmt.Println("dy/dx =", c.Grad(int(x)).Data[0], "final:", c.Final(int(x)), "phase:", c.Position().Phase)
	// Output:
	// forward node 0: value 3
	// forward node 1: value 9
	// forward node 2: value 12
	// backward node 2; operand 0 → node 1: none + 1 = 1; operand 1 → node 0: none + 1 = 1
	// backward node 1; operand 0 → node 0: 1 + 3 = 4; operand 1 → node 0: 4 + 3 = 7
	// undo backward node 1; operand 0 → node 0: 1 + 3 = 4; operand 1 → node 0: 4 + 3 = 7
	// backward node 1; operand 0 → node 0: 1 + 3 = 4; operand 1 → node 0: 4 + 3 = 7
	// dy/dx = 7 final: true phase: done
}
