//go:build js && wasm

package ui

import "tapelab/wasm/dom"

// Item is one <li> of a kept list and the texts it shows.
type Item struct {
	Li    dom.Elem
	Parts []Text
}

// Items keeps a list's <li>s: showing n makes only those it never had and
// takes off or puts back the rest, in order.
type Items struct {
	List  dom.Elem // the <ol> or <ul> that holds the items shown
	All   []Item   // every item made, the ones shown first
	shown int
}

// Show makes the first n items the list's, making any missing with mk.
func (l *Items) Show(n int, mk func() Item) {
	for len(l.All) < n {
		l.All = append(l.All, mk())
	}
	for ; l.shown > n; l.shown-- {
		l.All[l.shown-1].Li.Remove()
	}
	for ; l.shown < n; l.shown++ {
		l.List.AppendChild(l.All[l.shown].Li)
	}
}
