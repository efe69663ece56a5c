#include "textflag.h"

// The same kernel as gemm_amd64.s, in WebAssembly. Go's wasm code sends
// every loop back-edge of a Go function through its jump table, keeps at
// most 16 float64 values in locals (spilling the rest to its stack) and
// checks bounds on every strided load; written by hand, the loop over p is
// a wasm loop that V8 compiles to plain machine code with the eight sums,
// the two values of a and the value of b in registers.
//
// Locals: F16…F19 hold s00…s03, F20…F23 s10…s13, F24 a(0,p), F25 a(1,p),
// F26 b(p,col), F27 alpha, F28 beta.
// R0 a (this block's rows), R1 ai, R2 ap, R3 scratch, R4 bp, R5 bj, R6 k,
// R7 c, R8 cn, R9 src, R10 sn, R11 blocks left; R12 the address of
// a(0,p) in the loop, then of c's second row; R13 scratch; R14 the address
// of b(p,0), then of src's second row; R15 steps of p left. The loop for
// c = a·bᵀ (MACNT) takes R2, R3, R4 and R13 for addresses: ap and bp are
// 8 there, and each call takes one loop for all its blocks.

// MAC adds a(0,p)·b(p,col) to s0 and a(1,p)·b(p,col) to s1, b(p,col)
// being in F26: each product rounded, then added (no fused multiply-add
// in WebAssembly), as Gemm promises.
#define MAC(s0, s1) \
	Get s0; Get F24; Get F26; F64Mul; F64Add; Set s0; \
	Get s1; Get F25; Get F26; F64Mul; F64Add; Set s1

// LOADA loads a(0,p) into F24 and a(1,p) into F25.
#define LOADA \
	Get R12; I32WrapI64; F64Load $0; Set F24; \
	Get R12; Get R1; I64Add; I32WrapI64; F64Load $0; Set F25

// MACNT(off) is one step of p of a 2×4 block with a and b both read
// along p (c = a·bᵀ): a(0,p) at off(R12), a(1,p) at off(R13) and b(p,col)
// at off(R14), off(R2), off(R3), off(R4) for col = 0…3.
#define MACNT(off) \
	Get R12; I32WrapI64; F64Load $off; Set F24; \
	Get R13; I32WrapI64; F64Load $off; Set F25; \
	Get R14; I32WrapI64; F64Load $off; Set F26; \
	MAC(F16, F20); \
	Get R2; I32WrapI64; F64Load $off; Set F26; \
	MAC(F17, F21); \
	Get R3; I32WrapI64; F64Load $off; Set F26; \
	MAC(F18, F22); \
	Get R4; I32WrapI64; F64Load $off; Set F26; \
	MAC(F19, F23)

// ADVNT steps the six addresses of MACNT by bytes.
#define ADVNT(bytes) \
	Get R12; I64Const $bytes; I64Add; Set R12; \
	Get R13; I64Const $bytes; I64Add; Set R13; \
	Get R14; I64Const $bytes; I64Add; Set R14; \
	Get R2; I64Const $bytes; I64Add; Set R2; \
	Get R3; I64Const $bytes; I64Add; Set R3; \
	Get R4; I64Const $bytes; I64Add; Set R4

// NEXTP steps to p+1 and leaves on the stack whether any p is left.
#define NEXTP \
	Get R12; Get R2; I64Add; Set R12; \
	Get R14; Get R4; I64Add; Set R14; \
	Get R15; I64Const $1; I64Sub; Tee R15; I64Const $0; I64Ne

// PUT stores alpha·s at off(cp).
#define PUT(cp, s, off) \
	Get cp; I32WrapI64; Get F27; Get s; F64Mul; F64Store $off

// PUTACC stores alpha·s + beta·off(sp) at off(cp).
#define PUTACC(cp, sp, s, off) \
	Get cp; I32WrapI64; \
	Get F27; Get s; F64Mul; \
	Get F28; Get sp; I32WrapI64; F64Load $off; F64Mul; \
	F64Add; F64Store $off

// WIDE leaves on the stack whether w is 4, TWO whether it is at least 2.
#define WIDE \
	I64Load w+96(FP); I64Const $4; I64Eq
#define TWO \
	I64Load w+96(FP); I64Const $2; I64GeS

