package tensor

// smallK computes c when the shared dimension k is 1 or 2 (a first layer
// on 2-D points, or the gradient through a layer with one output), where a
// register tile would spend more on setting up its operand slices than on
// its one or two products. Each element is still s = +0, then
// s += a(i,0)·b(0,j) and, for k = 2, s += a(i,1)·b(1,j), finished as store
// finishes it.
func (g *gemm) smallK() {
	m, n, k := g.m, g.n, g.k
	al, be := g.alpha, g.beta
	for i := range m {
		ai, as := i*k, 1 // a(i,p) = a[ai + p*as]
		if g.ta {
			ai, as = i, m
		}
		cr := g.c[i*n:][:n]
		sr := g.src(i, 0, n)[:len(cr)] // what the beta term reads
		x0 := g.a[ai]
		switch {
		case k == 1: // b(0,j) = b[j], transposed or not
			r0 := g.b[:len(cr)]
			for j, y0 := range r0 {
				s := 0.0
				s += float64(x0 * y0)
				if be == 0 {
					cr[j] = al * s
				} else {
					cr[j] = float64(al*s) + float64(be*sr[j])
				}
			}
		case g.tb: // b(p,j) = b[2j+p]
			x1 := g.a[ai+as]
			bb := g.b[:2*len(cr)]
			for j := range cr {
				y0, y1 := bb[2*j], bb[2*j+1]
				s := 0.0
				s += float64(x0 * y0)
				s += float64(x1 * y1)
				if be == 0 {
					cr[j] = al * s
				} else {
					cr[j] = float64(al*s) + float64(be*sr[j])
				}
			}
		default: // b(p,j) = b[p*n+j]
			x1 := g.a[ai+as]
			r0, r1 := g.b[:len(cr)], g.b[n:][:len(cr)]
			for j, y0 := range r0 {
				s := 0.0
				s += float64(x0 * y0)
				s += float64(x1 * r1[j])
				if be == 0 {
					cr[j] = al * s
				} else {
					cr[j] = float64(al*s) + float64(be*sr[j])
				}
			}
		}
	}
}
