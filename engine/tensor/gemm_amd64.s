#include "textflag.h"

// func sums2x4(a *float64, ai, ap int, b *float64, bp, bj int, k int, s *[8]float64)
//
// For r in 0..1 and c in 0..3, s[4r+c] = Σ_p a(r,p)·b(p,c) over p = 0..k-1
// in order, starting from +0, each product rounded before it is added
// (MULPD then ADDPD: two lanes, each exactly the scalar operations).
// a(r,p) is at a + r·ai + p·ap and b(p,c) at b + p·bp + c·bj (bytes).
TEXT ·sums2x4(SB), NOSPLIT, $0-64
	MOVQ a+0(FP), SI
	MOVQ ai+8(FP), R12
	MOVQ ap+16(FP), R8
	MOVQ b+24(FP), DX
	MOVQ bp+32(FP), R9
	MOVQ bj+40(FP), R10
	MOVQ k+48(FP), CX
	MOVQ s+56(FP), AX
	LEAQ (R10)(R10*2), R11 // 3·bj
	XORPD X0, X0 // s00 s01
	XORPD X1, X1 // s02 s03
	XORPD X2, X2 // s10 s11
	XORPD X3, X3 // s12 s13
	TESTQ CX, CX
	JEQ done

loop:
	MOVSD    (SI), X4
	UNPCKLPD X4, X4 // a(0,p) a(0,p)
	MOVSD    (SI)(R12*1), X5
	UNPCKLPD X5, X5 // a(1,p) a(1,p)
	MOVSD    (DX), X6
	MOVHPD   (DX)(R10*1), X6 // b(p,0) b(p,1)
	MOVSD    (DX)(R10*2), X7
	MOVHPD   (DX)(R11*1), X7 // b(p,2) b(p,3)
	MOVAPD   X6, X8
	MULPD    X4, X8
	ADDPD    X8, X0
	MOVAPD   X7, X9
	MULPD    X4, X9
	ADDPD    X9, X1
	MULPD    X5, X6
	ADDPD    X6, X2
	MULPD    X5, X7
	ADDPD    X7, X3
	ADDQ     R8, SI
	ADDQ     R9, DX
	DECQ     CX
	JNZ      loop

done:
	MOVUPD X0, (AX)
	MOVUPD X1, 16(AX)
	MOVUPD X2, 32(AX)
	MOVUPD X3, 48(AX)
	RET