// func tiles(a *float64, ai, ap int, b *float64, bp, bj int, k int, c *float64, cn int, src *float64, sn int, tiles, w int, alpha, beta float64, acc bool)
//
// It computes tiles 2×w blocks of c stacked downwards, w being 4, 2 or 1
// (the amd64 kernel takes 4 and 2; see gemm_amd64.s for the operands): for each
// element, s = +0, then s += a(r,p)·b(p,col) for p = 0..k-1 in order, then
// c = alpha·s, or alpha·s + beta·src when acc is set.
TEXT ·tiles(SB), NOSPLIT, $0-121
	MOVD a+0(FP), R0
	MOVD ai+8(FP), R1
	MOVD ap+16(FP), R2
	MOVD b+24(FP), R3
	MOVD bp+32(FP), R4
	MOVD bj+40(FP), R5
	MOVD k+48(FP), R6
	MOVD c+56(FP), R7
	MOVD cn+64(FP), R8
	MOVD src+72(FP), R9
	MOVD sn+80(FP), R10
	MOVD tiles+88(FP), R11
	F64Load alpha+104(FP)
	Set F27
	F64Load beta+112(FP)
	Set F28

	Block
	Loop
		Get R11
		I64Eqz
		BrIf $1

		F64Const $0.0
		Tee F16
		Tee F17
		Tee F18
		Tee F19
		Tee F20
		Tee F21
		Tee F22
		Set F23
		Get R0
		Set R12
		I64Load b+24(FP)
		Set R14
		Get R6
		Set R15

		Block
			Get R15
			I64Eqz
			BrIf $0
			WIDE
			If
				Get R5
				I64Const $8
				I64Eq
				If
					// b(p,0…3) side by side: each at a fixed offset from b(p,0).
					Loop
						LOADA
						Get R14; I32WrapI64; F64Load $0; Set F26
						MAC(F16, F20)
						Get R14; I32WrapI64; F64Load $8; Set F26
						MAC(F17, F21)
						Get R14; I32WrapI64; F64Load $16; Set F26
						MAC(F18, F22)
						Get R14; I32WrapI64; F64Load $24; Set F26
						MAC(F19, F23)
						NEXTP
						BrIf $0
					End
				Else
				I64Load ap+16(FP)
				I64Const $8
				I64Eq
				I64Load bp+32(FP)
				I64Const $8
				I64Eq
				I32And
				If
					// c = a·bᵀ: a and b both read along p, four steps of p
					// per iteration at fixed offsets, then the last k mod 4.
					Get R12
					Get R1
					I64Add
					Set R13
					Get R14
					Get R5
					I64Add
					Tee R2
					Get R5
					I64Add
					Tee R3
					Get R5
					I64Add
					Set R4
					Block
						Get R15
						I64Const $2
						I64ShrU
						Tee R15
						I64Eqz
						BrIf $0
						Loop
							MACNT(0)
							MACNT(8)
							MACNT(16)
							MACNT(24)
							ADVNT(32)
							Get R15; I64Const $1; I64Sub; Tee R15; I64Const $0; I64Ne
							BrIf $0
						End
					End
					Get R6
					I64Const $3
					I64And
					Set R15
					Block
						Get R15
						I64Eqz
						BrIf $0
						Loop
							MACNT(0)
							ADVNT(8)
							Get R15; I64Const $1; I64Sub; Tee R15; I64Const $0; I64Ne
							BrIf $0
						End
					End
				Else
					// b(p,col) bj bytes apart (b transposed).
					Loop
						LOADA
						Get R14; I32WrapI64; F64Load $0; Set F26
						MAC(F16, F20)
						Get R14; Get R5; I64Add; Tee R13; I32WrapI64; F64Load $0; Set F26
						MAC(F17, F21)
						Get R13; Get R5; I64Add; Tee R13; I32WrapI64; F64Load $0; Set F26
						MAC(F18, F22)
						Get R13; Get R5; I64Add; I32WrapI64; F64Load $0; Set F26
						MAC(F19, F23)
						NEXTP
						BrIf $0
					End
				End
				End
			Else
				TWO
				If
					Loop
						LOADA
						Get R14; I32WrapI64; F64Load $0; Set F26
						MAC(F16, F20)
						Get R14; Get R5; I64Add; I32WrapI64; F64Load $0; Set F26
						MAC(F17, F21)
						NEXTP
						BrIf $0
					End
				Else
					Loop
						LOADA
						Get R14; I32WrapI64; F64Load $0; Set F26
						MAC(F16, F20)
						NEXTP
						BrIf $0
					End
				End
			End
		End

		// c's and src's second rows.
		Get R7
		Get R8
		I64Add
		Set R12
		Get R9
		Get R10
		I64Add
		Set R14
		I32Load8U acc+120(FP)
		If
			PUTACC(R7, R9, F16, 0)
			PUTACC(R12, R14, F20, 0)
			TWO
			If
				PUTACC(R7, R9, F17, 8)
				PUTACC(R12, R14, F21, 8)
			End
			WIDE
			If
				PUTACC(R7, R9, F18, 16)
				PUTACC(R7, R9, F19, 24)
				PUTACC(R12, R14, F22, 16)
				PUTACC(R12, R14, F23, 24)
			End
		Else
			PUT(R7, F16, 0)
			PUT(R12, F20, 0)
			TWO
			If
				PUT(R7, F17, 8)
				PUT(R12, F21, 8)
			End
			WIDE
			If
				PUT(R7, F18, 16)
				PUT(R7, F19, 24)
				PUT(R12, F22, 16)
				PUT(R12, F23, 24)
			End
		End

		// The next two rows of a, c and src.
		Get R0
		Get R1
		Get R1
		I64Add
		I64Add
		Set R0
		Get R12
		Get R8
		I64Add
		Set R7
		Get R14
		Get R10
		I64Add
		Set R9
		Get R11
		I64Const $1
		I64Sub
		Set R11
		Br $0
	End
	End
	RET
