package trainer

import "math"

// SmoothSpan is how many records the loss and accuracy charts average
// over for a history of n records: a twentieth of the run, so that the
// smoothing looks the same at every length (the history is thinned to at
// most MaxHistory records), and none below 8 records.
func SmoothSpan(n int) float64 {
	if n < 8 {
		return 1
	}
	return max(1, float64(n)/20)
}

// Smooth returns v averaged over about span records without lag: an
// exponential moving average (weight 2/(span+1) on each new value) run
// forward over v and then backward over the result, so that a fall is
// drawn where it happened and not span records later. Each pass is
// debiased as TensorBoard's is (it starts at the first value instead of
// rising from zero). NaN and infinite values stay NaN and leave the
// average as it was; a span of 1 or less returns a copy of v.
func Smooth(v []float64, span float64) []float64 {
	out := make([]float64, len(v))
	a := 2 / (max(span, 1) + 1)
	pass := func(from, to, by int) {
		sum, weight := 0.0, 0.0
		for i := from; i != to; i += by {
			x := out[i]
			if math.IsNaN(x) || math.IsInf(x, 0) {
				out[i] = math.NaN()
				continue
			}
			sum = (1-a)*sum + a*x
			weight = (1-a)*weight + a
			out[i] = sum / weight
		}
	}
	copy(out, v)
	pass(0, len(v), 1)
	pass(len(v)-1, -1, -1)
	return out
}
