//go:build js && wasm

package dom

import (
	"syscall/js"

	"honnef.co/go/js/dom/v2"
)

// Event is a DOM event: dom/v2's event, read as the keyboard, mouse,
// wheel or pointer event it is. Listen makes it from the listener's
// argument itself: dom/v2's AddEventListener picks each event's concrete
// type by comparing its constructor with those of about 45 event types,
// one call into JavaScript each, on every pointer move too
// (BenchmarkWrap under node: 52 µs an event, against nothing here). dom/v2 has no pointer id or pointer type, and its
// MouseEvent rounds clientX and clientY to integers (a touch or a pen
// reports fractions of a pixel): those are read here.
type Event struct{ ev dom.BasicEvent }

// PreventDefault cancels the default action.
func (e Event) PreventDefault() { e.ev.PreventDefault() }

// StopImmediatePropagation keeps the event from every further listener.
func (e Event) StopImmediatePropagation() { e.ev.StopImmediatePropagation() }

// Target returns the element the event was dispatched to.
func (e Event) Target() Elem { return wrap(e.ev.Get("target")) }

// keyboard is e as dom/v2's keyboard event.
func (e Event) keyboard() *dom.KeyboardEvent { return &dom.KeyboardEvent{BasicEvent: &e.ev} }

// mouse is e as dom/v2's mouse event.
func (e Event) mouse() *dom.MouseEvent {
	return &dom.MouseEvent{UIEvent: &dom.UIEvent{BasicEvent: &e.ev}}
}

// Key returns a keyboard event's key.
func (e Event) Key() string { return e.keyboard().Key() }

// Mod reports whether a modifier key is held: "ctrlKey", "metaKey",
// "altKey" or "shiftKey".
func (e Event) Mod(name string) bool {
	k := e.keyboard()
	switch name {
	case "ctrlKey":
		return k.CtrlKey()
	case "metaKey":
		return k.MetaKey()
	case "altKey":
		return k.AltKey()
	case "shiftKey":
		return k.ShiftKey()
	}
	return e.ev.Get(name).Bool()
}

// Client returns a pointer event's position in the viewport.
func (e Event) Client() (x, y float64) {
	return e.ev.Get("clientX").Float(), e.ev.Get("clientY").Float()
}

// Button returns the pointer button that changed (0: the main one).
func (e Event) Button() int { return e.mouse().Button() }

// DeltaY returns a wheel event's vertical delta in pixels (deltas in lines
// count 16 pixels a line, in pages 400 a page).
func (e Event) DeltaY() float64 {
	w := &dom.WheelEvent{MouseEvent: e.mouse()}
	d := w.DeltaY()
	switch w.DeltaMode() {
	case 1:
		d *= 16
	case 2:
		d *= 400
	}
	return d
}

// PointerID returns a pointer event's pointer: a mouse, a pen, or one
// finger from touching the screen until it lifts.
func (e Event) PointerID() int { return e.ev.Get("pointerId").Int() }

// PointerType returns a pointer event's device: "mouse", "pen" or "touch".
func (e Event) PointerType() string { return e.ev.Get("pointerType").String() }

// event returns the listener's argument v as an Event.
func event(v js.Value) Event { return Event{dom.BasicEvent{Value: v}} }
