package app

import (
	"errors"
	"strconv"

	"tapelab/engine/nn"
	"tapelab/engine/tensor"
)

// Doc is the model the editor edits: the input example shape (from the
// dataset), the layers, the loss and the initialisation seed. A Doc is a
// value; edits return a new Doc and never change the old one.
type Doc struct {
	Input  tensor.Shape
	Layers []nn.Layer
	Loss   nn.Loss
	Seed   uint64
}

// DefaultDoc is the starting model: 2 → linear 4 → tanh → linear 1, MSE.
func DefaultDoc() Doc {
	return Doc{Input: tensor.Shape{2}, Layers: []nn.Layer{nn.NewLinear(4), nn.Tanh{}, nn.NewLinear(1)}, Loss: nn.MSE, Seed: 7}
}

func (d Doc) with(layers []nn.Layer) Doc {
	d.Layers = layers
	return d
}

// Insert returns d with l inserted at index i (appended when i ≥ len).
func (d Doc) Insert(i int, l nn.Layer) Doc {
	i = min(max(i, 0), len(d.Layers))
	ls := make([]nn.Layer, 0, len(d.Layers)+1)
	ls = append(append(append(ls, d.Layers[:i]...), l), d.Layers[i:]...)
	return d.with(ls)
}

// Remove returns d without layer i.
func (d Doc) Remove(i int) (Doc, error) {
	if i < 0 || i >= len(d.Layers) {
		return d, errors.New("no layer " + strconv.Itoa(i) + " to remove")
	}
	ls := append(append([]nn.Layer(nil), d.Layers[:i]...), d.Layers[i+1:]...)
	return d.with(ls), nil
}

// Move returns d with layer i moved to index j.
func (d Doc) Move(i, j int) (Doc, error) {
	if i < 0 || i >= len(d.Layers) || j < 0 || j >= len(d.Layers) {
		return d, errors.New("cannot move layer " + strconv.Itoa(i) + " to " + strconv.Itoa(j))
	}
	ls := append([]nn.Layer(nil), d.Layers...)
	l := ls[i]
	ls = append(ls[:i], ls[i+1:]...)
	ls = append(ls[:j], append([]nn.Layer{l}, ls[j:]...)...)
	return d.with(ls), nil
}

// Replace returns d with layer i replaced by l.
func (d Doc) Replace(i int, l nn.Layer) (Doc, error) {
	if i < 0 || i >= len(d.Layers) {
		return d, errors.New("no layer " + strconv.Itoa(i))
	}
	ls := append([]nn.Layer(nil), d.Layers...)
	ls[i] = l
	return d.with(ls), nil
}

// LayerStatus is what the editor shows beside one layer: its output shape
// when the layers up to it chain, and the engine's message when it is the
// layer at fault.
type LayerStatus struct {
	Out tensor.Shape // nil when unknown
	Err string
}

// Check builds the layers into an nn.Seq and reports each layer's output
// shape and, on the layer the engine blames, its message. The Seq is nil
// when the layers do not chain.
func (d Doc) Check() (*nn.Seq, []LayerStatus, error) {
	st := make([]LayerStatus, len(d.Layers))
	seq, err := nn.NewSeq(d.Input, d.Layers...)
	in := d.Input
	for i, l := range d.Layers {
		out, e := l.OutShape(in)
		if e != nil || out == nil {
			break
		}
		st[i].Out = out.Clone()
		in = out
	}
	if err != nil {
		at := -1
		var se *nn.ShapeError
		var le *nn.LayerError
		switch {
		case errors.As(err, &se):
			at = se.Layer
		case errors.As(err, &le):
			at = le.Layer
		}
		if at >= 0 && at < len(st) {
			st[at].Err = err.Error()
			for k := at; k < len(st); k++ {
				st[k].Out = nil
			}
		}
		return nil, st, err
	}
	if err := d.Loss.Check(seq.Output()); err != nil {
		if n := len(st); n > 0 {
			st[n-1].Err = err.Error()
		}
		return nil, st, err
	}
	return seq, st, nil
}

// Equal reports whether d and e describe the same model: the same input
// shape, layers (with their settings), loss and seed. Layers are compared
// as values, so every layer type must be comparable (nn's layer types are
// structs of numbers and flags).
func (d Doc) Equal(e Doc) bool {
	if !d.Input.Equal(e.Input) || d.Loss != e.Loss || d.Seed != e.Seed || len(d.Layers) != len(e.Layers) {
		return false
	}
	for i, l := range d.Layers {
		if l != e.Layers[i] {
			return false
		}
	}
	return true
}
