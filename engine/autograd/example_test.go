package autograd_test

import (
	"fmt"

	"tapelab/engine/autograd"
	"tapelab/engine/op"
	"tapelab/engine/tensor"
)

// micrograd's first example, L = (a·b + c)·f, run eagerly: the session
// records one tape node per leaf and per op, in the order they are made
// (a node's id is its index, its parents are earlier ids), and Backward
// walks the tape from L down to node 0, running each op node's VJP on its
// gradient and adding the contributions into its parents' gradients.
func ExampleSession_Backward() {
	s := autograd.NewSession()
	a := s.Param(tensor.Scalar(2), "a")
	b := s.Param(tensor.Scalar(-3), "b")
	c := s.Param(tensor.Scalar(10), "c")
	f := s.Param(tensor.Scalar(-2), "f")
	e := op.Mul(s, a, b)
	d := op.Add(s, e, c)
	L := op.Mul(s, d, f)

	var g autograd.Grads
	if err := s.Backward(L, &g); err != nil {
		fmt.Println(err)
		return
	}
	t := s.Tape()
	for i := range t.Len() {
		n := t.Node(i)
		what := n.Kind.String() + " " + n.Name
		if n.Op != nil {
			what = fmt.Sprint(n.Op.Name, " of nodes ", n.Parents)
		}
		fmt.Printf("node %d: %s = %v, grad %v\n", i, what, n.Value.Data[0], g.Of(i).Data[0])
	}
	// Output:
	// node 0: param a = 2, grad 6
	// node 1: param b = -3, grad -4
	// node 2: param c = 10, grad -2
	// node 3: param f = -2, grad 4
	// node 4: mul of nodes [0 1] = -6, grad -2
	// node 5: add of nodes [4 2] = 4, grad -2
	// node 6: mul of nodes [5 3] = -8, grad 1
}

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

	var events []autograd.Event // what a view is handed, step by step
	for {
		e, ok := c.Forward()
		if !ok {
			break
		}
		events = append(events, e)
	}
	for {
		e, ok := c.Backward()
		if !ok {
			break
		}
		events = append(events, e)
	}
	e, _ := c.Undo() // take the last VJP back…
	events = append(events, e)
	e, _ = c.Backward()
	events = append(events, e)

	for _, e := range events {
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

// The dense all-seeds pass visits a metric beside the loss: m = tanh(x) is
// recorded next to y = x·x, y does not depend on it, yet the dense pass runs
// its VJP on its +0.0 seed. The single-output cursor never steps it.
func ExampleNewDenseCursor() {
	s := autograd.NewSession()
	x := s.Param(tensor.Scalar(3), "x")
	op.Tanh(s, x) // node 1: a metric beside the loss
	y := op.Mul(s, x, x)

	single, _ := autograd.NewCursor(s.Tape(), int(y))
	c, err := autograd.NewDenseCursor(s.Tape(), int(y))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("single-output order:", single.Order(), "dense order:", c.Order())
	for {
		if _, ok := c.Forward(); !ok {
			break
		}
	}
	for {
		e, ok := c.Backward()
		if !ok {
			break
		}
		fmt.Printf("node %d ran on dY = %v", e.Node, e.Grad.Data[0])
		for _, k := range e.Contribs { // every slot starts at its seed, so Before is never nil
			fmt.Printf("; x: %v + %v = %v", k.Before.Data[0], k.Value.Data[0], k.After.Data[0])
		}
		fmt.Println()
	}
	// Output:
	// single-output order: [2] dense order: [2 1]
	// node 2 ran on dY = 1; x: 0 + 3 = 3; x: 3 + 3 = 6
	// node 1 ran on dY = 0; x: 6 + 0 = 6
}
