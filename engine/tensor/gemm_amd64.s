#include "textflag.h"

// func tiles2x4(a *float64, ai, ap int, b *float64, bp, bj int, k int, c *float64, cn int, tiles int, alpha, beta float64, acc bool)
//
// It computes tiles 2×4 blocks of c stacked downwards: block t covers rows
// 2t and 2t+1 of a and c. For each element, s = +0, then s += a(r,p)·b(p,col)
// for p = 0..k-1 in order, each product rounded before it is added (MULPD
// then ADDPD: two lanes, each exactly the scalar operations, never fused);
// then c = alpha·s, or alpha·s + beta·c when acc is set.
// a(r,p) is at a + r·ai + p·ap, b(p,col) at b + p·bp + col·bj and c(r,col)
// at c + r·cn + 8·col; strides are in bytes.
TEXT ·tiles2x4(SB), NOSPLIT, $0-97
	MOVQ   a+0(FP), BX
	MOVQ   ai+8(FP), R12
	MOVQ   ap+16(FP), R8
	MOVQ   bp+32(FP), R9
	MOVQ   bj+40(FP), R10
	MOVQ   c+56(FP), DI
	MOVQ   cn+64(FP), R13
	MOVQ   tiles+72(FP), R14
	MOVSD  alpha+80(FP), X12
	UNPCKLPD X12, X12
	MOVSD  beta+88(FP), X13
	UNPCKLPD X13, X13
	LEAQ   (R10)(R10*2), R11 // 3·bj
	TESTQ  R14, R14
	JEQ    end

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

store:
	MULPD  X12, X0
	MULPD  X12, X1
	MULPD  X12, X2
	MULPD  X12, X3
	CMPB   acc+96(FP), $0
	JEQ    put
	MOVUPD (DI), X8
	MULPD  X13, X8
	ADDPD  X8, X0
	MOVUPD 16(DI), X9
	MULPD  X13, X9
	ADDPD  X9, X1
	MOVUPD (DI)(R13*1), X10
	MULPD  X13, X10
	ADDPD  X10, X2
	MOVUPD 16(DI)(R13*1), X11
	MULPD  X13, X11
	ADDPD  X11, X3

put:
	MOVUPD X0, (DI)
	MOVUPD X1, 16(DI)
	MOVUPD X2, (DI)(R13*1)
	MOVUPD X3, 16(DI)(R13*1)
	LEAQ   (BX)(R12*2), BX // next two rows of a
	LEAQ   (DI)(R13*2), DI // and of c
	DECQ   R14
	JNZ    tile

end:
	RET

// func tiles2x2(a *float64, ai, ap int, b *float64, bp, bj int, k int, c *float64, cn int, tiles int, alpha, beta float64, acc bool)
//
// It is tiles2x4 for blocks two columns wide (the columns a product's width
// leaves over after its 2×4 tiles), with the same operands and sums.
TEXT ·tiles2x2(SB), NOSPLIT, $0-97
	MOVQ     a+0(FP), BX
	MOVQ     ai+8(FP), R12
	MOVQ     ap+16(FP), R8
	MOVQ     bp+32(FP), R9
	MOVQ     bj+40(FP), R10
	MOVQ     c+56(FP), DI
	MOVQ     cn+64(FP), R13
	MOVQ     tiles+72(FP), R14
	MOVSD    alpha+80(FP), X12
	UNPCKLPD X12, X12
	MOVSD    beta+88(FP), X13
	UNPCKLPD X13, X13
	TESTQ    R14, R14
	JEQ      end2

tile2:
	MOVQ  BX, SI
	MOVQ  b+24(FP), DX
	MOVQ  k+48(FP), CX
	XORPD X0, X0 // s00 s01
	XORPD X2, X2 // s10 s11
	TESTQ CX, CX
	JEQ   store2

loop2:
	MOVSD    (SI), X4
	UNPCKLPD X4, X4 // a(0,p) a(0,p)
	MOVSD    (SI)(R12*1), X5
	UNPCKLPD X5, X5 // a(1,p) a(1,p)
	MOVSD    (DX), X6
	MOVHPD   (DX)(R10*1), X6 // b(p,0) b(p,1)
	MULPD    X6, X4
	ADDPD    X4, X0
	MULPD    X6, X5
	ADDPD    X5, X2
	ADDQ     R8, SI
	ADDQ     R9, DX
	DECQ     CX
	JNZ      loop2

store2:
	MULPD  X12, X0
	MULPD  X12, X2
	CMPB   acc+96(FP), $0
	JEQ    put2
	MOVUPD (DI), X8
	MULPD  X13, X8
	ADDPD  X8, X0
	MOVUPD (DI)(R13*1), X10
	MULPD  X13, X10
	ADDPD  X10, X2

put2:
	MOVUPD X0, (DI)
	MOVUPD X2, (DI)(R13*1)
	LEAQ   (BX)(R12*2), BX
	LEAQ   (DI)(R13*2), DI
	DECQ   R14
	JNZ    tile2

end2:
	RET
