package nn_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"tapelab/engine/autograd"
	"tapelab/engine/nn"
	"tapelab/engine/nn/nntest"
	"tapelab/engine/op"
	"tapelab/engine/tensor"
)

// runLayer runs layer l alone, eagerly, on a batch of two examples of shape
// in with seeded parameters, and returns the output's example shape or the
// op catalogue's error. It is the oracle for the layers' shape rules: it
// does not consult OutShape except to size parameters.
func runLayer(l nn.Layer, in tensor.Shape, mode nn.Mode) (tensor.Shape, error) {
	s := autograd.NewSession()
	x := tensor.Zeros(append(tensor.Shape{2}, in...))
	for i := range x.Data {
		x.Data[i] = float64(i%7) - 3
	}
	xv := s.Input(x, "x")
	// Parameters are sized from Params, which needs an input OutShape
	// accepted; when it rejects, size them as for the nearest 1-D or 3-D
	// input so that the op itself decides.
	var ps []op.Value
	if _, err := l.OutShape(in); err == nil {
		for _, p := range l.Params(in) {
			ps = append(ps, s.Param(tensor.Zeros(p.Shape), p.Name))
		}
	} else {
		probe := tensor.Shape{in.Size()}
		if _, err := l.OutShape(probe); err != nil {
			probe = tensor.Shape{in[0], 8, 8}
		}
		for _, p := range l.Params(probe) {
			ps = append(ps, s.Param(tensor.Zeros(p.Shape), p.Name))
		}
	}
	y := l.Forward(s, xv, ps, mode, 1)
	if err := s.Err(); err != nil {
		return nil, err
	}
	return s.Tape().Node(int(y)).Value.Shape[1:].Clone(), nil
}

// TestSeqShapesAgreeWithOps is the Seq invariant: for random layers after
// random valid prefixes, NewSeq accepts exactly when the layer's forward
// program runs on that shape, the declared output shape is the one the ops
// produce, and a rejection is a *ShapeError naming both layers (index and
// type) and both shapes. TestSeqPropertyCatchesBrokenRules shows that
// breaking a shape rule makes it fail.
func TestSeqShapesAgreeWithOps(t *testing.T) {
	rejected, err := seqProperty(3000, nntest.Layer)
	if err != nil {
		t.Fatal(err)
	}
	for _, typ := range []string{"linear", "batch_norm", "conv2d", "max_pool2d", "avg_pool2d"} {
		if rejected[typ] == 0 {
			t.Errorf("no %s was ever rejected; the test does not exercise its shape rule", typ)
		}
	}
}

// seqProperty runs the Seq invariant on n random cases drawing layers from
// gen, returning how often each layer type was rejected, or the first
// violation.
func seqProperty(n int, gen func(*rand.Rand) nn.Layer) (map[string]int, error) {
	r := rand.New(rand.NewPCG(4, 4))
	rejected := map[string]int{}
	for i := 0; i < n; i++ {
		prefix, layers := nntest.Seq(r, 4)
		if r.IntN(3) == 0 { // also try image layers on image shapes
			prefix, layers = imagePrefix(r)
		}
		k := r.IntN(len(layers) + 1)
		pre, err := nn.NewSeq(prefix.Input(), layers[:k]...)
		if err != nil {
			return nil, err
		}
		in := pre.Output()
		l := gen(r)
		seq, err := nn.NewSeq(prefix.Input(), append(layers[:k:k], l)...)
		for _, mode := range []nn.Mode{nn.Train, nn.Eval} {
			got, opErr := runLayer(l, in, mode)
			if err == nil && opErr != nil {
				return nil, fmt.Errorf("NewSeq accepts %s on %v but its forward fails: %v", l.Type(), in, opErr)
			}
			if err != nil && opErr == nil {
				return nil, fmt.Errorf("NewSeq rejects %s on %v (%v) but its forward gives %v", l.Type(), in, err, got)
			}
			if err == nil && !got.Equal(seq.Output()) {
				return nil, fmt.Errorf("%s on %v: declared %v, ops give %v", l.Type(), in, seq.Output(), got)
			}
		}
		if err == nil {
			continue
		}
		var se *nn.ShapeError
		if !errors.As(err, &se) {
			return nil, fmt.Errorf("%s on %v: error %T %v, want *nn.ShapeError", l.Type(), in, err, err)
		}
		rejected[l.Type()]++
		msg := err.Error()
		want := []string{"layer " + strconv.Itoa(k) + " (" + l.Type() + ", expects ", se.Expects, in.String()}
		if k > 0 {
			want = append(want, "cannot follow layer "+strconv.Itoa(k-1)+" ("+layers[k-1].Type()+", gives "+in.String()+")")
		} else {
			want = append(want, "cannot take the model input "+in.String())
		}
		for _, w := range want {
			if !strings.Contains(msg, w) {
				return nil, fmt.Errorf("error %q does not contain %q", msg, w)
			}
		}
		if se.Layer != k || se.Prev != k-1 || !se.Got.Equal(in) || se.Expects == "" {
			return nil, fmt.Errorf("ShapeError fields %+v for layer %d on %v", se, k, in)
		}
	}
	return rejected, nil
}

