package link

import (
	"tapelab/engine/spec"
	"tapelab/engine/train"
	"tapelab/wasm/app"
)

// DefaultDataset is the dataset the page opens with.
const DefaultDataset = "reg-plane"

// Default returns the state the page opens with (and falls back to when a
// link is broken): the playground's starting model on DefaultDataset, the
// stepping view at the start of the tape, no flags.
func Default() *State {
	d := app.DefaultDoc()
	m := spec.New(d.Input, d.Loss, d.Layers...)
	m.Seed = d.Seed
	m.Dataset = train.DefaultData(DefaultDataset)
	return &State{Model: m, View: ViewStep}
}

// Open decodes fragment; when it is empty it returns Default, and when it is
// broken it returns Default together with the error, so that the page
// always has a model to show beside the message. A program link opens as
// its program (Model nil).
func Open(fragment string) (*State, error) {
	if fragment == "" || fragment == "#" {
		return Default(), nil
	}
	s, err := Decode(fragment)
	if err != nil {
		return Default(), err
	}
	return s, nil
}
