package nn

import (
	"testing"

	"tapelab/engine/tensor"
)

func TestStateDict(t *testing.T) {
	seq, err := NewSeq(tensor.Shape{2}, NewLinear(3), Tanh{}, NewLinear(1))
	if err != nil {
		t.Fatal(err)
	}
	m, err := NewModel(seq, MSE, 7, InitPyTorch)
	if err != nil {
		t.Fatal(err)
	}
	sd := m.StateDict()
	want := map[string]tensor.Shape{"0.weight": {3, 2}, "0.bias": {3}, "2.weight": {1, 3}, "2.bias": {1}}
	if len(sd) != len(want) {
		t.Fatalf("StateDict has %d entries, want %d: %v", len(sd), len(want), sd)
	}
	for name, shape := range want {
		p, ok := sd[name]
		if !ok {
			t.Fatalf("StateDict has no %q", name)
		}
		if !p.Shape.Equal(shape) {
			t.Errorf("%s has shape %v, want %v", name, p.Shape, shape)
		}
		if p != m.Params[m.Index(name)] {
			t.Errorf("StateDict()[%q] is not the model's own tensor", name)
		}
	}
	snap := m.StateDictCopy()
	m.Params[0].Data[0] += 1
	if snap["0.weight"].Data[0] == m.Params[0].Data[0] {
		t.Error("StateDictCopy changed with the model: it is not a copy")
	}
	if sd["0.weight"].Data[0] != m.Params[0].Data[0] {
		t.Error("StateDict did not see the model's change: it is a copy")
	}
}
