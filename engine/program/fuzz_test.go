package program

import (
	"testing"
)

// FuzzParse feeds arbitrary text to the parser: it must never panic; what
// it accepts must print to text that parses to the same text again; and a
// small accepted program must run eagerly and compiled alike (or fail
// alike, with a positioned error).
//
//	go test -fuzz FuzzParse -fuzztime 1000000x ./engine/program/
func FuzzParse(f *testing.F) {
	for _, ex := range Examples() {
		f.Add(ex.Text)
	}
	for _, line := range calls {
		f.Add(callPrelude + line)
	}
	f.Add("x = param([[1, 2], [3, 4]])\ny = -x ** 2 @ [1, -1] / (2 - x)\n")
	f.Add("a = input(1e-3)\nb = (((a)))\n# comment\n\nc = sum(a * [[1], [2]], axis=0)")
	f.Fuzz(func(t *testing.T, src string) {
		p, err := Parse(src)
		if err != nil {
			if _, ok := err.(*Error); !ok {
				t.Fatalf("error %T %v is not an *Error", err, err)
			}
			return
		}
		printed := p.String()
		q, err := Parse(printed)
		if err != nil {
			t.Fatalf("%q parses but its printed form %q does not: %v", src, printed, err)
		}
		if again := q.String(); again != printed {
			t.Fatalf("printing is not stable: %q then %q", printed, again)
		}
		total := 0
		for id := 0; id < p.Len(); id++ {
			total += p.Shape(id).Size()
		}
		if total > 4096 {
			return
		}
		_, eagerErr := p.Eager()
		_, compiledErr := p.Compile()
		if (eagerErr == nil) != (compiledErr == nil) {
			t.Fatalf("%q: eager error %v, compiled error %v", src, eagerErr, compiledErr)
		}
		if eagerErr != nil {
			if _, ok := eagerErr.(*Error); !ok {
				t.Fatalf("run error %T %v is not an *Error", eagerErr, eagerErr)
			}
			return
		}
		r, err := runBoth(p)
		if err != nil {
			t.Fatal(err)
		}
		if m := r.mismatch(); m != "" {
			t.Fatalf("%q: %s", src, m)
		}
	})
}
