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

// The constants of Go's math/tanh.go and math/exp.go (from Cephes and
// FreeBSD's e_exp.c), which tanhLoop follows operation by operation
// (tanh_go.go, and tanh_wasm.s in WebAssembly).
const (
	tanhMaxLog = 8.8029691931113054295988e+01 // log(2**127)
	tanhP0     = -9.64399179425052238628e-1
	tanhP1     = -9.92877231001918586564e1
	tanhP2     = -1.61468768441708447952e3
	tanhQ0     = 1.12811678491632931402e2
	tanhQ1     = 2.23548839060100448583e3
	tanhQ2     = 4.84406305325125486048e3

	expLn2Hi = 6.93147180369123816490e-01
	expLn2Lo = 1.90821492927058770002e-10
	expLog2e = 1.44269504088896338700e+00
	expP1    = 1.66666666666666657415e-01
	expP2    = -2.77777777770155933842e-03
	expP3    = 6.61375632143793436117e-05
	expP4    = -1.65339022054652515390e-06
	expP5    = 4.13813679705723846039e-08
)
