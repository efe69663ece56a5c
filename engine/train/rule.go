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
	n := num
	d, g := e.G, "g"
	var out []string
	if c.WeightDecay != 0 {
		d = e.G + c.WeightDecay*e.W
		g = "d"
		out = append(out, "d = g + λ·w = "+n(e.G)+" + "+n(c.WeightDecay)+"·"+n(e.W)+" = "+n(d))
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
		ts := strconv.Itoa(e.T)
		out = append(out,
			"m ← β₁m + (1−β₁)"+g+" = "+n(b1)+"·"+n(m0)+" + "+n(1-b1)+"·"+n(d)+" = "+n(m),
			"v ← β₂v + (1−β₂)"+g+"² = "+n(b2)+"·"+n(v0)+" + "+n(1-b2)+"·"+n(d)+"² = "+n(v),
			"m̂ = m/(1−β₁ᵗ) = "+n(m)+"/(1−"+n(b1)+"^"+ts+") = "+n(mh),
			"v̂ = v/(1−β₂ᵗ) = "+n(v)+"/(1−"+n(b2)+"^"+ts+") = "+n(vh),
			"w ← w − η·m̂/(√v̂ + ε) = "+n(e.W)+" − "+n(c.LR)+"·"+n(mh)+"/(√"+n(vh)+" + "+n(c.Eps)+") = "+n(e.New))
	case c.Momentum != 0 && len(e.After) == 1:
		b := e.After[0]
		if len(e.Before) == 1 {
			out = append(out, "b ← μ·b + "+g+" = "+n(c.Momentum)+"·"+n(e.Before[0])+" + "+n(d)+" = "+n(b))
		} else {
			out = append(out, "b ← "+g+" = "+n(b)+" (the first step)")
		}
		out = append(out, "w ← w − η·b = "+n(e.W)+" − "+n(c.LR)+"·"+n(b)+" = "+n(e.New))
	default:
		rule := "w ← w − η·g = "
		if c.WeightDecay != 0 {
			rule = "w ← w − η·(g + λ·w) = "
		}
		out = append(out, rule+n(e.W)+" − "+n(c.LR)+"·"+n(d)+" = "+n(e.New))
	}
	return out
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

// num writes v in at most 6 significant digits.
func num(v float64) string { return strconv.FormatFloat(v, 'g', 6, 64) }
