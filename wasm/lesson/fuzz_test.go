package lesson

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzDecode feeds arbitrary text to Decode and to DecodeFragment: neither
// may panic, every failure is an *Error, and every lesson accepted encodes
// back to a document (and a fragment) that decodes to the same bytes. The
// seeds are the kept lessons, the built-in ones, broken variants of them
// and hand-written documents; testdata/fuzz/FuzzDecode keeps what fuzzing
// found.
func FuzzDecode(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.json"))
	builtin, _ := filepath.Glob(filepath.Join("builtin", "*.json"))
	frags, _ := filepath.Glob(filepath.Join("testdata", "*.lesson"))
	for _, name := range append(append(files, builtin...), frags...) {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		s := strings.TrimSpace(string(data))
		f.Add(s)
		f.Add(s[:len(s)/2])
		f.Add(s + "x")
	}
	for _, s := range []string{"", "{}", "null", "[]", `{"version":1,"title":"t","stops":[]}`,
		`{"version":1,"title":"t","stops":[{"state":{"program":"a = param(1)\nb = a * a\n"},"select":1,"question":{"node":1,"of":"grad","answer":"sign"}}]}`,
		`{"version":1,"title":"t","stops":[{"state":{"program":"a = param(1)"},"caption":"**x** ` + "`y`" + `"}]}`,
		"#l1.", "l1.AAAA", "#v1.AAAA"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		var l *Lesson
		var err error
		if IsFragment(in) {
			l, err = DecodeFragment(in)
		} else {
			l, err = Decode([]byte(in))
		}
		if err != nil {
			var le *Error
			if !errors.As(err, &le) || l != nil {
				t.Fatalf("error %v (%T) with lesson %v, want a *lesson.Error and no lesson", err, err, l != nil)
			}
			return
		}
		doc, err := Encode(l)
		if err != nil {
			t.Fatalf("a decoded lesson does not encode: %v", err)
		}
		again, err := Decode(doc)
		if err != nil {
			t.Fatalf("the encoded lesson does not decode: %v\n%s", err, doc)
		}
		if doc2, _ := Encode(again); string(doc2) != string(doc) {
			t.Fatalf("round trip changed the document:\n%s\n%s", doc, doc2)
		}
		frag, err := Fragment(l)
		if err != nil {
			t.Fatal(err)
		}
		fromLink, err := DecodeFragment(frag)
		if err != nil {
			t.Fatalf("the lesson's fragment does not decode: %v", err)
		}
		if doc3, _ := Encode(fromLink); string(doc3) != string(doc) {
			t.Fatalf("the fragment changed the document")
		}
		for _, s := range l.Stops {
			Parse(s.Caption)
		}
	})
}
