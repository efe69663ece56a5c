package tensor

// tanhVJPLoop sets d[i] = g[i]·(1 − y[i]²), len(d) = len(g) = len(y), in
// WebAssembly (tanhVJPs in rows_wasm.s).
func tanhVJPLoop(d, g, y []float64) {
	if n := len(g); n > 0 {
		tanhVJPs(&d[:n][0], &g[0], &y[:n][0], n)
	}
}

// sumRowsLoop sets s to the row-order sum of the rows rows of x, each
// len(s) long (rows ≥ 1), in WebAssembly (sumRowss in rows_wasm.s).
func sumRowsLoop(s, x []float64, rows int) {
	if n := len(s); n > 0 && rows > 0 {
		_ = x[rows*n-1]
		sumRowss(&s[0], &x[0], n, rows)
	}
}

//go:noescape
func tanhVJPs(d, dy, y *float64, n int)

//go:noescape
func sumRowss(s, x *float64, n, rows int)
