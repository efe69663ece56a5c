package op

import (
	"fmt"
	"math"

	"tapelab/engine/tensor"
)

// The VJP ops: ops that recorded VJPs (RecordVJP) are made of beside the
// catalogue's own, where a VJP needs a kernel no catalogue op has (the
// transposed convolution, the routing of max pooling, a selection, a
// one-hot).
// Each is an ordinary op with its own VJP, JVP and recorded VJP, so a
// recorded backward pass can be differentiated again. Lookup finds them
// (the IR and the graph name ops by name); All lists only the catalogue a
// program is written with.
var vjpOps = []*Op{
	stepSelectOp, tieSelectOp, normalCDFOp, oneHotOp,
	conv2dInputGradOp, conv2dWeightGradOp,
	maxPoolScatterOp, maxPoolGatherOp, avgPoolScatterOp,
}

// VJPOps returns the VJP ops (see the package's vjpOps), in a fresh slice.
func VJPOps() []*Op { return append([]*Op(nil), vjpOps...) }

// tieSelect is the tie share of max's and min's VJPs: a selection, so
// that an infinite cotangent off the ties gives 0 as the numeric VJP does.
var tieSelectOp = &Op{
	Name:     "tie_select",
	Operands: []Operand{{Name: "G"}, {Name: "X", NoGrad: true}},
	Formula:  "Y = G where X = 0, 0 elsewhere",
	Rule:     "dG = tie_select(dY, X), dX = 0 (flat in X where it is differentiable)",
	Infer:    sameShape,
	Forward: func(y *tensor.Tensor, x []*tensor.Tensor, _ Attrs) {
		tieSelect(y, x[0], x[1])
	},
	VJP: func(dx []*tensor.Tensor, dy, _ *tensor.Tensor, x []*tensor.Tensor, _ Attrs) {
		if dx[0] != nil {
			tieSelect(dx[0], dy, x[1])
		}
	},
	JVP: func(dy *tensor.Tensor, dx []*tensor.Tensor, _ *tensor.Tensor, x []*tensor.Tensor, _ Attrs) {
		if dx[0] == nil {
			dy.Fill(0)
			return
		}
		tieSelect(dy, dx[0], x[1])
	},
	ZeroSafe: Always,
}

// tieSelect writes y = g where x = 0 and 0 elsewhere.
func tieSelect(y, g, x *tensor.Tensor) {
	for i, v := range g.Data {
		if x.Data[i] == 0 {
			y.Data[i] = v
		} else {
			y.Data[i] = 0
		}
	}
}

// stepSelect is relu's and leaky_relu's VJP (and with tie_select abs's,
// max's and min's) as an op of its own, a
// selection rather than a product with a mask, so that an infinite
// cotangent where X ≤ 0 gives 0 as the numeric VJP does, not ∞·0 = NaN.
var stepSelectOp = &Op{
	Name:     "step_select",
	Operands: []Operand{{Name: "G"}, {Name: "X", NoGrad: true}},
	Formula:  "Y = G where X > 0, α·G elsewhere",
	Rule:     "dG = step_select(dY, X), dX = 0 (flat in X)",
	Infer:    sameShape,
	Forward: func(y *tensor.Tensor, x []*tensor.Tensor, a Attrs) {
		stepSelect(y, x[0], x[1], a.Alpha)
	},
	VJP: func(dx []*tensor.Tensor, dy, _ *tensor.Tensor, x []*tensor.Tensor, a Attrs) {
		if dx[0] != nil {
			stepSelect(dx[0], dy, x[1], a.Alpha)
		}
	},
	JVP: func(dy *tensor.Tensor, dx []*tensor.Tensor, _ *tensor.Tensor, x []*tensor.Tensor, a Attrs) {
		if dx[0] == nil {
			dy.Fill(0)
			return
		}
		stepSelect(dy, dx[0], x[1], a.Alpha)
	},
	ZeroSafe: finiteAlpha,
}

// stepSelect writes y = g where x > 0 and α·g elsewhere (0 when α = 0),
// as relu's and leaky_relu's VJPs compute it.
func stepSelect(y, g, x *tensor.Tensor, alpha float64) {
	for i, v := range g.Data {
		switch {
		case x.Data[i] > 0:
			y.Data[i] = v
		case alpha == 0:
			y.Data[i] = 0
		default:
			y.Data[i] = alpha * v
		}
	}
}

