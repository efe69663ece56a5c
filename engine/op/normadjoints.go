package op

import "tapelab/engine/tensor"

// The recorded VJPs of the normalisations and of concat, made of the
// catalogue's own ops.
func init() {
	adjoints["batch_norm"] = func(j *Adj) []Value {
		return j.normalize(j.X[0], j.DY, j.X[1], j.In[0], 0)
	}
	adjoints["layer_norm"] = func(j *Adj) []Value {
		s := j.In[0]
		f := s[len(s)-1]
		flat := tensor.Shape{s.Size() / f, f}
		x, dy := j.X[0], j.DY
		if len(s) != 2 {
			x, dy = j.reshape(x, flat), j.reshape(dy, flat)
		}
		v := j.normalize(x, dy, j.X[1], flat, 1)
		if len(s) != 2 && v[0] != NoValue {
			v[0] = j.reshape(v[0], s)
		}
		return v
	}
	adjoints["batch_norm_eval"] = func(j *Adj) []Value { // inv = (σ² + ε)^(−½)
		s := j.In[0]
		inv := j.apply(powOp, Attrs{Alpha: -0.5}, j.apply(addOp, Attrs{}, j.X[4], j.full(j.In[4], j.Attrs.Eps)))
		v := none(5)
		if j.Want[0] {
			v[0] = j.mul(j.DY, j.broadcast(j.mul(j.X[1], inv), s))
		}
		if j.Want[1] {
			xh := j.mul(j.apply(subOp, Attrs{}, j.X[0], j.broadcast(j.X[3], s)), j.broadcast(inv, s))
			v[1] = j.apply(reduceSumOp, Attrs{Axis: 0}, j.mul(j.DY, xh))
		}
		if j.Want[2] {
			v[2] = j.apply(reduceSumOp, Attrs{Axis: 0}, j.DY)
		}
		return v
	}
	adjoints["concat"] = func(j *Adj) []Value { // dXᵢ = dY·Sᵢ, Sᵢ selecting Xᵢ's slice
		k, _ := normAxis(j.Attrs.Axis, len(j.Out))
		outer, n, inner := 1, j.Out[k], j.Out[k+1:].Size()
		for _, d := range j.Out[:k] {
			outer *= d
		}
		g := j.reshape(j.DY, tensor.Shape{outer, n * inner})
		v := none(len(j.X))
		off := 0
		for i, s := range j.In {
			m := s[k]
			if j.Want[i] {
				sel := tensor.Zeros(tensor.Shape{n * inner, m * inner})
				for r := 0; r < m; r++ {
					for c := 0; c < inner; c++ {
						sel.Data[((off+r)*inner+c)*m*inner+r*inner+c] = 1
					}
				}
				v[i] = j.reshape(j.apply(matmulOp, Attrs{}, g, j.Ops.Const(sel)), s)
			}
			off += m
		}
		return v
	}
}

// normalize records the VJP of γ ⊙ X̂ + β, X̂ normalised with the biased
// statistics along axis k of the matrix x of shape s (batch_norm: k = 0,
// layer_norm: k = 1), γ and β along axis 1:
// dX = (inv/n) ⊙ (n·dX̂ − Σ_k dX̂ − X̂ ⊙ Σ_k(dX̂ ⊙ X̂)) with dX̂ = dY ⊙ γ,
// dγ = Σ_rows dY ⊙ X̂, dβ = Σ_rows dY.
func (j *Adj) normalize(x, dy, gamma Value, s tensor.Shape, k int) []Value {
	n := float64(s[k])
	sum := func(v Value) Value { return j.apply(reduceSumOp, Attrs{Axis: k}, v) }
	d := j.apply(subOp, Attrs{}, x, j.rowsBack(j.apply(reduceMeanOp, Attrs{Axis: k}, x), s, k))
	variance := j.apply(reduceMeanOp, Attrs{Axis: k}, j.apply(squareOp, Attrs{}, d))
	inv := j.rowsBack(j.apply(powOp, Attrs{Alpha: -0.5}, j.apply(addOp, Attrs{}, variance, j.full(tensor.Shape{s[1-k]}, j.Attrs.Eps))), s, k)
	xh := j.mul(d, inv)
	v := none(3)
	if j.Want[0] {
		gh := j.mul(dy, j.broadcast(gamma, s))
		t := j.apply(subOp, Attrs{}, j.scale(gh, n), j.rowsBack(sum(gh), s, k))
		t = j.apply(subOp, Attrs{}, t, j.mul(xh, j.rowsBack(sum(j.mul(gh, xh)), s, k)))
		v[0] = j.mul(j.scale(inv, 1/n), t)
	}
	if j.Want[1] {
		v[1] = j.apply(reduceSumOp, Attrs{Axis: 0}, j.mul(dy, xh))
	}
	if j.Want[2] {
		v[2] = j.apply(reduceSumOp, Attrs{Axis: 0}, dy)
	}
	return v
}
