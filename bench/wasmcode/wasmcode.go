// Package wasmcode reads a WebAssembly binary's sections and, when the
// binary keeps its name section (Go writes one unless linked with -s),
// attributes every function body's bytes to the Go package that defined
// it: where the bytes of a Go wasm binary go.
package wasmcode

import (
	"errors"
	"fmt"
	"sort"
	"strings"
)

// Section is one section of a module.
type Section struct {
	// Name is the section's kind ("code", "data", ...) or, for a custom
	// section, "custom:" and its own name.
	Name string
	// Size is the section's size in bytes, with its header.
	Size int
}

// Func is one function body of the code section.
type Func struct {
	Name string // from the name section; "" when the binary has none
	Code []byte // the body, as stored (locals and instructions)
}

// Module is a parsed module: its sections in order and its function
// bodies.
type Module struct {
	Size     int
	Sections []Section
	Funcs    []Func
	// Named reports whether the binary has a name section naming its
	// functions; without one, Packages has nothing to group by.
	Named bool
}

var sectionNames = [...]string{"custom", "type", "import", "function", "table", "memory",
	"global", "export", "start", "element", "code", "data", "datacount"}

// Parse reads a module. It fails on anything that is not a well-formed
// WebAssembly 1.0 binary, naming the offset at fault.
func Parse(b []byte) (*Module, error) {
	if len(b) < 8 || string(b[:4]) != "\x00asm" {
		return nil, errors.New("wasmcode: not a WebAssembly binary (no \\0asm magic)")
	}
	if v := b[4:8]; v[0] != 1 || v[1] != 0 || v[2] != 0 || v[3] != 0 {
		return nil, fmt.Errorf("wasmcode: WebAssembly version % x, want 01 00 00 00", v)
	}
	m := &Module{Size: len(b)}
	imported := 0
	var bodies [][]byte
	var names map[int]string
	for r := (reader{b: b, off: 8}); r.off < len(b); {
		start := r.off
		id := r.byte()
		size := r.uleb()
		if r.err != nil {
			return nil, r.err
		}
		if size > uint64(len(b)-r.off) {
			return nil, fmt.Errorf("wasmcode: section at offset %d: size %d runs past the end", start, size)
		}
		content := reader{b: b[:r.off+int(size)], off: r.off}
		r.off += int(size)
		name := "unknown"
		if int(id) < len(sectionNames) {
			name = sectionNames[id]
		}
		var err error
		switch id {
		case 0:
			var custom string
			custom, err = content.name()
			name += ":" + custom
			if err == nil && custom == "name" {
				names, err = functionNames(content)
			}
		case 2:
			imported, err = importedFuncs(content)
		case 10:
			bodies, err = codeBodies(content)
		}
		if err != nil {
			return nil, fmt.Errorf("wasmcode: %s section at offset %d: %w", name, start, err)
		}
		m.Sections = append(m.Sections, Section{Name: name, Size: r.off - start})
	}
	m.Named = len(names) > 0
	for i, body := range bodies {
		m.Funcs = append(m.Funcs, Func{Name: names[imported+i], Code: body})
	}
	return m, nil
}

// importedFuncs counts the function imports, which come before the
// module's own functions in the function index space.
func importedFuncs(r reader) (int, error) {
	n := r.uleb()
	funcs := 0
	for i := uint64(0); i < n && r.err == nil; i++ {
		r.name() // module
		r.name() // field
		switch kind := r.byte(); kind {
		case 0: // function: type index
			r.uleb()
			funcs++
		case 1: // table: element type and limits
			r.byte()
			r.limits()
		case 2: // memory: limits
			r.limits()
		case 3: // global: value type and mutability
			r.byte()
			r.byte()
		default:
			return 0, fmt.Errorf("import %d has kind %d", i, kind)
		}
	}
	return funcs, r.err
}

// codeBodies returns the function bodies of the code section.
func codeBodies(r reader) ([][]byte, error) {
	n := r.uleb()
	var bodies [][]byte
	for i := uint64(0); i < n && r.err == nil; i++ {
		size := r.uleb()
		if size > uint64(len(r.b)-r.off) {
			return nil, fmt.Errorf("body %d runs past the section", i)
		}
		bodies = append(bodies, r.b[r.off:r.off+int(size)])
		r.off += int(size)
	}
	return bodies, r.err
}

