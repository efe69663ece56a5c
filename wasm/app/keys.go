package app

// Action is what a keyboard shortcut does.
type Action int

// The playground's keyboard actions.
const (
	ActNone Action = iota
	ActStep
	ActBack
	ActPlay
	ActToBackward
	ActReset
	ActFit
	ActZoomIn
	ActZoomOut
	ActUndo
	ActRedo
	ActShortcuts
	ActClose
	ActNextStop
	ActPrevStop
)

// Key is one keyboard shortcut: the keys that press it, what it does, how
// the shortcuts sheet writes it, and the classroom control whose lock
// stops it. The page's key handler, its shortcuts sheet and the classroom
// locks all read the one table, Keys.
type Key struct {
	// Keys are KeyboardEvent.key values; any of them presses the shortcut.
	Keys []string
	// Ctrl is set when the shortcut needs Ctrl (or ⌘) held.
	Ctrl bool
	// Action is what it does.
	Action Action
	// Shown is how the sheet writes the keys; Label says what they do.
	Shown, Label string
	// Lock is the classroom control (link.Controls) whose lock or hiding
	// stops the key ("" for none).
	Lock string
	// Anywhere is set when the key works in a text field too.
	Anywhere bool
}

var keys = []Key{
	{Keys: []string{"ArrowRight"}, Action: ActStep, Shown: "→", Label: "step (forward, then backward)", Lock: "stepper"},
	{Keys: []string{"ArrowLeft"}, Action: ActBack, Shown: "←", Label: "step back", Lock: "stepper"},
	{Keys: []string{" "}, Action: ActPlay, Shown: "space", Label: "play / pause", Lock: "stepper"},
	{Keys: []string{"b"}, Action: ActToBackward, Shown: "b", Label: "finish forward, start backward", Lock: "stepper"},
	{Keys: []string{"r"}, Action: ActReset, Shown: "r", Label: "reset", Lock: "stepper"},
	{Keys: []string{"f"}, Action: ActFit, Shown: "f", Label: "fit the tape to the screen"},
	{Keys: []string{"+", "="}, Action: ActZoomIn, Shown: "+", Label: "zoom in"},
	{Keys: []string{"-"}, Action: ActZoomOut, Shown: "−", Label: "zoom out"},
	{Keys: []string{"z"}, Ctrl: true, Action: ActUndo, Shown: "Ctrl+Z", Label: "undo a model edit", Lock: "model"},
	{Keys: []string{"y", "Z"}, Ctrl: true, Action: ActRedo, Shown: "Ctrl+Y", Label: "redo a model edit", Lock: "model"},
	{Keys: []string{"PageDown", "n", "N"}, Action: ActNextStop, Shown: "PgDn / N", Label: "next stop of the lesson"},
	{Keys: []string{"PageUp", "p", "P"}, Action: ActPrevStop, Shown: "PgUp / P", Label: "previous stop of the lesson"},
	{Keys: []string{"?"}, Action: ActShortcuts, Shown: "?", Label: "show or hide this list"},
	{Keys: []string{"Escape"}, Action: ActClose, Shown: "Esc", Label: "close", Anywhere: true},
}

// Keys returns the keyboard shortcuts in the order the sheet lists them.
func Keys() []Key { return append([]Key(nil), keys...) }

// KeyFor returns the shortcut that key (a KeyboardEvent.key value) presses,
// with or without Ctrl held.
func KeyFor(key string, ctrl bool) (Key, bool) {
	for _, k := range keys {
		if k.Ctrl != ctrl && !k.Anywhere {
			continue
		}
		for _, name := range k.Keys {
			if name == key {
				return k, true
			}
		}
	}
	return Key{}, false
}
