package tensor

//go:generate go run ./internal/gengemm

// Gemm computes c = alpha·op(a)·op(b) + beta·c for rank-2 tensors, where
// op(x) is x or its transpose as transA and transB say. Shapes must already
// agree (the op catalogue's shape rules check them); c is not resized.
// With beta == 0, c's previous contents are ignored, NaNs included.
// It allocates nothing.
//
// Every element is computed the same way whatever the sizes, transposes or
// platform: s = +0, then s = s + a(i,p)·b(p,j) for p = 0, 1, … in order,
// each product rounded before it is added (never fused), and finally
// c = alpha·s (beta == 0) or c = alpha·s + beta·c. So results are bit-for-bit
// reproducible, natively and in wasm, and equal to the plain triple loop
// that Reference writes out.
//
// The kernel is ours rather than gonum's BLAS: for the small matrices of
// the playground gonum's call overhead dominates, and in wasm gonum falls
// back to pure-Go loops that are 2-4x slower than this register-tiled
// kernel. On amd64 the 2×4 tiles run in SSE2 assembly that vectorises
// across a tile's columns, never along a sum, and uses no fused
// multiply-add, so it computes the same bits as the Go kernels that run
// everywhere else (BenchmarkGemm compares it with gonum).
func Gemm(transA, transB bool, alpha float64, a, b *Tensor, beta float64, c *Tensor) {
	g := newGemm(transA, transB, alpha, a, b, beta, c)
	g.run()
}

// GemmBias computes c = op(a)·op(b) + bias for rank-2 tensors, with bias
// (one value per column of c) added to every row: a linear layer's forward
// pass in one sweep over c. Each element is Gemm's sum s finished as
// s + bias[j], which is bit for bit what filling every row of c with bias
// and calling Gemm with alpha = beta = 1 gives. It allocates nothing.
func GemmBias(transA, transB bool, a, b *Tensor, bias []float64, c *Tensor) {
	g := newGemm(transA, transB, 1, a, b, 1, c)
	g.bias = bias[:g.n]
	g.run()
}

// Reference computes the same as Gemm with the plain triple loop, in the
// order Gemm promises. It is the definition Gemm is tested against.
func Reference(transA, transB bool, alpha float64, a, b *Tensor, beta float64, c *Tensor) {
	g := newGemm(transA, transB, alpha, a, b, beta, c)
	for i := range g.m {
		for j := range g.n {
			g.dot(i, j)
		}
	}
}

// gemm holds one product's operands; a(i,p) and b(p,j) index op(a), op(b).
// When bias is set (GemmBias), the beta term reads bias[j] instead of c(i,j).
type gemm struct {
	m, n, k     int
	alpha, beta float64
	a, b, c     []float64
	bias        []float64
	ta, tb      bool
}

// newGemm reads the sizes of c = alpha·op(a)·op(b) + beta·c from the shapes.
func newGemm(transA, transB bool, alpha float64, a, b *Tensor, beta float64, c *Tensor) gemm {
	k := a.Shape[1]
	if transA {
		k = a.Shape[0]
	}
	return gemm{m: c.Shape[0], n: c.Shape[1], k: k, alpha: alpha, beta: beta, a: a.Data, b: b.Data, c: c.Data, ta: transA, tb: transB}
}

// src returns the w values starting at column j that the beta term of row
// i reads: c's own (Gemm) or the bias row (GemmBias).
func (g *gemm) src(i, j, w int) []float64 {
	if g.bias != nil {
		return g.bias[j:][:w]
	}
	return g.c[i*g.n+j:][:w]
}

// store writes the finished sum s of element (i, j).
func (g *gemm) store(i, j int, s float64) {
	idx := i*g.n + j
	if g.beta == 0 {
		g.c[idx] = g.alpha * s
		return
	}
	g.c[idx] = float64(g.alpha*s) + float64(g.beta*g.src(i, j, 1)[0])
}

// dot computes element (i, j) alone, with general strides.
func (g *gemm) dot(i, j int) {
	ai, as := i*g.k, 1 // a(i,p) = a[ai + p*as]
	if g.ta {
		ai, as = i, g.m
	}
	bj, bs := j, g.n // b(p,j) = b[bj + p*bs]
	if g.tb {
		bj, bs = j*g.k, 1
	}
	s := 0.0
	for p := 0; p < g.k; p++ {
		s += float64(g.a[ai+p*as] * g.b[bj+p*bs])
	}
	g.store(i, j, s)
}

// dots computes the elements of c in rows i0…i1-1 and columns j0…j1-1
// one by one: what the kernels leave to it (both operands transposed,
// which no op of the engine asks for).
func (g *gemm) dots(i0, i1, j0, j1 int) {
	for i := i0; i < i1; i++ {
		for j := j0; j < j1; j++ {
			g.dot(i, j)
		}
	}
}

// tileRows×tileCols is the block of c a tile kernel keeps in registers
// (internal/gengemm writes the Go kernels for the same shape).
const tileRows, tileCols = 2, 4

// blockRows is the height of the band of c that run finishes before moving
// down: the band's rows of op(a) stay in L1 while it sweeps across op(b),
// and each tileCols-wide panel of op(b) is reused by every tile of the band.
// (It matters when a or b is read across rows, as in dW = dYᵀ·X.)
const blockRows = 16

// run covers c with tileRows×tileCols (2×4) tiles (packed first where
// packedTiles has a kernel for the product), then the leftover columns with
// 2×1 strips and the leftover rows with 1×4 strips, then the corner element
// by element; in wasm the assembly kernel also takes the 2×1 strips and
// whole leftover rows (vecRow). Without vector kernels, products with
// k ≤ 2 go to smallK instead.
func (g *gemm) run() {
	if g.k <= 2 && !vecKernels {
		g.smallK()
		return
	}
	m4, n4 := g.m-g.m%tileRows, g.n-g.n%tileCols
	packed := g.packedTiles(m4, n4)
	for i0 := 0; i0 < m4; i0 += blockRows {
		i1 := min(i0+blockRows, m4)
		for j := 0; j < n4 && !packed; j += tileCols {
			if !g.vecTiles(i0, i1, j, tileCols) {
				g.tiles(i0, i1, j)
			}
		}
		j := n4
		if g.n-n4 >= 2 && g.vecTiles(i0, i1, j, 2) {
			j += 2
		}
		for ; j < g.n; j++ {
			if !g.vecTiles(i0, i1, j, 1) {
				g.cols(i0, i1, j)
			}
		}
	}
	for i := m4; i < g.m; i++ {
		if g.vecRow(i) {
			continue
		}
		g.rows(i, 0, n4)
		for j := n4; j < g.n; j++ {
			g.dot(i, j)
		}
	}
}
