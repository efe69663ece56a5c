//go:build js && wasm

package main

import "tapelab/wasm/state"

// followCapacity is how many changes a view's listener holds before it
// misses one: far more than one user action makes.
const followCapacity = 32

// follow calls redraw with every change of st, in order, on a goroutine of
// its own; a panic in redraw is reported, and the next change is still
// drawn.
func follow(st *state.State, report func(string), redraw func(state.Change)) {
	l := st.Listen(followCapacity)
	go func() {
		for c := range l.Ch() {
			recovered("redraw", report, func() { redraw(c) })
		}
	}()
}
