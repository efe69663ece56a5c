//go:build js && wasm

package dom

import "testing"

func TestDropIndent(t *testing.T) {
	tests := []struct{ in, want string }{
		{"<p>a</p>", "<p>a</p>"},
		{"\n<div>\n  <p>a b</p>\n  <p>c</p>\n</div>", "<div><p>a b</p><p>c</p></div>"},
		{"<b>x</b> <i>y</i>", "<b>x</b> <i>y</i>"},                                                // a space on one line stays
		{"<button id=\"a\"\n    title=\"t\">go</button>", `<button id="a" title="t">go</button>`}, // attributes over lines
		{"<p>one\n  two</p>", "<p>one two</p>"},                                                   // text over lines: one space
	}
	for _, tt := range tests {
		if got := dropIndent(tt.in); got != tt.want {
			t.Errorf("dropIndent(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
