package wasmbuild

import (
	"bytes"
	"encoding/binary"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// fakeFunc is a function record of a hand-made pclntab: its table offsets
// into the pctab the test gives.
type fakeFunc struct {
	name               string // "main.fa", "main.fb", … when empty
	funcID             byte
	pcsp, pcfile, pcln uint32
	pcdata             []uint32
	inlined            int // entries in its inlining tree (FUNCDATA_InlTree), if any
}

// fakeTable is a hand-made pclntab laid out in memory from headerAt, with
// the runtime's module data after it.
type fakeTable struct {
	image                            []byte
	filetab, pctab, pcln, moduledata uint64   // addresses
	records                          []uint64 // address of each record
	trees                            []uint64 // address of each inlining tree (0 if none)
}

const headerAt = 0x1000

// layOut writes a pclntab holding funcs and pctab into a memory image,
// as Go's linker lays it out for js/wasm, with the names of functions
// that are only inlined after the functions' names.
func layOut(funcs []fakeFunc, pctab []byte, inlined ...string) fakeTable {
	le := binary.LittleEndian
	names := []byte{}
	var nameOffs []uint32
	for i, f := range funcs {
		nameOffs = append(nameOffs, uint32(len(names)))
		if f.name == "" {
			f.name = "main.f" + string(rune('a'+i))
		}
		names = append(names, f.name+"\x00"...)
	}
	for _, name := range inlined {
		names = append(names, name+"\x00"...)
	}
	cutab := []byte{0, 0, 0, 0}
	filetab := []byte("main.go\x00")
	align := func(n, a uint64) uint64 { return (n + a - 1) / a * a }

	var ft fakeTable
	offs := make([]uint64, 5) // funcnames, cutab, filetab, pctab, pcln from the header
	offs[0] = headerSize
	offs[1] = align(offs[0]+uint64(len(names)), 4)
	offs[2] = offs[1] + uint64(len(cutab))
	offs[3] = offs[2] + uint64(len(filetab))
	offs[4] = align(offs[3]+uint64(len(pctab)), 8)
	ft.filetab, ft.pctab, ft.pcln = headerAt+offs[2], headerAt+offs[3], headerAt+offs[4]

	var pcln []byte
	pcln = append(pcln, make([]byte, 8*(len(funcs)+1))...)
	treeBytes := 0
	for i, f := range funcs {
		le.PutUint32(pcln[8*i:], uint32(0x10*i))
		le.PutUint32(pcln[8*i+4:], uint32(len(pcln)))
		ft.records = append(ft.records, ft.pcln+uint64(len(pcln)))
		rec := make([]byte, funcPCData+4*len(f.pcdata), funcPCData+4*len(f.pcdata)+16)
		le.PutUint32(rec[funcEntry:], uint32(0x10*i))
		le.PutUint32(rec[funcName:], nameOffs[i])
		le.PutUint32(rec[funcPCSP:], f.pcsp)
		le.PutUint32(rec[funcPCSP+4:], f.pcfile)
		le.PutUint32(rec[funcPCSP+8:], f.pcln)
		le.PutUint32(rec[funcNPCData:], uint32(len(f.pcdata)))
		le.PutUint32(rec[funcCUOffset:], uint32(0x50+i)) // no CU is there: only zeros are checked
		le.PutUint32(rec[funcStartLine:], uint32(100+i))
		rec[funcFuncID] = f.funcID
		for k, off := range f.pcdata {
			le.PutUint32(rec[funcPCData+4*k:], off)
		}
		if f.inlined > 0 {
			// Funcdata 0 to 2 none, 3 the tree, from gofunc (laid out below).
			rec[funcNFuncData] = 4
			rec = le.AppendUint32(rec, ^uint32(0))
			rec = le.AppendUint32(rec, ^uint32(0))
			rec = le.AppendUint32(rec, ^uint32(0))
			rec = le.AppendUint32(rec, uint32(treeBytes))
			treeBytes += f.inlined * inlinedCallSize
		}
		pcln = append(pcln, rec...)
	}
	le.PutUint32(pcln[8*len(funcs):], uint32(0x10*len(funcs)))

	ft.moduledata = align(ft.pcln+uint64(len(pcln)), 8) + 64
	gofunc := ft.moduledata + moduleSize + 32
	ft.image = make([]byte, gofunc+uint64(treeBytes)+32)
	at := gofunc
	for _, f := range funcs {
		if f.inlined == 0 {
			ft.trees = append(ft.trees, 0)
			continue
		}
		ft.trees = append(ft.trees, at)
		for e := range f.inlined {
			// Each inlined call: funcID 0, the first name, a parent pc
			// and a start line.
			le.PutUint32(ft.image[at+8:], uint32(0x20+e))
			le.PutUint32(ft.image[at+12:], uint32(300+e))
			at += inlinedCallSize
		}
	}
	h := ft.image[headerAt:]
	copy(h, pclntabMagic)
	le.PutUint64(h[headerNfunc:], uint64(len(funcs)))
	le.PutUint64(h[16:], 1) // nfiles
	for k, off := range offs {
		le.PutUint64(h[headerFuncnames+8*k:], off)
	}
	copy(h[offs[0]:], names)
	copy(h[offs[1]:], cutab)
	copy(h[offs[2]:], filetab)
	copy(h[offs[3]:], pctab)
	copy(h[offs[4]:], pcln)

	md := ft.image[ft.moduledata:]
	le.PutUint64(md, headerAt)
	slice := func(k int, ptr, n uint64) {
		le.PutUint64(md[moduleSlices+24*k:], ptr)
		le.PutUint64(md[moduleSlices+24*k+8:], n)
		le.PutUint64(md[moduleSlices+24*k+16:], n)
	}
	slice(0, headerAt+offs[0], uint64(len(names)))
	slice(1, headerAt+offs[1], uint64(len(cutab)/4))
	slice(2, headerAt+offs[2], uint64(len(filetab)))
	slice(3, headerAt+offs[3], uint64(len(pctab)))
	slice(4, headerAt+offs[4], uint64(len(pcln)))
	slice(5, headerAt+offs[4], uint64(len(funcs)+1))
	le.PutUint64(md[moduleGofunc:], gofunc)
	return ft
}

// moduleOf writes a module whose data section initialises image, split
// as Go's linker splits it: a new segment after every run of more than
// 8 zero bytes, written last segment first.
func moduleOf(image []byte) []byte {
	var segs [][]byte
	for i := 0; i < len(image); {
		if image[i] == 0 {
			i++
			continue
		}
		j, zeros := i, 0
		for ; j < len(image) && zeros <= 8; j++ {
			if image[j] == 0 {
				zeros++
			} else {
				zeros = 0
			}
		}
		end := j - zeros
		segs = append([][]byte{activeSegment(int32(i), string(image[i:end]))}, segs...)
		i = j
	}
	return module(section{1, []byte{1, 0x60, 0, 0}}, dataSectionOf(segs...))
}

// pcTables is a pctab with tables at the offsets named below, each a
// value/pc delta pair or two and the terminating zero.
var pcTables = []byte{
	0,             // 0: no table
	0x02, 0x05, 0, // 1: sp
	0x04, 0x03, 0x02, 0x01, 0, // 4: file
	0x06, 0x81, 0x01, 0, // 9: line (a two-byte pc delta)
	0x01, 0x02, 0, // 13: unsafe points
	0x08, 0x04, 0, // 16: line of f0, stack maps of f1
	0x0a, 0x02, 0, // 19: inlining of f0
	0x0c, 0x02, 0, // 22: inlining of f1, a wrapper
	0x0e, 0x09, 0, // 25: sp of f1
	0x10, 0x01, 0, // 28: arguments of f0
}

func TestStripLineTables(t *testing.T) {
	funcs := []fakeFunc{
		{funcID: funcIDNormal, pcsp: 1, pcfile: 4, pcln: 16, pcdata: []uint32{13, 25, 19, 28}, inlined: 5},
		{funcID: 23, pcsp: 25, pcfile: 4, pcln: 9, pcdata: []uint32{0, 16, 22}, inlined: 6},
		{funcID: funcIDNormal, pcsp: 1, pcfile: 0, pcln: 9},
	}
	ft := layOut(funcs, pcTables)
	// What the cut must zero: the tables only tracebacks read, and the
	// fields that point to them, with the start lines; nothing else.
	want := bytes.Clone(ft.image)
	zero := func(addr uint64, n int) { clear(want[addr : addr+uint64(n)]) }
	for _, table := range []struct{ off, n int }{{4, 5}, {9, 4}, {13, 3}, {19, 3}} {
		zero(ft.pctab+uint64(table.off), table.n)
	}
	// With every pcfile cut, the file names and the compilation units'
	// file lists no one reads go too, with the records' CU offsets. The
	// inlining tree of f0, whose inlining table is cut, goes with the
	// field that points to it; f1's stays (table 22 is a wrapper's).
	zero(ft.filetab, len("main.go"))
	zero(ft.trees[0], 5*inlinedCallSize)
	zero(ft.records[0]+funcPCData+4*(4+funcdataInlTree), 4)
	for i, fields := range [][]uint64{
		{funcPCSP + 4, funcPCSP + 8, funcCUOffset, funcStartLine, funcPCData + 0, funcPCData + 8},
		{funcPCSP + 4, funcPCSP + 8, funcCUOffset, funcStartLine},
		{funcPCSP + 8, funcCUOffset, funcStartLine},
	} {
		for _, f := range fields {
			zero(ft.records[i]+f, 4)
		}
	}

	for _, tt := range []struct {
		name string
		wasm []byte
	}{
		{"one segment", module(dataSectionOf(activeSegment(0, string(ft.image))))},
		{"split as linked", moduleOf(ft.image)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			orig := bytes.Clone(tt.wasm)
			out, err := StripLineTables(tt.wasm)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(tt.wasm, orig) {
				t.Error("StripLineTables changed its input")
			}
			checkOnlyZeroed(t, orig, out)
			got, _ := memoryImage(t, out)
			got = append(got, make([]byte, len(want)-len(got))...)
			for i := range want {
				if got[i] != want[i] {
					t.Errorf("byte at %#x is %#x, want %#x (was %#x)", i, got[i], want[i], ft.image[i])
				}
			}
		})
	}
}

