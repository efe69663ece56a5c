package op_test

import (
	"fmt"
	"math"
	"testing"

	"gonum.org/v1/gonum/diff/fd"

	"tapelab/engine/op"
	"tapelab/engine/tensor"
)

// Tolerances of the gradient checks.
//
// Central differences with gonum's default step h = 6e-6 err by about
// h²·|f”'|/6 + ε·|L|/h ≈ 1e-10 on these cases (|L| ≲ 50), so a VJP entry g
// passes when |g − fd| ≤ fdRel·max(|g|, |fd|) + fdAbs. The perturbation test
// below shows that this is tight enough to catch a 0.1% error in the largest
// entry of any contribution.
//
// The adjoint identity <jvp(t), d> = Σᵢ <tᵢ, vjpᵢ(d)> holds exactly in real
// arithmetic; in floating point both sides are sums of products, so they may
// differ by a few ulps of the sum of the absolute products (adjRel·scale).
const (
	fdRel  = 1e-6
	fdAbs  = 1e-7
	adjRel = 1e-10
)

// TestEveryOpHasAGradientCase fails when an op is added to the catalogue
// without a case in the table that drives the gradient checks.
func TestEveryOpHasAGradientCase(t *testing.T) {
	covered := map[string]bool{}
	for _, c := range cases {
		covered[c.op] = true
	}
	for _, o := range op.All() {
		if !covered[o.Name] {
			t.Errorf("op %q has no case in cases_test.go: its VJP is not checked against finite differences", o.Name)
		}
	}
}

// TestVJPMatchesFiniteDifferences checks, for every case and every operand
// that takes a gradient, the VJP of a random cotangent d against central
// finite differences (gonum's diff/fd) of L(x) = <d, f(x)>.
func TestVJPMatchesFiniteDifferences(t *testing.T) {
	for _, c := range cases {
		t.Run(c.String(), func(t *testing.T) {
			for seed := uint64(1); seed <= 3; seed++ {
				in := newInstance(t, c, seed)
				dy := in.random(in.y.Shape)
				dx := in.vjp(dy, nil)
				for i := range in.x {
					if !in.o.Grads(i) {
						continue
					}
					if msg := fdMismatch(in, i, dy, dx[i]); msg != "" {
						t.Errorf("seed %d: %s", seed, msg)
					}
				}
			}
		})
	}
}

// fdMismatch compares the contribution got for operand i with central finite
// differences of L(xᵢ) = <dy, f(x)>, returning the first entry outside the
// tolerance, or "".
func fdMismatch(in *instance, i int, dy, got *tensor.Tensor) string {
	xi := in.x[i]
	orig := append([]float64(nil), xi.Data...)
	y := tensor.Zeros(in.y.Shape)
	f := func(v []float64) float64 {
		copy(xi.Data, v)
		in.o.Forward(y, in.x, in.c.attrs)
		return dot(dy.Data, y.Data)
	}
	want := fd.Gradient(nil, f, orig, &fd.Settings{Formula: fd.Central})
	copy(xi.Data, orig)
	for k, w := range want {
		g := got.Data[k]
		if !(math.Abs(g-w) <= fdRel*math.Max(math.Abs(g), math.Abs(w))+fdAbs) {
			return fmt.Sprintf("d%s[%d] = %.12g, finite differences give %.12g", in.o.Operands[min(i, len(in.o.Operands)-1)].Name, k, g, w)
		}
	}
	return ""
}

// TestJVPIsAdjointOfVJP checks <jvp(t), d> = Σᵢ <tᵢ, vjpᵢ(d)> for random
// tangents t and cotangents d, with every differentiable operand's tangent
// set, and with one at a time (the others nil, which JVPs read as zero).
func TestJVPIsAdjointOfVJP(t *testing.T) {
	for _, c := range cases {
		if o, _ := op.Lookup(c.op); o == nil || o.JVP == nil {
			continue // JVPs are optional (detach has none)
		}
		t.Run(c.String(), func(t *testing.T) {
			in := newInstance(t, c, 11)
			masks := [][]bool{nil}
			for i := range in.x {
				if in.o.Grads(i) && len(in.x) > 1 {
					masks = append(masks, only(len(in.x), i))
				}
			}
			for _, m := range masks {
				if msg := adjointMismatch(in, m); msg != "" {
					t.Errorf("tangents %v: %s", m, msg)
				}
			}
		})
	}
}

