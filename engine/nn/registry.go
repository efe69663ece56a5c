package nn

import (
	"math"
	"strconv"
)

// The layer registry: every layer type is described here once, with its
// settings (kind, default, range), its constructor and its PyTorch
// counterpart. The model spec, the PyTorch export, the playground's editor
// and the random layers of nntest all read it; none keeps its own list.

// registry lists every layer type in the order documents, errors and the
// editor's menu show them; it is fixed at compile time and never modified.
var registry = []*LayerType{
	linearType, reluType, leakyReLUType, tanhType, sigmoidType, softmaxType, geluType,
	dropoutType, batchNormType, layerNormType, flattenType, conv2dType, maxPool2DType,
	avgPool2DType,
}

var typeByName = func() map[string]*LayerType {
	m := make(map[string]*LayerType, len(registry))
	for _, t := range registry {
		if m[t.Name] != nil {
			panic("nn: duplicate layer type " + t.Name)
		}
		m[t.Name] = t
	}
	return m
}()

// LayerTypes returns every layer type, in registry order. The slice is
// fresh; the types are shared and must not be modified.
func LayerTypes() []*LayerType { return append([]*LayerType(nil), registry...) }

// LookupType returns the layer type with the given name ("linear", …).
func LookupType(name string) (*LayerType, bool) {
	t, ok := typeByName[name]
	return t, ok
}

// LayerType is one entry of the registry. Name, Fields (empty for a layer
// without settings), New, Values and PyTorch.Module are always set; the
// registry's tests check it.
type LayerType struct {
	// Name is the type's stable name, as documents, links and Layer.Type
	// write it (PyTorch's name in snake case).
	Name string
	// Fields lists the settings in the order documents write them.
	Fields []Field
	// Editor marks the types the playground's editor offers for its
	// datasets' 1-D examples.
	Editor bool
	// Images marks the types the editor offers only for image examples
	// ([C H W]): those that need an image (conv2d, the pools) or turn one
	// into features (flatten). An image model offers these and the Editor
	// types.
	Images bool
	// New returns the layer with the given settings, one per Fields entry
	// (integers and booleans as float64, true = 1). It checks nothing:
	// OutShape reports settings out of range.
	New func(v []float64) Layer
	// Values returns the settings of l, one per Fields entry, or ok = false
	// when l is not this type's Go type.
	Values func(l Layer) (v []float64, ok bool)
	// PyTorch is the layer's torch.nn counterpart.
	PyTorch PyTorch
}

// PyTorch describes a layer type's torch.nn module, for engine/pytorch.
type PyTorch struct {
	// Module is the constructor call, with placeholders: {in} is the first
	// dimension of the layer's input example (features or channels),
	// {last} its last dimension, and {name} the setting of that name,
	// written as a Python literal. The module's state_dict keys are the
	// layer's parameter names.
	Module string
	// Extra lists state_dict entries the module has and the layer does not
	// (batch norm's num_batches_tracked), with the Python value to load.
	Extra []PyTorchEntry
}

// PyTorchEntry is one extra state_dict entry: the key's suffix after
// "<layer index>." and a Python expression for its value.
type PyTorchEntry struct{ Suffix, Value string }

// FieldKind is the kind of value a setting holds.
type FieldKind uint8

// The kinds of settings.
const (
	IntField FieldKind = iota
	FloatField
	BoolField
)

// String returns "int", "float" or "bool".
func (k FieldKind) String() string {
	switch k {
	case IntField:
		return "int"
	case FloatField:
		return "float"
	}
	return "bool"
}

// Field describes one setting of a layer type.
type Field struct {
	// Name is the setting's name in documents, e.g. "out" or "eps".
	Name string
	Kind FieldKind
	// Required settings must be given by a document; for them Default is
	// only the value a new layer starts with in the editor.
	Required bool
	// Default is the value of an absent setting (PyTorch's default; for a
	// bool, 1 is true and 0 false).
	Default float64
	// DefaultFrom, when not "", names an earlier field whose value is the
	// default instead of Default (max_pool2d's stride is its kernel size).
	DefaultFrom string
	// Range bounds a numeric setting; booleans ignore it.
	Range Range
}