// Deliberately broken shape rules, each wrapping a real layer.
type (
	convOffByOne  struct{ nn.Conv2D }
	poolTooSmall  struct{ nn.MaxPool2D }
	avgKeepsSize  struct{ nn.AvgPool2D }
	linearAnyRank struct{ nn.Linear }
	flattenWrong  struct{ nn.Flatten }
	bnAnyRank     struct{ nn.BatchNorm }
)

func (c convOffByOne) OutShape(in tensor.Shape) (tensor.Shape, error) {
	s, err := c.Conv2D.OutShape(in)
	if err == nil && c.Stride == 1 {
		s[1]++ // forgets the "+1" is already there
	}
	return s, err
}

func (m poolTooSmall) OutShape(in tensor.Shape) (tensor.Shape, error) {
	if len(in) == 3 && in[1] == m.KernelSize-1 {
		return tensor.Shape{in[0], 1, 1}, nil // accepts a window larger than the image
	}
	return m.MaxPool2D.OutShape(in)
}

func (m avgKeepsSize) OutShape(in tensor.Shape) (tensor.Shape, error) {
	if _, err := m.AvgPool2D.OutShape(in); err != nil {
		return nil, err
	}
	return in.Clone(), nil // forgets that the window shrinks the image
}

func (l linearAnyRank) OutShape(in tensor.Shape) (tensor.Shape, error) {
	return tensor.Shape{l.Out}, nil
}

func (l linearAnyRank) Params(in tensor.Shape) []nn.ParamSpec {
	return l.Linear.Params(tensor.Shape{in.Size()})
}

func (flattenWrong) OutShape(in tensor.Shape) (tensor.Shape, error) {
	return tensor.Shape{in[0]}, nil
}

func (b bnAnyRank) OutShape(in tensor.Shape) (tensor.Shape, error) {
	if _, err := b.BatchNorm.OutShape(tensor.Shape{in[0]}); err != nil {
		return nil, err
	}
	return in.Clone(), nil
}

func (b bnAnyRank) Params(in tensor.Shape) []nn.ParamSpec {
	return b.BatchNorm.Params(tensor.Shape{in[0]})
}

// wrapEvery returns a mutation that replaces every layer of type T by
// wrap(layer) and leaves the others alone.
func wrapEvery[T nn.Layer](wrap func(T) nn.Layer) func(nn.Layer) nn.Layer {
	return func(l nn.Layer) nn.Layer {
		if t, ok := l.(T); ok {
			return wrap(t)
		}
		return l
	}
}

// TestSeqPropertyCatchesBrokenRules runs the Seq property with one layer
// type's shape rule broken at a time: each run must report a violation.
func TestSeqPropertyCatchesBrokenRules(t *testing.T) {
	mutants := map[string]func(nn.Layer) nn.Layer{
		"conv2d output off by one":        wrapEvery(func(c nn.Conv2D) nn.Layer { return convOffByOne{c} }),
		"max_pool2d accepts small images": wrapEvery(func(m nn.MaxPool2D) nn.Layer { return poolTooSmall{m} }),
		"avg_pool2d keeps the image size": wrapEvery(func(m nn.AvgPool2D) nn.Layer { return avgKeepsSize{m} }),
		"linear accepts any rank":         wrapEvery(func(l nn.Linear) nn.Layer { return linearAnyRank{l} }),
		"flatten keeps one dimension":     wrapEvery(func(f nn.Flatten) nn.Layer { return flattenWrong{f} }),
		"batch_norm accepts any rank":     wrapEvery(func(b nn.BatchNorm) nn.Layer { return bnAnyRank{b} }),
	}
	for name, mutate := range mutants {
		t.Run(name, func(t *testing.T) {
			_, err := seqProperty(3000, func(r *rand.Rand) nn.Layer { return mutate(nntest.Layer(r)) })
			if err == nil {
				t.Fatal("the Seq property did not notice the broken shape rule")
			}
			t.Logf("caught: %v", err)
		})
	}
}

// imagePrefix returns a sequence of image layers on a [C H W] input.
func imagePrefix(r *rand.Rand) (*nn.Seq, []nn.Layer) {
	input := tensor.Shape{1 + r.IntN(2), 2 + r.IntN(7), 2 + r.IntN(7)}
	var layers []nn.Layer
	for len(layers) < r.IntN(4) {
		l := nntest.Layer(r)
		if _, err := nn.NewSeq(input, append(layers, l)...); err == nil {
			layers = append(layers, l)
		} else if r.IntN(10) == 0 {
			break
		}
	}
	seq, _ := nn.NewSeq(input, layers...)
	if seq == nil {
		seq, _ = nn.NewSeq(input)
		layers = nil
	}
	return seq, layers
}
