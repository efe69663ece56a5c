package tensor

// sums2x4 computes the eight sums of a 2×4 tile with SSE2 (assembly).
// Strides are in bytes; see gemm_amd64.s.
//
//go:noescape
func sums2x4(a *float64, ai, ap int, b *float64, bp, bj int, k int, s *[8]float64)

// vecTile computes the tileRows×tileCols block of c at (i, j) with the
// SSE2 kernel, which vectorises across the tile's columns and so keeps
// each element's sum, product by product, exactly as the scalar kernels
// compute it (no fused multiply-add). It reports false, computing
// nothing, when k < 1.
func (g *gemm) vecTile(i, j int) bool {
	k := g.k
	if k < 1 {
		return false
	}
	// Element strides of op(a) across rows (ai) and along p (ap), and of
	// op(b) along p (bp) and across columns (bj).
	ai, ap := k, 1
	if g.ta {
		ai, ap = 1, g.m
	}
	bp, bj := g.n, 1
	if g.tb {
		bp, bj = 1, k
	}
	a0, b0 := i*ai, j*bj
	// The last elements read must lie inside a and b.
	_ = g.a[a0+ai+(k-1)*ap]
	_ = g.b[b0+3*bj+(k-1)*bp]
	var s [8]float64
	sums2x4(&g.a[a0], 8*ai, 8*ap, &g.b[b0], 8*bp, 8*bj, k, &s)
	al, be, n := g.alpha, g.beta, g.n
	cr0 := g.c[i*n+j:][:4]
	cr1 := g.c[(i+1)*n+j:][:4]
	if be == 0 {
		for c := range 4 {
			cr0[c] = al * s[c]
			cr1[c] = al * s[4+c]
		}
		return true
	}
	for c := range 4 {
		cr0[c] = float64(al*s[c]) + float64(be*cr0[c])
		cr1[c] = float64(al*s[4+c]) + float64(be*cr1[c])
	}
	return true
}
