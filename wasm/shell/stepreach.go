//go:build js && wasm

package shell

import (
	"tapelab/wasm/dom"
	"tapelab/wasm/stepview"
)

// stepDeps is what the step view needs of the hub, the shell and the
// tape.
func (pv *playground) stepDeps() stepview.Deps {
	doc := pv.doc
	return stepview.Deps{
		Doc:         doc,
		State:       pv.st,
		Scale:       pv.p.scale,
		Example:     &pv.example,
		Pace:        pv.p.Pace,
		ShowError:   pv.p.showError,
		Own:         pv.regions.own,
		Move:        pv.move,
		Redraw:      pv.redraw,
		Mark:        func(class string, on bool) { pv.root.ToggleClass(class, on) },
		Tabs:        pv.panels.tabs,
		Shortcuts:   func() { pv.bar.toggleShortcuts() },
		BottomBar:   func() dom.Elem { return pv.bottom },
		DrawerMoved: func() { pv.tape.DrawerMoved() },
	}
}
