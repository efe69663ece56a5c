//go:build !amd64 && !wasm

package tensor

// packK bounds the shared dimension k of a product packedTiles takes: its
// buffers live on the stack (40 KiB), so that it allocates nothing.
const packK = 256

// packReuse is the fewest tiles that must read each packed value.
const packReuse = 8

// packedTiles computes the tiles of c in rows 0…m4-1 and columns 0…n4-1
// (m4, n4 multiples of the tile) and reports true when it has a packed
// kernel for the product: aᵀ·b with beta = 0 (as every weight gradient
// is) and k ≤ packK, and c large enough that each packed value is read by
// at least packReuse tiles (packing costs about what a tile's step costs,
// so it is not worth it for the 16×16 weight gradient of the tiny
// benchmark).
func (g *gemm) packedTiles(m4, n4 int) bool {
	if !g.ta || g.tb || g.beta != 0 || g.k > packK || m4 < packReuse*tileRows || n4 < packReuse*tileCols {
		return false
	}
	g.tilesTNPacked(m4, n4)
	return true
}

// tilesTNPacked computes the tileRows×tileCols blocks of c = alpha·aᵀ·b
// in rows 0…m4-1 and columns 0…n4-1 (m4, n4 multiples of the tile), for
// k ≤ packK: dW = dYᵀ·X, the weight gradient of every linear layer.
// Both operands are read down their columns there (a(i,p) = a[p·m+i],
// b(p,j) = b[p·n+j]), which in wasm costs two bounds checks per operand and
// step of p in the register-tiled kernel. So the rows of op(a) of a band,
// two at a time, and the four columns of op(b) of a block are first copied
// into arrays laid out in the order the tile reads them, and the tile runs
// over those with one bounds check per step of p.
func (g *gemm) tilesTNPacked(m4, n4 int) {
	var ap [2048][2]float64  // pairs of rows of op(a) of one band: ap[r·k+p] = a(i0+2r, p), a(i0+2r+1, p)
	var bp [packK][4]float64 // four columns of op(b): bp[p] = b(p, j…j+3)
	k, m, n := g.k, g.m, g.n
	band := min(m4, len(ap)*2/k&^1)
	for i0 := 0; i0 < m4; i0 += band {
		i1 := min(i0+band, m4)
		for r := 0; r < (i1-i0)/2; r++ {
			pairs, pa := ap[r*k:][:k], i0+2*r
			for p := range pairs {
				x := g.a[pa:][:2]
				pairs[p][0], pairs[p][1] = x[0], x[1]
				pa += m
			}
		}
		for j := 0; j < n4; j += tileCols {
			cols, pb := bp[:k], j
			for p := range cols {
				y := g.b[pb:][:4]
				cols[p][0], cols[p][1], cols[p][2], cols[p][3] = y[0], y[1], y[2], y[3]
				pb += n
			}
			for i := i0; i < i1; i += 2 {
				g.tilePacked(i, j, ap[(i-i0)/2*k:][:k], cols)
			}
		}
	}
}

// tilePacked computes the 2×4 block of c at row i and column j from the
// packed rows a2 (a2[p] = a(i,p), a(i+1,p)) and columns b4 (b4[p] =
// b(p,j…j+3)), len(b4) = len(a2) = k, as store finishes it with beta = 0.
func (g *gemm) tilePacked(i, j int, a2 [][2]float64, b4 [][4]float64) {
	b4 = b4[:len(a2)]
	var c00, c01, c02, c03, c10, c11, c12, c13 float64
	p := 0
	for ; p+3 < len(a2); p += 4 {
		{
			x, y := &a2[p], &b4[p]
			c00 += float64(x[0] * y[0])
			c01 += float64(x[0] * y[1])
			c02 += float64(x[0] * y[2])
			c03 += float64(x[0] * y[3])
			c10 += float64(x[1] * y[0])
			c11 += float64(x[1] * y[1])
			c12 += float64(x[1] * y[2])
			c13 += float64(x[1] * y[3])
		}
		{
			x, y := &a2[p+1], &b4[p+1]
			c00 += float64(x[0] * y[0])
			c01 += float64(x[0] * y[1])
			c02 += float64(x[0] * y[2])
			c03 += float64(x[0] * y[3])
			c10 += float64(x[1] * y[0])
			c11 += float64(x[1] * y[1])
			c12 += float64(x[1] * y[2])
			c13 += float64(x[1] * y[3])
		}
		{
			x, y := &a2[p+2], &b4[p+2]
			c00 += float64(x[0] * y[0])
			c01 += float64(x[0] * y[1])
			c02 += float64(x[0] * y[2])
			c03 += float64(x[0] * y[3])
			c10 += float64(x[1] * y[0])
			c11 += float64(x[1] * y[1])
			c12 += float64(x[1] * y[2])
			c13 += float64(x[1] * y[3])
		}
		{
			x, y := &a2[p+3], &b4[p+3]
			c00 += float64(x[0] * y[0])
			c01 += float64(x[0] * y[1])
			c02 += float64(x[0] * y[2])
			c03 += float64(x[0] * y[3])
			c10 += float64(x[1] * y[0])
			c11 += float64(x[1] * y[1])
			c12 += float64(x[1] * y[2])
			c13 += float64(x[1] * y[3])
		}
	}
	for ; p < len(a2); p++ {
		x, y := &a2[p], &b4[p]
		c00 += float64(x[0] * y[0])
		c01 += float64(x[0] * y[1])
		c02 += float64(x[0] * y[2])
		c03 += float64(x[0] * y[3])
		c10 += float64(x[1] * y[0])
		c11 += float64(x[1] * y[1])
		c12 += float64(x[1] * y[2])
		c13 += float64(x[1] * y[3])
	}
	n, al := g.n, g.alpha
	cr0, cr1 := g.c[i*n+j:][:4], g.c[(i+1)*n+j:][:4]
	cr0[0], cr0[1], cr0[2], cr0[3] = al*c00, al*c01, al*c02, al*c03
	cr1[0], cr1[1], cr1[2], cr1[3] = al*c10, al*c11, al*c12, al*c13
}
