package tensor

// Tanh sets y[i] = tanh(x[i]) for every element (y and x have the same
// size; they may be the same tensor). It allocates nothing.
//
// It computes exactly what the Go standard library's portable tanh and exp
// compute (math.Tanh as it runs in wasm), with the exp and the scaling by
// 2^k written out in the loop instead of called, which makes it several
// times faster in wasm, where each call is expensive (and in wasm the loop
// is written in WebAssembly, tanh_wasm.s, the same operations in the same
// order). Products are rounded before they are added, so the result is the
// same bit for bit on every platform; natively math.Tanh may use an
// assembly exp and differ from it in the last bit.
func Tanh(y, x *Tensor) {
	tanhLoop(y.Data[:len(x.Data)], x.Data)
}
