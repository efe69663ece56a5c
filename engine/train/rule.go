package train

import (
	"math"
	"strconv"
)

// Elem is one element of a parameter tensor around one optimizer step: its
// weight and gradient before, the optimizer's buffers before and after
// (in BufferNames order; nil before the first step), the tensor's step
// count after the step, and the weight after.
type Elem struct {
	W, G          float64
	Before, After []float64
	T             int
	New           float64
}

// Rule is the update rule of c for one element, as lines of text, each the
// rule in symbols followed by the element's real numbers: SGD
// w ← w − η·(g + λ·w); momentum b ← μ·b + d, w ← w − η·b; Adam
// m ← β₁m + (1−β₁)g, v ← β₂v + (1−β₂)g², m̂ = m/(1−β₁ᵗ), v̂ = v/(1−β₂ᵗ),
// w ← w − η·m̂/(√v̂ + ε). The last line ends with e.New, the weight the
// optimizer wrote; the other results are the buffers it kept.
func (c OptimizerConfig) Rule(e Elem) []string {
	d, g := e.G, "g"
	var out []string
	if c.WeightDecay != 0 {
		d, g = e.G+c.WeightDecay*e.W, "d"
		out = append(out, fill("d = g + λ·w = @ + @·@ = @", e.G, c.WeightDecay, e.W, d))
	}
	switch {
	case c.Name == "adam" && len(e.After) == 2:
		b1, b2, t := c.Betas[0], c.Betas[1], float64(e.T)
		m0, v0 := 0.0, 0.0
		if len(e.Before) == 2 {
			m0, v0 = e.Before[0], e.Before[1]
		}
		m, v := e.After[0], e.After[1]
		mh, vh := m/(1-math.Pow(b1, t)), v/(1-math.Pow(b2, t))
		out = append(out,
			fill("m ← β₁m + (1−β₁)"+g+" = @·@ + @·@ = @", b1, m0, 1-b1, d, m),
			fill("v ← β₂v + (1−β₂)"+g+"² = @·@ + @·@² = @", b2, v0, 1-b2, d, v),
			fill("m̂ = m/(1−β₁ᵗ) = @/(1−@^@) = @", m, b1, t, mh),
			fill("v̂ = v/(1−β₂ᵗ) = @/(1−@^@) = @", v, b2, t, vh),
			fill("w ← w − η·m̂/(√v̂ + ε) = @ − @·@/(√@ + @) = @", e.W, c.LR, mh, vh, c.Eps, e.New))
	case c.Momentum != 0 && len(e.After) == 1:
		if len(e.Before) == 1 {
			out = append(out, fill("b ← μ·b + "+g+" = @·@ + @ = @", c.Momentum, e.Before[0], d, e.After[0]))
		} else {
			out = append(out, fill("b ← "+g+" = @ (the first step)", e.After[0]))
		}
		out = append(out, fill("w ← w − η·b = @ − @·@ = @", e.W, c.LR, e.After[0], e.New))
	case c.WeightDecay != 0:
		out = append(out, fill("w ← w − η·(g + λ·w) = @ − @·@ = @", e.W, c.LR, d, e.New))
	default:
		out = append(out, fill("w ← w − η·g = @ − @·@ = @", e.W, c.LR, d, e.New))
	}
	return out
}

// fill writes the numbers vs, each in at most 6 significant digits, in
// place of the @s of tmpl, in order; a negative number within an
// expression (not right after "= ") is put in parentheses.
func fill(tmpl string, vs ...float64) string {
	b := make([]byte, 0, len(tmpl)+12*len(vs))
	for i := 0; i < len(tmpl); i++ {
		if tmpl[i] == '@' && len(vs) > 0 {
			if vs[0] < 0 && tmpl[i-2:i] != "= " {
				b = append(strconv.AppendFloat(append(b, '('), vs[0], 'g', 6, 64), ')')
				vs = vs[1:]
				continue
			}
			b = strconv.AppendFloat(b, vs[0], 'g', 6, 64)
			vs = vs[1:]
			continue
		}
		b = append(b, tmpl[i])
	}
	return string(b)
}

// FirstOrder is the first-order prediction of the change in the loss that
// an update of the weights by delta makes, from the gradients g the update
// used (one slice per tensor): for plain SGD −η·‖g‖², for every other
// optimizer the dot product of the step with the gradient, Σ g·Δw. It
// returns the prediction and its formula.
func (c OptimizerConfig) FirstOrder(g, delta [][]float64) (float64, string) {
	s := 0.0
	if c.Name != "adam" && c.Momentum == 0 && c.WeightDecay == 0 {
		for _, t := range g {
			for _, v := range t {
				s += v * v
			}
		}
		return -c.LR * s, "−η·‖g‖²"
	}
	for i, t := range g {
		for k, v := range t {
			s += v * delta[i][k]
		}
	}
	return s, "g·Δw"
}