var normalCDFOp = pointwise{
	name: "normal_cdf", formula: "Y = Φ(X) = ½·erfc(−X/√2)", rule: "dX = dY ⊙ φ(X), φ(X) = exp(−X²/2)/√(2π)",
	f:        func(x float64, _ Attrs) float64 { return normalCDF(x) },
	d:        func(g, x, _ float64, _ Attrs) float64 { return g * (math.Exp(-0.5*x*x) * invSqrt2Pi) },
	zeroSafe: finiteOperands,
}.op()

var oneHotOp = &Op{
	Name:     "one_hot",
	Operands: []Operand{{Name: "Z", NoGrad: true}, {Name: "c", NoGrad: true}},
	Formula:  "Y[b,j] = [j = c[b]], Y shaped like Z [B C]",
	Rule:     "dZ = 0, dc = 0 (Y is constant in both)",
	Infer:    oneHotShape,
	Forward: func(y *tensor.Tensor, x []*tensor.Tensor, _ Attrs) {
		classes := x[0].Shape[1]
		y.Fill(0)
		for b, v := range x[1].Data {
			if c := classIndex(v, classes); c >= 0 {
				y.Data[b*classes+c] = 1
			}
		}
	},
	VJP:      func([]*tensor.Tensor, *tensor.Tensor, *tensor.Tensor, []*tensor.Tensor, Attrs) {},
	Domain:   crossEntropyOp.Domain,
	ZeroSafe: Always,
}

// oneHotShape is one_hot's shape rule: cross_entropy's operands, Z's shape.
func oneHotShape(dst tensor.Shape, in []tensor.Shape, a Attrs) (tensor.Shape, error) {
	if _, err := crossEntropyOp.Infer(dst, in, a); err != nil {
		return dst, err
	}
	return append(dst[:0], in[0]...), nil
}

// shapeOnly is a tensor header with a shape and no data, for the conv
// kernels' geometry where only an operand's shape is read.
func shapeOnly(s tensor.Shape) *tensor.Tensor { return &tensor.Tensor{Shape: s} }

// convGradShapes checks that G [n o oh ow] is the conv2d output of X
// [n c h w] and W [o c kh kw] with a's stride and padding.
func convGradShapes(x, w, g tensor.Shape, a Attrs) error {
	if len(x) != 4 || len(w) != 4 || len(g) != 4 {
		return fmt.Errorf("X %v, W %v and G %v must all be 4-D", x, w, g)
	}
	if w[1] != x[1] || g[0] != x[0] || g[1] != w[0] {
		return fmt.Errorf("X %v, W %v and G %v do not fit conv2d's [n c h w], [o c kh kw], [n o oh ow]", x, w, g)
	}
	h, wd, err := windows(x[2], x[3], w[2], w[3], a.Stride, a.Padding)
	if err != nil {
		return err
	}
	if g[2] != h || g[3] != wd {
		return fmt.Errorf("G %v is not conv2d's output [%d %d %d %d]", g, x[0], w[0], h, wd)
	}
	return nil
}

var conv2dInputGradOp = &Op{
	Name:     "conv2d_input_grad",
	Operands: []Operand{{Name: "G"}, {Name: "W"}},
	Formula:  "Y = conv2d's dX for cotangent G: Y[n,c,h,w] = Σ G[n,o,i,j]·W[o,c,p,q] over the windows that read (h, w); shape = X's shape",
	Rule:     "dG = conv2d(dY, W), dW = conv2d_weight_grad(dY, G)",
	Work: func(_ tensor.Shape, in []tensor.Shape, _ Attrs) float64 {
		return float64(in[0].Size()) * float64(in[1][1:].Size())
	},
	Infer: func(dst tensor.Shape, in []tensor.Shape, a Attrs) (tensor.Shape, error) {
		if err := convGradShapes(a.Shape, in[1], in[0], a); err != nil {
			return dst, err
		}
		return append(dst[:0], a.Shape...), nil
	},
	Forward: func(y *tensor.Tensor, x []*tensor.Tensor, a Attrs) {
		convBack(y, nil, x[0], shapeOnly(y.Shape), x[1], a)
	},
	VJP: func(dx []*tensor.Tensor, dy, _ *tensor.Tensor, x []*tensor.Tensor, a Attrs) {
		if dx[0] != nil {
			convInto(dx[0], dy, x[1], nil, a, false)
		}
		if dx[1] != nil {
			convBack(nil, dx[1], x[0], dy, x[1], a)
		}
	},
	JVP: func(dy *tensor.Tensor, dx []*tensor.Tensor, _ *tensor.Tensor, x []*tensor.Tensor, a Attrs) {
		dy.Fill(0)
		if dx[0] != nil {
			convScatter(dy.Data, nil, dx[0].Data, nil, x[1].Data, dy.Shape, x[1].Shape, a)
		}
		if dx[1] != nil {
			convScatter(dy.Data, nil, x[0].Data, nil, dx[1].Data, dy.Shape, x[1].Shape, a)
		}
	},
	ZeroSafe: finiteOperands,
}

