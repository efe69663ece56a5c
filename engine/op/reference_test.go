package op_test

import (
	"math"
	"testing"

	"tapelab/engine/op"
	"tapelab/engine/tensor"
)

// refTol bounds |got − want| / max(1, |want|) against the PyTorch numbers:
// both sides are float64, but PyTorch sums in its own order.
const refTol = 1e-14

// TestAgreesWithPyTorch compares values and gradients with numbers computed
// independently by PyTorch 1.13.1 (Debian's python3-torch) in float64:
// torch.nn.functional.{cross_entropy, binary_cross_entropy_with_logits,
// gelu, batch_norm, layer_norm, conv2d, max_pool2d} on the inputs below, then
// y.backward(d) with the cotangent d given here, and every value printed
// with repr (which round-trips float64). The script is
// testdata/pytorch_reference.py; its outputs were pasted unchanged.
func TestAgreesWithPyTorch(t *testing.T) {
	m := tensor.Matrix
	v := tensor.Vector
	s := func(t *tensor.Tensor, shape ...int) *tensor.Tensor {
		t.Shape = tensor.Shape(shape)
		return t
	}
	xConv, wConv, dConv := convInputs()
	tests := []struct {
		name  string
		op    string
		attrs op.Attrs
		x     []*tensor.Tensor
		d     *tensor.Tensor // cotangent of the output
		y     []float64      // want forward value (flattened)
		dx    [][]float64    // want contribution per operand (nil: none)
	}{
		{
			name: "cross_entropy", op: "cross_entropy", // F.cross_entropy(z, c)
			x: []*tensor.Tensor{m([][]float64{{1, 2, 0.5}, {-1, 0, 3}, {0.25, -0.5, 0.75}}), v(1, 2, 0)},
			d: tensor.Scalar(1),
			y: []float64{0.5561447634259529},
			dx: [][]float64{{0.07707463254071634, -0.12382276026274586, 0.04674812772202949,
				0.005715941848506796, 0.01553754085932463, -0.021253482707831412,
				-0.22653296365779566, 0.05044892245509973, 0.17608404120269588}, nil},
		},
		{
			name: "bce_with_logits", op: "bce_with_logits", // F.binary_cross_entropy_with_logits(z, t)
			x: []*tensor.Tensor{m([][]float64{{0.5, -1.5}, {2, -0.25}}), m([][]float64{{1, 0}, {0.3, 1}})},
			d: tensor.Scalar(1),
			y: []float64{0.7570894232711689},
			dx: [][]float64{
				{-0.09438516719953635, 0.04560638095158909, 0.1451992694944706, -0.14054412522144952},
				{-0.125, 0.375, -0.5, 0.0625}},
		},
		{
			name: "gelu", op: "gelu", // F.gelu(x) (approximate="none")
			x: []*tensor.Tensor{v(-3, -1, -0.5, 0, 0.5, 1, 2.5)},
			d: v(1, -2, 0.5, 1, 3, -1, 0.25),
			y: []float64{-0.00404969409489031, -0.15865525393145702, -0.15426876936299344, 0,
				0.34573123063700656, 0.841344746068543, 2.4844758366855597},
			dx: [][]float64{{-0.01194564720418392, 0.1666309411753727, 0.06625243767191856, 0.5,
				2.602485373968489, -1.0833154705876864, 0.2594027714770363}},
		},
		{
			name: "batch_norm train", op: "batch_norm", attrs: op.Attrs{Eps: 1e-5}, // F.batch_norm(x, None, None, g, b, training=True, eps=1e-5)
			x: []*tensor.Tensor{m([][]float64{{1, 2}, {3, -1}, {0.5, 4}, {2, 0}}), v(1.5, -0.5), v(0.1, 0.2)},
			d: m([][]float64{{1, 0.5}, {-2, 1}, {0.25, -1}, {3, 2}}),
			y: []float64{-0.8764115365791558, 0.004716898319231055, 2.248105380474142, 0.785849305042307,
				-1.6575407658424803, -0.5160380394961529, 0.6858469219474932, 0.525471836134615},
			dx: [][]float64{
				{0.013246748876481824, -0.06178422833358944, -2.528756381170899, 0.18535268500076832,
					-1.6946401564016464, 0.07723154316914606, 4.2101497886960635, -0.2007999998363249},
				{-2.63631114876372, -3.7103789319346108},
				{2.25, 2.5}},
		},
		{
			name: "batch_norm eval", op: "batch_norm_eval", attrs: op.Attrs{Eps: 1e-5}, // F.batch_norm(x, rm, rv, g, b, training=False, eps=1e-5)
			x: []*tensor.Tensor{m([][]float64{{1, 2}, {3, -1}}), v(1.5, -0.5), v(0.1, 0.2), v(0.5, -0.25), v(2, 0.75)},
			d: m([][]float64{{1, 0.5}, {-2, 1}}),
			y: []float64{0.6303287600696678, -1.0990294455092218, 2.7516438003483388, 0.6330098151697405},
			dx: [][]float64{
				{1.0606575201393356, -0.2886732101131604, -2.121315040278671, -0.5773464202263208},
				{-3.1819725604180067, 0.4330098151697406},
				{-1, 1.5}, nil, nil},
		},
		{
			name: "layer_norm", op: "layer_norm", attrs: op.Attrs{Eps: 1e-5}, // F.layer_norm(x, (3,), g, b, eps=1e-5)
			x: []*tensor.Tensor{s(v(1, 2, 4, 3, -1, 0.5, 0.25, 0.25, -2, 5, 1, 2), 2, 2, 3), v(1.5, -0.5, 2), v(0.1, 0.2, -0.3)},
			d: s(v(1, 0.5, -1, -2, 1, 0.25, 3, 2, -0.5, 0.75, -1.5, 1), 2, 2, 3),
			y: []float64{-1.5035622971754468, 0.3336301914312873, 2.372603828625744, 2.0697938438914405, 0.7555828790463037,
				-0.7040602756700391, 1.1606554577660402, -0.15355181925534672, -3.1284145540427737, 2.1592158549265754,
				0.6902894892682322, -1.0844631828291715},
			dx: [][]float64{
				{0.20045301855830422, -0.300665997867553, 0.10021297930924877, -0.2875871130787985, -0.479303320420125,
					0.7668904334989235, 2.5927210232511952, -2.5927056591605573, -1.5364090637071115e-05, -0.1046579258244682,
					-0.3139738623309068, 0.41863178815537494},
				{-0.544514480310184, 1.6402797953021886, -1.071937401675519},
				{2.75, 2.0, -0.25}},
		},
		{
			name: "conv2d stride 2 padding 1", op: "conv2d", attrs: op.Attrs{Stride: 2, Padding: 1}, // F.conv2d(x, w, b, stride=2, padding=1)
			x: []*tensor.Tensor{xConv, wConv, v(0.5, -1, 0.25)},
			d: dConv,
			y: []float64{-1.125, 2.749999999999999, -0.6666666666666667, -0.3333333333333332, -0.75, 0.9166666666666672,
				0.12500000000000003, 0.7083333333333333, -0.33333333333333337, 0.1666666666666668, -0.5, -2.208333333333333,
				-2.5, 1.0416666666666665, 0.4166666666666664, 0.08333333333333334, 0.9166666666666665, -2.2083333333333335,
				3.6666666666666665, -1.541666666666667, -1.5416666666666665, -2.4583333333333335, 2.333333333333333,
				1.583333333333333, 1.1666666666666667, 1.7083333333333335, -0.7916666666666667},
			dx: [][]float64{
				{-0.27777777777777785, 1.2222222222222223, 0.1111111111111111, -2.2777777777777777, 0.11111111111111122,
					0.7222222222222222, -0.11111111111111105, -0.4444444444444445, -0.11111111111111116, 0.7222222222222223,
					0.11111111111111105, -2.277777777777778, 0.11111111111111117, 1.2222222222222223, -0.2777777777777778,
					-0.4444444444444444, 2.2222222222222223, -0.05555555555555569, -1.666666666666667, -0.05555555555555536,
					0.11111111111111112, -0.7222222222222223, -0.27777777777777785, 1.2222222222222223, 0.1111111111111111,
					2.5555555555555554, -0.5555555555555557, -0.888888888888889, 0.888888888888889, -0.05555555555555558,
					-2.055555555555556, 0.7222222222222223, 1.7222222222222223, 0.49999999999999994, -2.2777777777777777,
					-1.1666666666666665, 1.0555555555555556, -0.3333333333333335, -0.6111111111111112, 0.5,
					1.8888888888888888, 0.44444444444444453, -0.5555555555555555, -0.9444444444444446, -0.2777777777777777,
					-0.611111111111111, -0.05555555555555536, 2.5555555555555554, -0.5555555555555557, -0.888888888888889},
				{1.8333333333333335, -1.4166666666666667, -1.3333333333333335, 1.0, 2.333333333333333, -1.3333333333333333,
					-1.2500000000000002, 2.666666666666667, -0.9166666666666665, 2.0833333333333335, -1.1666666666666667, -1.25,
					2.8333333333333335, -2.916666666666667, -1.9166666666666667, -1.5, 2.75, -0.75, 0.5833333333333331,
					0.9166666666666667, -0.8333333333333335, 0.41666666666666674, -2.7499999999999996, 1.5833333333333335,
					-1.3333333333333335, 0.9166666666666665, 1.9166666666666667, 0.5833333333333333, 1.0833333333333335, -1.0,
					1.2499999999999998, 2.583333333333333, -0.5833333333333335, -1.25, 0.9166666666666665, 1.8333333333333335,
					-1.2500000000000002, 2.666666666666667, -0.9166666666666665, -0.7500000000000001, 0.3333333333333331, 1.0,
					-0.8333333333333335, -1.4166666666666667, 1.8333333333333335, -1.5, 2.75, -0.75, -0.9166666666666669, 4.0,
					-1.5833333333333335, -1.0, -1.5, 2.0833333333333335},
				{-1.0000000000000002, 0.6666666666666664, -1.1102230246251565e-16}},
		},
		{
			// Overlapping windows with ties: PyTorch routes each window's
			// cotangent to its first maximum in row-major order.
			name: "max_pool2d k2 s1 ties", op: "max_pool2d", attrs: op.Attrs{Kernel: 2, Stride: 1}, // F.max_pool2d(x, 2, 1)
			x:  []*tensor.Tensor{s(v(1, 3, 3, 0, 2, 3, -1, 5, 4, 4, 4, 4, 0, 1, 4, 2), 1, 1, 4, 4)},
			d:  s(v(1, 2, 4, 8, 16, 32, 64, 128, 256), 1, 1, 3, 3),
			y:  []float64{3, 3, 5, 4, 4, 5, 4, 4, 4},
			dx: [][]float64{{0, 3, 0, 0, 0, 0, 0, 36, 72, 144, 256, 0, 0, 0, 0, 0}},
		},
		{
			name: "max_pool2d k2 s2", op: "max_pool2d", attrs: op.Attrs{Kernel: 2, Stride: 2}, // F.max_pool2d(x, 2, 2)
			x:  []*tensor.Tensor{s(v(1, 3, -3, -2, 2, 0.5, -1, -5, 7, 7, 0, 1, 7, 6, 1, 1), 1, 2, 2, 4)},
			d:  s(v(1, 2, 3, 4), 1, 2, 1, 2),
			y:  []float64{3, -1, 7, 1},
			dx: [][]float64{{0, 1, 0, 0, 0, 0, 2, 0, 3, 0, 0, 4, 0, 0, 0, 0}},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			o, _ := op.Lookup(tc.op)
			y, err := o.Eval(tc.x, tc.attrs)
			if err != nil {
				t.Fatal(err)
			}
			expectClose(t, "Y", y.Data, tc.y)
			dx := make([]*tensor.Tensor, len(tc.x))
			for i, x := range tc.x {
				if o.Grads(i) {
					dx[i] = tensor.Zeros(x.Shape)
				}
			}
			o.VJP(dx, tc.d, y, tc.x, tc.attrs)
			for i, want := range tc.dx {
				if want == nil {
					if dx[i] != nil {
						t.Errorf("operand %d takes a gradient; PyTorch gives none", i)
					}
					continue
				}
				expectClose(t, "d"+o.Operands[i].Name, dx[i].Data, want)
			}
		})
	}
}

// convInputs rebuilds the conv2d inputs of the PyTorch script:
// x[i] = ((7i) mod 11)/4 − 1 for x [1 2 5 5], w[i] = ((5i) mod 13)/6 − 1
// for w [3 2 3 3], and the cotangent d[i] = ((3i) mod 7)/3 − 1 for y [1 3 3 3].
func convInputs() (x, w, d *tensor.Tensor) {
	gen := func(shape tensor.Shape, mul, mod int, div float64) *tensor.Tensor {
		t := tensor.Zeros(shape)
		for i := range t.Data {
			t.Data[i] = float64((i*mul)%mod)/div - 1
		}
		return t
	}
	return gen(tensor.Shape{1, 2, 5, 5}, 7, 11, 4), gen(tensor.Shape{3, 2, 3, 3}, 5, 13, 6), gen(tensor.Shape{1, 3, 3, 3}, 3, 7, 3)
}

func expectClose(t *testing.T, name string, got, want []float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s has %d values, want %d", name, len(got), len(want))
	}
	for i, w := range want {
		if !(math.Abs(got[i]-w) <= refTol*math.Max(1, math.Abs(w))) {
			t.Errorf("%s[%d] = %.17g, PyTorch gives %.17g", name, i, got[i], w)
		}
	}
}
