package wasmbuild

import (
	"bytes"
	"slices"
	"strings"
	"testing"
)

func TestStripFuncNames(t *testing.T) {
	const wrapper = 21 // internal/abi.FuncIDWrapper
	funcs := []fakeFunc{
		{name: "main.main", pcsp: 1},
		{name: "strconv.Itoa", pcsp: 1},
		{name: "time.(*Duration).String", funcID: wrapper, pcsp: 1},
		{name: "runtime.gopanic", pcsp: 1},
		{name: "tapelab/engine/op.Lookup", pcsp: 1},
		{name: "reflect.Value.Bool", pcsp: 1},
		{name: "internal/reflectlite.Value.Len", pcsp: 1},
		{name: "type:.eq.[2]interface {}", pcsp: 1},
		{name: "slices.SortFunc[...]", pcsp: 25},
		{name: "runtime/debug.Stack", pcsp: 25},
	}
	inlined := []string{"strings.Index", "tapelab/engine/op.small", "runtime.add", "main.tiny"}
	ft := layOut(funcs, pcTables, inlined...)
	wasm := moduleOf(ft.image)
	orig := bytes.Clone(wasm)
	out, err := StripFuncNames(wasm)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(wasm, orig) {
		t.Error("StripFuncNames changed its input")
	}
	checkOnlyZeroed(t, orig, out)

	// What must change: the names cut and their records' name offsets.
	want := bytes.Clone(ft.image)
	names, cutBytes := headerAt+headerSize, 0
	for _, name := range append(slices.Collect(func(yield func(string) bool) {
		for _, f := range funcs {
			if !yield(f.name) {
				return
			}
		}
	}), inlined...) {
		if cut := []string{"strconv.Itoa", "type:.eq.[2]interface {}", "slices.SortFunc[...]", "runtime/debug.Stack", "strings.Index", "runtime.add"}; slices.Contains(cut, name) {
			clear(want[names : names+len(name)])
			cutBytes += len(name) + 1
			if i := slices.IndexFunc(funcs, func(f fakeFunc) bool { return f.name == name }); i >= 0 {
				clear(want[ft.records[i]+funcName : ft.records[i]+funcName+4])
			}
		}
		names += len(name) + 1
	}
	got, _ := memoryImage(t, out)
	got = append(got, make([]byte, len(want)-len(got))...)
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("byte at %#x is %#x, want %#x (was %#x)", i, got[i], want[i], ft.image[i])
		}
	}

	// The records read as the runtime reads them; the other cuts and the
	// measures still read the table; cutting again changes nothing.
	read, err := FuncNames(out)
	if err != nil {
		t.Fatal(err)
	}
	wantNames := []string{"" /* offset 0: no name to the runtime */, "", "time.(*Duration).String", "runtime.gopanic",
		"tapelab/engine/op.Lookup", "reflect.Value.Bool", "internal/reflectlite.Value.Len", "", "", ""}
	if !slices.Equal(read, wantNames) {
		t.Errorf("FuncNames gives %q, want %q", read, wantNames)
	}
	again, err := StripFuncNames(out)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(again, out) {
		t.Error("cutting the names twice gave another module")
	}
	if _, err := StripLineTables(out); err != nil {
		t.Errorf("StripLineTables after StripFuncNames: %v", err)
	}
	if p, err := MeasurePclntab(out); err != nil || p.FuncNames != names-headerAt-headerSize || p.NamesCut != cutBytes {
		t.Errorf("MeasurePclntab after StripFuncNames: %+v, %v", p, err)
	}
}

func TestStripFuncNamesRefuses(t *testing.T) {
	ft := layOut([]fakeFunc{{pcsp: 1}, {pcsp: 25}}, pcTables)
	clear(ft.image[headerAt+headerSize+len("main.fa\x00"):][:len("main.fb")]) // a name cut, its offset left
	_, err := StripFuncNames(module(dataSectionOf(activeSegment(0, string(ft.image)))))
	if err == nil || !strings.Contains(err.Error(), "function 1: its record's name offset 8 names nothing") {
		t.Errorf("got error %v, want one naming function 1's name", err)
	}
	if _, err := StripFuncNames([]byte("hello, world")); err == nil || !strings.Contains(err.Error(), "not a WebAssembly module") {
		t.Errorf("got error %v", err)
	}
}
