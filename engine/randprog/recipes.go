package randprog

import (
	"tapelab/engine/op"
	"tapelab/engine/tensor"
)

// recipe chooses operands (pool indices) and attributes for o. The caller
// checks the choice against o's shape rule and domain and retries when they
// reject it, so a recipe only has to be right most of the time.
type recipe func(g *gen, o *op.Op) (args []int, a op.Attrs, ok bool)

// recipes feeds the ops whose operands or attributes need more than the
// generic recipe gives; every other op is fed by generic.
var recipes = map[string]recipe{
	"matmul":          matmul,
	"linear":          linear,
	"add_bias":        addBias,
	"transpose":       transpose,
	"cross_entropy":   crossEntropy,
	"concat":          concat,
	"reshape":         reshape,
	"broadcast_to":    broadcastTo,
	"pow":             withAttrs(powAttrs),
	"reduce_sum":      reduceAxis,
	"reduce_mean":     reduceAxis,
	"scale":           withAttrs(scaleAttrs),
	"leaky_relu":      withAttrs(slopeAttrs),
	"dropout":         withAttrs(dropoutAttrs),
	"conv2d":          conv2d,
	"max_pool2d":      pool2d,
	"avg_pool2d":      pool2d,
	"batch_norm":      batchNorm,
	"batch_norm_eval": batchNorm,
	"layer_norm":      layerNorm,
}

// generic feeds an op from its arity alone: the first operand is any value,
// the others mostly of its shape, sometimes the very same value (one node
// using a value twice), sometimes of any shape.
func generic(g *gen, o *op.Op) ([]int, op.Attrs, bool) {
	n := o.Arity()
	if o.Variadic {
		n += g.r.IntN(2)
	}
	args := []int{g.pick()}
	first := g.pool[args[0]].t.Shape
	for len(args) < n {
		switch k := g.r.IntN(10); {
		case k < 2 && g.tame == 0:
			args = append(args, args[0])
		case k < 9:
			args = append(args, g.pickShape(first))
		default:
			args = append(args, g.pick())
		}
	}
	return args, op.Attrs{}, true
}

// withAttrs is generic with attributes drawn by f.
func withAttrs(f func(g *gen) op.Attrs) recipe {
	return func(g *gen, o *op.Op) ([]int, op.Attrs, bool) {
		args, _, ok := generic(g, o)
		return args, f(g), ok
	}
}

func scaleAttrs(g *gen) op.Attrs {
	alphas := []float64{2, -1, 0.5, 0, -2.5, 3, 1e-3}
	if !g.cfg.Finite {
		alphas = append(alphas, 1e300, -1e-300)
	}
	return op.Attrs{Alpha: alphas[g.r.IntN(len(alphas))]}
}

// powAttrs draws integer exponents (defined at every base) and, less
// often, fractional ones (the domain check rejects their negative bases).
func powAttrs(g *gen) op.Attrs {
	return op.Attrs{Alpha: []float64{2, 3, -1, 0, 1, 0.5, -0.5, 1.5}[g.r.IntN(8)]}
}

func slopeAttrs(g *gen) op.Attrs {
	return op.Attrs{Alpha: []float64{0.01, 0.1, 0.3, 0.5}[g.r.IntN(4)]}
}

func dropoutAttrs(g *gen) op.Attrs {
	return op.Attrs{Alpha: []float64{0, 0.25, 0.5, 0.75}[g.r.IntN(4)], Seed: 1 + g.r.Uint64N(1000)}
}

func matmul(g *gen, _ *op.Op) ([]int, op.Attrs, bool) {
	a := g.pickRank(2)
	k := g.pool[a].t.Shape[1]
	b := g.pickWhere(func(s tensor.Shape) bool { return len(s) == 2 && s[0] == k })
	if b < 0 {
		b = g.fresh(tensor.Shape{k, g.dim()})
	}
	return []int{a, b}, op.Attrs{}, true
}

