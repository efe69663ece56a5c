package kept

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestFile writes a kept file only when asked, and reads it always.
func TestFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.txt")
	if got := string(File(t, path, true, func() ([]byte, error) { return []byte("one"), nil })); got != "one\n" {
		t.Errorf("after writing: %q, want %q", got, "one\n")
	}
	if got := string(File(t, path, false, func() ([]byte, error) { return nil, errors.New("not asked") })); got != "one\n" {
		t.Errorf("without update: %q, want the kept %q", got, "one\n")
	}
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	var ft fakeT
	func() {
		defer func() { _ = recover() }()
		File(&ft, path, false, nil)
	}()
	if !ft.failed {
		t.Error("a missing kept file did not fail the test")
	}
}

// fakeT records a failure and stops, as testing.T's Fatal does.
type fakeT struct {
	testing.TB
	failed bool
}

func (f *fakeT) Helper() {}

func (f *fakeT) Fatal(args ...any) {
	f.failed = true
	panic("fatal")
}
