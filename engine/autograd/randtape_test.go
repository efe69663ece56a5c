package autograd

import (
	"math"
	"math/rand/v2"

	"tapelab/engine/op"
	"tapelab/engine/tensor"
)

// randTape records a random well-typed program into a fresh session: leaves
// of every kind (params, inputs, buffers, constants), elementwise ops,
// matmul, linear, bias rows, reductions and losses, with values reused by
// several nodes (fan-out, the same operand twice), branches the output does
// not depend on, and now and then -0.0, ±Inf and NaN among the leaf values.
// It returns the session, recording in precision p, and an output node
// (usually, not always, the last).
func randTape(r *rand.Rand, p tensor.Precision) (*Session, int) {
	g := &tapeGen{r: r, s: NewSession()}
	g.s.SetPrecision(p)
	for range 1 + r.IntN(3) {
		g.leaf(g.randShape())
	}
	nops := 3 + r.IntN(25)
	for range nops {
		g.op()
	}
	if err := g.s.Err(); err != nil {
		panic("randTape built an ill-typed program: " + err.Error())
	}
	n := g.s.Tape().Len()
	out := n - 1
	if r.IntN(4) == 0 {
		out = r.IntN(n)
	}
	return g.s, out
}

// precisions are the precisions the property tests hold for.
var precisions = []tensor.Precision{tensor.Float64, tensor.Float32}

type tapeGen struct {
	r    *rand.Rand
	s    *Session
	vals []op.Value
}

var genDims = []int{1, 2, 3}

func (g *tapeGen) randShape() tensor.Shape {
	switch g.r.IntN(4) {
	case 0:
		return tensor.Shape{}
	case 1:
		return tensor.Shape{genDims[g.r.IntN(3)]}
	default:
		return tensor.Shape{genDims[g.r.IntN(3)], genDims[g.r.IntN(3)]}
	}
}

func (g *tapeGen) randTensor(s tensor.Shape) *tensor.Tensor {
	t := tensor.Zeros(s)
	for i := range t.Data {
		switch g.r.IntN(40) {
		case 0:
			t.Data[i] = math.Copysign(0, -1)
		case 1:
			t.Data[i] = math.Inf(1 - 2*g.r.IntN(2))
		case 2:
			t.Data[i] = math.NaN()
		case 3:
			t.Data[i] = 0
		default:
			t.Data[i] = 4*g.r.Float64() - 2
		}
	}
	return t
}

// leaf records a new leaf of a random kind and shape s.
func (g *tapeGen) leaf(s tensor.Shape) op.Value {
	v := g.randTensor(s)
	var id op.Value
	switch g.r.IntN(6) {
	case 0:
		id = g.s.Input(v, "x")
	case 1:
		id = g.s.Buffer(v, "buf")
	case 2:
		id = g.s.Const(v)
	default:
		id = g.s.Param(v, "p")
	}
	g.vals = append(g.vals, id)
	return id
}

func (g *tapeGen) shape(v op.Value) tensor.Shape { return g.s.Tape().Node(int(v)).Value.Shape }

func (g *tapeGen) pick() op.Value {
	// Favour recent values so that chains form, but reuse old ones too.
	if g.r.IntN(3) > 0 {
		k := len(g.vals) - 1 - g.r.IntN(min(3, len(g.vals)))
		return g.vals[k]
	}
	return g.vals[g.r.IntN(len(g.vals))]
}

// find returns an existing value of shape s, or a new leaf of that shape.
func (g *tapeGen) find(s tensor.Shape) op.Value {
	if g.r.IntN(4) > 0 {
		start := g.r.IntN(len(g.vals))
		for k := range g.vals {
			v := g.vals[(start+k)%len(g.vals)]
			if g.shape(v).Equal(s) {
				return v
			}
		}
	}
	return g.leaf(s)
}

func (g *tapeGen) op() {
	s := g.s
	a := g.pick()
	sa := g.shape(a).Clone()
	var y op.Value
	switch g.r.IntN(12) {
	case 0:
		y = op.Add(s, a, g.find(sa))
	case 1:
		y = op.Sub(s, a, g.find(sa))
	case 2:
		y = op.Mul(s, a, g.find(sa))
	case 3:
		y = op.Neg(s, a)
	case 4:
		y = op.Scale(s, a, []float64{2, -0.5, 0}[g.r.IntN(3)])
	case 5:
		y = op.Tanh(s, a)
	case 6:
		y = op.Relu(s, a)
	case 7:
		if g.r.IntN(2) == 0 {
			y = op.Sum(s, a)
		} else {
			y = op.Mean(s, a)
		}
	case 8:
		y = op.MSELoss(s, a, g.find(sa))
	case 9:
		if len(sa) == 0 {
			y = op.Tanh(s, a)
			break
		}
		y = op.AddBias(s, a, g.find(tensor.Shape{sa[len(sa)-1]}))
	case 10:
		if len(sa) != 2 {
			y = op.Neg(s, a)
			break
		}
		y = op.MatMul(s, a, g.find(tensor.Shape{sa[1], genDims[g.r.IntN(3)]}))
	case 11:
		if len(sa) != 2 {
			y = op.Sum(s, a)
			break
		}
		out := genDims[g.r.IntN(3)]
		y = op.Linear(s, a, g.find(tensor.Shape{out, sa[1]}), g.find(tensor.Shape{out}))
	}
	g.vals = append(g.vals, y)
}
