package app

import (
	"errors"
	"math"

	"tapelab/engine/autograd"
	"tapelab/engine/op"
	"tapelab/engine/program"
	"tapelab/engine/tensor"
)

// GradCheck compares the gradient of every param and input of the program
// (the gradients of the sum of the output's entries, as backward seeds
// them) with central finite differences, as CheckGradients does for
// models. yield, when not nil, is called every few evaluations.
func (p *ProgramPlayground) GradCheck(yield func()) (GradCheck, error) {
	if p.prog == nil {
		return GradCheck{}, errors.New("no program recorded")
	}
	return CheckProgramGradients(p.prog, yield)
}

// CheckProgramGradients compares pr's one-shot gradients (program.Grad)
// with central finite differences of Σ seed⊙output over every entry of
// every leaf.
func CheckProgramGradients(pr *program.Program, yield func()) (GradCheck, error) {
	r, err := pr.Grad()
	if err != nil {
		return GradCheck{}, err
	}
	leaves := pr.Leaves()
	vals := make([]*tensor.Tensor, len(leaves))
	for i, l := range leaves {
		vals[i] = l.Value.Clone()
	}
	seed := pr.Seed()
	evals := 0
	var evalErr error
	f := func() float64 {
		s := autograd.NewSession()
		in := make([]op.Value, len(leaves))
		for i, l := range leaves {
			in[i] = s.Leaf(vals[i], l.Name, autograd.Input, false)
		}
		out := pr.Run(s, in)
		if err := s.Err(); err != nil {
			if evalErr == nil {
				evalErr = err
			}
			return math.NaN()
		}
		if evals++; yield != nil && evals%64 == 0 {
			yield()
		}
		v, sum := s.Tape().Node(int(out)).Value, 0.0
		for k, x := range v.Data {
			sum += seed.Data[k] * x
		}
		return sum
	}
	res := GradCheck{Index: -1}
	for i, l := range leaves {
		data := vals[i].Data
		orig := append([]float64(nil), data...)
		numeric := centralDifferences(func(x []float64) float64 { copy(data, x); return f() }, orig)
		copy(data, orig)
		if evalErr != nil {
			return res, evalErr
		}
		for k, num := range numeric {
			res.add(l.Name, k, r.Grads[i].Data[k], num)
		}
	}
	res.OK = res.Checked > 0 && res.Worst <= GradCheckTolerance
	return res, nil
}