// TestStripLineTablesKeepsFiles checks that the file names stay while a
// function keeps its pcfile table.
func TestStripLineTablesKeepsFiles(t *testing.T) {
	ft := layOut([]fakeFunc{{pcsp: 1, pcfile: 4, pcln: 9}, {pcsp: 25, pcfile: 4, pcln: 16}}, pcTables)
	out, err := stripTables(moduleOf(ft.image), func(u tableUse, id byte) bool {
		return tracebackOnly(u, id) && u != usePCFile
	})
	if err != nil {
		t.Fatal(err)
	}
	got, _ := memoryImage(t, out)
	if files := got[ft.filetab : ft.filetab+uint64(len("main.go"))]; string(files) != "main.go" {
		t.Errorf("the file names are %q, want %q", files, "main.go")
	}
	for i, rec := range ft.records {
		if cu := binary.LittleEndian.Uint32(got[rec+funcCUOffset:]); cu != uint32(0x50+i) {
			t.Errorf("function %d: CU offset %#x, want %#x", i, cu, 0x50+i)
		}
	}
}

// checkOnlyZeroed fails unless out is orig with some bytes set to zero.
func checkOnlyZeroed(tb testing.TB, orig, out []byte) int {
	tb.Helper()
	if len(out) != len(orig) {
		tb.Fatalf("the module is %d bytes, was %d", len(out), len(orig))
	}
	n := 0
	for i := range orig {
		if out[i] != orig[i] {
			n++
			if out[i] != 0 {
				tb.Fatalf("byte %d is %#x, was %#x: not zeroed, changed", i, out[i], orig[i])
			}
		}
	}
	return n
}

