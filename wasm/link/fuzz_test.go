package link

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzDecodeLink feeds arbitrary fragments to Decode: it must never panic,
// every failure must be a *Error, and every link it accepts must encode
// back to a link that decodes to the same canonical envelope. The seeds are
// the kept v1 fixtures, broken variants of them, and hand-written
// envelopes; testdata/fuzz/FuzzDecodeLink keeps the inputs fuzzing found.
func FuzzDecodeLink(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.link"))
	programs, _ := filepath.Glob(filepath.Join("testdata", "programs", "*.link"))
	files = append(files, programs...)
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		l := strings.TrimSpace(string(data))
		f.Add("#" + l)
		f.Add(l[:len(l)/2])
		f.Add(l + "A")
	}
	for _, s := range []string{"", "#", "#v1.", "#v1.AAAA", "#v2.x", "v1.____", "#activation=tanh&batchSize=10"} {
		f.Add(s)
	}
	for _, env := range []string{`{"program":"a = param(2)\nb = a * a\n","pos":{"phase":"backward","node":1}}`, `{"program":"b = a"}`} {
		f.Add(Pack([]byte(env)))
	}
	f.Fuzz(func(t *testing.T, fragment string) {
		s, err := Decode(fragment)
		if err != nil {
			if _, ok := err.(*Error); !ok {
				t.Fatalf("Decode(%q) error %v is a %T, want *link.Error", fragment, err, err)
			}
			if s != nil {
				t.Fatalf("Decode(%q) returned a state with its error", fragment)
			}
			return
		}
		raw, err := JSON(s)
		if err != nil {
			t.Fatalf("a decoded link does not re-encode: %v", err)
		}
		l, err := Encode(s)
		if err != nil {
			t.Fatalf("a decoded link does not re-encode: %v", err)
		}
		s2, err := Decode(l)
		if err != nil {
			t.Fatalf("re-encoded link does not decode: %v", err)
		}
		raw2, _ := JSON(s2)
		if string(raw) != string(raw2) {
			t.Fatalf("round trip changed the envelope:\n%s\n%s", raw, raw2)
		}
	})
}