var conv2dWeightGradOp = &Op{
	Name:     "conv2d_weight_grad",
	Operands: []Operand{{Name: "X"}, {Name: "G"}},
	Formula:  "Y = conv2d's dW for cotangent G: Y[o,c,p,q] = Σ_n,i,j G[n,o,i,j]·X[n,c,i·s+p−pad,j·s+q−pad]; shape = W's shape",
	Rule:     "dX = conv2d_input_grad(G, dY), dG = conv2d(X, dY)",
	Work: func(_ tensor.Shape, in []tensor.Shape, a Attrs) float64 {
		return float64(in[1].Size()) * float64(a.Shape[1:].Size())
	},
	Infer: func(dst tensor.Shape, in []tensor.Shape, a Attrs) (tensor.Shape, error) {
		if err := convGradShapes(in[0], a.Shape, in[1], a); err != nil {
			return dst, err
		}
		return append(dst[:0], a.Shape...), nil
	},
	Forward: func(y *tensor.Tensor, x []*tensor.Tensor, a Attrs) {
		convBack(nil, y, x[1], x[0], shapeOnly(y.Shape), a)
	},
	VJP: func(dx []*tensor.Tensor, dy, _ *tensor.Tensor, x []*tensor.Tensor, a Attrs) {
		if dx[0] != nil {
			convBack(dx[0], nil, x[1], shapeOnly(x[0].Shape), dy, a)
		}
		if dx[1] != nil {
			convInto(dx[1], x[0], dy, nil, a, false)
		}
	},
	JVP: func(dy *tensor.Tensor, dx []*tensor.Tensor, _ *tensor.Tensor, x []*tensor.Tensor, a Attrs) {
		dy.Fill(0)
		if dx[0] != nil {
			convScatter(nil, dy.Data, x[1].Data, dx[0].Data, nil, x[0].Shape, dy.Shape, a)
		}
		if dx[1] != nil {
			convScatter(nil, dy.Data, dx[1].Data, x[0].Data, nil, x[0].Shape, dy.Shape, a)
		}
	},
	ZeroSafe: finiteOperands,
}

// convScatter adds conv2d's dX (into dx, from w) and dW (into dw, from x)
// for cotangent g to what they hold, X of shape xs and W of shape ws: the
// loops of convBack without its zeroing, for the JVPs, which add two
// terms.
func convScatter(dx, dw, g, x, w []float64, xs, ws tensor.Shape, a Attrs) {
	c, h, wd, o, kh, kw := xs[1], xs[2], xs[3], ws[0], ws[2], ws[3]
	oh, ow, _ := windows(h, wd, kh, kw, a.Stride, a.Padding)
	k := 0
	for n := 0; n < xs[0]; n++ {
		for f := 0; f < o; f++ {
			for i := 0; i < oh; i++ {
				for j := 0; j < ow; j++ {
					gv := g[k]
					k++
					p0, p1 := span(i, a.Stride, a.Padding, kh, h)
					q0, q1 := span(j, a.Stride, a.Padding, kw, wd)
					for ch := 0; ch < c; ch++ {
						for p := p0; p < p1; p++ {
							xr := n*c*h*wd + (ch*h+i*a.Stride+p-a.Padding)*wd + j*a.Stride - a.Padding
							wr := f*c*kh*kw + (ch*kh+p)*kw
							for q := q0; q < q1; q++ {
								if dx != nil {
									dx[xr+q] += gv * w[wr+q]
								}
								if dw != nil {
									dw[wr+q] += gv * x[xr+q]
								}
							}
						}
					}
				}
			}
		}
	}
}

