//go:build amd64 || wasm

package tensor

import "runtime"

// vecKernels reports that vecTiles computes tiles here (and is faster than
// smallK even when k ≤ 2).
const vecKernels = true

// tiles computes a column of 2×4 or 2×2 blocks of c in assembly: with SSE2
// on amd64 (gemm_amd64.s, which describes the operands), and in
// WebAssembly as plain scalar loops that Go's wasm code generation cannot
// write (gemm_wasm.s). Strides are in bytes.
//
//go:noescape
func tiles(a *float64, ai, ap int, b *float64, bp, bj int, k int, c *float64, cn int, src *float64, sn int, tiles, w int, alpha, beta float64, acc bool)

// vecTiles computes the blocks of c at rows i0, i0+2, …, i1-2 and columns
// j…j+w-1, for a width w of 4 (tileCols) or 2 (or 1 where narrowTiles),
// with the assembly kernel.
// On amd64 it vectorises across a block's columns; in either form it keeps
// each element's sum, product by product, exactly as the Go kernels
// compute it (no fused multiply-add). It reports whether it did: k must be
// at least 1.
func (g *gemm) vecTiles(i0, i1, j, w int) bool {
	k, n := g.k, g.n
	if k < 1 || i1 <= i0 || (w != 4 && w != 2 && (w != 1 || !narrowTiles)) {
		return false
	}
	ai, ap, bp, bj := g.strides()
	a0, b0, c0 := i0*ai, j*bj, i0*n+j
	// The last elements the kernel reads and writes must lie inside a, b and c.
	_ = g.a[a0+(i1-1-i0)*ai+(k-1)*ap]
	_ = g.b[b0+(w-1)*bj+(k-1)*bp]
	_ = g.c[(i1-1)*n+j+w-1]
	src, sn := &g.c[c0], 8*n // beta·c
	if g.bias != nil {
		_ = g.bias[j+w-1]
		src, sn = &g.bias[j], 0 // beta·bias[j…j+w-1] on every row
	}
	tiles(&g.a[a0], 8*ai, 8*ap, &g.b[b0], 8*bp, 8*bj, k, &g.c[c0], 8*n, src, sn, (i1-i0)/tileRows, w, g.alpha, g.beta, g.beta != 0)
	return true
}

// narrowTiles reports whether the kernel also takes blocks one column wide
// (the wasm kernel does; the SSE2 one does not).
const narrowTiles = runtime.GOARCH == "wasm"

// strides returns the element strides of op(a) across rows (ai) and along
// p (ap), and of op(b) along p (bp) and across columns (bj).
func (g *gemm) strides() (ai, ap, bp, bj int) {
	ai, ap = g.k, 1
	if g.ta {
		ai, ap = 1, g.m
	}
	bp, bj = g.n, 1
	if g.tb {
		bp, bj = 1, g.k
	}
	return ai, ap, bp, bj
}

// vecRow computes row i of c (a row left over below the tiles, or the only
// one) with the kernel where it takes one-column blocks, and reports
// whether it did. The row, as a column, is op(b)ᵀ times row i of op(a) as
// a column: the kernel's rows are op(b)'s columns two at a time, and each
// element is the same products (x·y = y·x exactly) added in the same
// order, finished as store finishes it.
func (g *gemm) vecRow(i int) bool {
	k, n := g.k, g.n
	if !narrowTiles || k < 1 {
		return false
	}
	ai, ap, bp, bj := g.strides()
	if pairs := n / 2; pairs > 0 {
		_ = g.a[i*ai+(k-1)*ap]
		_ = g.b[(2*pairs-1)*bj+(k-1)*bp]
		_ = g.c[i*n+2*pairs-1]
		src := &g.c[i*n]
		if g.bias != nil {
			_ = g.bias[2*pairs-1]
			src = &g.bias[0]
		}
		tiles(&g.b[0], 8*bj, 8*bp, &g.a[i*ai], 8*ap, 8, k, &g.c[i*n], 8, src, 8, pairs, 1, g.alpha, g.beta, g.beta != 0)
	}
	if n%2 == 1 {
		g.dot(i, n-1)
	}
	return true
}

// packedTiles reports false: the assembly kernel reads every operand
// layout, so no product is packed first.
func (g *gemm) packedTiles(m4, n4 int) bool { return false }
