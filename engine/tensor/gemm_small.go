package tensor

// smallK computes c when the shared dimension k is 1 or 2 (a first layer
// on 2-D points, or the gradient through a layer with one output), where a
// register tile would spend more on setting up its operand slices than on
// its one or two products. Each element is still s = +0, then
// s += a(i,0)·b(0,j) and, for k = 2, s += a(i,1)·b(1,j), finished as store
// finishes it. Each row goes to a loop that tests nothing but its bound:
// how b is read, and whether there is a beta term, are decided per row.
func (g *gemm) smallK() {
	m, n, k := g.m, g.n, g.k
	for i := range m {
		ai, as := i*k, 1 // a(i,p) = a[ai + p*as]
		if g.ta {
			ai, as = i, m
		}
		cr := g.c[i*n:][:n]
		sr := g.src(i, 0, n) // what the beta term reads
		switch {
		case k == 1: // b(0,j) = b[j], transposed or not
			smallRow1(cr, sr, g.b, g.a[ai], g.alpha, g.beta)
		case g.tb: // b(p,j) = b[2j+p]
			smallRow2T(cr, sr, g.b, g.a[ai], g.a[ai+as], g.alpha, g.beta)
		default: // b(p,j) = b[p*n+j]
			smallRow2(cr, sr, g.b, g.b[n:], g.a[ai], g.a[ai+as], g.alpha, g.beta)
		}
	}
}

// smallRow1 writes the row cr of c for k = 1: a(i,0) = x0, b(0,j) = b0[j],
// and sr is what the beta term reads.
func smallRow1(cr, sr, b0 []float64, x0, al, be float64) {
	sr, b0 = sr[:len(cr)], b0[:len(cr)]
	if be == 0 {
		for j := range cr {
			s := 0.0
			s += float64(x0 * b0[j])
			cr[j] = al * s
		}
		return
	}
	for j := range cr {
		s := 0.0
		s += float64(x0 * b0[j])
		cr[j] = float64(al*s) + float64(be*sr[j])
	}
}

// smallRow2 writes the row cr of c for k = 2 with b not transposed:
// a(i,p) = x0, x1 and b(p,j) = b0[j], b1[j].
func smallRow2(cr, sr, b0, b1 []float64, x0, x1, al, be float64) {
	sr, b0, b1 = sr[:len(cr)], b0[:len(cr)], b1[:len(cr)]
	if be == 0 {
		for j := range cr {
			s := 0.0
			s += float64(x0 * b0[j])
			s += float64(x1 * b1[j])
			cr[j] = al * s
		}
		return
	}
	for j := range cr {
		s := 0.0
		s += float64(x0 * b0[j])
		s += float64(x1 * b1[j])
		cr[j] = float64(al*s) + float64(be*sr[j])
	}
}

// smallRow2T writes the row cr of c for k = 2 with b transposed:
// a(i,p) = x0, x1 and b(p,j) = bb[2j+p].
func smallRow2T(cr, sr, bb []float64, x0, x1, al, be float64) {
	sr, bb = sr[:len(cr)], bb[:2*len(cr)]
	// bb is stepped through in pairs, so that no index needs a check.
	if be == 0 {
		for j := 0; j < len(cr) && len(bb) >= 2; j++ {
			s := 0.0
			s += float64(x0 * bb[0])
			s += float64(x1 * bb[1])
			cr[j] = al * s
			bb = bb[2:]
		}
		return
	}
	for j := 0; j < len(cr) && len(bb) >= 2; j++ {
		s := 0.0
		s += float64(x0 * bb[0])
		s += float64(x1 * bb[1])
		cr[j] = float64(al*s) + float64(be*sr[j])
		bb = bb[2:]
	}
}
