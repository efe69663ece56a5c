package nn_test

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"tapelab/engine/nn"
	"tapelab/engine/nn/nntest"
	"tapelab/engine/tensor"
)

// TestRegistryEntriesAreComplete fails when a layer type is registered
// without everything the spec, the export, the editor and nntest read.
func TestRegistryEntriesAreComplete(t *testing.T) {
	seen := map[string]bool{}
	for _, lt := range nn.LayerTypes() {
		switch {
		case lt.Name == "" || seen[lt.Name]:
			t.Errorf("layer type %q: empty or repeated name", lt.Name)
		case lt.New == nil || lt.Values == nil || lt.Fields == nil:
			t.Errorf("%s: New, Values or Fields is not set", lt.Name)
			continue
		case !strings.HasPrefix(lt.PyTorch.Module, "nn.") || !strings.HasSuffix(lt.PyTorch.Module, ")"):
			t.Errorf("%s: PyTorch module %q is not an nn.Module constructor call", lt.Name, lt.PyTorch.Module)
		}
		seen[lt.Name] = true
		if got, ok := nn.LookupType(lt.Name); !ok || got != lt {
			t.Errorf("%s: LookupType does not find it", lt.Name)
		}
		for i, f := range lt.Fields {
			if f.Name == "" || f.Name == "type" || lt.Field(f.Name) != i {
				t.Errorf("%s: field %d has an empty, reserved or repeated name %q", lt.Name, i, f.Name)
			}
			if f.DefaultFrom != "" && !(lt.Field(f.DefaultFrom) >= 0 && lt.Field(f.DefaultFrom) < i) {
				t.Errorf("%s.%s: default from %q, which is not an earlier field", lt.Name, f.Name, f.DefaultFrom)
			}
			if !f.Valid(lt.Defaults()[i]) {
				t.Errorf("%s.%s: default %v is not valid (%s)", lt.Name, f.Name, lt.Defaults()[i], f.Want())
			}
		}
		l := lt.New(lt.Defaults())
		if l.Type() != lt.Name {
			t.Errorf("%s: New gives a layer of type %q", lt.Name, l.Type())
		}
		if v, ok := lt.Values(l); !ok || !slices.Equal(v, lt.Defaults()) {
			t.Errorf("%s: Values(New(defaults)) = %v, %v; want %v", lt.Name, v, ok, lt.Defaults())
		}
		if !slices.ContainsFunc([]tensor.Shape{{4}, {2, 6, 6}}, func(in tensor.Shape) bool { _, err := l.OutShape(in); return err == nil }) {
			t.Errorf("%s: with its defaults it takes neither [4] nor [2 6 6]", lt.Name)
		}
	}
	if len(seen) == 0 {
		t.Fatal("the registry is empty")
	}
}

// TestValuesRoundTrip checks New and Values against each other on random
// layers, and that Values refuses a layer of another type.
func TestValuesRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 500 {
		l := nntest.Layer(r)
		lt, ok := nn.LookupType(l.Type())
		if !ok {
			t.Fatalf("nntest drew %T, which is not registered", l)
		}
		v, ok := lt.Values(l)
		if !ok || lt.New(v) != l {
			t.Errorf("%#v: Values gives %v (%v), New of it %#v", l, v, ok, lt.New(v))
		}
		for _, other := range nn.LayerTypes() {
			if _, ok := other.Values(l); ok != (other == lt) {
				t.Errorf("%s.Values accepts a %s layer: %v", other.Name, lt.Name, ok)
			}
		}
	}
}

// TestFieldChecks pins the messages that settings out of range give,
// through NewSeq as documents see them.
func TestFieldChecks(t *testing.T) {
	inf := math.Inf(1)
	tests := []struct {
		l    nn.Layer
		in   tensor.Shape
		want string
	}{
		{nn.Linear{Out: 0}, tensor.Shape{2}, "layer 0 (linear): out: must be ≥ 1"},
		{nn.LeakyReLU{NegativeSlope: math.NaN()}, tensor.Shape{2}, "layer 0 (leaky_relu): negative_slope: must be a finite number"},
		{nn.Dropout{P: 1}, tensor.Shape{2}, "layer 0 (dropout): p: must be in [0, 1)"},
		{nn.BatchNorm{Eps: 0, Momentum: 0.1}, tensor.Shape{2}, "layer 0 (batch_norm): eps: must be a finite number > 0"},
		{nn.BatchNorm{Eps: inf, Momentum: 0.1}, tensor.Shape{2}, "layer 0 (batch_norm): eps: must be a finite number > 0"},
		{nn.BatchNorm{Eps: 1, Momentum: -0.5}, tensor.Shape{2}, "layer 0 (batch_norm): momentum: must be in [0, 1]"},
		{nn.Conv2D{OutChannels: 1, KernelSize: 1, Stride: 1, Padding: -1}, tensor.Shape{1, 3, 3}, "layer 0 (conv2d): padding: must be ≥ 0"},
		{nn.MaxPool2D{KernelSize: 2, Stride: 0}, tensor.Shape{1, 3, 3}, "layer 0 (max_pool2d): stride: must be ≥ 1"},
		{nn.AvgPool2D{KernelSize: 0, Stride: 1}, tensor.Shape{1, 3, 3}, "layer 0 (avg_pool2d): kernel_size: must be ≥ 1"},
	}
	for _, tc := range tests {
		_, err := nn.NewSeq(tc.in, tc.l)
		if err == nil || err.Error() != tc.want {
			t.Errorf("%#v: %v, want %q", tc.l, err, tc.want)
		}
	}
}
