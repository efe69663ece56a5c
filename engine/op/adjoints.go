package op

import "tapelab/engine/tensor"

// adjoints holds each op's VJP written as ops, by op name: what
// RecordVJP records. Each mirrors the op's Rule and its numeric VJP
// term for term (the normalisations' and concat's are in
// normadjoints.go, the VJP ops' in vjpops.go).
var adjoints map[string]adjoint

func init() {
	adjoints = map[string]adjoint{
		"add":   func(j *Adj) []Value { return []Value{j.DY, j.DY} },
		"sub":   func(j *Adj) []Value { return []Value{j.DY, j.negIf(1, j.DY)} },
		"neg":   func(j *Adj) []Value { return []Value{j.apply(negOp, Attrs{}, j.DY)} },
		"scale": func(j *Adj) []Value { return []Value{j.scale(j.DY, j.Attrs.Alpha)} },
		"mul": func(j *Adj) []Value {
			v := none(2)
			if j.Want[0] {
				v[0] = j.mul(j.DY, j.X[1])
			}
			if j.Want[1] {
				v[1] = j.mul(j.DY, j.X[0])
			}
			return v
		},
		"div": func(j *Adj) []Value { // q = dY ⊘ B; dA = q, dB = −(q ⊙ Y)
			q := j.apply(divOp, Attrs{}, j.DY, j.X[1])
			v := []Value{q, NoValue}
			if j.Want[1] {
				v[1] = j.apply(negOp, Attrs{}, j.mul(q, j.Y))
			}
			return v
		},
		"max": extremumAdjoint(1),
		"min": extremumAdjoint(-1),
		"add_bias": func(j *Adj) []Value {
			v := []Value{j.DY, NoValue}
			if j.Want[1] {
				n := j.In[1][0]
				g := j.DY
				if len(j.Out) != 2 {
					g = j.reshape(g, tensor.Shape{j.Out.Size() / n, n})
				}
				v[1] = j.apply(reduceSumOp, Attrs{Axis: 0}, g)
			}
			return v
		},
		"matmul": func(j *Adj) []Value {
			v := none(2)
			if j.Want[0] {
				v[0] = j.apply(matmulOp, Attrs{}, j.DY, j.apply(transposeOp, Attrs{}, j.X[1]))
			}
			if j.Want[1] {
				v[1] = j.apply(matmulOp, Attrs{}, j.apply(transposeOp, Attrs{}, j.X[0]), j.DY)
			}
			return v
		},
		"linear": func(j *Adj) []Value {
			v := none(3)
			if j.Want[0] {
				v[0] = j.apply(matmulOp, Attrs{}, j.DY, j.X[1])
			}
			if j.Want[1] {
				v[1] = j.apply(matmulOp, Attrs{}, j.apply(transposeOp, Attrs{}, j.DY), j.X[0])
			}
			if j.Want[2] {
				v[2] = j.apply(reduceSumOp, Attrs{Axis: 0}, j.DY)
			}
			return v
		},
		"tanh": func(j *Adj) []Value { // dY ⊙ (1 − Y²)
			s := j.apply(subOp, Attrs{}, j.full(j.Out, 1), j.apply(squareOp, Attrs{}, j.Y))
			return []Value{j.mul(j.DY, s)}
		},
		"relu": func(j *Adj) []Value { // dY where X > 0, else 0
			return []Value{j.apply(stepSelectOp, Attrs{}, j.DY, j.X[0])}
		},
		"leaky_relu": func(j *Adj) []Value { // dY where X > 0, else α·dY
			return []Value{j.apply(stepSelectOp, Attrs{Alpha: j.Attrs.Alpha}, j.DY, j.X[0])}
		},
		"sigmoid": func(j *Adj) []Value { // dY ⊙ (Y ⊙ (1 − Y))
			s := j.mul(j.Y, j.apply(subOp, Attrs{}, j.full(j.Out, 1), j.Y))
			return []Value{j.mul(j.DY, s)}
		},
		"gelu": func(j *Adj) []Value { // dY ⊙ (Φ(X) + X ⊙ φ(X))
			d := j.apply(addOp, Attrs{}, j.apply(normalCDFOp, Attrs{}, j.X[0]), j.mul(j.X[0], j.normalPDF(j.X[0])))
			return []Value{j.mul(j.DY, d)}
		},
		"exp": func(j *Adj) []Value { return []Value{j.mul(j.DY, j.Y)} },
		"log": func(j *Adj) []Value { return []Value{j.apply(divOp, Attrs{}, j.DY, j.X[0])} },
		"sqrt": func(j *Adj) []Value { // dY ⊘ (2Y)
			return []Value{j.apply(divOp, Attrs{}, j.DY, j.scale(j.Y, 2))}
		},
		"abs": func(j *Adj) []Value { // dY where X > 0, −dY where X < 0, 0 at 0
			neg := j.apply(stepSelectOp, Attrs{}, j.DY, j.apply(negOp, Attrs{}, j.X[0]))
			return []Value{j.apply(subOp, Attrs{}, j.apply(stepSelectOp, Attrs{}, j.DY, j.X[0]), neg)}
		},
		"square": func(j *Adj) []Value { // 2·dY ⊙ X
			return []Value{j.mul(j.scale(j.DY, 2), j.X[0])}
		},
		"pow": func(j *Adj) []Value { // dY ⊙ (c·X^(c−1))
			c := j.Attrs.Alpha
			if c == 0 {
				return none(1)
			}
			return []Value{j.mul(j.DY, j.scale(j.apply(powOp, Attrs{Alpha: c - 1}, j.X[0]), c))}
		},
		"softmax": func(j *Adj) []Value { // Y ⊙ (dY − Σ_row(dY ⊙ Y))
			k := len(j.Out) - 1
			dot := j.apply(reduceSumOp, Attrs{Axis: k}, j.mul(j.DY, j.Y))
			return []Value{j.mul(j.Y, j.apply(subOp, Attrs{}, j.DY, j.rowsBack(dot, j.Out, k)))}
		},
		"log_softmax": func(j *Adj) []Value { // dY − exp(Y) ⊙ Σ_row dY
			k := len(j.Out) - 1
			sum := j.rowsBack(j.apply(reduceSumOp, Attrs{Axis: k}, j.DY), j.Out, k)
			return []Value{j.apply(subOp, Attrs{}, j.DY, j.mul(j.apply(expOp, Attrs{}, j.Y), sum))}
		},
		"sum": func(j *Adj) []Value { return []Value{j.spread(j.DY, j.In[0])} },
		"mean": func(j *Adj) []Value {
			return []Value{j.spread(j.scale(j.DY, 1/float64(j.In[0].Size())), j.In[0])}
		},
		"reduce_sum": func(j *Adj) []Value {
			k, _ := normAxis(j.Attrs.Axis, len(j.In[0]))
			return []Value{j.rowsBack(j.DY, j.In[0], k)}
		},
		"reduce_mean": func(j *Adj) []Value {
			k, _ := normAxis(j.Attrs.Axis, len(j.In[0]))
			return []Value{j.rowsBack(j.scale(j.DY, 1/float64(j.In[0][k])), j.In[0], k)}
		},
		"reshape":      func(j *Adj) []Value { return []Value{j.reshape(j.DY, j.In[0])} },
		"flatten":      func(j *Adj) []Value { return []Value{j.reshape(j.DY, j.In[0])} },
		"transpose":    func(j *Adj) []Value { return []Value{j.apply(transposeOp, Attrs{}, j.DY)} },
		"detach":       func(j *Adj) []Value { return none(1) },
		"broadcast_to": func(j *Adj) []Value { return []Value{j.sumTo(j.DY, j.Out, j.In[0])} },
		"dropout":      func(j *Adj) []Value { return []Value{j.apply(dropoutOp, j.Attrs, j.DY)} },
		"mse_loss": func(j *Adj) []Value { // c = 2·dL/n; dP = c ⊙ (P − T), dT = −dP
			c := j.spread(j.scale(j.DY, 2/float64(j.In[0].Size())), j.In[0])
			dp := j.mul(c, j.apply(subOp, Attrs{}, j.X[0], j.X[1]))
			return []Value{dp, j.negIf(1, dp)}
		},
		"cross_entropy": func(j *Adj) []Value { // dL/B ⊙ (softmax(Z) − onehot(c))
			g := j.spread(j.scale(j.DY, 1/float64(j.In[0][0])), j.In[0])
			p := j.apply(subOp, Attrs{}, j.apply(softmaxOp, Attrs{}, j.X[0]), j.apply(oneHotOp, Attrs{}, j.X[0], j.X[1]))
			return []Value{j.mul(g, p), NoValue}
		},
		"bce_with_logits": func(j *Adj) []Value { // g = dL/n; dZ = g ⊙ (σ(Z) − T), dT = −(g ⊙ Z)
			g := j.spread(j.scale(j.DY, 1/float64(j.In[0].Size())), j.In[0])
			v := none(2)
			if j.Want[0] {
				v[0] = j.mul(g, j.apply(subOp, Attrs{}, j.apply(sigmoidOp, Attrs{}, j.X[0]), j.X[1]))
			}
			if j.Want[1] {
				v[1] = j.apply(negOp, Attrs{}, j.mul(g, j.X[0]))
			}
			return v
		},
		"conv2d": func(j *Adj) []Value {
			a := Attrs{Stride: j.Attrs.Stride, Padding: j.Attrs.Padding}
			v := none(3)
			if j.Want[0] {
				a.Shape = j.In[0].Clone()
				v[0] = j.apply(conv2dInputGradOp, a, j.DY, j.X[1])
			}
			if j.Want[1] {
				a.Shape = j.In[1].Clone()
				v[1] = j.apply(conv2dWeightGradOp, a, j.X[0], j.DY)
			}
			if j.Want[2] { // Σ over n, i, j: axis 0, then the last two
				g := j.apply(reduceSumOp, Attrs{Axis: 0}, j.DY)
				g = j.apply(reduceSumOp, Attrs{Axis: -1}, g)
				v[2] = j.apply(reduceSumOp, Attrs{Axis: -1}, g)
			}
			return v
		},
		"max_pool2d": func(j *Adj) []Value {
			return []Value{j.apply(maxPoolScatterOp, j.Attrs, j.DY, j.X[0])}
		},
		"avg_pool2d": func(j *Adj) []Value {
			return []Value{j.apply(avgPoolScatterOp, j.Attrs, j.DY, j.X[0])}
		},
	}
	for k, f := range vjpAdjoints {
		adjoints[k] = f
	}
}