func linear(g *gen, _ *op.Op) ([]int, op.Attrs, bool) {
	x := g.pickRank(2)
	in := g.pool[x].t.Shape[1]
	w := g.pickWhere(func(s tensor.Shape) bool { return len(s) == 2 && s[1] == in })
	if w < 0 {
		w = g.fresh(tensor.Shape{g.dim(), in})
	}
	b := g.pickShape(tensor.Shape{g.pool[w].t.Shape[0]})
	return []int{x, w, b}, op.Attrs{}, true
}

func addBias(g *gen, _ *op.Op) ([]int, op.Attrs, bool) {
	x := g.pickRanked()
	s := g.pool[x].t.Shape
	return []int{x, g.pickShape(tensor.Shape{s[len(s)-1]})}, op.Attrs{}, true
}

func transpose(g *gen, _ *op.Op) ([]int, op.Attrs, bool) {
	return []int{g.pickRank(2)}, op.Attrs{}, true
}

// crossEntropy feeds logits [B C] and B class indices as a constant or a
// data input; with Config.Faults, one index in three is out of range or not
// an integer.
func crossEntropy(g *gen, _ *op.Op) ([]int, op.Attrs, bool) {
	z := g.pickRank(2)
	b, c := g.pool[z].t.Shape[0], g.pool[z].t.Shape[1]
	t := tensor.Zeros(tensor.Shape{b})
	for i := range t.Data {
		t.Data[i] = float64(g.r.IntN(c))
	}
	if g.cfg.Faults && g.r.IntN(3) == 0 {
		t.Data[g.r.IntN(b)] = []float64{float64(c), -1, 0.5}[g.r.IntN(3)]
	}
	var cls int
	if g.r.IntN(2) == 0 {
		cls = g.newConst(t)
	} else {
		g.inputs = append(g.inputs, Input{Name: "classes", Value: t})
		g.pool = append(g.pool, entry{ref: ref{input: true, i: len(g.inputs) - 1}, t: t})
		cls = len(g.pool) - 1
	}
	return []int{z, cls}, op.Attrs{}, true
}

// axis returns an axis of a rank-r tensor, negative (from the end) one time
// in three.
func (g *gen) axis(r int) int {
	k := g.r.IntN(r)
	if g.r.IntN(3) == 0 {
		k -= r
	}
	return k
}

func reduceAxis(g *gen, _ *op.Op) ([]int, op.Attrs, bool) {
	x := g.pickRanked()
	return []int{x}, op.Attrs{Axis: g.axis(len(g.pool[x].t.Shape))}, true
}

// concat joins one to three values that agree except along the axis.
func concat(g *gen, _ *op.Op) ([]int, op.Attrs, bool) {
	first := g.pickRanked()
	s := g.pool[first].t.Shape
	ax := g.axis(len(s))
	k := ax
	if k < 0 {
		k += len(s)
	}
	fits := func(t tensor.Shape) bool {
		if len(t) != len(s) {
			return false
		}
		for i := range t {
			if i != k && t[i] != s[i] {
				return false
			}
		}
		return true
	}
	args := []int{first}
	for n := g.r.IntN(3); n > 0; n-- {
		switch i := g.pickWhere(fits); {
		case g.r.IntN(5) == 0:
			args = append(args, first)
		case i >= 0:
			args = append(args, i)
		default:
			t := s.Clone()
			t[k] = g.dim()
			args = append(args, g.fresh(t))
		}
	}
	return args, op.Attrs{Axis: ax}, true
}

// reshape views a value as a random shape of the same size.
func reshape(g *gen, _ *op.Op) ([]int, op.Attrs, bool) {
	x := g.pick()
	n := g.pool[x].t.Shape.Size()
	var s tensor.Shape
	for n > 1 && len(s) < 3 {
		var divs []int
		for d := 2; d <= n; d++ {
			if n%d == 0 {
				divs = append(divs, d)
			}
		}
		d := divs[g.r.IntN(len(divs))]
		s = append(s, d)
		n /= d
	}
	if n > 1 {
		s[len(s)-1] *= n
	}
	if g.r.IntN(4) == 0 { // a unit dimension somewhere
		i := g.r.IntN(len(s) + 1)
		s = append(s[:i], append(tensor.Shape{1}, s[i:]...)...)
	}
	if s == nil {
		s = tensor.Shape{}
	}
	return []int{x}, op.Attrs{Shape: s}, true
}

