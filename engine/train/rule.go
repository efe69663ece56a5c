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

// Rule is the update rule of c for one element, as lines of text (each
// ending but the last with a newline), each the
// rule in symbols followed by the element's real numbers: SGD
// w ← w − η·(g + λ·w); momentum d = g + λ·w, b ← μ·b + d, w ← w − η·b;
// Adam g ← g + λ·w (torch.optim's notation), m ← β₁m + (1−β₁)g,
// v ← β₂v + (1−β₂)g², m̂ = m/(1−β₁ᵗ), v̂ = v/(1−β₂ᵗ),
// w ← w − η·m̂/(√v̂ + ε) (without weight decay λ, no λ line). The last
// line ends with e.New, the weight the optimizer wrote; the other results
// are the buffers it kept.
func (c OptimizerConfig) Rule(e Elem) string {
	g, wd, tmpl := e.G+c.WeightDecay*e.W, c.WeightDecay != 0, ""
	var vs []float64
	b := append(e.Before, 0, 0)
	switch {
	case c.Name == "adam" && len(e.After) == 2:
		if wd {
			tmpl, vs = "g ← g + λ·w = @ + @·@ = @\n", []float64{e.G, c.WeightDecay, e.W, g}
		}
		b1, b2, t, m, v := c.Betas[0], c.Betas[1], float64(e.T), e.After[0], e.After[1]
		mh, vh := m/(1-math.Pow(b1, t)), v/(1-math.Pow(b2, t))
		tmpl += "m ← β₁m + (1−β₁)g = @·@ + @·@ = @\nv ← β₂v + (1−β₂)g² = @·@ + @·@² = @\n" +
			"m̂ = m/(1−β₁ᵗ) = @/(1−@^@) = @\nv̂ = v/(1−β₂ᵗ) = @/(1−@^@) = @\nw ← w − η·m̂/(√v̂ + ε) = @ − @·@/(√@ + @) = @"
		vs = append(vs, b1, b[0], 1-b1, g, m, b2, b[1], 1-b2, g, v, m, b1, t, mh, v, b2, t, vh, e.W, c.LR, mh, vh, c.Eps, e.New)
	case c.Momentum != 0 && len(e.After) == 1:
		d := "g"
		if wd {
			d, tmpl, vs = "d", "d = g + λ·w = @ + @·@ = @\n", []float64{e.G, c.WeightDecay, e.W, g}
		}
		if len(e.Before) == 0 {
			tmpl += "b ← " + d + " = @ (the first step)\n"
			vs = append(vs, e.After[0])
		} else {
			tmpl += "b ← μ·b + " + d + " = @·@ + @ = @\n"
			vs = append(vs, c.Momentum, b[0], g, e.After[0])
		}
		tmpl += "w ← w − η·b = @ − @·@ = @"
		vs = append(vs, e.W, c.LR, e.After[0], e.New)
	case wd:
		tmpl, vs = "w ← w − η·(g + λ·w) = @ − @·(@ + @·@) = @", []float64{e.W, c.LR, e.G, c.WeightDecay, e.W, e.New}
	default:
		tmpl, vs = "w ← w − η·g = @ − @·@ = @", []float64{e.W, c.LR, g, e.New}
	}
	return fill(tmpl, vs...)
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
// an update makes, from gg = ‖g‖², the gradient's squared norm, and gd =
// Σ g·Δw, the dot product of the gradient with the step: for plain SGD
// −η·‖g‖², for every other optimizer g·Δw. It returns the prediction and
// its formula.
func (c OptimizerConfig) FirstOrder(gg, gd float64) (float64, string) {
	if c.Name != "adam" && c.Momentum == 0 && c.WeightDecay == 0 {
		return -c.LR * gg, "−η·‖g‖²"
	}
	return gd, "g·Δw"
}
