package program

import (
	"fmt"
	"math"
	"strings"

	"tapelab/engine/op"
	"tapelab/engine/tensor"
)

// attr is a keyword argument an op accepts: its name (the op.Attrs field in
// snake_case, as listings and the IR spell it), its kind, and its default
// (nil: required).
type attr struct {
	name string
	kind attrKind
	def  *float64
}

type attrKind uint8

const (
	attrFloat attrKind = iota // alpha, eps
	attrInt                   // axis, stride, padding, kernel
	attrUint                  // seed
	attrShape                 // shape: a list of sizes, [] for a scalar
)

func def(v float64) *float64 { return &v }

// opAttrs lists the attributes of every op that reads any (an op missing
// here takes none). Defaults follow PyTorch where it has one.
var opAttrs = map[string][]attr{
	"scale":           {{"alpha", attrFloat, nil}},
	"leaky_relu":      {{"alpha", attrFloat, def(0.01)}},
	"pow":             {{"alpha", attrFloat, nil}},
	"dropout":         {{"alpha", attrFloat, nil}, {"seed", attrUint, def(0)}},
	"reduce_sum":      {{"axis", attrInt, nil}},
	"reduce_mean":     {{"axis", attrInt, nil}},
	"reshape":         {{"shape", attrShape, nil}},
	"broadcast_to":    {{"shape", attrShape, nil}},
	"concat":          {{"axis", attrInt, def(0)}},
	"conv2d":          {{"stride", attrInt, def(1)}, {"padding", attrInt, def(0)}},
	"max_pool2d":      {{"kernel", attrInt, nil}, {"stride", attrInt, nil}}, // stride defaults to kernel
	"avg_pool2d":      {{"kernel", attrInt, nil}, {"stride", attrInt, nil}}, // stride defaults to kernel
	"batch_norm":      {{"eps", attrFloat, def(1e-5)}},
	"batch_norm_eval": {{"eps", attrFloat, def(1e-5)}},
	"layer_norm":      {{"eps", attrFloat, def(1e-5)}},
}

// maxElements bounds the size of every value a program makes, so that a
// shape attribute cannot ask for gigabytes.
const maxElements = 1 << 20

// attrsOf reads a call's keyword arguments into op.Attrs for op o.
func attrsOf(o *op.Op, c *Call) (op.Attrs, error) {
	var a op.Attrs
	specs := opAttrs[o.Name]
	given := map[string]bool{}
	for _, k := range c.Kwargs {
		var s *attr
		for i := range specs {
			if specs[i].name == k.Name {
				s = &specs[i]
			}
		}
		if s == nil {
			return a, errorf(k.Pos, "%s: unknown attribute %s (%s)", c.Fn, k.Name, takes(specs))
		}
		if err := setAttr(&a, *s, k, c.Fn); err != nil {
			return a, err
		}
		given[k.Name] = true
	}
	for _, s := range specs {
		if given[s.name] {
			continue
		}
		switch {
		case s.def != nil:
			setDefault(&a, s.name, *s.def)
		case (o.Name == "max_pool2d" || o.Name == "avg_pool2d") && s.name == "stride":
			a.Stride = a.Kernel
		default:
			return a, errorf(c.Pos, "%s: missing attribute %s= (%s)", c.Fn, s.name, takes(specs))
		}
	}
	return a, nil
}

// takes lists the attributes an op accepts, for error messages.
func takes(specs []attr) string {
	if len(specs) == 0 {
		return "it takes none"
	}
	var names []string
	for _, s := range specs {
		n := s.name
		if s.def != nil {
			n += "=" + formatNumber(*s.def)
		}
		names = append(names, n)
	}
	return "it takes " + strings.Join(names, ", ")
}

// setAttr checks a keyword value against its kind and stores it.
func setAttr(a *op.Attrs, s attr, k Kwarg, fn string) error {
	v := k.Value.Value
	bad := func(want string) error {
		return errorf(k.Value.Pos, "%s: attribute %s must be %s", fn, s.name, want)
	}
	if s.kind == attrShape {
		if len(v.Shape) != 1 {
			return bad("a list of sizes, e.g. [2, 3] ([] for a scalar)")
		}
		shape := make(tensor.Shape, len(v.Data))
		size := 1
		for i, d := range v.Data {
			if d != math.Trunc(d) || d < 1 || d > maxElements {
				return bad(fmt.Sprintf("a list of sizes ≥ 1; entry %d is %s", i, formatNumber(d)))
			}
			shape[i] = int(d)
			size *= shape[i]
			if size > maxElements {
				return bad(fmt.Sprintf("a shape of at most %d entries", maxElements))
			}
		}
		a.Shape = shape
		return nil
	}
	if len(v.Shape) != 0 {
		return bad("a number, not a list")
	}
	x := v.Data[0]
	switch s.kind {
	case attrFloat:
		setDefault(a, s.name, x)
	case attrInt:
		if x != math.Trunc(x) || math.Abs(x) > 1<<30 {
			return bad("an integer, got " + formatNumber(x))
		}
		setDefault(a, s.name, x)
	case attrUint:
		if x != math.Trunc(x) || x < 0 || x >= 1<<53 {
			return bad("an integer ≥ 0 (below 2⁵³), got " + formatNumber(x))
		}
		a.Seed = uint64(x)
	}
	return nil
}

// setDefault stores a number attribute by name.
func setDefault(a *op.Attrs, name string, x float64) {
	switch name {
	case "alpha":
		a.Alpha = x
	case "eps":
		a.Eps = x
	case "axis":
		a.Axis = int(x)
	case "stride":
		a.Stride = int(x)
	case "padding":
		a.Padding = int(x)
	case "kernel":
		a.Kernel = int(x)
	case "seed":
		a.Seed = uint64(x)
	}
}
