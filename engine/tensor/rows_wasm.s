#include "textflag.h"

// The loops of rows_go.go in WebAssembly, each a plain wasm loop (Go's
// wasm code sends every back-edge through its function's jump table).

// func tanhVJPs(d, dy, y *float64, n int)
//
// d[i] = dy[i]·(1 − y[i]·y[i]) for i < n. R0 d, R1 dy, R2 y, R3 left.
TEXT ·tanhVJPs(SB), NOSPLIT, $0-32
	MOVD d+0(FP), R0
	MOVD dy+8(FP), R1
	MOVD y+16(FP), R2
	MOVD n+24(FP), R3

	Block
	Loop
		Get R3
		I64Eqz
		BrIf $1
		Get R0
		I32WrapI64
		Get R1
		I32WrapI64
		F64Load $0
		F64Const $1.0
		Get R2
		I32WrapI64
		F64Load $0
		Tee F16
		Get F16
		F64Mul
		F64Sub
		F64Mul
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
		I64Const $8
		I64Add
		Set R2
		Get R3
		I64Const $1
		I64Sub
		Set R3
		Br $0
	End
	End
	RET

// func sumRowss(s, x *float64, n, rows int)
//
// s[j] = x[j] + x[n+j] + x[2n+j] + … (rows terms, added in that order)
// for j < n, one column at a time. R0 s, R1 x(0,j), R2 n, R3 rows,
// R4 columns left, R5 x(r,j), R6 rows left, R7 the row stride in bytes;
// F16 the sum.
TEXT ·sumRowss(SB), NOSPLIT, $0-32
	MOVD s+0(FP), R0
	MOVD x+8(FP), R1
	MOVD n+16(FP), R2
	MOVD rows+24(FP), R3
	Get R2
	Set R4
	Get R2
	I64Const $3
	I64Shl
	Set R7

	Block
	Loop
		Get R4
		I64Eqz
		BrIf $1
		Get R1
		Tee R5
		I32WrapI64
		F64Load $0
		Set F16
		Get R3
		I64Const $1
		I64Sub
		Set R6
		Block
		Loop
			Get R6
			I64Eqz
			BrIf $1
			Get R5
			Get R7
			I64Add
			Tee R5
			I32WrapI64
			F64Load $0
			Get F16
			F64Add
			Set F16
			Get R6
			I64Const $1
			I64Sub
			Set R6
			Br $0
		End
		End
		Get R0
		I32WrapI64
		Get F16
		F64Store $0
		Get R0
		I64Const $8
		I64Add
		Set R0
		Get R1
		I64Const $8
		I64Add
		Set R1
		Get R4
		I64Const $1
		I64Sub
		Set R4
		Br $0
	End
	End
	RET