func TestStripLineTablesRefuses(t *testing.T) {
	funcs := []fakeFunc{
		{pcsp: 1, pcfile: 4, pcln: 9, pcdata: []uint32{13, 16}},
		{pcsp: 25, pcfile: 4, pcln: 9},
	}
	le := binary.LittleEndian
	tests := []struct {
		name   string
		change func(ft fakeTable)
		want   string
	}{
		{"no pclntab", func(ft fakeTable) { ft.image[headerAt] = 0xf0 }, "holds no Go function table"},
		{"32-bit pointers", func(ft fakeTable) { ft.image[headerAt+7] = 4 }, "holds no Go function table"},
		{"no module data", func(ft fakeTable) { le.PutUint64(ft.image[ft.moduledata:], 8) }, "0 runtime module data point to it"},
		{"no functions", func(ft fakeTable) { le.PutUint64(ft.image[headerAt+headerNfunc:], 0) }, "counts 0 functions"},
		{"index of another length", func(ft fakeTable) { le.PutUint64(ft.image[ft.moduledata+moduleSlices+5*24+8:], 2) }, "function index has 2 entries for 2 functions"},
		{"part elsewhere", func(ft fakeTable) { le.PutUint64(ft.image[ft.moduledata+moduleSlices+3*24:], ft.pctab+1) }, "part 3 of its header does not match"},
		{"record outside", func(ft fakeTable) { le.PutUint32(ft.image[ft.pcln+4:], 1<<20) }, "function 0: its record's offset 1048576 is outside"},
		{"entry mismatch", func(ft fakeTable) { le.PutUint32(ft.image[ft.records[1]:], 7) }, "function 1: its record's entry does not match"},
		{"too many pcdata", func(ft fakeTable) { le.PutUint32(ft.image[ft.records[0]+funcNPCData:], 1000) }, "function 0: its record (1000 pcdata tables) runs past"},
		{"table offset out of bounds", func(ft fakeTable) { le.PutUint32(ft.image[ft.records[1]+funcPCSP:], 500) }, "function 1: pcsp: table offset 500 is past the end"},
		{"table without end", func(ft fakeTable) {
			clear(ft.image[ft.pctab+uint64(len(pcTables))-3 : ft.pctab+uint64(len(pcTables))])
			copy(ft.image[ft.pctab+uint64(len(pcTables))-3:], []byte{0x80, 0x80, 0x80})
			le.PutUint32(ft.image[ft.records[1]+funcPCSP:], uint32(len(pcTables)-3))
		}, "runs past the end of pctab"},
		{"name past the names", func(ft fakeTable) { le.PutUint32(ft.image[ft.records[0]+funcName:], 99) }, "name offset 99 names nothing"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ft := layOut(funcs, pcTables)
			tt.change(ft)
			_, err := StripLineTables(module(dataSectionOf(activeSegment(0, string(ft.image)))))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got error %v, want one containing %q", err, tt.want)
			}
		})
	}
	t.Run("two pclntabs", func(t *testing.T) {
		a, b := layOut(funcs, pcTables), layOut(funcs, pcTables)
		// b again, from an address of its own, its pointers moved along.
		shift := uint64(len(a.image))
		le.PutUint64(b.image[b.moduledata:], headerAt+shift)
		for k := range 6 {
			at := b.moduledata + moduleSlices + 24*uint64(k)
			le.PutUint64(b.image[at:], le.Uint64(b.image[at:])+shift)
		}
		two := append(bytes.Clone(a.image), b.image...)
		_, err := StripLineTables(module(dataSectionOf(activeSegment(0, string(two)))))
		if err == nil || !strings.Contains(err.Error(), "holds 2 Go function tables") {
			t.Errorf("got error %v, want one naming 2 tables", err)
		}
	})
	for _, tt := range []struct {
		name   string
		change func(ft fakeTable)
		want   string
	}{
		{"inlining tree misread", func(ft fakeTable) { ft.image[ft.trees[0]+2*inlinedCallSize+1] = 1 }, "does not read as inlined calls"},
		{"inlining tree name outside", func(ft fakeTable) { le.PutUint32(ft.image[ft.trees[0]+4:], 1000) }, "does not read as inlined calls"},
		{"inlining tree outside memory", func(ft fakeTable) {
			le.PutUint64(ft.image[ft.moduledata+moduleGofunc:], maxImage)
		}, "has an inlining tree outside memory"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ft := layOut([]fakeFunc{{pcsp: 1, pcdata: []uint32{0, 0, 19}, inlined: 5}}, pcTables)
			tt.change(ft)
			_, err := StripLineTables(module(dataSectionOf(activeSegment(0, string(ft.image)))))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got error %v, want one containing %q", err, tt.want)
			}
		})
	}
	t.Run("not wasm", func(t *testing.T) {
		if _, err := StripLineTables([]byte("hello, world")); err == nil || !strings.Contains(err.Error(), "not a WebAssembly module") {
			t.Errorf("got error %v", err)
		}
	})
}