// poolGradShapes checks that G is the pooled shape of X [B C H W].
func poolGradShapes(g, x tensor.Shape, a Attrs) error {
	p, err := poolShape(nil, []tensor.Shape{x}, a)
	if err != nil {
		return err
	}
	if !p.Equal(g) {
		return fmt.Errorf("G %v is not the pooled shape %v of X %v", g, p, x)
	}
	return nil
}

var maxPoolScatterOp = &Op{
	Name:     "max_pool2d_scatter",
	Operands: []Operand{{Name: "G"}, {Name: "X", NoGrad: true}},
	Formula:  "Y = max_pool2d's dX for cotangent G: G routed to each window's first maximum of X, summed where windows overlap",
	Rule:     "dG = max_pool2d_gather(dY, X), dX = 0 (the routing is flat in X)",
	Work:     func(_ tensor.Shape, in []tensor.Shape, a Attrs) float64 { return poolWork(in[0], nil, a) },
	Infer: func(dst tensor.Shape, in []tensor.Shape, a Attrs) (tensor.Shape, error) {
		if err := poolGradShapes(in[0], in[1], a); err != nil {
			return dst, err
		}
		return append(dst[:0], in[1]...), nil
	},
	Forward: func(y *tensor.Tensor, x []*tensor.Tensor, a Attrs) {
		y.Fill(0)
		eachWindow(x[0], x[1], a, func(k, win int) { y.Data[win] += x[0].Data[k] })
	},
	VJP: func(dx []*tensor.Tensor, dy, _ *tensor.Tensor, x []*tensor.Tensor, a Attrs) {
		if dx[0] != nil {
			eachWindow(x[0], x[1], a, func(k, win int) { dx[0].Data[k] = dy.Data[win] })
		}
	},
	JVP: func(dy *tensor.Tensor, dx []*tensor.Tensor, _ *tensor.Tensor, x []*tensor.Tensor, a Attrs) {
		dy.Fill(0)
		if dx[0] != nil {
			eachWindow(x[0], x[1], a, func(k, win int) { dy.Data[win] += dx[0].Data[k] })
		}
	},
	ZeroSafe: Always,
}

var maxPoolGatherOp = &Op{
	Name:     "max_pool2d_gather",
	Operands: []Operand{{Name: "H"}, {Name: "X", NoGrad: true}},
	Formula:  "Y[n,c,i,j] = H at the first maximum of X's window (i·s, j·s)",
	Rule:     "dH = max_pool2d_scatter(dY, X), dX = 0",
	Work:     poolWork,
	Infer: func(dst tensor.Shape, in []tensor.Shape, a Attrs) (tensor.Shape, error) {
		if !in[0].Equal(in[1]) {
			return dst, fmt.Errorf("H %v and X %v must have one shape", in[0], in[1])
		}
		return poolShape(dst, in[1:], a)
	},
	Forward: func(y *tensor.Tensor, x []*tensor.Tensor, a Attrs) {
		eachWindow(y, x[1], a, func(k, win int) { y.Data[k] = x[0].Data[win] })
	},
	VJP: func(dx []*tensor.Tensor, dy, y *tensor.Tensor, x []*tensor.Tensor, a Attrs) {
		if dx[0] != nil {
			dx[0].Fill(0)
			eachWindow(y, x[1], a, func(k, win int) { dx[0].Data[win] += dy.Data[k] })
		}
	},
	JVP: func(dy *tensor.Tensor, dx []*tensor.Tensor, y *tensor.Tensor, x []*tensor.Tensor, a Attrs) {
		dy.Fill(0)
		if dx[0] != nil {
			eachWindow(y, x[1], a, func(k, win int) { dy.Data[k] = dx[0].Data[win] })
		}
	},
	ZeroSafe: Always,
}

