package train_test

import (
	"encoding/binary"
	"hash/fnv"
	"math"
	"runtime"
	"testing"

	"tapelab/bench"
)

// TestTrainingBits pins the exact bits of training: the losses and final
// parameters of a few steps of each benchmark workload, hashed. The hashes
// were recorded before the SSE2 and small-k GEMM kernels existed, from the
// portable Go kernels, so they hold every kernel to the same bits. tiny
// (tanh, MSE) gives the same bits natively and in wasm; big does not,
// already with the portable kernels (its cross-entropy calls math.Exp and
// math.Log, which are assembly on amd64), so big has a hash per platform.
// So does cnn (its cross-entropy too), whose hashes were recorded with the
// convolution and pooling kernels of 3339261, before they ran along rows
// and through the GEMM.
func TestTrainingBits(t *testing.T) {
	want := map[string]map[string]uint64{
		"amd64": {"tiny": 0x3b662db22517cd09, "big": 0x243ce01c6ae5322e, "cnn": 0x1aa6f4b5a3f45e65},
		"wasm":  {"tiny": 0x3b662db22517cd09, "big": 0x4b619f7632b5f6b7, "cnn": 0x42590639e12612e7},
	}[runtime.GOARCH]
	if want == nil {
		t.Skipf("no hashes recorded for %s", runtime.GOARCH)
	}
	for _, w := range bench.Workloads() {
		steps := map[string]int{"big": 3, "cnn": 10}[w.Name]
		if steps == 0 {
			steps = 50
		}
		tr := workloadTrainer(t, w)
		h := fnv.New64a()
		put := func(v float64) {
			h.Write(binary.LittleEndian.AppendUint64(nil, math.Float64bits(v)))
		}
		for range steps {
			loss, err := tr.Step()
			if err != nil {
				t.Fatal(err)
			}
			put(loss)
		}
		for _, p := range tr.Model().Params {
			for _, v := range p.Data {
				put(v)
			}
		}
		if got := h.Sum64(); got != want[w.Name] {
			t.Errorf("%s: %d steps give hash %#x, want %#x", w.Name, steps, got, want[w.Name])
		}
	}
}
