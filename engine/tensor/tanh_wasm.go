package tensor

// tanhLoop sets ys[i] = tanh(xs[i]), len(ys) = len(xs): Tanh's loop, in
// WebAssembly (tanh_wasm.s).
func tanhLoop(ys, xs []float64) {
	if len(xs) > 0 {
		tanhs(&ys[:len(xs)][0], &xs[0], len(xs))
	}
}

// tanhs sets y[i] = tanh(x[i]) for the n elements at y and x.
//
//go:noescape
func tanhs(y, x *float64, n int)
