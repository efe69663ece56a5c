//go:build js && wasm

package main

import (
	"time"

	"tapelab/engine/tensor"
	"tapelab/wasm/app"
	"tapelab/wasm/dom"
	"tapelab/wasm/stepview"
	"tapelab/wasm/ui"
)

// stepDeps is what the step view needs of the hub, the shell and the
// tape.
func (pv *playground) stepDeps() stepview.Deps {
	doc := pv.doc
	return stepview.Deps{
		Doc:       doc,
		State:     pv.st,
		Scale:     pv.p.scale,
		Example:   &pv.img.example,
		Pace:      pv.p.pace,
		ShowError: pv.p.showError,
		Own:       pv.regions.own,
		Move:      pv.move,
		Redraw:    func() { pv.refresh(nil, false) },
		Mark:      func(class string, on bool) { pv.root.ToggleClass(class, on) },
		Tabs:      pv.panels.tabs,
		Shortcuts: func() { pv.bar.toggleShortcuts() },
		BottomBar: func() dom.Elem { return pv.bottom },
		DrawerMoved: func() {
			if pv.tape.drawerOn {
				pv.tape.refit()
			}
		},
		TapeBoxes: func() []dom.Elem {
			gs := make([]dom.Elem, len(pv.tape.boxes))
			for i, b := range pv.tape.boxes {
				gs[i] = b.g
			}
			return gs
		},
		ImageStrip: func(class string, g app.ImageGrid, shape tensor.Shape, kernel bool) stepview.ImageStrip {
			return inspectorStrip{newImageStrip(doc, pv.p.scale, class, 0, "", g, shape, kernel, &pv.img.example)}
		},
		ClassName: className,
		Worded:    worded,
		Debounce: func(quiet, maxWait time.Duration, fn func()) func() {
			return newDebouncer(quiet, maxWait, fn).changed
		},
		Elapsed: elapsed,
	}
}

// inspectorStrip is the tape's image strip as the inspector draws it.
type inspectorStrip struct{ *imageStrip }

func (s inspectorStrip) Show(t *tensor.Tensor) { s.show(t) }
func (s inspectorStrip) Group() dom.Elem       { return s.g }
func (s inspectorStrip) At() app.ImageGrid     { return s.at() }

// The tape's and the lessons' files still reach the step view by the
// names it had in this package (pv.editor, pv.prog, pv.stepper, pv.img);
// these stand in for it until they take what they need through Deps of
// their own.

// stepColumn is a column of the step view beside the tape: the editor or
// Program mode's.
type stepColumn struct{ root dom.Elem }

// stepperReach is the step view's stepper.
type stepperReach struct{ v *stepview.View }

func (r stepperReach) pause()    { r.v.Pause() }
func (r stepperReach) rate() int { return r.v.Rate() }

// imageReach is the step view's images: the example they show, which the
// tape's image strips and the step view share (stepview.Deps.Example),
// and the gradients shown, the saliency map among them.
type imageReach struct {
	pv      *playground
	example int
}

// accClass is the class of an accumulation sign (ui.AccClass), for the
// tape's travelling contributions.
func accClass(op string) string { return ui.AccClass(op) }

func (r *imageReach) gradOf(s *app.Stepper, i int) *tensor.Tensor { return r.pv.steps.GradOf(s, i) }
