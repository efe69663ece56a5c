//go:build js && wasm

package lessons

import "testing"

// TestFileName: a lesson's title becomes a file name of lower-case letters
// and digits, each run of anything else one dash, never empty.
func TestFileName(t *testing.T) {
	for _, tt := range []struct{ title, want string }{
		{"My lesson", "my-lesson"},
		{"  Chain rule: x² · y!  ", "chain-rule-x-y"},
		{"Lesson 2", "lesson-2"},
		{"—", "lesson"},
		{"", "lesson"},
	} {
		if got := fileName(tt.title); got != tt.want {
			t.Errorf("fileName(%q) = %q, want %q", tt.title, got, tt.want)
		}
	}
}