// functionNames reads the function-names subsection of a name section.
func functionNames(r reader) (map[int]string, error) {
	names := map[int]string{}
	for r.off < len(r.b) && r.err == nil {
		id := r.byte()
		size := r.uleb()
		if size > uint64(len(r.b)-r.off) {
			return nil, fmt.Errorf("name subsection %d runs past the section", id)
		}
		end := r.off + int(size)
		if id == 1 {
			sub := reader{b: r.b[:end], off: r.off}
			n := sub.uleb()
			for i := uint64(0); i < n && sub.err == nil; i++ {
				idx := sub.uleb()
				name, _ := sub.name()
				names[int(idx)] = name
			}
			if sub.err != nil {
				return nil, sub.err
			}
		}
		r.off = end
	}
	return names, r.err
}

// reader decodes the binary format's primitives; the first error sticks.
type reader struct {
	b   []byte
	off int
	err error
}

func (r *reader) fail() {
	if r.err == nil {
		r.err = fmt.Errorf("truncated at offset %d", r.off)
	}
}

func (r *reader) byte() byte {
	if r.err != nil || r.off >= len(r.b) {
		r.fail()
		return 0
	}
	c := r.b[r.off]
	r.off++
	return c
}

// uleb reads an unsigned LEB128 number of at most 64 bits.
func (r *reader) uleb() uint64 {
	var v uint64
	for shift := 0; shift < 64; shift += 7 {
		c := r.byte()
		if r.err != nil {
			return 0
		}
		v |= uint64(c&0x7f) << shift
		if c&0x80 == 0 {
			return v
		}
	}
	r.err = fmt.Errorf("a number at offset %d is longer than 64 bits", r.off)
	return 0
}

func (r *reader) name() (string, error) {
	n := r.uleb()
	if r.err == nil && n > uint64(len(r.b)-r.off) {
		r.fail()
	}
	if r.err != nil {
		return "", r.err
	}
	s := string(r.b[r.off : r.off+int(n)])
	r.off += int(n)
	return s, nil
}

func (r *reader) limits() {
	if r.byte()&1 != 0 {
		r.uleb()
	}
	r.uleb()
}

// Share is the code bytes of one package.
type Share struct {
	Package string
	Funcs   int
	Bytes   int
	Code    []byte // the bodies, in the binary's order
}

// Packages adds up the function bodies of m by the Go package that defined
// them, largest first (ties by name). The name section spells every name
// with the characters outside [A-Za-z0-9_.] replaced by "_", so
// "net/http.(*Server).Serve" reads "net_http.__Server_.Serve"; paths lists
// the import paths the binary was built from (`go list -deps`), which turn
// a name back into its package: the shortest prefix before a "." that is a
// listed path so spelled. A name no path matches (the linker's own
// functions, such as "type_.eq.…") counts under its text before the first
// ".", and a function without a name under "(unnamed)".
func (m *Module) Packages(paths []string) []Share {
	spelled := make(map[string]string, len(paths))
	for _, p := range paths {
		spelled[nameSection(p)] = p
	}
	by := map[string]*Share{}
	for _, f := range m.Funcs {
		p := packageOf(f.Name, spelled)
		s := by[p]
		if s == nil {
			s = &Share{Package: p}
			by[p] = s
		}
		s.Funcs++
		s.Bytes += len(f.Code)
		s.Code = append(s.Code, f.Code...)
	}
	out := make([]Share, 0, len(by))
	for _, s := range by {
		out = append(out, *s)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Bytes != out[j].Bytes {
			return out[i].Bytes > out[j].Bytes
		}
		return out[i].Package < out[j].Package
	})
	return out
}

// nameSection spells name as Go's linker writes it into the name section.
func nameSection(name string) string {
	b := []byte(name)
	for i, c := range b {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '.') {
			b[i] = '_'
		}
	}
	return string(b)
}

// packageOf returns the import path of the package that defined the
// function fn (as the name section spells it).
func packageOf(fn string, spelled map[string]string) string {
	if fn == "" {
		return "(unnamed)"
	}
	for i := 0; i < len(fn); i++ {
		if fn[i] == '.' {
			if p, ok := spelled[fn[:i]]; ok {
				return p
			}
		}
	}
	if i := strings.IndexByte(fn, '.'); i >= 0 {
		return fn[:i]
	}
	return fn
}
