package tensor

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
)

// operands returns op(a) [m k], op(b) [k n] stored as transA/transB say,
// and c [m n], filled from r; special adds -0.0, ±Inf and NaN now and then.
func operands(r *rand.Rand, m, n, k int, ta, tb, special bool) (a, b, c *Tensor) {
	fill := func(s Shape) *Tensor {
		t := Zeros(s)
		for i := range t.Data {
			t.Data[i] = 2*r.Float64() - 1
			if special {
				switch r.IntN(30) {
				case 0:
					t.Data[i] = math.Copysign(0, -1)
				case 1:
					t.Data[i] = math.Inf(1 - 2*r.IntN(2))
				case 2:
					t.Data[i] = math.NaN()
				}
			}
		}
		return t
	}
	as, bs := Shape{m, k}, Shape{k, n}
	if ta {
		as = Shape{k, m}
	}
	if tb {
		bs = Shape{n, k}
	}
	return fill(as), fill(bs), fill(Shape{m, n})
}

func TestGemmIsTheReferenceLoopBitForBit(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, ab := range [][2]float64{{1, 0}, {1, 1}, {-0.5, 2}, {2, 0}} {
		for m := 1; m <= 9; m++ {
			for n := 1; n <= 9; n++ {
				for _, k := range []int{1, 2, 3, 4, 5, 8, 16, 17} {
					for tr := range 4 {
						ta, tb := tr&1 != 0, tr&2 != 0
						a, b, c := operands(r, m, n, k, ta, tb, r.IntN(3) == 0)
						if ab[1] == 0 && r.IntN(2) == 0 {
							c.Fill(math.NaN()) // beta == 0 must ignore c
						}
						want := c.Clone()
						Reference(ta, tb, ab[0], a, b, ab[1], want)
						Gemm(ta, tb, ab[0], a, b, ab[1], c)
						if !Identical(c, want) {
							t.Fatalf("m=%d n=%d k=%d transA=%v transB=%v alpha=%v beta=%v:\n got %v\nwant %v",
								m, n, k, ta, tb, ab[0], ab[1], c.Data, want.Data)
						}
					}
				}
			}
		}
	}
}

// TestGemmWorkloadShapesBitForBit runs the products of the benchmark
// workloads (and the small-k ones of a one-output layer) against the
// reference, with -0.0, ±Inf and NaN among the operands.
func TestGemmWorkloadShapesBitForBit(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for _, tc := range gemmCases {
		for _, sp := range []bool{false, true} {
			for _, beta := range []float64{0, 1} {
				a, b, c := operands(r, tc.m, tc.n, tc.k, tc.ta, tc.tb, sp)
				want := c.Clone()
				Reference(tc.ta, tc.tb, 1, a, b, beta, want)
				Gemm(tc.ta, tc.tb, 1, a, b, beta, c)
				if !Identical(c, want) {
					t.Fatalf("%s special=%v beta=%v: Gemm differs from the reference", tc.name, sp, beta)
				}
			}
		}
	}
}

// TestGemmSignOfZero: every sum starts at +0, so a product of -0 alone
// gives +0 (and -0 only when alpha is negative), whatever k.
func TestGemmSignOfZero(t *testing.T) {
	for _, k := range []int{1, 2, 3, 16} {
		for tr := range 4 {
			ta, tb := tr&1 != 0, tr&2 != 0
			a, b, c := operands(rand.New(rand.NewPCG(1, 1)), 3, 5, k, ta, tb, false)
			a.Fill(math.Copysign(0, -1))
			b.Fill(1)
			Gemm(ta, tb, 1, a, b, 0, c)
			for i, v := range c.Data {
				if v != 0 || math.Signbit(v) {
					t.Fatalf("k=%d transA=%v transB=%v: element %d is %v, want +0", k, ta, tb, i, v)
				}
			}
		}
	}
}

