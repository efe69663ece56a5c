//go:build js && wasm

package shell

import (
	"strings"

	"tapelab/wasm/app"
	"tapelab/wasm/dom"
	"tapelab/wasm/lessons"
)

// newLessons makes the lesson screen, puts its Lessons menu in the shell's
// bar, and lets the keyboard turn its stops.
func newLessons(sh *Shell) *lessons.View {
	pv := sh.pv
	lv := lessons.New(lessons.Deps{
		Doc:   sh.u,
		State: sh.st,
		Mount: func(panel, share dom.Elem) {
			pv.regions.own("share", share)
			pv.bar.root.After(panel)
			sh.showRegions(sh.st.Flags())
		},
		Pause: pv.steps.Pause,
		Reveal: func(node int) {
			pv.panels.quiet = dom.MediaMatches(phoneScreen)
			pv.inspect(node)
		},
		CloseMenu:   func() { pv.bar.openMenu(false) },
		LinkError:   pv.showLinkError,
		LinkChanged: sh.linkSync.changed,
		Base:        pageBase,
	})
	sh.bar.Prepend(lv.Menu())
	pv.onStop = lv.Advance
	pv.inLesson = lv.Active
	return lv
}

// publish is where the share box's link goes after the state changed:
// into the address bar, unless a played lesson holds it (then the state's
// link is only offered in the share box). It returns the full link.
func (sh *Shell) publish(frag string) string {
	if sh.lessons != nil && sh.lessons.HoldsAddress() {
		return pageBase() + "#" + frag
	}
	return dom.ReplaceFragment(frag)
}

// pageBase is the page's address without fragment, query or share path
// (/s/{id} and /embed/{id} open the playground at their folder).
func pageBase() string {
	loc := dom.CurrentLocation()
	path := loc.Path
	if _, _, ok := app.SharedPage(path); ok {
		for _, kind := range []string{"/s/", "/embed/"} {
			if i := strings.LastIndex(path, kind); i >= 0 {
				path = path[:i+1]
				break
			}
		}
	}
	return loc.Origin + path
}