// TestStripLineTablesGoProgram builds testdata/linedemo for js/wasm, as
// the playground is built and with the compiler's inlining everywhere,
// runs it under node as linked and after each of Finish's passes (the
// findfunctab computed and the data merged, the line tables cut, the
// names cut), and
// checks that it prints the same but for the file and line of each frame
// ("?:0" once cut) and, once the names are cut, the standard library's
// frames. Cuts that take what the runtime needs (the stack pointer deltas,
// the stack maps, the wrappers' inlining tables, the wrappers' and
// reflect's names) must make it fail.
func TestStripLineTablesGoProgram(t *testing.T) {
	node, libWasm := jsTools(t)
	runner := filepath.Join(libWasm, "wasm_exec_node.js")
	dir := t.TempDir()
	run := func(t *testing.T, wasm []byte, name string) (string, error) {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, wasm, 0o644); err != nil {
			t.Fatal(err)
		}
		out, err := exec.Command(node, runner, path).CombinedOutput()
		return string(out), err
	}
	want := "depth 5008\n" +
		"churn bad cells 0\n" +
		"pipeline 332833500\n" +
		"panic: boom\n" +
		"nil map: assignment to entry in nil map\n" +
		"index: runtime error: index out of range [5] with length 3\n" +
		"wrapper recovered through a wrapper\n" +
		"nested: not recovered by a nested call\n" +
		"nil value method: value method main.valued.String called using nil *valued pointer\n" +
		"nil value method: value method time.Duration.String called using nil *Duration pointer\n" +
		"reflect: reflect: call of reflect.Value.Bool on string Value\n"
	frames := "frame runtime/debug.Stack WHERE\n" +
		"frame main.stack WHERE\n" +
		"frame main.level2 WHERE\n" +
		"frame main.level1 WHERE\n" +
		"frame main.main WHERE\n" +
		"frame runtime/debug.Stack WHERE\n" +
		"frame main.stack WHERE\n" +
		"frame main.mapped.func1 WHERE\n" +
		"frame strings.Map WHERE\n" +
		"frame main.mapped WHERE\n" +
		"frame main.main WHERE\n"
	// Without the standard library's names, its frames are not shown.
	namedFrames := "frame main.stack ?:0\n" +
		"frame main.level2 ?:0\n" +
		"frame main.level1 ?:0\n" +
		"frame main.main ?:0\n" +
		"frame main.stack ?:0\n" +
		"frame main.mapped.func1 ?:0\n" +
		"frame main.mapped ?:0\n" +
		"frame main.main ?:0\n"
	want, wantNamed := want+frames, want+namedFrames
	where := regexp.MustCompile(`(?m) \S+\.go:\d+$`)

	for _, build := range []struct {
		name string
		args []string
	}{
		{"as the playground", BuildArgs("./testdata/linedemo", filepath.Join(dir, "page.wasm"), false)},
		{"inlined", []string{"build", "-trimpath", "-ldflags=-s -w", "-o", filepath.Join(dir, "inlined.wasm"), "./testdata/linedemo"}},
	} {
		t.Run(build.name, func(t *testing.T) {
			linked := buildJS(t, build.args)
			got, err := run(t, linked, "linked.wasm")
			if err != nil {
				t.Fatalf("the program as linked: %v\n%s", err, got)
			}
			if where.ReplaceAllString(got, " WHERE") != want || strings.Count(got, ".go:") != 11 {
				t.Fatalf("the program as linked printed\n%s\nwant\n%s(WHERE a file and line)", got, want)
			}

			_, merged := computeAndMerge(t, linked)
			stripped, err := StripLineTables(merged)
			if err != nil {
				t.Fatal(err)
			}
			zeroed := checkOnlyZeroed(t, merged, stripped)
			checkStripped(t, stripped)
			t.Logf("%d bytes zeroed of %d", zeroed, len(stripped))
			if zeroed < len(linked)/100 {
				t.Errorf("only %d bytes zeroed", zeroed)
			}
			got, err = run(t, stripped, "stripped.wasm")
			if err != nil {
				t.Fatalf("the program with its line tables cut: %v\n%s", err, got)
			}
			want, wantNamed := strings.ReplaceAll(want, "WHERE", "?:0"), wantNamed
			if build.name == "inlined" {
				// reflect's panic names the method from its caller's
				// frame: inlined, Value.Bool has none once the inlining
				// tables are cut. (The playground compiles reflect's
				// callers without inlining, but for the engine's step.)
				want = strings.Replace(want, "reflect.Value.Bool", "unknown method", 1)
				wantNamed = strings.Replace(wantNamed, "reflect.Value.Bool", "unknown method", 1)
			}
			if got != want {
				t.Errorf("the program with its line tables cut printed\n%s\nwant\n%s", got, want)
			}

			named, err := StripFuncNames(stripped)
			if err != nil {
				t.Fatal(err)
			}
			zeroed = checkOnlyZeroed(t, stripped, named)
			t.Logf("%d more bytes zeroed with the names", zeroed)
			if zeroed < len(linked)/1000 {
				t.Errorf("only %d bytes zeroed", zeroed)
			}
			got, err = run(t, named, "named.wasm")
			if err != nil {
				t.Fatalf("the program with its names cut too: %v\n%s", err, got)
			}
			if got != wantNamed {
				t.Errorf("the program with its names cut too printed\n%s\nwant\n%s", got, wantNamed)
			}
			// Finish, as every build of the page: the same passes, the
			// data merged last.
			finished := filepath.Join(dir, "finished.wasm")
			if err := os.WriteFile(finished, linked, 0o644); err != nil {
				t.Fatal(err)
			}
			var warnings strings.Builder
			if err := Finish(finished, &warnings); err != nil {
				t.Fatal(err)
			}
			if warnings.Len() > 0 {
				t.Errorf("Finish skipped a pass on this toolchain's module:\n%s", &warnings)
			}
			if out, err := exec.Command(node, runner, finished).CombinedOutput(); err != nil || string(out) != wantNamed {
				t.Errorf("the program as Finish leaves it: %v, printed\n%s\nwant\n%s", err, out, wantNamed)
			}
			for _, wrong := range []struct {
				name string
				keep func(name string, funcID byte, inlinedOnly bool) bool
			}{
				{"wrappers' names", func(n string, _ byte, inl bool) bool { return nameRead(n, funcIDNormal, inl) }},
				{"reflect's names", func(n string, id byte, inl bool) bool {
					return !strings.HasPrefix(n, "reflect.") && nameRead(n, id, inl)
				}},
			} {
				if wrong.name == "reflect's names" && build.name == "inlined" {
					continue // the method's name is gone already (above)
				}
				bad, err := stripNames(stripped, wrong.keep)
				if err != nil {
					t.Fatal(err)
				}
				got, err := run(t, bad, "wrong.wasm")
				if err == nil && got == wantNamed {
					t.Errorf("cutting %s too went unnoticed", wrong.name)
				} else {
					t.Logf("cutting %s too: %v, %q", wrong.name, err, firstLines(got, 14))
				}
			}

			// What must not be cut, and why the test would see it.
			for _, wrong := range []struct {
				name string
				cut  func(tableUse, byte) bool
			}{
				{"pcsp", func(u tableUse, id byte) bool { return tracebackOnly(u, id) || u == usePCSP }},
				{"stack maps", func(u tableUse, id byte) bool {
					return tracebackOnly(u, id) || u == usePCData+pcdataStackMapIndex
				}},
				{"every inlining table", func(u tableUse, id byte) bool {
					return tracebackOnly(u, id) || u == usePCData+pcdataInlTreeIndex
				}},
			} {
				if wrong.name == "every inlining table" && build.name != "inlined" {
					// Without inlining in main, no wrapper has a call
					// inlined into it, and recover never looks.
					continue
				}
				bad, err := stripTables(merged, wrong.cut)
				if err != nil {
					t.Fatal(err)
				}
				got, err := run(t, bad, "wrong.wasm")
				if err == nil && got == want {
					t.Errorf("cutting %s too went unnoticed", wrong.name)
				} else {
					t.Logf("cutting %s too: %v, %q", wrong.name, err, firstLines(got, 12))
				}
			}
		})
	}
}

