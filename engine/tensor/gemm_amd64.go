package tensor

// vecKernels reports that vecTiles computes tiles here (and is faster than
// smallK even when k ≤ 2).
const vecKernels = true

// tiles2x4 and tiles2x2 compute a column of 2×4 or 2×2 tiles of c with
// SSE2 (assembly, see gemm_amd64.s for the operands). Strides are in bytes.
//
//go:noescape
func tiles2x4(a *float64, ai, ap int, b *float64, bp, bj int, k int, c *float64, cn int, tiles int, alpha, beta float64, acc bool)

//go:noescape
func tiles2x2(a *float64, ai, ap int, b *float64, bp, bj int, k int, c *float64, cn int, tiles int, alpha, beta float64, acc bool)

// vecTiles computes the blocks of c at rows i0, i0+2, …, i1-2 and columns
// j…j+w-1, for a width w of 4 (tileCols) or 2, with the SSE2 kernels,
// which vectorise across a block's columns and so keep each element's
// sum, product by product, exactly as the scalar kernels compute it (no
// fused multiply-add). It reports whether it did: k must be at least 1.
func (g *gemm) vecTiles(i0, i1, j, w int) bool {
	k, n := g.k, g.n
	if k < 1 || i1 <= i0 || (w != 4 && w != 2) {
		return false
	}
	// Element strides of op(a) across rows (ai) and along p (ap), and of
	// op(b) along p (bp) and across columns (bj).
	ai, ap := k, 1
	if g.ta {
		ai, ap = 1, g.m
	}
	bp, bj := n, 1
	if g.tb {
		bp, bj = 1, k
	}
	a0, b0, c0 := i0*ai, j*bj, i0*n+j
	// The last elements the kernel reads and writes must lie inside a, b and c.
	_ = g.a[a0+(i1-1-i0)*ai+(k-1)*ap]
	_ = g.b[b0+(w-1)*bj+(k-1)*bp]
	_ = g.c[(i1-1)*n+j+w-1]
	kernel := tiles2x4
	if w == 2 {
		kernel = tiles2x2
	}
	kernel(&g.a[a0], 8*ai, 8*ap, &g.b[b0], 8*bp, 8*bj, k, &g.c[c0], 8*n, (i1-i0)/tileRows, g.alpha, g.beta, g.beta != 0)
	return true
}