// TestReferenceAgreesWithBLAS checks the definition itself against gonum's
// BLAS (a different summation order, so within rounding).
func TestReferenceAgreesWithBLAS(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, sz := range [][3]int{{1, 1, 1}, {3, 5, 7}, {32, 16, 16}, {16, 2, 32}, {10, 12, 9}} {
		for tr := range 4 {
			ta, tb := tr&1 != 0, tr&2 != 0
			m, n, k := sz[0], sz[1], sz[2]
			a, b, c := operands(r, m, n, k, ta, tb, false)
			want := c.Clone()
			Reference(ta, tb, 0.75, a, b, -1.5, c)
			blas64.Gemm(trans(ta), trans(tb), 0.75, general(a), general(b), -1.5, general(want))
			for i, v := range c.Data {
				if math.Abs(v-want.Data[i]) > 1e-12*(1+math.Abs(want.Data[i])) {
					t.Fatalf("%v transA=%v transB=%v: element %d is %v, BLAS gives %v", sz, ta, tb, i, v, want.Data[i])
				}
			}
		}
	}
}

func trans(t bool) blas.Transpose {
	if t {
		return blas.Trans
	}
	return blas.NoTrans
}

func general(t *Tensor) blas64.General {
	return blas64.General{Rows: t.Shape[0], Cols: t.Shape[1], Stride: t.Shape[1], Data: t.Data}
}

// gemmCases are the products of the benchmark workloads (tiny: 2-16-16-1 at
// batch 32; big: 784-128-10 at batch 64) as m×n×k and transposes:
// forward Y = X·Wᵀ (NT), backward dX = dY·W (NN) and dW = dYᵀ·X (TN).
var gemmCases = []struct {
	name    string
	m, n, k int
	ta, tb  bool
}{
	{"tiny/fwd-32x16x2-NT", 32, 16, 2, false, true},
	{"tiny/fwd-32x16x16-NT", 32, 16, 16, false, true},
	{"tiny/fwd-32x1x16-NT", 32, 1, 16, false, true},
	{"tiny/dX-32x16x1-NN", 32, 16, 1, false, false},
	{"tiny/dW-1x16x32-TN", 1, 16, 32, true, false},
	{"tiny/dX-32x16x16-NN", 32, 16, 16, false, false},
	{"tiny/dW-16x16x32-TN", 16, 16, 32, true, false},
	{"tiny/dW-16x2x32-TN", 16, 2, 32, true, false},
	{"big/fwd-64x128x784-NT", 64, 128, 784, false, true},
	{"big/fwd-64x10x128-NT", 64, 10, 128, false, true},
	{"big/dX-64x128x10-NN", 64, 128, 10, false, false},
	{"big/dW-128x784x64-TN", 128, 784, 64, true, false},
	{"big/dW-10x128x64-TN", 10, 128, 64, true, false},
}

func BenchmarkGemm(b *testing.B) {
	for _, tc := range gemmCases {
		r := rand.New(rand.NewPCG(5, 6))
		x, y, z := operands(r, tc.m, tc.n, tc.k, tc.ta, tc.tb, false)
		flops := 2 * float64(tc.m*tc.n*tc.k)
		report := func(b *testing.B) {
			b.ReportMetric(flops*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
		}
		b.Run(fmt.Sprintf("%s/ours", tc.name), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				Gemm(tc.ta, tc.tb, 1, x, y, 0, z)
			}
			report(b)
		})
		b.Run(fmt.Sprintf("%s/blas64", tc.name), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				blas64.Gemm(trans(tc.ta), trans(tc.tb), 1, general(x), general(y), 0, general(z))
			}
			report(b)
		})
	}
}

