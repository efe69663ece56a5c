package wasmbuild

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// module writes a module holding secs.
func module(secs ...section) []byte {
	b := []byte("\x00asm\x01\x00\x00\x00")
	for _, s := range secs {
		b = appendSection(b, s.id, s.body)
	}
	return b
}

// sections splits a module into its sections.
func sections(tb testing.TB, wasm []byte) []section {
	tb.Helper()
	secs, err := readSections(wasm)
	if err != nil {
		tb.Fatal(err)
	}
	return secs
}

// activeSegment writes an active segment of memory 0 at offset.
func activeSegment(offset int32, data string) []byte {
	b := []byte{0, opI32Const}
	b = appendSleb(b, int64(offset))
	b = append(b, opEnd)
	b = appendUleb(b, uint64(len(data)))
	return append(b, data...)
}

// dataSectionOf writes a data section holding the given encoded segments.
func dataSectionOf(segs ...[]byte) section {
	body := appendUleb(nil, uint64(len(segs)))
	for _, s := range segs {
		body = append(body, s...)
	}
	return section{dataSection, body}
}

// memoryImage returns the memory the module's data section initialises,
// segments applied in their order, and how many segments it has.
func memoryImage(tb testing.TB, wasm []byte) ([]byte, int) {
	tb.Helper()
	var image []byte
	n := 0
	for _, s := range sections(tb, wasm) {
		if s.id != dataSection {
			continue
		}
		segs, err := readSegments(s.body)
		if err != nil {
			tb.Fatal(err)
		}
		for _, seg := range segs {
			if end := int(seg.end()); end > len(image) {
				image = append(image, make([]byte, end-len(image))...)
			}
			copy(image[seg.offset:], seg.data)
		}
		n += len(segs)
	}
	return image, n
}

// checkSameProgram fails unless merged initialises the same memory as
// orig and has the same sections other than data, in the same order.
func checkSameProgram(tb testing.TB, orig, merged []byte) {
	tb.Helper()
	a, b := sections(tb, orig), sections(tb, merged)
	if len(a) != len(b) {
		tb.Fatalf("%d sections after merging, want %d", len(b), len(a))
	}
	for i := range a {
		if a[i].id != b[i].id || a[i].id != dataSection && !bytes.Equal(a[i].body, b[i].body) {
			tb.Errorf("section %d (id %d) changed: id %d, %d bytes, was %d bytes", i, a[i].id, b[i].id, len(b[i].body), len(a[i].body))
		}
	}
	// Past the last segment memory is zero too: the images are compared
	// without their trailing zeros.
	imA, _ := memoryImage(tb, orig)
	imB, _ := memoryImage(tb, merged)
	imA, imB = bytes.TrimRight(imA, "\x00"), bytes.TrimRight(imB, "\x00")
	if !bytes.Equal(imA, imB) {
		tb.Errorf("memory image differs: %d bytes, was %d", len(imB), len(imA))
	}
}

func TestMergeDataSegments(t *testing.T) {
	types := section{1, []byte{1, 0x60, 0, 0}} // one type: func() -> ()
	custom := section{0, append([]byte{4}, "name\x01\x02\x03"...)}
	tests := []struct {
		name     string
		segs     [][]byte
		gap      int
		segments int // after merging
	}{
		{"one segment", [][]byte{activeSegment(16, "abc")}, 64, 1},
		{"out of order, close", [][]byte{activeSegment(100, "late"), activeSegment(10, "early"), activeSegment(40, "mid")}, 64, 1},
		{"gap exactly the limit", [][]byte{activeSegment(0, "ab"), activeSegment(2+8, "cd")}, 8, 1},
		{"gap one more than the limit", [][]byte{activeSegment(0, "ab"), activeSegment(2+9, "cd")}, 8, 2},
		{"adjacent", [][]byte{activeSegment(5, "ab"), activeSegment(7, "cd")}, 0, 1},
		{"two runs", [][]byte{activeSegment(0, "a"), activeSegment(4, "b"), activeSegment(5000, "c"), activeSegment(5003, "d")}, 16, 2},
		{"empty segment", [][]byte{activeSegment(0, "a"), activeSegment(3, ""), activeSegment(200, "b")}, 16, 2},
		{"offset needing five LEB bytes", [][]byte{activeSegment(1<<30, "x"), activeSegment(1<<30+2, "y")}, 16, 1},
		{"no segments", nil, 64, 0},
		{"zeros alone", [][]byte{activeSegment(0, "\x00\x00\x00\x00")}, 0, 0},
		{"zeros at the ends", [][]byte{activeSegment(8, "\x00\x00a\x00b\x00\x00")}, 0, 2},
		{"a long run of zeros inside", [][]byte{activeSegment(0, "a"+strings.Repeat("\x00", 9)+"b")}, 8, 2},
		{"a run of zeros as long as the limit inside", [][]byte{activeSegment(0, "a"+strings.Repeat("\x00", 8)+"b")}, 8, 1},
		{"a piece joining the next segment", [][]byte{activeSegment(0, "a"+strings.Repeat("\x00", 20)+"b\x00"), activeSegment(24, "c")}, 8, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			orig := module(types, dataSectionOf(tt.segs...), custom)
			merged, err := MergeDataSegments(orig, tt.gap)
			if err != nil {
				t.Fatal(err)
			}
			checkSameProgram(t, orig, merged)
			if _, n := memoryImage(t, merged); n != tt.segments {
				t.Errorf("%d segments after merging, want %d", n, tt.segments)
			}
		})
	}
}

