//go:build !wasm

package tensor

import "math"

// tanhLoop sets ys[i] = tanh(xs[i]), len(ys) = len(xs): Tanh's loop.
func tanhLoop(ys, xs []float64) {
	// The body is math's portable tanh with its call to exp written out (a
	// call per element costs much). In the branch that needs exp,
	// 2|x| lies in [1.25, 88.03], so exp's special cases cannot occur, k
	// lies in [2, 127] and ey·2^k is a normal number: multiplying by 2^k is
	// exact, as math.Ldexp is.
	for i, v := range xs {
		z := math.Abs(v)
		switch {
		case z > 0.5*tanhMaxLog:
			z = 1
		case z >= 0.625:
			e := 2 * z
			k := int(float64(expLog2e*e) + 0.5)
			hi := e - float64(float64(k)*expLn2Hi)
			lo := float64(k) * expLn2Lo
			r := hi - lo
			t := r * r
			c := r - float64(t*(expP1+float64(t*(expP2+float64(t*(expP3+float64(t*(expP4+float64(t*expP5)))))))))
			ey := 1 - ((lo - float64(r*c)/(2-c)) - hi)
			s := ey * math.Float64frombits(uint64(k+1023)<<52)
			z = 1 - 2/(s+1)
		case v == 0:
			ys[i] = v // keeps the sign of zero
			continue
		default:
			s := v * v
			num := float64(float64(float64(tanhP0*s)+tanhP1)*s) + tanhP2
			den := float64(float64(float64(float64(s+tanhQ0)*s)+tanhQ1)*s) + tanhQ2
			ys[i] = v + float64(float64(v*s)*num)/den
			continue
		}
		ys[i] = math.Copysign(z, v) // z ≥ 0: -z for v < 0, without a branch
	}
}

// The constants of Go's math/tanh.go and math/exp.go (from Cephes and
// FreeBSD's e_exp.c), which tanhLoop follows operation by operation (and
// tanh_wasm.s, which has them as literals, in WebAssembly).
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
