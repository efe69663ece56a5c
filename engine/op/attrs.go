package op

import (
	"math"
	"strconv"
	"strings"
)

// String formats the attributes that are set (non-zero; -0.0 counts as
// set), as listings show them after the op's name: "{axis=1}",
// "{alpha=0.5 seed=7}"; it is empty when none is set.
func (a Attrs) String() string {
	var parts []string
	add := func(name, v string) { parts = append(parts, name+"="+v) }
	if a.Axis != 0 {
		add("axis", strconv.Itoa(a.Axis))
	}
	if math.Float64bits(a.Alpha) != 0 {
		add("alpha", strconv.FormatFloat(a.Alpha, 'g', -1, 64))
	}
	if a.Shape != nil {
		add("shape", a.Shape.String())
	}
	if a.Seed != 0 {
		add("seed", strconv.FormatUint(a.Seed, 10))
	}
	if a.Stride != 0 {
		add("stride", strconv.Itoa(a.Stride))
	}
	if a.Padding != 0 {
		add("padding", strconv.Itoa(a.Padding))
	}
	if a.Kernel != 0 {
		add("kernel", strconv.Itoa(a.Kernel))
	}
	if math.Float64bits(a.Eps) != 0 {
		add("eps", strconv.FormatFloat(a.Eps, 'g', -1, 64))
	}
	if len(parts) == 0 {
		return ""
	}
	return "{" + strings.Join(parts, " ") + "}"
}
