package wasmbuild

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// computeAndMerge returns linked with its findfunctab computed, and that
// with its data segments merged (DataGap), failing t on an error.
func computeAndMerge(t *testing.T, linked []byte) (computed, merged []byte) {
	t.Helper()
	computed, err := ComputeFindfunctab(linked)
	if err != nil {
		t.Fatal(err)
	}
	merged, err = MergeDataSegments(computed, DataGap)
	if err != nil {
		t.Fatal(err)
	}
	return computed, merged
}

// memoryHash is a node script that instantiates the module in the file
// argv[2] (which runs its start function, if it has one) without running
// the Go program, and prints the SHA-256 and the size of its memory.
const memoryHash = `
globalThis.fs = require("fs");
globalThis.crypto ??= require("crypto");
require(process.argv[3]);
const go = new Go();
WebAssembly.instantiate(fs.readFileSync(process.argv[2]), go.importObject).then(({ instance }) => {
  const mem = new Uint8Array(instance.exports.mem.buffer);
  console.log(require("crypto").createHash("sha256").update(mem).digest("hex"), mem.length);
}).catch((err) => { console.error(err); process.exit(1); });
`

// TestComputeFindfunctab builds testdata/linedemo as the playground is
// built and checks, under node, that the module ComputeFindfunctab and
// MergeDataSegments make starts with the same memory, byte for byte, as
// the module as linked, and that it does not without its start function;
// TestStripLineTablesGoProgram runs the program so made. It also checks
// what the pass takes out, and its errors.
func TestComputeFindfunctab(t *testing.T) {
	node, libWasm := jsTools(t)
	dir := t.TempDir()
	script := filepath.Join(dir, "memory.js")
	if err := os.WriteFile(script, []byte(memoryHash), 0o644); err != nil {
		t.Fatal(err)
	}
	wasmExec := filepath.Join(libWasm, "wasm_exec.js")
	linked := buildJS(t, BuildArgs("./testdata/linedemo", filepath.Join(dir, "linked.wasm"), false))
	memory := func(wasm []byte, name string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, wasm, 0o644); err != nil {
			t.Fatal(err)
		}
		out, err := exec.Command(node, script, path, wasmExec).CombinedOutput()
		if err != nil {
			t.Fatalf("instantiating %s: %v\n%s", name, err, out)
		}
		return strings.TrimSpace(string(out))
	}

	computed, merged := computeAndMerge(t, linked)
	want := memory(linked, "linked.wasm")
	if got := memory(merged, "computed.wasm"); got != want {
		t.Errorf("the module with its findfunctab computed starts with memory %s, want %s (as linked)", got, want)
	}
	var unstarted []byte
	for _, s := range sections(t, merged) {
		if s.id != startSection {
			unstarted = appendSection(unstarted, s.id, s.body)
		}
	}
	unstarted = append(merged[:8:8], unstarted...)
	if got := memory(unstarted, "unstarted.wasm"); got == want {
		t.Error("without its start function the module still starts with the memory as linked: the check cannot fail")
	}

	// The table is out of the data: the module is smaller by most of it.
	_, mem, tab, err := openPclntab(linked)
	if err != nil {
		t.Fatal(err)
	}
	table := mem.u64(tab.moduledata + moduleFindfunctab)
	buckets := (mem.u64(tab.moduledata+moduleMaxPC) - mem.u64(tab.moduledata+moduleMinPC) + bucketPCs - 1) / bucketPCs
	plain, err := MergeDataSegments(linked, DataGap)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d buckets (%d bytes); merged %d bytes, with the table computed %d", buckets, buckets*bucketSize, len(plain), len(merged))
	if saved := len(plain) - len(merged); saved < int(buckets*bucketSize)*3/4 {
		t.Errorf("computing the table saved %d bytes of %d", saved, buckets*bucketSize)
	}

	// A table that does not read as one function per 65,536 program
	// counters, and a module with a start function, get errors.
	out, mem, _, err := openPclntab(linked)
	if err != nil {
		t.Fatal(err)
	}
	bad := table + (40*bucketsPerFunc+3)*bucketSize
	for _, s := range mem.segs {
		if uint64(s.offset) <= bad && bad < s.end() {
			s.data[bad-uint64(s.offset)]++
		}
	}
	if _, err := ComputeFindfunctab(out); err == nil || !strings.Contains(err.Error(), "bucket 643 of the findfunctab starts at function 41, not at 40") {
		t.Errorf("a bucket that starts at the wrong function: got error %v", err)
	}
	if _, err := addStartFunc(computed, fillBuckets(0, 1)); err == nil || !strings.Contains(err.Error(), "start function already") {
		t.Errorf("a second start function: got error %v", err)
	}
}
