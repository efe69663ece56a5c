package app

// centralDifferences returns the gradient of f at x by central finite
// differences with step h: element i is (−½·f(x−h·eᵢ) + ½·f(x+h·eᵢ)) / h.
// It evaluates f in the order, and rounds as, gonum's diff/fd Gradient
// with fd.Central and Step h does (a test compares the two bit for bit),
// without linking gonum into the page. f must not keep its argument.
func centralDifferences(f func([]float64) float64, x []float64, h float64) []float64 {
	stencil := [...]struct{ loc, coeff float64 }{{-1, -0.5}, {1, 0.5}}
	grad := make([]float64, len(x))
	moved := make([]float64, len(x))
	for i := range x {
		var d float64
		for _, pt := range stencil {
			copy(moved, x)
			moved[i] += pt.loc * h
			d += pt.coeff * f(moved)
		}
		grad[i] = d / h
	}
	return grad
}
