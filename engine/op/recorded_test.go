package op_test

import (
	"errors"
	"fmt"
	"math"
	"testing"

	"tapelab/engine/autograd"
	"tapelab/engine/op"
	"tapelab/engine/tensor"
)

// notRecordable lists the catalogue ops whose VJP is not written as ops:
// RecordVJP refuses them with a *op.NotRecordable naming the op.
var notRecordable = map[string]bool{}

// TestEveryOpRecordsItsVJP holds the list above exact: every other op of
// the catalogue and every VJP op records its VJP.
func TestEveryOpRecordsItsVJP(t *testing.T) {
	for _, o := range append(op.All(), op.VJPOps()...) {
		if o.Recordable() == notRecordable[o.Name] {
			t.Errorf("%s: Recordable() = %v, the test's list says %v", o.Name, o.Recordable(), !notRecordable[o.Name])
		}
	}
	o := &op.Op{Name: "unwritten", Operands: []op.Operand{{Name: "X"}}}
	_, err := o.RecordVJP(&op.Adj{})
	var nr *op.NotRecordable
	if !errors.As(err, &nr) || nr.Op != "unwritten" || err.Error() != "unwritten: its VJP is not written as ops, so grad cannot differentiate through it" {
		t.Errorf("RecordVJP(unwritten) = %v", err)
	}
}

// recording is one case's VJP recorded on an eager session: the operands
// and the cotangent are leaves, the contributions are values.
type recording struct {
	s        *autograd.Session
	x        []op.Value
	dy       op.Value
	contribs []op.Value
}

// record puts in's operands and cotangent dy on a new session, applies the
// op and records its VJP.
func record(t *testing.T, in *instance, dy *tensor.Tensor) *recording {
	t.Helper()
	r := &recording{s: autograd.NewSession()}
	for i, x := range in.x {
		r.x = append(r.x, r.s.Leaf(x.Clone(), fmt.Sprint("x", i), autograd.Input, true))
	}
	r.dy = r.s.Leaf(dy.Clone(), "dy", autograd.Input, true)
	y := op.Call(r.s, in.o, in.c.attrs, r.x...)
	shapes := make([]tensor.Shape, len(in.x))
	want := make([]bool, len(in.x))
	for i, x := range in.x {
		shapes[i], want[i] = x.Shape, true
	}
	c, err := in.o.RecordVJP(&op.Adj{Ops: r.s, Attrs: in.c.attrs, DY: r.dy, Y: y, X: r.x, In: shapes, Out: in.y.Shape, Want: want})
	if err != nil {
		t.Fatal(err)
	}
	if err := r.s.Err(); err != nil {
		t.Fatal(err)
	}
	r.contribs = c
	return r
}

// relClose reports whether got equals want within tol relative to the
// larger of |want| and the largest entry of want.
func relClose(got, want []float64, tol float64) (int, bool) {
	scale := 0.0
	for _, v := range want {
		scale = max(scale, math.Abs(v))
	}
	for i := range want {
		if math.Abs(got[i]-want[i]) > tol*max(math.Abs(want[i]), scale) {
			return i, false
		}
	}
	return 0, true
}

// TestRecordedVJPEqualsVJP holds every op's recorded VJP (RecordVJP on an
// eager session) equal to its numeric VJP within 1e-12 relative, for
// random operands and cotangents of every case, and every zero
// contribution (NoValue) to a zero numeric one.
func TestRecordedVJPEqualsVJP(t *testing.T) {
	for _, c := range cases {
		if notRecordable[c.op] {
			continue
		}
		t.Run(c.String(), func(t *testing.T) {
			for seed := uint64(1); seed <= 5; seed++ {
				in := newInstance(t, c, seed)
				dy := in.random(in.y.Shape)
				want := in.vjp(dy, nil)
				r := record(t, in, dy)
				for i, w := range want {
					v := r.contribs[i]
					switch {
					case w == nil && v != op.NoValue:
						t.Errorf("seed %d: operand %d takes no gradient but the recorded VJP gives one", seed, i)
					case w == nil:
					case v == op.NoValue:
						for k, g := range w.Data {
							if g != 0 {
								t.Errorf("seed %d: operand %d: recorded zero, numeric [%d] = %v", seed, i, k, g)
								break
							}
						}
					default:
						got := r.s.Tape().Node(int(v)).Value
						if !got.Shape.Equal(w.Shape) {
							t.Fatalf("seed %d: operand %d: recorded shape %v, numeric %v", seed, i, got.Shape, w.Shape)
						}
						if k, ok := relClose(got.Data, w.Data, 1e-12); !ok {
							t.Errorf("seed %d: operand %d [%d]: recorded %v, numeric %v", seed, i, k, got.Data[k], w.Data[k])
						}
					}
				}
			}
		})
	}
}

// TestRecordedVJPSecondDerivative differentiates each recorded VJP again:
// for F(x, dy) = Σᵢ ⟨wᵢ, VJPᵢ(x, dy)⟩ with random wᵢ, the reverse pass
// through the recorded nodes must equal central finite differences of F
// computed with the numeric VJP, in every operand and in dy.
func TestRecordedVJPSecondDerivative(t *testing.T) {
	for _, c := range cases {
		if notRecordable[c.op] {
			continue
		}
		t.Run(c.String(), func(t *testing.T) {
			for seed := uint64(1); seed <= 3; seed++ {
				in := newInstance(t, c, seed)
				dy := in.random(in.y.Shape)
				r := record(t, in, dy)
				ws := make([]*tensor.Tensor, len(in.x))
				f := op.NoValue
				for i, v := range r.contribs {
					if v == op.NoValue {
						continue
					}
					ws[i] = in.random(in.x[i].Shape)
					term := op.Sum(r.s, op.Mul(r.s, v, r.s.Const(ws[i])))
					if f == op.NoValue {
						f = term
					} else {
						f = op.Add(r.s, f, term)
					}
				}
				if f == op.NoValue {
					continue // no contribution at all: nothing to differentiate
				}
				var g autograd.Grads
				if err := r.s.Backward(f, &g); err != nil {
					t.Fatal(err)
				}
				numeric := func(x []*tensor.Tensor, d *tensor.Tensor) float64 {
					y, err := in.o.Eval(x, c.attrs)
					if err != nil {
						t.Fatal(err)
					}
					k := &instance{c: in.c, o: in.o, x: x, y: y}
					s := 0.0
					for i, dx := range k.vjp(d, nil) {
						if ws[i] != nil {
							s += dot(ws[i].Data, dx.Data)
						}
					}
					return s
				}
				leaves := append(append([]*tensor.Tensor(nil), in.x...), dy)
				for li, leaf := range leaves {
					if li < len(in.x) && !in.o.Grads(li) {
						continue
					}
					got := g.Of(li)
					for k := range leaf.Data {
						const h = 1e-6
						at := func(delta float64) float64 {
							xs := make([]*tensor.Tensor, len(leaves))
							for m, l := range leaves {
								xs[m] = l.Clone()
							}
							xs[li].Data[k] += delta
							return numeric(xs[:len(in.x)], xs[len(in.x)])
						}
						fd := (at(h) - at(-h)) / (2 * h)
						var gv float64
						if got != nil {
							gv = got.Data[k]
						}
						if math.Abs(gv-fd) > 1e-5*max(1, math.Abs(fd)) {
							t.Errorf("seed %d: ∂F/∂leaf%d[%d]: reverse pass %v, finite differences %v", seed, li, k, gv, fd)
						}
					}
				}
			}
		})
	}
}