// firstLines returns the first n lines of s.
func firstLines(s string, n int) string {
	lines := strings.SplitAfter(s, "\n")
	return strings.Join(lines[:min(n, len(lines))], "")
}

func TestMeasurePclntab(t *testing.T) {
	funcs := []fakeFunc{
		{funcID: funcIDNormal, pcsp: 1, pcfile: 4, pcln: 16, pcdata: []uint32{13, 25, 19, 28}},
		{funcID: 23, pcsp: 25, pcfile: 4, pcln: 9, pcdata: []uint32{0, 16, 22}},
		{funcID: funcIDNormal, pcsp: 1, pcfile: 0, pcln: 9},
	}
	wasm := moduleOf(layOut(funcs, pcTables).image)
	stripped, err := StripLineTables(wasm)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name         string
		wasm         []byte
		tables       []TableBytes
		unreferenced int
	}{
		{"as linked", wasm, []TableBytes{
			{"pcdata 2 (inlining)", 6},
			{"pcfile", 5},
			{"pcln", 4},
			{"pcdata 0 (unsafe points)", 3},
			{"pcdata 3 (live arguments)", 3},
			{"pcln + pcdata 1 (stack maps)", 3},
			{"pcsp", 3},
			{"pcsp + pcdata 1 (stack maps)", 3},
		}, 1},
		{"cut", stripped, []TableBytes{
			{"pcdata 1 (stack maps)", 3},
			{"pcdata 2 (inlining)", 3},
			{"pcdata 3 (live arguments)", 3},
			{"pcsp", 3},
			{"pcsp + pcdata 1 (stack maps)", 3},
		}, 16},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p, err := MeasurePclntab(tt.wasm)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(p.Tables, tt.tables) || p.Unreferenced != tt.unreferenced {
				t.Errorf("tables %v and %d bytes unreferenced, want %v and %d", p.Tables, p.Unreferenced, tt.tables, tt.unreferenced)
			}
			if p.Header != headerSize || p.FuncNames != 3*len("main.fa\x00") || p.CUs != 4 || p.Files != len("main.go\x00") ||
				p.PCTab != len(pcTables) || p.Funcs != 8*4+3*funcPCData+4*(4+3) {
				t.Errorf("parts %+v", p)
			}
		})
	}
}

// checkStripped fails unless no function of wasm's pclntab refers to a
// table that StripLineTables cuts.
func checkStripped(tb testing.TB, wasm []byte) {
	tb.Helper()
	p, err := MeasurePclntab(wasm)
	if err != nil {
		tb.Fatal(err)
	}
	for _, t := range p.Tables {
		if strings.Contains(t.Fields, "pcfile") || strings.Contains(t.Fields, "pcln") || strings.Contains(t.Fields, "pcdata 0 ") {
			tb.Errorf("%d bytes of tables referred to as %s: the line tables were not cut", t.Bytes, t.Fields)
		}
	}
}
