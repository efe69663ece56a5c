package app

import (
	"slices"
	"testing"

	"tapelab/engine/nn"
	"tapelab/engine/tensor"
)

// TestLayerMenu checks the editor's menu against the registry: every type
// it offers makes a layer with its defaults that fits the editor's 1-D
// examples, and the image layers are left out.
func TestLayerMenu(t *testing.T) {
	menu := LayerTypes(DefaultDoc().Input)
	if len(menu) == 0 || menu[0] != "linear" {
		t.Fatalf("menu %v does not start with linear", menu)
	}
	for _, typ := range []string{"conv2d", "max_pool2d", "avg_pool2d", "flatten"} {
		if slices.Contains(menu, typ) {
			t.Errorf("the menu offers %s", typ)
		}
	}
	for _, typ := range menu {
		l, err := NewLayer(typ)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := nn.NewSeq(DefaultDoc().Input, l); err != nil {
			t.Errorf("%s with its defaults does not take [2]: %v", typ, err)
		}
	}
	if got := LayerTypes(tensor.Shape{3, 8}); !slices.Equal(got, menu) {
		t.Errorf("menu for [3 8] is %v, want the 1-D menu %v", got, menu)
	}
	if l, _ := NewLayer("linear"); l != nn.NewLinear(4) {
		t.Errorf("a new linear is %#v, want 4 features with a bias", l)
	}
	if _, err := NewLayer("lstm"); err == nil || err.Error() != `unknown layer type "lstm"` {
		t.Errorf("NewLayer(lstm): %v", err)
	}
}

// TestFieldsAndSetField edits every setting of every menu type through its
// text, as the editor's inputs do, and checks the errors on bad text.
func TestFieldsAndSetField(t *testing.T) {
	if got := Fields(nn.NewLinear(3)); !slices.Equal(got, []Field{{"out", "int", "3"}, {"bias", "bool", "true"}}) {
		t.Errorf("linear fields %v", got)
	}
	if got := Fields(nn.NewBatchNorm()); !slices.Equal(got, []Field{{"eps", "float", "1e-05"}, {"momentum", "float", "0.1"}}) {
		t.Errorf("batch_norm fields %v", got)
	}
	if got := Fields(nn.ReLU{}); len(got) != 0 {
		t.Errorf("relu fields %v", got)
	}
	for _, typ := range LayerTypes(DefaultDoc().Input) {
		l, _ := NewLayer(typ)
		for _, f := range Fields(l) {
			text := map[string]string{"int": "7", "float": "0.25", "bool": "false"}[f.Kind]
			nl, err := SetField(l, f.Name, text)
			if err != nil {
				t.Fatalf("%s.%s = %s: %v", typ, f.Name, text, err)
			}
			for _, g := range Fields(nl) {
				if want := map[bool]string{true: text, false: fieldValue(Fields(l), g.Name)}[g.Name == f.Name]; g.Value != want {
					t.Errorf("after %s.%s = %s: %s = %s, want %s", typ, f.Name, text, g.Name, g.Value, want)
				}
			}
		}
	}
	bad := []struct {
		l                 nn.Layer
		name, value, want string
	}{
		{nn.NewLinear(4), "out", "four", `out: "four" is not a whole number`},
		{nn.NewLinear(4), "bias", "yes", `bias: "yes" is not true or false`},
		{nn.NewDropout(), "p", "half", `p: "half" is not a number`},
		{nn.ReLU{}, "p", "0.5", `relu has no setting "p"`},
	}
	for _, tc := range bad {
		if _, err := SetField(tc.l, tc.name, tc.value); err == nil || err.Error() != tc.want {
			t.Errorf("SetField(%s, %s, %q): %v, want %q", tc.l.Type(), tc.name, tc.value, err, tc.want)
		}
	}
}

func fieldValue(fs []Field, name string) string {
	for _, f := range fs {
		if f.Name == name {
			return f.Value
		}
	}
	return ""
}

// TestEveryMenuLayerInThePlayground inserts each menu type before the
// output layer of the default model, as the editor's add button does, and checks
// that the playground records a step whose gradients pass the page's check.
//
// Each goes before the last layer and right after the first linear: a
// batch norm there leaves that linear's bias a gradient of exactly 0, which
// finite differences only approach to about 1e-10.
func TestEveryMenuLayerInThePlayground(t *testing.T) {
	for _, typ := range LayerTypes(DefaultDoc().Input) {
		for _, at := range []int{1, len(DefaultDoc().Layers) - 1} {
			p := newTestPlayground(t, Modes{})
			l, _ := NewLayer(typ)
			if err := p.Edit(p.Doc().Insert(at, l)); err != nil {
				t.Errorf("%s at %d: %v", typ, at, err)
				continue
			}
			g, err := p.GradCheck(nil)
			if err != nil || !g.OK {
				t.Errorf("%s at %d: gradient check %+v, %v", typ, at, g, err)
			}
		}
	}
}

// TestImageLayerMenu checks the menu for images ([1 8 8]): it adds conv2d,
// max_pool2d, avg_pool2d and flatten to the 1-D menu, and each image layer with its
// defaults fits an 8×8 image.
func TestImageLayerMenu(t *testing.T) {
	img := tensor.Shape{1, 8, 8}
	menu := LayerTypes(img)
	flat := LayerTypes(tensor.Shape{64})
	for _, typ := range []string{"conv2d", "max_pool2d", "avg_pool2d", "flatten"} {
		if !slices.Contains(menu, typ) {
			t.Errorf("the image menu %v lacks %s", menu, typ)
		}
		l, err := NewLayer(typ)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := nn.NewSeq(img, l); err != nil {
			t.Errorf("%s with its defaults does not take [1 8 8]: %v", typ, err)
		}
	}
	for _, typ := range flat {
		if !slices.Contains(menu, typ) {
			t.Errorf("the image menu %v lacks the 1-D type %s", menu, typ)
		}
	}
	if len(menu) != len(flat)+4 {
		t.Errorf("image menu %v, want the 1-D menu and 4 image types", menu)
	}
}