// TestSmallKIsTheReferenceLoop tests smallK directly, with c or a bias row
// in the beta term: on amd64 Gemm and GemmBias send products with k ≤ 2 to
// the vector kernels instead.
func TestSmallKIsTheReferenceLoop(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for _, ab := range [][2]float64{{1, 0}, {1, 1}, {-0.5, 2}} {
		for _, k := range []int{1, 2} {
			for m := 1; m <= 9; m++ {
				for n := 1; n <= 9; n++ {
					for tr := range 4 {
						ta, tb := tr&1 != 0, tr&2 != 0
						a, b, c := operands(r, m, n, k, ta, tb, true)
						want := c.Clone()
						Reference(ta, tb, ab[0], a, b, ab[1], want)
						g := gemm{m: m, n: n, k: k, alpha: ab[0], beta: ab[1], a: a.Data, b: b.Data, c: c.Data, ta: ta, tb: tb}
						g.smallK()
						if !Identical(c, want) {
							t.Fatalf("m=%d n=%d k=%d transA=%v transB=%v alpha=%v beta=%v:\n got %v\nwant %v",
								m, n, k, ta, tb, ab[0], ab[1], c.Data, want.Data)
						}
						// With a bias row (GemmBias) the beta term reads it instead of c.
						_, bias, _ := operands(r, 1, n, 1, false, false, true)
						want.Fill(0)
						for i := range m {
							copy(want.Data[i*n:(i+1)*n], bias.Data)
						}
						Reference(ta, tb, ab[0], a, b, ab[1], want)
						g.bias = bias.Data
						g.smallK()
						if !Identical(c, want) {
							t.Fatalf("bias m=%d n=%d k=%d transA=%v transB=%v alpha=%v beta=%v:\n got %v\nwant %v",
								m, n, k, ta, tb, ab[0], ab[1], c.Data, want.Data)
						}
					}
				}
			}
		}
	}
}

// TestGemmBiasIsBroadcastThenGemm: GemmBias gives the bits of filling
// every row of c with the bias and running the reference with alpha =
// beta = 1, on every kernel's shapes (tiles, leftover columns and rows,
// k ≤ 2) and on the workload products, with -0.0, ±Inf and NaN among the
// operands and c's old contents ignored.
func TestGemmBiasIsBroadcastThenGemm(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	check := func(name string, m, n, k int, ta, tb, special bool) {
		t.Helper()
		a, b, c := operands(r, m, n, k, ta, tb, special)
		_, bias, _ := operands(r, 1, n, 1, false, false, special)
		want := c.Clone()
		for i := range m {
			copy(want.Data[i*n:(i+1)*n], bias.Data)
		}
		Reference(ta, tb, 1, a, b, 1, want)
		c.Fill(math.NaN())
		GemmBias(ta, tb, a, b, bias.Data, c)
		if !Identical(c, want) {
			t.Fatalf("%s m=%d n=%d k=%d transA=%v transB=%v special=%v:\n got %v\nwant %v", name, m, n, k, ta, tb, special, c.Data, want.Data)
		}
	}
	for m := 1; m <= 9; m++ {
		for n := 1; n <= 9; n++ {
			for _, k := range []int{1, 2, 3, 5, 16} {
				for tr := range 4 {
					check("", m, n, k, tr&1 != 0, tr&2 != 0, r.IntN(3) == 0)
				}
			}
		}
	}
	for _, tc := range gemmCases {
		for _, sp := range []bool{false, true} {
			check(tc.name, tc.m, tc.n, tc.k, tc.ta, tc.tb, sp)
		}
	}
}

// TestGemmPackedShapesBitForBit runs aᵀ·b (and, for comparison, the other
// layouts) on products large enough for the packed kernel where there is
// no SSE2 kernel (wasm, 386): several bands of rows (k large), leftover
// rows and columns, k not a multiple of the unrolling, k at packK and just
// above it (the unpacked kernel), with beta = 0 and 1 and with -0.0, ±Inf
// and NaN among the operands.
func TestGemmPackedShapesBitForBit(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, s := range [][3]int{{16, 32, 3}, {17, 33, 5}, {35, 37, 64}, {64, 70, 255}, {18, 36, 256}, {20, 40, 257}, {130, 34, 33}} {
		m, n, k := s[0], s[1], s[2]
		for tr := range 4 {
			ta, tb := tr&1 != 0, tr&2 != 0
			for _, beta := range []float64{0, 1} {
				a, b, c := operands(r, m, n, k, ta, tb, beta == 1)
				want := c.Clone()
				Reference(ta, tb, 1, a, b, beta, want)
				Gemm(ta, tb, 1, a, b, beta, c)
				if !Identical(c, want) {
					t.Fatalf("m=%d n=%d k=%d transA=%v transB=%v beta=%v: Gemm differs from the reference", m, n, k, ta, tb, beta)
				}
			}
		}
	}
}
