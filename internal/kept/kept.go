// Package kept reads the files that tests keep in testdata to prove that
// an encoding stays readable (links, lessons): each test writes its kept
// files only when asked to with its -update flag, and reads them back
// always.
package kept

import (
	"os"
	"testing"
)

// File returns the content of the kept file at path. When update is set it
// first writes there what write returns, followed by a newline: a test does
// so only when it adds a kept file, since those already kept must never
// change.
func File(t testing.TB, path string, update bool, write func() ([]byte, error)) []byte {
	t.Helper()
	if update {
		b, err := write()
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