// negIf returns −g when operand i's contribution is wanted.
func (j *Adj) negIf(i int, g Value) Value {
	if !j.Want[i] {
		return NoValue
	}
	return j.apply(negOp, Attrs{}, g)
}

// normalPDF records φ(X) = exp(−X²/2)/√(2π).
func (j *Adj) normalPDF(x Value) Value {
	return j.scale(j.apply(expOp, Attrs{}, j.scale(j.apply(squareOp, Attrs{}, x), -0.5)), invSqrt2Pi)
}

// extremumAdjoint is max's (s = 1) and min's (s = −1) recorded VJP:
// with D = s·(A − B), A receives dY where D > 0 and ½dY where D = 0, B
// dY where D < 0 and ½dY where D = 0, each a selection as the numeric
// VJP's.
func extremumAdjoint(s float64) adjoint {
	return func(j *Adj) []Value {
		v := none(2)
		d := j.apply(subOp, Attrs{}, j.X[0], j.X[1])
		if s < 0 {
			d = j.apply(negOp, Attrs{}, d)
		}
		tie := j.scale(j.apply(tieSelectOp, Attrs{}, j.DY, d), 0.5)
		for i, sd := range []Value{d, NoValue} {
			if !j.Want[i] {
				continue
			}
			if i == 1 {
				sd = j.apply(negOp, Attrs{}, d)
			}
			v[i] = j.apply(addOp, Attrs{}, j.apply(stepSelectOp, Attrs{}, j.DY, sd), tie)
		}
		return v
	}
}
