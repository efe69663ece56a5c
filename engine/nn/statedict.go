package nn

import "tapelab/engine/tensor"

// StateDict returns the model's parameters and buffers by their state_dict
// names (PyTorch's "0.weight", "1.running_mean", ...). The tensors are the
// model's own, not copies: changing one changes the model. Use
// StateDictCopy for a snapshot.
func (m *Model) StateDict() map[string]*tensor.Tensor {
	ps := m.Seq.Params()
	out := make(map[string]*tensor.Tensor, len(ps))
	for i, p := range ps {
		out[p.Name] = m.Params[i]
	}
	return out
}

// StateDictCopy returns copies of the model's parameters and buffers by
// their state_dict names: a snapshot that later training does not change.
func (m *Model) StateDictCopy() map[string]*tensor.Tensor {
	out := m.StateDict()
	for k, t := range out {
		out[k] = t.Clone()
	}
	return out
}
