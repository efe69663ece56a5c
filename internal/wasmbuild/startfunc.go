package wasmbuild

import (
	"errors"
	"strconv"
)

// The sections addStartFunc reads or writes, besides the data section.
const (
	typeSection     = 1
	importSection   = 2
	functionSection = 3
	startSection    = 8
	codeSection     = 10
)

// addStartFunc returns wasm with a function added after its own, of type
// [] → [] and with body (its locals, then its instructions and end), made
// the module's start function: the one a module runs as it is
// instantiated, after its data is in memory. The function's type is
// reused or added at the end of the types; every index the module
// already has stays as it was. A module with a start function already
// gets an error.
func addStartFunc(wasm, body []byte) ([]byte, error) {
	secs, err := readSections(wasm)
	if err != nil {
		return nil, err
	}
	var (
		imported, defined uint64 // functions
		typeIdx           = -1
	)
	for i, s := range secs {
		switch s.id {
		case typeSection:
			secs[i].body, typeIdx, err = withVoidType(s.body)
		case importSection:
			imported, err = importedFunctions(s.body)
		case functionSection:
			r := wasmReader{b: s.body}
			defined = r.uleb()
			b := append(appendUleb(nil, defined+1), s.body[r.off:]...)
			secs[i].body = appendUleb(b, uint64(typeIdx)) // the type section came first
			err = r.err
		case startSection:
			err = errors.New("the module has a start function already")
		case codeSection:
			r := wasmReader{b: s.body}
			n := r.uleb()
			b := append(appendUleb(nil, n+1), s.body[r.off:]...)
			secs[i].body = append(appendUleb(b, uint64(len(body))), body...)
			err = r.err
		}
		if err != nil {
			return nil, err
		}
	}
	if typeIdx < 0 || defined == 0 {
		return nil, errors.New("the module has no type or function section")
	}
	fn := appendUleb(nil, imported+defined)
	out := append(make([]byte, 0, len(wasm)+len(body)+64), wasm[:8]...)
	started := false
	for _, s := range secs {
		// The start section comes after the exports, before the rest.
		if !started && s.id != 0 && s.id > startSection {
			out, started = appendSection(out, startSection, fn), true
		}
		out = appendSection(out, s.id, s.body)
	}
	if !started {
		out = appendSection(out, startSection, fn)
	}
	return out, nil
}

// section is one section of a module: its id and body.
type section struct {
	id   byte
	body []byte
}

// readSections splits a module into its sections, their bodies aliasing
// wasm.
func readSections(wasm []byte) ([]section, error) {
	var secs []section
	for r := (wasmReader{b: wasm, off: 8}); r.off < len(wasm); {
		id := r.byte()
		body := r.bytes(int(r.uleb()))
		if r.err != nil {
			return nil, r.err
		}
		secs = append(secs, section{id, body})
	}
	return secs, nil
}

// appendSection appends a section of the given id and body.
func appendSection(out []byte, id byte, body []byte) []byte {
	out = appendUleb(append(out, id), uint64(len(body)))
	return append(out, body...)
}

// withVoidType returns the type section body with a function type of no
// parameters and no results in it (added at the end if it has none), and
// that type's index.
func withVoidType(body []byte) ([]byte, int, error) {
	r := wasmReader{b: body}
	n := r.uleb()
	types := r.off
	for i := uint64(0); i < n && r.err == nil; i++ {
		if form := r.byte(); form != 0x60 && r.err == nil {
			return nil, 0, errors.New("type " + strconv.FormatUint(i, 10) + " is not a function type")
		}
		params := r.bytes(int(r.uleb()))
		results := r.bytes(int(r.uleb()))
		for _, vs := range [][]byte{params, results} {
			for _, v := range vs {
				if v < 0x7b || v > 0x7f {
					return nil, 0, errors.New("type " + strconv.FormatUint(i, 10) + " has a value type other than a number")
				}
			}
		}
		if r.err == nil && len(params) == 0 && len(results) == 0 {
			return body, int(i), nil
		}
	}
	if r.err != nil {
		return nil, 0, r.err
	}
	out := append(appendUleb(nil, n+1), body[types:]...)
	return append(out, 0x60, 0, 0), int(n), nil
}

// importedFunctions counts the functions an import section imports, which
// come before the module's own in the function index space.
func importedFunctions(body []byte) (uint64, error) {
	r := wasmReader{b: body}
	n := r.uleb()
	funcs := uint64(0)
	limits := func() {
		flags := r.byte()
		r.uleb() // the minimum
		if flags&1 != 0 {
			r.uleb() // the maximum
		}
	}
	for i := uint64(0); i < n && r.err == nil; i++ {
		r.bytes(int(r.uleb())) // module
		r.bytes(int(r.uleb())) // name
		switch kind := r.byte(); kind {
		case 0: // a function: its type
			r.uleb()
			funcs++
		case 1: // a table: its element type and limits
			r.byte()
			limits()
		case 2: // a memory
			limits()
		case 3: // a global: its type and mutability
			r.byte()
			r.byte()
		default:
			if r.err == nil {
				return 0, errors.New("import " + strconv.FormatUint(i, 10) + " is of unknown kind " + strconv.Itoa(int(kind)))
			}
		}
	}
	return funcs, r.err
}
