#include "textflag.h"

// func tanhs(y, x *float64, n int)
//
// tanhLoop in WebAssembly: the same operations in the same order as the Go
// loop of tanh_go.go (Go's portable tanh with its exp written out; see
// Tanh), one element at a time. Go's wasm code sends each of that loop's
// branches and its back-edge through the function's jump table; here they
// are wasm's own if/else and loop.
//
// Locals: R0 y, R1 x, R2 elements left, R3 k; F16 v, F17 |v|, then e;
// F19 float64(k); F20 hi; F21 lo; F22 r; F23 r·r; F24 c; F18 v·v in the
// rational branch; F30 the result.
TEXT ·tanhs(SB), NOSPLIT, $0-24
	MOVD y+0(FP), R0
	MOVD x+8(FP), R1
	MOVD n+16(FP), R2

	Block
	Loop
		Get R2
		I64Eqz
		BrIf $1

		Get R1
		I32WrapI64
		F64Load $0
		Tee F16
		F64Abs
		Tee F17
		F64Const $44.014845965556527147994 // 0.5·tanhMaxLog
		F64Gt
		If
			// Saturated: ±1.
			F64Const $1.0
			Get F16
			F64Copysign
			Set F30
		Else
			Get F17
			F64Const $0.625
			F64Ge
			If
				// 1 − 2/(exp(2|v|)+1), exp as math's portable exp computes it.
				F64Const $2.0
				Get F17
				F64Mul
				Set F17 // e
				F64Const $1.44269504088896338700e+00 // expLog2e
				Get F17
				F64Mul
				F64Const $0.5
				F64Add
				I64TruncSatF64S // k lies in [2, 127]: no trap check needed
				Tee R3
				F64ConvertI64S
				Set F19
				Get F17
				Get F19
				F64Const $6.93147180369123816490e-01 // expLn2Hi
				F64Mul
				F64Sub
				Set F20 // hi
				Get F19
				F64Const $1.90821492927058770002e-10 // expLn2Lo
				F64Mul
				Set F21 // lo
				Get F20
				Get F21
				F64Sub
				Tee F22 // r
				Get F22
				F64Mul
				Set F23 // t
				Get F22
				Get F23
				F64Const $4.13813679705723846039e-08 // expP5
				F64Mul
				F64Const $-1.65339022054652515390e-06 // expP4
				F64Add
				Get F23
				F64Mul
				F64Const $6.61375632143793436117e-05 // expP3
				F64Add
				Get F23
				F64Mul
				F64Const $-2.77777777770155933842e-03 // expP2
				F64Add
				Get F23
				F64Mul
				F64Const $1.66666666666666657415e-01 // expP1
				F64Add
				Get F23
				F64Mul
				F64Sub
				Set F24 // c
				F64Const $1.0
				F64Const $2.0
				F64Const $1.0
				Get F21
				Get F22
				Get F24
				F64Mul
				F64Const $2.0
				Get F24
				F64Sub
				F64Div
				F64Sub
				Get F20
				F64Sub
				F64Sub // ey
				Get R3
				I64Const $1023
				I64Add
				I64Const $52
				I64Shl
				F64ReinterpretI64
				F64Mul // s = ey·2^k
				F64Const $1.0
				F64Add
				F64Div
				F64Sub
				Get F16
				F64Copysign
				Set F30
			Else
				Get F16
				F64Const $0.0
				F64Eq
				If
					// ±0 keeps its sign.
					Get F16
					Set F30
				Else
					// v + v·s·P(s)/Q(s), s = v².
					Get F16
					Get F16
					F64Mul
					Set F18
					Get F16
					Get F16
					Get F18
					F64Mul
					F64Const $-9.64399179425052238628e-1 // tanhP0
					Get F18
					F64Mul
					F64Const $-9.92877231001918586564e1 // tanhP1
					F64Add
					Get F18
					F64Mul
					F64Const $-1.61468768441708447952e3 // tanhP2
					F64Add
					F64Mul
					Get F18
					F64Const $1.12811678491632931402e2 // tanhQ0
					F64Add
					Get F18
					F64Mul
					F64Const $2.23548839060100448583e3 // tanhQ1
					F64Add
					Get F18
					F64Mul
					F64Const $4.84406305325125486048e3 // tanhQ2
					F64Add
					F64Div
					F64Add
					Set F30
				End
			End
		End

		Get R0
		I32WrapI64
		Get F30
		F64Store $0
		Get R0
		I64Const $8
		I64Add
		Set R0
		Get R1
		I64Const $8
		I64Add
		Set R1
		Get R2
		I64Const $1
		I64Sub
		Set R2
		Br $0
	End
	End
	RET
