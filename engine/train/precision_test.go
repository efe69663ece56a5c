package train_test

import (
	"math"
	"testing"

	"tapelab/engine/tensor"
)

// TestFloat32Training trains the same model in float64 and in float32:
// in float32 every parameter and buffer is a float32 number after each
// step (rounded on SetPrecision and after each update; batch norm's running
// statistics too), the losses are float32 numbers that differ from
// float64's but stay within float32's reach of them, and evaluation runs in
// float32 too.
func TestFloat32Training(t *testing.T) {
	doc := `{"version":1,"input":[2],"layers":[{"type":"linear","out":8},{"type":"batch_norm"},{"type":"tanh"},{"type":"linear","out":3}],
		"loss":"cross_entropy","seed":5,"dataset":{"name":"spiral"},"optimizer":{"name":"adam","lr":0.01}}`
	t64, _, test := fromSpec(t, doc)
	t32, _, _ := fromSpec(t, doc)
	t32.SetPrecision(tensor.Float32)
	if t32.Precision() != tensor.Float32 || t64.Precision() != tensor.Float64 {
		t.Fatalf("precisions %v and %v", t64.Precision(), t32.Precision())
	}
	onGrid := func(what string) {
		for i, q := range t32.Model().Params {
			for _, v := range q.Data {
				if tensor.Round32(v) != v {
					t.Fatalf("%s: parameter %d holds %v, not a float32", what, i, v)
				}
			}
		}
	}
	onGrid("after SetPrecision")
	differ := 0
	for step := 1; step <= 30; step++ {
		l64, err := t64.Step()
		if err != nil {
			t.Fatal(err)
		}
		l32, err := t32.Step()
		if err != nil {
			t.Fatal(err)
		}
		onGrid("after a step")
		if tensor.Round32(l32) != l32 {
			t.Fatalf("step %d: float32 loss %v is not a float32", step, l32)
		}
		if l32 != l64 {
			differ++
		}
		if math.Abs(l32-l64) > 1e-3*math.Abs(l64) {
			t.Errorf("step %d: float32 loss %v, float64 %v: further apart than float32 explains", step, l32, l64)
		}
	}
	if differ == 0 {
		t.Error("float32 training gave float64's losses")
	}
	mt, err := t32.Evaluate(test)
	if err != nil {
		t.Fatal(err)
	}
	if tensor.Round32(mt.Loss) != mt.Loss {
		t.Errorf("the float32 evaluation's loss %v is not a float32", mt.Loss)
	}
}
