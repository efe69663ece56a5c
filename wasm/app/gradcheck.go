package app

import (
	"math"

	"gonum.org/v1/gonum/diff/fd"

	"tapelab/engine/autograd"
	"tapelab/engine/nn"
	"tapelab/engine/op"
	"tapelab/engine/tensor"
)

// GradCheckTolerance is the largest relative error the gradient check
// accepts between the tape's gradient and central finite differences.
const GradCheckTolerance = 1e-5

// gradCheckStep is the finite-difference step h.
const gradCheckStep = 1e-5

// centralDifferences returns the gradient of f at x by fd.Gradient with
// fd.Central and step gradCheckStep: element i is
// (−½·f(x−h·eᵢ) + ½·f(x+h·eᵢ)) / h. The evaluations run one after another
// on the caller's goroutine (Settings.Concurrent is false), as f changes
// the parameters it is handed in place; f must not keep its argument.
func centralDifferences(f func([]float64) float64, x []float64) []float64 {
	return fd.Gradient(nil, f, x, &fd.Settings{Formula: fd.Central, Step: gradCheckStep})
}

// gradCheckFloor is the smallest denominator of the relative error: central
// differences with step h carry rounding noise of about 1e-10 even where the
// true gradient is exactly 0 (a bias before batch norm), so an absolute
// difference below GradCheckTolerance·gradCheckFloor = 1e-7 always passes.
const gradCheckFloor = 1e-2

// GradCheck is the result of comparing every parameter gradient with
// central finite differences.
type GradCheck struct {
	// Worst is the largest relative error |g − fd| / max(|g| + |fd|, 0.01)
	// over every checked element, found in parameter Param, element Index.
	Worst    float64
	Param    string
	Index    int
	Analytic float64
	Numeric  float64
	// Checked counts the parameter elements compared.
	Checked int
	// OK reports Worst ≤ GradCheckTolerance.
	OK bool
}

// CheckGradients compares the gradient of the loss of one training step with
// respect to every trainable parameter, from the engine's one-shot backward
// pass, with central finite differences (f(p+h) − f(p−h)) / 2h computed by
// gonum's diff/fd (centralDifferences), which the engine's tests use too.
// m is not changed. yield, when not nil, is called
// every few loss evaluations (from inside the function being
// differentiated) so that a page can stay responsive.
func CheckGradients(m *nn.Model, b Batch, modes Modes, seed uint64, yield func()) (GradCheck, error) {
	m = m.Clone()
	modes.Compiled = false
	r, err := Record(m, b, modes, seed)
	if err != nil {
		return GradCheck{}, err
	}
	var g autograd.Grads
	if err := r.Tape.BackwardDense(r.Loss, tensor.Scalar(1), &g); err != nil {
		return GradCheck{}, err
	}
	ps := m.Seq.Params()
	analytic := make([][]float64, len(ps))
	for i, p := range ps {
		if gi := g.Of(r.ParamNodes[i]); gi != nil && !p.Buffer {
			analytic[i] = append([]float64(nil), gi.Data...)
		}
	}
	loss := func() (float64, error) {
		s := autograd.NewSession()
		var mk marks
		in := []op.Value{s.Input(b.X, "x"), s.Input(b.Y, "y")}
		for i, p := range ps {
			in = append(in, s.Leaf(m.Params[i], p.Name, autograd.Param, !p.Buffer))
		}
		out := stepProgram(m, modes, seed, &mk)(s, in)
		if err := s.Err(); err != nil {
			return 0, err
		}
		return s.Tape().Node(int(out)).Value.Data[0], nil
	}
	res := GradCheck{Index: -1}
	evals := 0
	var lossErr error
	for i, p := range ps {
		if p.Buffer {
			continue
		}
		data := m.Params[i].Data
		orig := append([]float64(nil), data...)
		// f is the loss as a function of this parameter's elements;
		// fd.Gradient calls it at each element moved by ±h.
		f := func(x []float64) float64 {
			copy(data, x)
			l, err := loss()
			if err != nil && lossErr == nil {
				lossErr = err
			}
			if evals++; yield != nil && evals%64 == 0 {
				yield()
			}
			return l
		}
		numeric := centralDifferences(f, orig)
		copy(data, orig)
		if lossErr != nil {
			return res, lossErr
		}
		for k, num := range numeric {
			an := 0.0
			if analytic[i] != nil {
				an = analytic[i][k]
			}
			res.add(p.Name, k, an, num)
		}
	}
	res.OK = res.Checked > 0 && res.Worst <= GradCheckTolerance
	return res, nil
}

// add compares one element's gradient an with its finite difference num
// and keeps the worst relative error.
func (res *GradCheck) add(name string, k int, an, num float64) {
	rel := math.Abs(an-num) / math.Max(math.Abs(an)+math.Abs(num), gradCheckFloor)
	if math.IsNaN(rel) {
		rel = math.Inf(1)
	}
	if res.Index < 0 || rel > res.Worst {
		res.Worst, res.Param, res.Index, res.Analytic, res.Numeric = rel, name, k, an, num
	}
	res.Checked++
}
