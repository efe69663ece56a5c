package program

import (
	"errors"
	"strings"
	"testing"
)

// TestDocumentRoundTrip checks that every example survives encoding and
// decoding with its text unchanged (comments included), and that equal
// texts written differently in JSON give the same canonical bytes.
func TestDocumentRoundTrip(t *testing.T) {
	for _, ex := range Examples() {
		src := "# " + ex.Caption + "\n" + ex.Text
		doc, err := EncodeDocument(src)
		if err != nil {
			t.Fatal(err)
		}
		got, p, err := DecodeDocument(doc)
		if err != nil || got != src || p == nil {
			t.Fatalf("%s: %q, %v", ex.Name, got, err)
		}
	}
	a, _ := EncodeDocument("x = param(1)\n")
	src, _, err := DecodeDocument([]byte(`{ "program" : "x = param(1)\u000a", "version": 1 }`))
	b, _ := EncodeDocument(src)
	if err != nil || string(a) != `{"version":1,"program":"x = param(1)\n"}` || string(b) != string(a) {
		t.Errorf("canonical forms %s and %s (%v)", a, b, err)
	}
}

// TestDocumentErrors checks each fault of a program document, a program's
// own faults naming line and column.
func TestDocumentErrors(t *testing.T) {
	tests := []struct{ doc, want string }{
		{`[]`, `program document: want a JSON object {"version": 1, "program": "…"}`},
		{`{"version": 1, "program": "x = param(1)"`, "program document: "},
		{`{"program": "x = param(1)"}`, "version: missing (want 1)"},
		{`{"version": 2, "program": "x = param(1)"}`, "version: want 1"},
		{`{"version": 1}`, "program: missing"},
		{`{"version": 1, "program": 3}`, "program: want the program's text as a JSON string"},
		{`{"version": 1, "program": "x = 1", "model": {}}`, `unknown field "model" (a program document has version and program)`},
		{`{"version": 1, "program": "a = param([[1, 2, 3], [4, 5, 6]])\nb = a @ a"}`, "program: line 2, col 7: matmul: [2 3] @ [2 3]: inner sizes 3 and 2 differ"},
		{`{"version": 1, "program": "` + strings.Repeat("#", MaxSource+1) + `"}`, "program: line 1, col 1: the program has 65537 bytes, more than the limit of 65536"},
	}
	for _, tc := range tests {
		_, _, err := DecodeDocument([]byte(tc.doc))
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%.60s: %v, want %s", tc.doc, err, tc.want)
		}
	}
	_, _, err := DecodeDocument([]byte(`{"version": 1, "program": "y = x"}`))
	var e *Error
	if !errors.As(err, &e) || e.Line != 1 || e.Col != 5 {
		t.Errorf("a program fault does not wrap its *Error: %v", err)
	}
}
