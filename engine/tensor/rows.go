package tensor

// TanhVJP sets dx[i] = dy[i]·(1 − y[i]²) for every element, y being
// tanh's output: tanh's reverse step. dx, dy and y have the same size (dx
// may be dy). It allocates nothing; in wasm the loop is WebAssembly
// (rows_wasm.s), the same operations in the same order.
func TanhVJP(dx, dy, y *Tensor) {
	n := len(dy.Data)
	tanhVJPLoop(dx.Data[:n], dy.Data, y.Data[:n])
}

// SumRows sets s[j] to the sum over the rows of x (x's data read as rows of
// len(s) values) of their j-th value, added in row order starting from the
// first row's: the bias gradient of a linear layer. x holds at least one
// row. It allocates nothing; in wasm the loop is WebAssembly (rows_wasm.s),
// the same additions in the same order.
func SumRows(s, x *Tensor) {
	n := len(s.Data)
	if n == 0 {
		return
	}
	rows := len(x.Data) / n
	_ = x.Data[:n] // at least one row
	sumRowsLoop(s.Data, x.Data[:rows*n], rows)
}