// Range bounds a number: Lo ≤ v ≤ Hi, with an end excluded when LoOpen or
// HiOpen is set; an infinite end is no bound. A float setting must also be
// finite, whatever its range.
type Range struct {
	Lo, Hi         float64
	LoOpen, HiOpen bool
}

// atLeast is [lo, ∞).
func atLeast(lo float64) Range { return Range{Lo: lo, Hi: math.Inf(1)} }

// anyNumber is every finite number.
var anyNumber = Range{Lo: math.Inf(-1), Hi: math.Inf(1)}

// Contains reports whether v lies in the range (NaN never does).
func (r Range) Contains(v float64) bool {
	lo := v > r.Lo || v == r.Lo && !r.LoOpen
	hi := v < r.Hi || v == r.Hi && !r.HiOpen
	return lo && hi
}

// Valid reports whether v is a value the setting may hold: a whole number
// for an int, 0 or 1 for a bool, a finite number for a float, and within
// the range.
func (f *Field) Valid(v float64) bool {
	switch f.Kind {
	case BoolField:
		return v == 0 || v == 1
	case IntField:
		if v != math.Trunc(v) {
			return false
		}
	default:
		if !finite(v) {
			return false
		}
	}
	return f.Range.Contains(v)
}

// Want says what a valid value is, as errors put it: "must be ≥ 1",
// "must be in [0, 1)", "must be a finite number > 0", "must be a finite number".
func (f *Field) Want() string {
	if f.Kind == BoolField {
		return "must be true or false"
	}
	r := f.Range
	num := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	lo, hi := !math.IsInf(r.Lo, 0), !math.IsInf(r.Hi, 0)
	if lo && hi {
		return "must be in " + pick(r.LoOpen, "(", "[") + num(r.Lo) + ", " + num(r.Hi) + pick(r.HiOpen, ")", "]")
	}
	what := "must be a finite number"
	if f.Kind == IntField {
		what = "must be a whole number"
	}
	switch {
	case lo && f.Kind == IntField:
		return "must be" + pick(r.LoOpen, " > ", " ≥ ") + num(r.Lo)
	case lo:
		return what + pick(r.LoOpen, " > ", " ≥ ") + num(r.Lo)
	case hi:
		return what + pick(r.HiOpen, " < ", " ≤ ") + num(r.Hi)
	}
	return what
}

// pick returns yes when c holds, no otherwise.
func pick(c bool, yes, no string) string {
	if c {
		return yes
	}
	return no
}

// Field returns the index of the named setting, or -1.
func (t *LayerType) Field(name string) int {
	for i := range t.Fields {
		if t.Fields[i].Name == name {
			return i
		}
	}
	return -1
}

// DefaultValue returns the default of setting i given the earlier settings
// v[:i] (a DefaultFrom field takes the value of the field it names).
func (t *LayerType) DefaultValue(i int, v []float64) float64 {
	if from := t.Fields[i].DefaultFrom; from != "" {
		return v[t.Field(from)]
	}
	return t.Fields[i].Default
}

// Defaults returns every setting at its default (required ones at the
// editor's starting value).
func (t *LayerType) Defaults() []float64 {
	v := make([]float64, len(t.Fields))
	for i := range v {
		v[i] = t.DefaultValue(i, v)
	}
	return v
}

// Check reports the first setting in v that is not valid as a *FieldError
// naming it, e.g. "out: must be ≥ 1".
func (t *LayerType) Check(v []float64) error {
	for i := range t.Fields {
		if f := &t.Fields[i]; !f.Valid(v[i]) {
			return &FieldError{Field: f.Name, Msg: f.Want()}
		}
	}
	return nil
}

// check is Check on the settings of l, a layer of this type.
func (t *LayerType) check(l Layer) error {
	v, _ := t.Values(l)
	return t.Check(v)
}

// b2f is a bool setting as a number.
func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
