package apitest

import (
	"fmt"

	"tapelab/engine/spec"
)

// ModelDoc returns the canonical document (engine/spec's encoding) of the
// i-th of a family of small models that differ only in their seed, so every
// i gives a distinct valid document with its own id. Load and crash tests
// post them; TestModelDocIsCanonical checks the form against spec.Encode.
func ModelDoc(i int) []byte {
	return fmt.Appendf(nil, `{"version":1,"input":[2],"layers":[{"type":"linear","out":4},{"type":"tanh"},{"type":"linear","out":1}],"loss":"mse","seed":%d}`, i)
}

// SpecDocs returns the suite's documents, checked with engine/spec: Model
// and Other are canonical, Variant is Model with other spacing, key order
// and a default written out, and Invalid has a layer with zero outputs.
func SpecDocs() (Docs, error) {
	d := Docs{
		Model: ModelDoc(7),
		Variant: []byte(`{
  "seed": 7, "loss": "mse", "steps": 500,
  "layers": [ {"out": 4, "type": "linear"}, {"type": "tanh"}, {"type": "linear", "out": 1} ],
  "input": [ 2 ], "version": 1
}`),
		Other:        ModelDoc(8),
		Invalid:      []byte(`{"version":1,"input":[2],"layers":[{"type":"linear","out":4},{"type":"linear","out":0}],"loss":"mse","seed":7}`),
		InvalidError: "layers[1].out",
	}
	for name, doc := range map[string][]byte{"Model": d.Model, "Variant": d.Variant, "Other": d.Other} {
		m, err := spec.Decode(doc)
		if err != nil {
			return Docs{}, fmt.Errorf("apitest: %s is not a valid model: %w", name, err)
		}
		canonical, err := spec.Encode(m)
		if err != nil {
			return Docs{}, fmt.Errorf("apitest: encoding %s: %w", name, err)
		}
		if name != "Variant" && string(canonical) != string(doc) {
			return Docs{}, fmt.Errorf("apitest: %s is not canonical: spec.Encode writes %s", name, canonical)
		}
		if name == "Variant" && string(canonical) != string(d.Model) {
			return Docs{}, fmt.Errorf("apitest: Variant is not the model of Model: it encodes to %s", canonical)
		}
	}
	if _, err := spec.Decode(d.Invalid); err == nil {
		return Docs{}, fmt.Errorf("apitest: Invalid is a valid model")
	}
	return d, nil
}
