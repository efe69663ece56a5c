package static

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"tapelab/engine/tensor"
	"tapelab/engine/train"
)

// TestFile checks that the built-in copy of the digits file is the one in
// the static folder, which the page fetches.
func TestFile(t *testing.T) {
	built, err := File(train.DigitsFile)
	if err != nil {
		t.Fatal(err)
	}
	disk, err := os.ReadFile(train.DigitsFile)
	if err != nil {
		t.Fatal(err)
	}
	a, b := sha256.Sum256(built), sha256.Sum256(disk)
	if a != b || len(built) != 57512 {
		t.Errorf("built in: %d bytes, sha256 %s; static/%s: %d bytes, sha256 %s", len(built), hex.EncodeToString(a[:]), train.DigitsFile, len(disk), hex.EncodeToString(b[:]))
	}
	if _, err := File("data/none.csv"); err == nil {
		t.Error("File(data/none.csv) found a file")
	}
}

func TestLoad(t *testing.T) {
	c := train.DataConfig{Name: "digits", N: 200, TrainSplit: 0.75, Seed: 2}
	tr, te, err := Load(c)
	if err != nil {
		t.Fatal(err)
	}
	if tr.Len() != 150 || te.Len() != 50 || tr.Classes != 10 || !tr.X.Shape.Equal(tensor.Shape{150, 64}) {
		t.Fatalf("digits, 200 at 0.75: %d train %v, %d test", tr.Len(), tr.X.Shape, te.Len())
	}
	again, _, _ := Load(c)
	if !tensor.Identical(again.X, tr.X) {
		t.Error("the same configuration gave different images")
	}
	circle, _, err := Load(train.DefaultData("circle"))
	want, _, _ := train.Generate(train.DefaultData("circle"))
	if err != nil || !tensor.Identical(circle.X, want.X) {
		t.Errorf("circle: %v", err)
	}
	c.N = 5000
	if _, _, err := Load(c); err == nil || err.Error() != "n: must be a whole number from 2 to 1797" {
		t.Errorf("5000 digits: err = %v", err)
	}
}

// TestNotInTheWasm checks that the playground's wasm does not link this
// package, and so the data files: the page fetches them instead.
func TestNotInTheWasm(t *testing.T) {
	cmd := exec.Command("go", "list", "-deps", "tapelab/wasm")
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -deps tapelab/wasm: %v", err)
	}
	deps := strings.Fields(string(out))
	if !slices.Contains(deps, "tapelab/engine/train") {
		t.Fatalf("go list -deps tapelab/wasm does not list tapelab/engine/train: %q", out)
	}
	if slices.Contains(deps, "tapelab/static") {
		t.Error("the playground's wasm imports tapelab/static, and with it the data files")
	}
}
