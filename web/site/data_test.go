package site

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
)

// TestWriteData checks that the data files keep their names in data/, are
// listed for the worker to cache, count in the cache version, and that Go
// sources in the static folder are left out.
func TestWriteData(t *testing.T) {
	st := testStatic()
	digits := []byte("\x1f\x8b\x08 not really gzip")
	st["data/digits.csv.gz"] = &fstest.MapFile{Data: digits}
	st["data/.partial.tmp"] = &fstest.MapFile{Data: []byte("x")}
	st["static.go"] = &fstest.MapFile{Data: []byte("package static")}
	st["static_test.go"] = &fstest.MapFile{Data: []byte("package static")}
	out := filepath.Join(t.TempDir(), "dist")
	man, err := Write(st, out, 5)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(out, "data", "digits.csv.gz"))
	if err != nil || !bytes.Equal(got, digits) || man.Files["data/digits.csv.gz"] != len(digits) {
		t.Errorf("data/digits.csv.gz: %q, %v; manifest %d bytes", got, err, man.Files["data/digits.csv.gz"])
	}
	sw, err := os.ReadFile(filepath.Join(out, Worker))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(sw), `"data/digits.csv.gz"`) || strings.Contains(string(sw), "partial") {
		t.Errorf("the worker's ASSETS do not list exactly the data file:\n%s", sw)
	}
	for name := range man.Files {
		if strings.Contains(name, ".go") || strings.Contains(name, "partial") {
			t.Errorf("dist has %s", name)
		}
	}
	if _, ok := man.Names["static.go"]; ok {
		t.Error("static.go was taken as an asset")
	}
	if _, ok := man.Files["data/digits.csv.gz.br"]; ok {
		t.Error("the gzip file got a brotli copy")
	}

	without, err := Write(testStatic(), filepath.Join(t.TempDir(), "dist"), 5)
	if err != nil {
		t.Fatal(err)
	}
	st["data/digits.csv.gz"] = &fstest.MapFile{Data: []byte("other")}
	changed, err := Write(st, filepath.Join(t.TempDir(), "dist"), 5)
	if err != nil {
		t.Fatal(err)
	}
	if man.Version == without.Version || changed.Version == man.Version {
		t.Errorf("cache versions: without data %s, with %s, with other data %s", without.Version, man.Version, changed.Version)
	}
}
