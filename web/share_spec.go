package web

import (
	"fmt"

	"tapelab/engine/budget"
	"tapelab/engine/jsontext"
	"tapelab/engine/program"
	"tapelab/engine/spec"
	"tapelab/wasm/lesson"
)

// newShareAPI returns the share routes on store, validating documents with
// engine/spec (models), engine/program (programs) and wasm/lesson
// (lessons) and serving the page with page.
func newShareAPI(store Store, page PageFunc) *shareAPI {
	return &shareAPI{store: store, canonical: canonicalDocument, page: page}
}

// canonicalDocument validates a posted document and returns what is
// stored. Three kinds are accepted:
//
//   - a model document (engine/spec, version 1), stored in the model's
//     canonical encoding;
//   - a program document, {"version": 1, "program": "<text>"} (a JSON
//     object with a "program" member; engine/program's DecodeDocument),
//     whose program must parse and check, stored in its canonical form
//     with the text exactly as written. A bad program is refused with an
//     error naming its line and column ("program: line 2, col 7: …");
//   - a lesson document (wasm/lesson, version 1: a JSON object with a
//     "stops" member), decoded strictly and stored in its canonical
//     encoding. A bad lesson is refused with an error naming the stop and
//     field at fault ("lesson stops[2].question.node: …",
//     "lesson stops[0].state.program: line 1, col 5: …").
//
// Every kind is held to engine/budget's default limits before it is
// stored: a document whose forward and backward pass would be too large
// is refused with the part at fault and by how much ("conv2d at line 4:
// 2.1e11 multiply-adds, the limit is 1e9 (207× over)").
func canonicalDocument(body []byte) ([]byte, error) {
	if lesson.IsDocument(body) {
		l, err := lesson.Decode(body)
		if err != nil {
			return nil, err
		}
		return lesson.Encode(l)
	}
	if isProgramDocument(body) {
		src, p, err := program.DecodeDocument(body)
		if err != nil {
			return nil, err
		}
		if err := budget.CheckProgram(p); err != nil {
			return nil, fmt.Errorf("program: %w", err)
		}
		return program.EncodeDocument(src)
	}
	return canonicalModel(body)
}

// isProgramDocument reports whether body is a JSON object with a
// "program" member.
func isProgramDocument(body []byte) bool {
	v, err := jsontext.Parse(body, jsontext.Options{})
	return err == nil && v.Kind == jsontext.Object && v.Field("program") != nil
}

// canonicalModel decodes a model document strictly (its errors name the
// JSON path at fault) and returns the model's canonical encoding, so that
// every way of writing one model stores the same bytes under the same id.
func canonicalModel(body []byte) ([]byte, error) {
	m, err := spec.Decode(body)
	if err != nil {
		return nil, err
	}
	if err := budget.CheckModel(m, budget.Examples(m, 0)); err != nil {
		return nil, err
	}
	return spec.Encode(m)
}
