#include "textflag.h"

// LOADAB loads a(0,p) and a(1,p), each into both lanes of X4 and X5, and
// b(p,0) b(p,1) into X6.
#define LOADAB \
	MOVSD    (SI), X4         \
	UNPCKLPD X4, X4           \
	MOVSD    (SI)(R12*1), X5  \
	UNPCKLPD X5, X5           \
	MOVSD    (DX), X6         \
	MOVHPD   (DX)(R10*1), X6

// MULADD01 adds the products for columns 0 and 1 into s00 s01 (X0) and
// s10 s11 (X2), steps to p+1 and counts down CX (the caller's JNZ loops).
#define MULADD01 \
	MULPD X6, X4 \
	ADDPD X4, X0 \
	MULPD X6, X5 \
	ADDPD X5, X2 \
	ADDQ  R8, SI \
	ADDQ  R9, DX \
	DECQ  CX

// func tiles(a *float64, ai, ap int, b *float64, bp, bj int, k int, c *float64, cn int, src *float64, sn int, tiles, w int, alpha, beta float64, acc bool)
//
// It computes tiles 2×w blocks of c stacked downwards, w being 4 or 2:
// block t covers rows 2t and 2t+1 of a and c. For each element, s = +0,
// then s += a(r,p)·b(p,col) for p = 0..k-1 in order, each product rounded
// before it is added (MULPD then ADDPD: two lanes, each exactly the scalar
// operations, never fused); then c = alpha·s, or alpha·s + beta·src when
// acc is set. a(r,p) is at a + r·ai + p·ap, b(p,col) at b + p·bp + col·bj,
// c(r,col) at c + r·cn + 8·col and src(r,col) at src + r·sn + 8·col
// (src is c itself, or a bias row with sn = 0); strides are in bytes.
TEXT ·tiles(SB), NOSPLIT, $0-121
	MOVQ     a+0(FP), BX
	MOVQ     ai+8(FP), R12
	MOVQ     ap+16(FP), R8
	MOVQ     bp+32(FP), R9
	MOVQ     bj+40(FP), R10
	MOVQ     c+56(FP), DI
	MOVQ     cn+64(FP), R13
	MOVQ     src+72(FP), AX
	MOVQ     sn+80(FP), R15
	MOVQ     tiles+88(FP), R14
	MOVSD    alpha+104(FP), X12
	UNPCKLPD X12, X12
	MOVSD    beta+112(FP), X13
	UNPCKLPD X13, X13
	LEAQ     (R10)(R10*2), R11 // 3·bj (bj ≥ 8), or 0 when w is 2
	CMPQ     w+96(FP), $4
	JEQ      wide
	XORQ     R11, R11

wide:
	TESTQ R14, R14
	JEQ   end

tile:
	MOVQ  BX, SI
	MOVQ  b+24(FP), DX
	MOVQ  k+48(FP), CX
	XORPD X0, X0 // s00 s01
	XORPD X1, X1 // s02 s03
	XORPD X2, X2 // s10 s11
	XORPD X3, X3 // s12 s13
	TESTQ CX, CX
	JEQ   store

	CMPQ  R11, $0
	JEQ   loop2

loop4:
	LOADAB
	MOVSD  (DX)(R10*2), X7
	MOVHPD (DX)(R11*1), X7 // b(p,2) b(p,3)
	MOVAPD X7, X9
	MULPD  X4, X9
	ADDPD  X9, X1
	MULPD  X5, X7
	ADDPD  X7, X3
	MULADD01
	JNZ    loop4
	JMP    store

loop2:
	LOADAB
	MULADD01
	JNZ loop2

store:
	// Both widths finish s00 s01 and s10 s11 here; the third and fourth
	// columns only when w is 4.
	MULPD  X12, X0
	MULPD  X12, X2
	CMPB   acc+120(FP), $0
	JEQ    put
	MOVUPD (AX), X8
	MULPD  X13, X8
	ADDPD  X8, X0
	MOVUPD (AX)(R15*1), X10
	MULPD  X13, X10
	ADDPD  X10, X2

put:
	MOVUPD X0, (DI)
	MOVUPD X2, (DI)(R13*1)
	TESTQ  R11, R11
	JEQ    next
	MULPD  X12, X1
	MULPD  X12, X3
	CMPB   acc+120(FP), $0
	JEQ    put4
	MOVUPD 16(AX), X9
	MULPD  X13, X9
	ADDPD  X9, X1
	MOVUPD 16(AX)(R15*1), X11
	MULPD  X13, X11
	ADDPD  X11, X3

put4:
	MOVUPD X1, 16(DI)
	MOVUPD X3, 16(DI)(R13*1)

next:
	LEAQ (BX)(R12*2), BX // next two rows of a
	LEAQ (DI)(R13*2), DI // of c
	LEAQ (AX)(R15*2), AX // and of src
	DECQ R14
	JNZ  tile

end:
	RET