// adjointMismatch checks the adjoint identity with tangents on the operands
// selected by want (nil = all that take gradients).
func adjointMismatch(in *instance, want []bool) string {
	tx := make([]*tensor.Tensor, len(in.x))
	for i, x := range in.x {
		if in.o.Grads(i) && (want == nil || want[i]) {
			tx[i] = in.random(x.Shape)
		}
	}
	ty := tensor.Zeros(in.y.Shape)
	ty.Fill(math.NaN()) // the JVP must overwrite every entry
	in.o.JVP(ty, tx, in.y, in.x, in.c.attrs)
	d := in.random(in.y.Shape)
	lhs, scale := 0.0, 0.0
	for k, v := range ty.Data {
		lhs += v * d.Data[k]
		scale += math.Abs(v * d.Data[k])
	}
	v := in.vjp(d, want)
	rhs := 0.0
	for i, t := range tx {
		if t == nil {
			continue
		}
		for k, a := range t.Data {
			rhs += a * v[i].Data[k]
			scale += math.Abs(a * v[i].Data[k])
		}
	}
	if !(math.Abs(lhs-rhs) <= adjRel*scale) {
		return fmt.Sprintf("<jvp(t), d> = %.17g but <t, vjp(d)> = %.17g", lhs, rhs)
	}
	return ""
}

// TestVJPContributionsAreIndependent checks that asking for one operand's
// contribution (the others nil, as the tape does for operands that need no
// gradient) gives exactly what asking for all of them gives.
func TestVJPContributionsAreIndependent(t *testing.T) {
	for _, c := range cases {
		if len(c.shapes) < 2 {
			continue
		}
		t.Run(c.String(), func(t *testing.T) {
			in := newInstance(t, c, 5)
			dy := in.random(in.y.Shape)
			all := in.vjp(dy, nil)
			for i := range in.x {
				if !in.o.Grads(i) {
					continue
				}
				one := in.vjp(dy, only(len(in.x), i))
				if !tensor.Identical(one[i], all[i]) {
					t.Errorf("operand %d alone: %v, with the others: %v", i, one[i], all[i])
				}
			}
		})
	}
}

// TestGradientChecksCatchPerturbedVJP perturbs, for every case and every
// differentiable operand, the largest entry of the VJP contribution by 0.1%
// and requires the finite-difference check to fail; it perturbs each JVP
// output the same way and requires the adjoint check to fail. A case whose
// gradient is zero everywhere (so that no perturbation could be seen) fails.
func TestGradientChecksCatchPerturbedVJP(t *testing.T) {
	for _, c := range cases {
		t.Run(c.String(), func(t *testing.T) {
			in := newInstance(t, c, 2)
			orig := in.o
			for i := range in.x {
				if !orig.Grads(i) {
					continue
				}
				bad := *orig
				bad.VJP = func(dx []*tensor.Tensor, dy, y *tensor.Tensor, x []*tensor.Tensor, a op.Attrs) {
					orig.VJP(dx, dy, y, x, a)
					if dx[i] != nil {
						perturbLargest(dx[i])
					}
				}
				in.o = &bad
				dy := in.random(in.y.Shape)
				dx := in.vjp(dy, nil)
				if fdMismatch(in, i, dy, dx[i]) == "" {
					t.Errorf("a 0.1%% error in the VJP contribution for operand %d went unnoticed: %v", i, dx[i])
				}
				in.o = orig
			}
			if orig.JVP == nil {
				return
			}
			bad := *orig
			bad.JVP = func(dy *tensor.Tensor, dx []*tensor.Tensor, y *tensor.Tensor, x []*tensor.Tensor, a op.Attrs) {
				orig.JVP(dy, dx, y, x, a)
				perturbLargest(dy)
			}
			in.o = &bad
			if adjointMismatch(in, nil) == "" {
				t.Errorf("a 0.1%% error in the JVP went unnoticed")
			}
			in.o = orig
		})
	}
}

// perturbLargest multiplies the entry of t with the largest magnitude by 1.001.
func perturbLargest(t *tensor.Tensor) {
	k := 0
	for j, v := range t.Data {
		if math.Abs(v) > math.Abs(t.Data[k]) {
			k = j
		}
	}
	t.Data[k] *= 1.001
}

// TestKernelsDoNotAllocate checks that Forward, VJP and JVP of every op
// write into the buffers they are given without allocating.
func TestKernelsDoNotAllocate(t *testing.T) {
	for _, c := range cases {
		t.Run(c.String(), func(t *testing.T) {
			in := newInstance(t, c, 3)
			y := tensor.Zeros(in.y.Shape)
			dy := in.random(in.y.Shape)
			dx := in.vjp(dy, nil)
			tx := make([]*tensor.Tensor, len(in.x))
			for i, x := range in.x {
				if in.o.Grads(i) {
					tx[i] = in.random(x.Shape)
				}
			}
			if n := testing.AllocsPerRun(5, func() { in.o.Forward(y, in.x, c.attrs) }); n != 0 {
				t.Errorf("Forward allocates %v times", n)
			}
			if n := testing.AllocsPerRun(5, func() { in.o.VJP(dx, dy, in.y, in.x, c.attrs) }); n != 0 {
				t.Errorf("VJP allocates %v times", n)
			}
			if in.o.JVP != nil {
				if n := testing.AllocsPerRun(5, func() { in.o.JVP(y, tx, in.y, in.x, c.attrs) }); n != 0 {
					t.Errorf("JVP allocates %v times", n)
				}
			}
		})
	}
}