// image returns a value of shape [B C H W], existing or fresh.
func (g *gen) image() int { return g.pickRank(4) }

// conv2d feeds an image, a kernel that fits it and a bias, with stride 1 or
// 2 and padding 0 or 1.
func conv2d(g *gen, _ *op.Op) ([]int, op.Attrs, bool) {
	x := g.image()
	s := g.pool[x].t.Shape
	a := op.Attrs{Stride: 1 + g.r.IntN(2), Padding: g.r.IntN(2)}
	kh, kw := 1+g.r.IntN(min(3, s[2]+2*a.Padding)), 1+g.r.IntN(min(3, s[3]+2*a.Padding))
	w := g.pickWhere(func(t tensor.Shape) bool {
		return len(t) == 4 && t[1] == s[1] && t[2] <= s[2]+2*a.Padding && t[3] <= s[3]+2*a.Padding
	})
	if w < 0 {
		w = g.fresh(tensor.Shape{1 + g.r.IntN(3), s[1], kh, kw})
	}
	b := g.pickShape(tensor.Shape{g.pool[w].t.Shape[0]})
	return []int{x, w, b}, a, true
}

// pool2d feeds max_pool2d and avg_pool2d an image with a window that fits
// it.
func pool2d(g *gen, _ *op.Op) ([]int, op.Attrs, bool) {
	x := g.image()
	s := g.pool[x].t.Shape
	return []int{x}, op.Attrs{Kernel: 1 + g.r.IntN(min(s[2], s[3], 3)), Stride: 1 + g.r.IntN(2)}, true
}

// batchNorm feeds X [B F] and one [F] vector per further operand (γ, β,
// and for batch_norm_eval the running mean and variance), with ε from a
// few values including 0.
func batchNorm(g *gen, o *op.Op) ([]int, op.Attrs, bool) {
	x := g.pickWhere(func(s tensor.Shape) bool { return len(s) == 2 && s[0] >= 2 })
	if x < 0 {
		x = g.fresh(tensor.Shape{2 + g.r.IntN(3), g.dim()})
	}
	f := tensor.Shape{g.pool[x].t.Shape[1]}
	args := []int{x}
	for len(args) < o.Arity() {
		args = append(args, g.pickShape(f))
	}
	return args, op.Attrs{Eps: []float64{1e-5, 0.1, 0}[g.r.IntN(3)]}, true
}

// layerNorm feeds X of rank at least 1 and γ and β of X's last dimension,
// with ε from a few values including 0.
func layerNorm(g *gen, _ *op.Op) ([]int, op.Attrs, bool) {
	x := g.pickRanked()
	s := g.pool[x].t.Shape
	f := tensor.Shape{s[len(s)-1]}
	return []int{x, g.pickShape(f), g.pickShape(f)}, op.Attrs{Eps: []float64{1e-5, 0.1, 0}[g.r.IntN(3)]}, true
}

// broadcastTo broadcasts any value to a shape that keeps each of its
// dimensions or (where it is 1) grows it, with up to two leading axes added.
func broadcastTo(g *gen, _ *op.Op) ([]int, op.Attrs, bool) {
	x := g.pick()
	from := g.pool[x].t.Shape
	var s tensor.Shape
	for n := g.r.IntN(3); n > 0 && len(from)+len(s) < 4; n-- {
		s = append(s, g.dim())
	}
	for _, d := range from {
		if d == 1 {
			d = g.dim()
		}
		s = append(s, d)
	}
	if s == nil {
		s = tensor.Shape{}
	}
	return []int{x}, op.Attrs{Shape: s}, true
}
