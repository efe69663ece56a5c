package autograd

import (
	"testing"

	"tapelab/engine/op"
	"tapelab/engine/tensor"
)

// chain records x + c + c + … (n scalar adds) on a reset session.
func chain(s *Session, x, c *tensor.Tensor, n int) op.Value {
	s.Reset()
	v := s.Param(x, "x")
	k := s.Const(c)
	for range n {
		v = op.Add(s, v, k)
	}
	return v
}

// BenchmarkTapeOverhead measures the per-node cost of the tape itself on a
// chain of 1000 scalar adds, where the arithmetic is negligible: recording
// (checks, shape rule, forward, node bookkeeping) and the reverse pass.
func BenchmarkTapeOverhead(b *testing.B) {
	const n = 1000
	x, c := tensor.Scalar(0.5), tensor.Scalar(0.25)
	b.Run("record", func(b *testing.B) {
		s := NewSession()
		chain(s, x, c, n)
		b.ReportAllocs()
		for b.Loop() {
			chain(s, x, c, n)
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/node")
	})
	b.Run("backward", func(b *testing.B) {
		s := NewSession()
		out := chain(s, x, c, n)
		var g Grads
		if err := s.Backward(out, &g); err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		for b.Loop() {
			if err := s.Backward(out, &g); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/node")
	})
	b.Run("record+backward", func(b *testing.B) {
		s := NewSession()
		var g Grads
		if err := s.Backward(chain(s, x, c, n), &g); err != nil { // warm-up: grow the buffers
			b.Fatal(err)
		}
		b.ReportAllocs()
		for b.Loop() {
			if err := s.Backward(chain(s, x, c, n), &g); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/node")
	})
}

// BenchmarkCursor measures stepping a 2-16-16-1 MLP's tape forward and
// backward with a cursor (copies for events and undo included), the cost of
// one playground step through a small model.
func BenchmarkCursor(b *testing.B) {
	s := NewSession()
	x := s.Input(tensor.Zeros(tensor.Shape{32, 2}), "x")
	y := s.Input(tensor.Zeros(tensor.Shape{32, 1}), "y")
	h := x
	for _, l := range [][2]int{{16, 2}, {16, 16}, {1, 16}} {
		w := s.Param(tensor.Zeros(tensor.Shape{l[0], l[1]}), "W")
		bias := s.Param(tensor.Zeros(tensor.Shape{l[0]}), "b")
		h = op.Linear(s, h, w, bias)
		if l[0] > 1 {
			h = op.Tanh(s, h)
		}
	}
	out := op.MSELoss(s, h, y)
	b.ReportAllocs()
	steps := 0
	for b.Loop() {
		c, err := NewCursor(s.Tape(), int(out))
		if err != nil {
			b.Fatal(err)
		}
		for {
			if _, ok := c.Forward(); !ok {
				break
			}
			steps++
		}
		for {
			if _, ok := c.Backward(); !ok {
				break
			}
			steps++
		}
		c.Close()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(steps), "ns/step")
}
