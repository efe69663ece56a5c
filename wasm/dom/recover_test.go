//go:build js && wasm

package dom

import (
	"errors"
	"testing"
)

func TestRecovered(t *testing.T) {
	tests := []struct {
		name   string
		fn     func()
		report string // "" means no report
	}{
		{"quiet", func() {}, ""},
		{"string", func() { panic("boom") }, "click: boom"},
		{"error", func() { panic(errors.New("bad shape")) }, "click: bad shape"},
		{"runtime", func() { index([]int{1}, 2) }, "click: runtime error: index out of range [2] with length 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			Recovered("click", func(s string) { got = append(got, s) }, tt.fn)
			switch {
			case tt.report == "" && len(got) != 0:
				t.Errorf("reported %q for a listener that did not panic", got)
			case tt.report != "" && (len(got) != 1 || got[0] != tt.report):
				t.Errorf("reported %q, want [%q]", got, tt.report)
			}
		})
	}
}

// index returns s[i]; with i out of range it makes the runtime panic.
func index(s []int, i int) int { return s[i] }

// TestStderr writes through the page's standard error, which the loader
// shows when the Go program fails.
func TestStderr(t *testing.T) {
	msg := []byte("tapelab: standard error works\n")
	if n, err := (Stderr{}).Write(msg); n != len(msg) || err != nil {
		t.Errorf("Write = %d, %v; want %d, nil", n, err, len(msg))
	}
}