var avgPoolScatterOp = &Op{
	Name:     "avg_pool2d_scatter",
	Operands: []Operand{{Name: "G"}, {Name: "X", NoGrad: true}},
	Formula:  "Y = avg_pool2d's dX for cotangent G: G / k² spread over each window of X's shape, summed where windows overlap",
	Rule:     "dG = avg_pool2d(dY), dX = 0 (only X's shape is read)",
	Work:     func(_ tensor.Shape, in []tensor.Shape, a Attrs) float64 { return poolWork(in[0], nil, a) },
	Infer: func(dst tensor.Shape, in []tensor.Shape, a Attrs) (tensor.Shape, error) {
		if err := poolGradShapes(in[0], in[1], a); err != nil {
			return dst, err
		}
		return append(dst[:0], in[1]...), nil
	},
	Forward: func(y *tensor.Tensor, x []*tensor.Tensor, a Attrs) {
		y.Fill(0)
		n := float64(a.Kernel * a.Kernel)
		eachCell(x[0], y, a, func(k, cell int) { y.Data[cell] += x[0].Data[k] / n })
	},
	VJP: func(dx []*tensor.Tensor, dy, _ *tensor.Tensor, x []*tensor.Tensor, a Attrs) {
		if dx[0] != nil {
			dx[0].Fill(0)
			eachCell(dx[0], dy, a, func(k, cell int) { dx[0].Data[k] += dy.Data[cell] })
			scaleDown(dx[0], a.Kernel)
		}
	},
	JVP: func(dy *tensor.Tensor, dx []*tensor.Tensor, _ *tensor.Tensor, x []*tensor.Tensor, a Attrs) {
		dy.Fill(0)
		if dx[0] != nil {
			n := float64(a.Kernel * a.Kernel)
			eachCell(x[0], dy, a, func(k, cell int) { dy.Data[cell] += dx[0].Data[k] / n })
		}
	},
	ZeroSafe: Always,
}

// vjpAdjoints holds the VJP ops' recorded VJPs.
var vjpAdjoints = map[string]adjoint{
	"tie_select": func(j *Adj) []Value {
		return []Value{j.apply(tieSelectOp, Attrs{}, j.DY, j.X[1]), NoValue}
	},
	"step_select": func(j *Adj) []Value {
		return []Value{j.apply(stepSelectOp, j.Attrs, j.DY, j.X[1]), NoValue}
	},
	"one_hot": func(j *Adj) []Value { return none(2) },
	"normal_cdf": func(j *Adj) []Value {
		return []Value{j.mul(j.DY, j.normalPDF(j.X[0]))}
	},
	"conv2d_input_grad": func(j *Adj) []Value { // Y = input_grad(G, W)
		v := none(2)
		if j.Want[0] {
			v[0] = j.apply(conv2dOp, Attrs{Stride: j.Attrs.Stride, Padding: j.Attrs.Padding}, j.DY, j.X[1], j.full(tensor.Shape{j.In[1][0]}, 0))
		}
		if j.Want[1] {
			a := j.Attrs
			a.Shape = j.In[1].Clone()
			v[1] = j.apply(conv2dWeightGradOp, a, j.DY, j.X[0])
		}
		return v
	},
	"conv2d_weight_grad": func(j *Adj) []Value { // Y = weight_grad(X, G)
		v := none(2)
		if j.Want[0] {
			a := j.Attrs
			a.Shape = j.In[0].Clone()
			v[0] = j.apply(conv2dInputGradOp, a, j.X[1], j.DY)
		}
		if j.Want[1] {
			v[1] = j.apply(conv2dOp, Attrs{Stride: j.Attrs.Stride, Padding: j.Attrs.Padding}, j.X[0], j.DY, j.full(tensor.Shape{j.Out[0]}, 0))
		}
		return v
	},
	"max_pool2d_scatter": func(j *Adj) []Value {
		return []Value{j.apply(maxPoolGatherOp, j.Attrs, j.DY, j.X[1]), NoValue}
	},
	"max_pool2d_gather": func(j *Adj) []Value {
		return []Value{j.apply(maxPoolScatterOp, j.Attrs, j.DY, j.X[1]), NoValue}
	},
	"avg_pool2d_scatter": func(j *Adj) []Value {
		return []Value{j.apply(avgPool2DOp, j.Attrs, j.DY), NoValue}
	},
}
