//go:build !js

package main

import (
	"bytes"
	"compress/gzip"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// freePlanLimit is the most a worker may weigh, gzip'd, on Cloudflare's
// free plan (the paid plan allows 10 MB).
const freePlanLimit = 3_000_000

// buildCommand is how package.json's build script compiles the worker,
// which is what Cloudflare receives; the test builds it the same way.
const buildCommand = "GOOS=js GOARCH=wasm go build -trimpath -ldflags='-s -w' -o web/worker/build/app.wasm ./web/worker"

// TestWorkerFitsTheFreePlan builds the worker's wasm as its build script
// does and fails when it is larger than the free plan allows once gzip'd
// at level 9.
func TestWorkerFitsTheFreePlan(t *testing.T) {
	script, err := os.ReadFile("package.json")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(script, []byte(buildCommand)) {
		t.Fatalf("package.json no longer builds the worker with\n\t%s\nso this test does not measure what is deployed; make them agree", buildCommand)
	}
	out := filepath.Join(t.TempDir(), "app.wasm")
	cmd := exec.Command("go", "build", "-trimpath", "-ldflags=-s -w", "-o", out, ".")
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("building the worker: %v\n%s", err, msg)
	}
	raw, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var gz bytes.Buffer
	zw, err := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	if err != nil {
		t.Fatal(err)
	}
	zw.Write(raw)
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	t.Logf("the worker's wasm: %d bytes, %d gzip'd (level 9); the free plan allows %d", len(raw), gz.Len(), freePlanLimit)
	if gz.Len() > freePlanLimit {
		t.Errorf("the worker's wasm is %d bytes gzip'd, over the free plan's %d; see what it links with `go run ./bench/cmd/sizereport ./web/worker`",
			gz.Len(), freePlanLimit)
	}
}
