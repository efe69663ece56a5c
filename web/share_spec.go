package web

import "tapelab/engine/spec"

// newShareAPI returns the share routes on store, validating documents with
// engine/spec and serving the page with page.
func newShareAPI(store Store, page PageFunc) *shareAPI {
	return &shareAPI{store: store, canonical: canonicalModel, page: page}
}

// canonicalModel decodes a model document strictly (its errors name the
// JSON path at fault) and returns the model's canonical encoding, so that
// every way of writing one model stores the same bytes under the same id.
func canonicalModel(body []byte) ([]byte, error) {
	m, err := spec.Decode(body)
	if err != nil {
		return nil, err
	}
	return spec.Encode(m)
}
