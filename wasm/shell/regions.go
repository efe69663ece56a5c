//go:build js && wasm

package shell

import "tapelab/wasm/dom"

// regions is the registry of the page's regions that each classroom
// control (link.Controls) governs: every view registers the regions it
// builds, and the classroom hides and locks them through it (applyFlags).
type regions map[string][]dom.Elem

// own registers e as a region that the classroom control governs, marks
// it with data-control (the stylesheet and the e2e tests read it), and
// returns e.
func (r regions) own(control string, e dom.Elem) dom.Elem {
	e.SetAttribute("data-control", control)
	r[control] = append(r[control], e)
	return e
}