func TestMergeDataSegmentsRefuses(t *testing.T) {
	passive := append([]byte{1}, appendUleb(nil, 2)...)
	passive = append(passive, "hi"...)
	globalOffset := []byte{0, 0x23, 0, opEnd, 1, 'x'} // global.get 0
	tests := []struct {
		name string
		wasm []byte
		want string
	}{
		{"not wasm", []byte("hello, world"), "not a WebAssembly module"},
		{"passive segment", module(dataSectionOf(activeSegment(0, "a"), passive)), "data segment 1 is not an active segment"},
		{"offset from a global", module(dataSectionOf(globalOffset)), "data segment 0's offset is not an i32.const"},
		{"overlap", module(dataSectionOf(activeSegment(0, "abcd"), activeSegment(2, "xy"))), "overlap at address 2"},
		{"data count section", module(section{dataCountSection, []byte{1}}, dataSectionOf(activeSegment(0, "a"))), "data count section"},
		{"truncated", module(dataSectionOf(activeSegment(0, "abc")))[:20], "malformed module"},
		{"bytes after the segments", module(section{dataSection, []byte{0, 7}}), "1 bytes after its last segment"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := MergeDataSegments(tt.wasm, 64)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got error %v, want one containing %q", err, tt.want)
			}
		})
	}
}

// datademoOutput is what testdata/datademo prints.
const datademoOutput = "sparse sum 28629\n" +
	"layers: [\"linear\" \"conv\" \"dropout\"]\n" +
	"ops: [\"matmul\" \"relu\" \"tanh\" \"softmax\"]\n" +
	"{X:1.5 Y:-2.25 Name:p}\n"

// TestMergeDataSegmentsGoProgram builds a small Go program for js/wasm the
// way the playground is built, merges its data segments and runs both
// binaries under node: they print the same, from the same memory image.
func TestMergeDataSegmentsGoProgram(t *testing.T) {
	node, libWasm := jsTools(t)
	dir := t.TempDir()
	orig := buildJS(t, BuildArgs("./testdata/datademo", filepath.Join(dir, "demo.wasm"), false))
	merged, err := MergeDataSegments(orig, DataGap)
	if err != nil {
		t.Fatal(err)
	}
	checkSameProgram(t, orig, merged)
	_, before := memoryImage(t, orig)
	_, after := memoryImage(t, merged)
	if after >= before/2 {
		t.Errorf("%d data segments merged into %d, want fewer than half", before, after)
	}
	t.Logf("%d data segments merged into %d; %d bytes, was %d", before, after, len(merged), len(orig))

	runner := filepath.Join(libWasm, "wasm_exec_node.js")
	run := func(wasm []byte, name string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, wasm, 0o644); err != nil {
			t.Fatal(err)
		}
		out, err := exec.CommandContext(context.Background(), node, runner, path).CombinedOutput()
		if err != nil {
			t.Fatalf("running %s: %v\n%s", name, err, out)
		}
		return string(out)
	}
	want := datademoOutput
	if got := run(orig, "orig.wasm"); got != want {
		t.Errorf("the program as linked printed\n%s\nwant\n%s", got, want)
	}
	if got := run(merged, "merged.wasm"); got != want {
		t.Errorf("the program with merged data segments printed\n%s\nwant\n%s", got, want)
	}
}
