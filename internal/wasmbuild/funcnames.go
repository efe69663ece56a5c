package wasmbuild

import (
	"bytes"
	"strings"
)

// StripFuncNames returns the WebAssembly module wasm, a Go program for
// js/wasm built from the module tapelab, with the names in its pclntab
// that no one reads set to zero. The names kept are those of
//
//   - the program's own functions (package main and the packages under
//     tapelab/), so that a traceback and debug.Stack still name each of
//     their frames;
//   - the runtime's, which it reads itself: a goroutine started in
//     package runtime is a system one (the scheduler and the deadlock
//     check count them apart), and a traceback hides "runtime." frames
//     but runtime.gopanic and the exported ones;
//   - reflect's and internal/reflectlite's: their panics name the method
//     called from the caller's frame (runtime.Callers, runtime.FuncForPC),
//     and the collector finds reflect's two assembly stubs by name;
//   - every function the runtime marks as special (its funcID is not 0),
//     such as a method wrapper, whose name runtime.panicwrap reads to say
//     which value method was called through a nil pointer.
//
// A name that only calls inlined into other functions have (no function's
// record has it) is read only through the inlining tables, which
// StripLineTables cuts but for wrappers': it is kept only for the
// program's own functions.
//
// The rest (the standard library's functions, type equality functions,
// generic instantiations outside the program) read as "": a traceback
// leaves such a frame out (it shows only names with a dot), and
// runtime.Frame.Function and runtime.FuncForPC(pc).Name() give "". A name
// goes whole: its bytes become zeros, and the records that refer to it get
// the name offset 0, which the runtime reads as no name. Nothing else
// changes: the module keeps its size, and differs from wasm only in bytes
// set to zero.
//
// It reads the pclntab as StripLineTables does, and fails where it would.
func StripFuncNames(wasm []byte) ([]byte, error) {
	return stripNames(wasm, nameRead)
}

// nameRead reports whether the name of a function is read, by the runtime
// or in a traceback of the program (see StripFuncNames). The function has
// the funcID funcID, or inlinedOnly is set when no function's record has
// the name.
func nameRead(name string, funcID byte, inlinedOnly bool) bool {
	if strings.HasPrefix(name, "main.") || strings.HasPrefix(name, "tapelab/") {
		return true
	}
	if inlinedOnly {
		return false
	}
	return funcID != funcIDNormal || strings.HasPrefix(name, "runtime.") ||
		strings.HasPrefix(name, "reflect.") || strings.HasPrefix(name, "internal/reflectlite.")
}

// stripNames zeroes, in a copy of wasm, every name of its pclntab's name
// table that keep rejects for every function whose record has it (or, for
// a name no record has, that keep rejects as inlinedOnly), and sets the
// records' offsets to the names cut to 0.
func stripNames(wasm []byte, keep func(name string, funcID byte, inlinedOnly bool) bool) ([]byte, error) {
	out, mem, tab, err := openPclntab(wasm)
	if err != nil {
		return nil, err
	}
	byName := map[uint64][]funcRecord{} // the records, by name offset
	for _, f := range tab.funcs {
		if f.name != 0 {
			byName[f.name] = append(byName[f.name], f)
		}
	}
	names := mem.image[tab.funcnames.addr:tab.funcnames.end()]
	for off := 0; off < len(names); {
		n := bytes.IndexByte(names[off:], 0)
		if n < 0 {
			n = len(names) - off
		}
		name := string(names[off : off+n])
		fs, hasRecord := byName[uint64(off)]
		kept := n == 0 || !hasRecord && keep(name, funcIDNormal, true)
		for _, f := range fs {
			kept = kept || keep(name, f.funcID, false)
		}
		if !kept {
			mem.zero(tab.funcnames.addr+uint64(off), uint64(n))
			for _, f := range fs {
				mem.zero(f.addr+funcName, 4)
			}
		}
		off += n + 1
	}
	return out, nil
}

// FuncNames returns the names of wasm's functions, one for each record
// of its pclntab in address order, as the runtime reads them ("" for a
// name that was cut).
func FuncNames(wasm []byte) ([]string, error) {
	mem, err := readMemory(wasm)
	if err != nil {
		return nil, err
	}
	tab, err := findPclntab(&mem)
	if err != nil {
		return nil, err
	}
	names := make([]string, len(tab.funcs))
	for i, f := range tab.funcs {
		if f.name == 0 {
			continue // the runtime reads offset 0 as no name
		}
		s := mem.image[tab.funcnames.addr+f.name : tab.funcnames.end()]
		if n := bytes.IndexByte(s, 0); n >= 0 {
			s = s[:n]
		}
		names[i] = string(s)
	}
	return names, nil
}
