package app

import "testing"

func TestKeyFor(t *testing.T) {
	tests := []struct {
		key  string
		ctrl bool
		want Action // ActNone means no shortcut
		lock string
	}{
		{"ArrowRight", false, ActStep, "stepper"},
		{"ArrowRight", true, ActNone, ""},
		{" ", false, ActPlay, "stepper"},
		{"z", true, ActUndo, "model"},
		{"z", false, ActNone, ""},
		{"Z", true, ActRedo, "model"},
		{"y", true, ActRedo, "model"},
		{"=", false, ActZoomIn, ""},
		{"Escape", true, ActClose, ""},
		{"q", false, ActNone, ""},
		{"PageDown", false, ActNextStop, ""},
		{"n", false, ActNextStop, ""},
		{"N", false, ActNextStop, ""},
		{"PageUp", false, ActPrevStop, ""},
		{"p", false, ActPrevStop, ""},
		{"p", true, ActNone, ""},
	}
	for _, tt := range tests {
		k, ok := KeyFor(tt.key, tt.ctrl)
		if ok != (tt.want != ActNone) || k.Action != tt.want || k.Lock != tt.lock {
			t.Errorf("KeyFor(%q, %v) = %+v, %v; want action %d locked by %q", tt.key, tt.ctrl, k, ok, tt.want, tt.lock)
		}
	}
}

// TestKeysTable checks that every shortcut is written on the sheet and
// that no key presses two shortcuts.
func TestKeysTable(t *testing.T) {
	seen := map[string]Action{}
	for _, k := range Keys() {
		if k.Shown == "" || k.Label == "" || len(k.Keys) == 0 {
			t.Errorf("shortcut %d is not fully described: %+v", k.Action, k)
		}
		for _, name := range k.Keys {
			id := name
			if k.Ctrl {
				id = "ctrl+" + name
			}
			if a, dup := seen[id]; dup {
				t.Errorf("key %q presses both %d and %d", id, a, k.Action)
			}
			seen[id] = k.Action
		}
	}
}
