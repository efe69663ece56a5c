package wasmbuild

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"errors"
	"slices"
	"strconv"
	"strings"
)

// StripLineTables returns the WebAssembly module wasm, a Go program for
// js/wasm, with the tables of its pclntab (the function table Go's
// runtime reads) that only tracebacks read set to zero. For every
// function, the runtime keeps tables that map a program counter to a
// value; the ones cut are
//
//   - pcfile and pcln, the source file and line (a traceback prints
//     "?:0" instead, and runtime.Caller reports no file or line), with
//     the function's start line, and the file names and compilation
//     units' file lists that only pcfile leads to (with each record's
//     offset into them);
//   - PCDATA_UnsafePoint, which only asynchronous preemption and the
//     debugger's call injection read, and neither exists on js/wasm;
//   - PCDATA_InlTreeIndex, which tells inlined calls apart: a traceback
//     shows the function they were inlined into instead. A wrapper's (any
//     function the runtime marks as special) is kept, because recover
//     reads it to count the frames between a panic and its recover. The
//     inlining tree it indexes (FUNCDATA_InlTree, outside the pclntab)
//     goes with it, the record's offset to it becoming 0: with no index
//     into it, the runtime never reads it.
//
// A cut table's offset in its function's record becomes 0 (the runtime
// then knows the function has no such table) and its bytes become zeros,
// unless another table that stays shares them: the stack pointer deltas
// (pcsp), the stack maps (PCDATA_StackMapIndex) and the rest are read to
// grow stacks, collect garbage and unwind panics, and stay byte for byte.
// Function names stay (StripFuncNames cuts some). Nothing
// else changes: the module keeps its size and its sections, and differs
// from wasm only in bytes that StripLineTables set to zero.
//
// It reads the pclntab as Go 1.20 and later write it for a 64-bit target
// (the magic 0xfffffff1) and checks it against the runtime's module data,
// which points to each of its parts. A module where no such table is
// found, or where anything in it does not read as expected (a future
// layout), gets an error, and wasm is not changed.
func StripLineTables(wasm []byte) ([]byte, error) {
	return stripTables(wasm, tracebackOnly)
}

// tracebackOnly reports whether the runtime reads a table of use u only
// to print tracebacks, for a function whose funcID is funcID.
func tracebackOnly(u tableUse, funcID byte) bool {
	switch u {
	case usePCFile, usePCLn, usePCData + pcdataUnsafePoint:
		return true
	case usePCData + pcdataInlTreeIndex:
		return funcID == funcIDNormal
	}
	return false
}

// tableUse names a table field of a function's record: pcsp, pcfile, pcln,
// or usePCData+k for pcdata[k].
type tableUse int

const (
	usePCSP tableUse = iota
	usePCFile
	usePCLn
	usePCData
)

// The pcdata indices of Go's internal/abi.
const (
	pcdataUnsafePoint   = 0
	pcdataStackMapIndex = 1
	pcdataInlTreeIndex  = 2
)

// pcdataNames names the pcdata tables Go 1.26 writes, by index.
var pcdataNames = []string{"unsafe points", "stack maps", "inlining", "live arguments", "panic bounds"}

// String names the use as sizereport prints it.
func (u tableUse) String() string {
	switch {
	case u == usePCSP:
		return "pcsp"
	case u == usePCFile:
		return "pcfile"
	case u == usePCLn:
		return "pcln"
	case int(u-usePCData) < len(pcdataNames):
		return "pcdata " + strconv.Itoa(int(u-usePCData)) + " (" + pcdataNames[u-usePCData] + ")"
	}
	return "pcdata " + strconv.Itoa(int(u-usePCData))
}

// funcIDNormal is the funcID of a function the runtime does not treat
// specially (internal/abi.FuncIDNormal).
const funcIDNormal = 0

// openPclntab copies wasm and finds, in the copy's memory image, the
// function table the Go linker wrote: what every cut after the link edits.
func openPclntab(wasm []byte) ([]byte, memory, pclntab, error) {
	out := slices.Clone(wasm)
	mem, err := readMemory(out)
	if err != nil {
		return nil, memory{}, pclntab{}, err
	}
	tab, err := findPclntab(&mem)
	if err != nil {
		return nil, memory{}, pclntab{}, err
	}
	return out, mem, tab, nil
}

// stripTables zeroes, in a copy of wasm, every table of its pclntab that
// cut selects and no other table shares, and sets the references to them
// to 0 (with a function's start line, when its pcln is cut).
func stripTables(wasm []byte, cut func(u tableUse, funcID byte) bool) ([]byte, error) {
	out, mem, tab, err := openPclntab(wasm)
	if err != nil {
		return nil, err
	}
	pctab := mem.image[tab.pctab.addr:tab.pctab.end()]
	keep := make([]bool, len(pctab)) // bytes of a table that stays
	drop := make([]bool, len(pctab)) // bytes of a table that is cut
	filesRead := false               // whether a pcfile table stays
	for _, f := range tab.funcs {
		for _, r := range f.refs {
			if r.table.n == 0 {
				continue
			}
			if !cut(r.use, f.funcID) {
				filesRead = filesRead || r.use == usePCFile
				for i := range r.table.n {
					keep[r.table.addr+i] = true
				}
				continue
			}
			for i := range r.table.n {
				drop[r.table.addr+i] = true
			}
			if r.use == usePCData+pcdataInlTreeIndex && f.inlTree != 0 {
				if err := cutInlTree(&mem, tab, f, r.table); err != nil {
					return nil, err
				}
			}
			mem.zero(r.field, 4)
			if r.use == usePCLn {
				mem.zero(f.addr+funcStartLine, 4)
			}
		}
	}
	if !filesRead {
		// The file names are read only through a pcfile table, which
		// gives the index of a file in the function's compilation unit.
		mem.zero(tab.cutab.addr, tab.cutab.n)
		mem.zero(tab.filetab.addr, tab.filetab.n)
		for _, f := range tab.funcs {
			mem.zero(f.addr+funcCUOffset, 4)
		}
	}
	for i := 0; i < len(pctab); {
		if !drop[i] || keep[i] {
			i++
			continue
		}
		j := i + 1
		for j < len(pctab) && drop[j] && !keep[j] {
			j++
		}
		mem.zero(tab.pctab.addr+uint64(i), uint64(j-i))
		i = j
	}
	return out, nil
}

// cutInlTree zeroes the inlining tree of f (its FUNCDATA_InlTree), whose
// inlining table, in pctab at table, is cut: with no table, the runtime
// finds no index into the tree and never reads it. It zeroes the entries
// the table indexes, and the field that points to them (an offset that no
// index goes with). Each entry must read as the runtime's inlinedCall, its
// name offset in the name table.
func cutInlTree(mem *memory, tab pclntab, f funcRecord, table span) error {
	n, err := tableMax(mem.image[tab.pctab.addr+table.addr : tab.pctab.addr+table.end()])
	if err != nil {
		return err
	}
	tree := span{tab.gofunc + uint64(mem.u32(f.inlTree)), uint64(n+1) * inlinedCallSize}
	if !mem.has(tree) {
		return errors.New("the function at " + strconv.FormatUint(f.addr, 10) + " has an inlining tree outside memory")
	}
	for e := tree.addr; e < tree.end(); e += inlinedCallSize {
		if mem.image[e+1]|mem.image[e+2]|mem.image[e+3] != 0 || uint64(mem.u32(e+4)) >= tab.funcnames.n {
			return errors.New("the inlining tree of the function at " + strconv.FormatUint(f.addr, 10) + " does not read as inlined calls")
		}
	}
	mem.zero(tree.addr, tree.n)
	mem.zero(f.inlTree, 4)
	return nil
}

// tableMax returns the largest value of the table t (-1 if it has none
// above the start value -1).
func tableMax(t []byte) (int64, error) {
	val, most := int64(-1), int64(-1)
	for first := true; ; first = false {
		uv, n := binary.Uvarint(t)
		if n <= 0 {
			return 0, errors.New("a table runs past its end")
		}
		if uv == 0 && !first {
			return most, nil
		}
		t = t[n:]
		if uv&1 != 0 {
			val -= int64(uv>>1) + 1
		} else {
			val += int64(uv >> 1)
		}
		most = max(most, val)
		if _, n = binary.Uvarint(t); n <= 0 {
			return 0, errors.New("a table runs past its end")
		}
		t = t[n:]
	}
}

// span is n bytes from addr.
type span struct{ addr, n uint64 }

func (s span) end() uint64 { return s.addr + s.n }

// memory is the linear memory a module's data section initialises.
type memory struct {
	image []byte    // the memory as the module starts, up to its last initialised byte
	segs  []segment // sorted by offset; their data alias the module's bytes
}

// maxImage bounds the memory readMemory builds: a Go program's data ends
// well below it.
const maxImage = 1 << 30

// readMemory reads the data section of wasm, whose segments' bytes it
// leaves in place so that zero changes wasm itself.
func readMemory(wasm []byte) (memory, error) {
	if len(wasm) < 8 || string(wasm[:4]) != "\x00asm" {
		return memory{}, errors.New("not a WebAssembly module (no \\0asm magic)")
	}
	var mem memory
	for r := (wasmReader{b: wasm, off: 8}); r.off < len(wasm); {
		id := r.byte()
		body := r.bytes(int(r.uleb()))
		if r.err != nil {
			return memory{}, r.err
		}
		if id != dataSection {
			continue
		}
		segs, err := readSegments(body)
		if err != nil {
			return memory{}, err
		}
		mem.segs = append(mem.segs, segs...)
	}
	slices.SortStableFunc(mem.segs, func(a, b segment) int { return cmp.Compare(a.offset, b.offset) })
	end := uint64(0)
	for _, s := range mem.segs {
		if uint64(s.offset) < end {
			return memory{}, errors.New("data segments overlap at address " + strconv.FormatUint(uint64(s.offset), 10))
		}
		end = s.end()
	}
	if end > maxImage {
		return memory{}, errors.New("the data segments reach address " + strconv.FormatUint(end, 10) + ", past 1 GiB")
	}
	mem.image = make([]byte, end, end+end/16)
	for _, s := range mem.segs {
		copy(mem.image[s.offset:], s.data)
	}
	return mem, nil
}

// zero sets n bytes from addr to zero in the image and in every segment
// that holds them.
func (m memory) zero(addr, n uint64) {
	clear(m.image[addr : addr+n])
	// The first segment that may end past addr: the segments before
	// it start, and so end, too early (segments do not overlap).
	i, _ := slices.BinarySearchFunc(m.segs, addr, func(s segment, a uint64) int {
		return cmp.Compare(uint64(s.offset), a)
	})
	for i = max(i-1, 0); i < len(m.segs) && uint64(m.segs[i].offset) < addr+n; i++ {
		s := m.segs[i]
		lo, hi := max(addr, uint64(s.offset)), min(addr+n, s.end())
		if lo < hi {
			clear(s.data[lo-uint64(s.offset) : hi-uint64(s.offset)])
		}
	}
}

// u32 and u64 read little-endian numbers at addr, which the caller has
// checked are in the image.
func (m memory) u32(addr uint64) uint32 { return binary.LittleEndian.Uint32(m.image[addr:]) }
func (m memory) u64(addr uint64) uint64 { return binary.LittleEndian.Uint64(m.image[addr:]) }

// has reports whether s lies in memory (below maxImage), and makes the
// image hold it: the memory past the last segment is zero.
func (m *memory) has(s span) bool {
	if s.addr > maxImage || s.n > maxImage-s.addr {
		return false
	}
	if end := int(s.end()); end > len(m.image) {
		m.image = append(m.image, make([]byte, end-len(m.image))...)
	}
	return true
}

// pclntabMagic starts the pclntab of Go 1.20 and later (its magic
// 0xfffffff1, two zero pads, an instruction quantum of 1 byte as on wasm,
// 8-byte pointers).
var pclntabMagic = []byte{0xf1, 0xff, 0xff, 0xff, 0, 0, 1, 8}

// The layout of the runtime's pcHeader, moduledata and _func (64-bit).
const (
	headerSize       = 72
	headerNfunc      = 8
	headerFuncnames  = 32 // the offsets from the header of its parts, in order
	headerPclnOffset = 64

	moduleSlices = 8   // funcnametab, cutab, filetab, pctab, pclntable, ftab: {ptr, len, cap} each
	moduleGofunc = 320 // the address funcdata offsets are from
	moduleSize   = moduleGofunc + 8

	funcEntry     = 0
	funcName      = 4
	funcPCSP      = 16 // then pcfile, pcln
	funcNPCData   = 28
	funcCUOffset  = 32
	funcStartLine = 36
	funcFuncID    = 40
	funcNFuncData = 43
	funcPCData    = 44 // npcdata offsets, then nfuncdata

	funcdataInlTree = 3  // internal/abi.FUNCDATA_InlTree
	inlinedCallSize = 16 // runtime.inlinedCall: funcID, 3 unused bytes, nameOff, parentPc, startLine
)

// pclntab is the pclntab of a module, its parts as the runtime's module
// data gives them.
type pclntab struct {
	header                                 uint64
	moduledata                             uint64 // the address of the runtime's module data
	gofunc                                 uint64 // the address funcdata offsets are from
	funcnames, cutab, filetab, pctab, pcln span
	funcs                                  []funcRecord
}

// funcRecord is one function's record (_func) and the tables it refers to.
type funcRecord struct {
	addr    uint64
	name    uint64 // the offset of its name in the name table
	funcID  byte
	refs    []tableRef
	inlTree uint64 // the address of its FUNCDATA_InlTree field, or 0
}

// tableRef is one table field of a record: the address of the field and
// the table, as a span of pctab (n is 0 when there is none).
type tableRef struct {
	use   tableUse
	field uint64
	table span
}

// findPclntab finds the one pclntab in mem that the runtime's module data
// points to, and reads its function records.
func findPclntab(mem *memory) (pclntab, error) {
	var found []pclntab
	var why error
	for at := 0; ; at++ {
		i := bytes.Index(mem.image[at:], pclntabMagic)
		if i < 0 {
			break
		}
		at += i
		tab, err := readPclntab(mem, uint64(at))
		if err != nil {
			why = err
			continue
		}
		found = append(found, tab)
	}
	switch {
	case len(found) == 1:
		return found[0], nil
	case len(found) > 1:
		return pclntab{}, errors.New("the data holds " + strconv.Itoa(len(found)) + " Go function tables (pclntab)")
	case why != nil:
		return pclntab{}, why
	}
	return pclntab{}, errors.New("the data holds no Go function table (pclntab) of Go 1.20 or later for a 64-bit target")
}

// readPclntab reads the pclntab whose header is at addr.
func readPclntab(mem *memory, addr uint64) (pclntab, error) {
	where := "the pclntab at address " + strconv.FormatUint(addr, 10)
	if !mem.has(span{addr, headerSize}) {
		return pclntab{}, errors.New(where + " is cut short")
	}
	nfunc := mem.u64(addr + headerNfunc)
	if nfunc == 0 || nfunc > 1<<24 {
		return pclntab{}, errors.New(where + " counts " + strconv.FormatUint(nfunc, 10) + " functions")
	}
	md, err := findModuledata(mem, addr)
	if err != nil {
		return pclntab{}, errors.New(where + ": " + err.Error())
	}
	// Each part starts where the header says and is where the module
	// data's slice says, in order, without overlap.
	var parts [6]span
	last := uint64(headerSize)
	for k := range parts {
		off := mem.u64(addr + headerFuncnames + 8*uint64(min(k, 4)))
		slice := md + moduleSlices + 24*uint64(k)
		ptr, n, c := mem.u64(slice), mem.u64(slice+8), mem.u64(slice+16)
		if n > maxImage || c > maxImage {
			return pclntab{}, errors.New(where + ": part " + strconv.Itoa(k) + " of the module data is " + strconv.FormatUint(n, 10) + " long")
		}
		if k == 1 { // cutab is a []uint32
			n *= 4
			c *= 4
		}
		if k == 5 { // ftab is a []functab, at the start of pclntable
			if n != nfunc+1 {
				return pclntab{}, errors.New(where + ": its function index has " + strconv.FormatUint(n, 10) + " entries for " + strconv.FormatUint(nfunc, 10) + " functions")
			}
			n *= 8
			c *= 8
			last = parts[4].addr - addr
		}
		if off < last || ptr != addr+off || n != c || !mem.has(span{ptr, n}) {
			return pclntab{}, errors.New(where + ": part " + strconv.Itoa(k) + " of its header does not match the module data")
		}
		parts[k] = span{ptr, n}
		last = off + n
	}
	tab := pclntab{header: addr, moduledata: md, gofunc: mem.u64(md + moduleGofunc),
		funcnames: parts[0], cutab: parts[1], filetab: parts[2], pctab: parts[3], pcln: parts[4]}
	if ftab := parts[5]; ftab.end() > tab.pcln.end() {
		return pclntab{}, errors.New(where + ": its function index runs past its function records")
	}
	tab.funcs = make([]funcRecord, nfunc)
	sizes := map[uint64]uint64{} // table lengths by offset
	for i := range tab.funcs {
		f, err := readFunc(mem, tab, i, sizes)
		if err != nil {
			return pclntab{}, errors.New(where + ": function " + strconv.Itoa(i) + ": " + err.Error())
		}
		tab.funcs[i] = f
	}
	return tab, nil
}

// findModuledata returns the address of the one runtime module data that
// points to the pclntab header at addr.
func findModuledata(mem *memory, header uint64) (uint64, error) {
	var want [8]byte
	binary.LittleEndian.PutUint64(want[:], header)
	found := []uint64{}
	for at := uint64(0); at+8 <= uint64(len(mem.image)); at += 8 {
		if bytes.Equal(mem.image[at:at+8], want[:]) && mem.has(span{at, moduleSize}) &&
			mem.u64(at+moduleSlices) == header+mem.u64(header+headerFuncnames) {
			found = append(found, at)
		}
	}
	if len(found) != 1 {
		return 0, errors.New(strconv.Itoa(len(found)) + " runtime module data point to it, want 1")
	}
	return found[0], nil
}

// readFunc reads function i's record, and measures the tables it refers
// to (sizes caches their lengths by offset).
func readFunc(mem *memory, tab pclntab, i int, sizes map[uint64]uint64) (funcRecord, error) {
	entry := tab.pcln.addr + 8*uint64(i)
	off := uint64(mem.u32(entry + 4))
	if off < 8*uint64(len(tab.funcs)+1) || off+funcPCData > tab.pcln.n {
		return funcRecord{}, errors.New("its record's offset " + strconv.FormatUint(off, 10) + " is outside the function records")
	}
	addr := tab.pcln.addr + off
	npcdata, nfuncdata := uint64(mem.u32(addr+funcNPCData)), uint64(mem.image[addr+funcNFuncData])
	if npcdata > 16 || off+funcPCData+4*(npcdata+nfuncdata) > tab.pcln.n {
		return funcRecord{}, errors.New("its record (" + strconv.FormatUint(npcdata, 10) + " pcdata tables) runs past the function records")
	}
	if mem.u32(addr+funcEntry) != mem.u32(entry) {
		return funcRecord{}, errors.New("its record's entry does not match the function index")
	}
	// A name StripFuncNames cut has the offset 0.
	name := uint64(mem.u32(addr + funcName))
	if name >= tab.funcnames.n || name != 0 && mem.image[tab.funcnames.addr+name] == 0 {
		return funcRecord{}, errors.New("its record's name offset " + strconv.FormatUint(name, 10) + " names nothing")
	}
	f := funcRecord{addr: addr, name: name, funcID: mem.image[addr+funcFuncID]}
	if field := addr + funcPCData + 4*(npcdata+funcdataInlTree); nfuncdata > funcdataInlTree && mem.u32(field) != ^uint32(0) {
		f.inlTree = field
	}
	fields := []uint64{addr + funcPCSP, addr + funcPCSP + 4, addr + funcPCSP + 8}
	for k := range npcdata {
		fields = append(fields, addr+funcPCData+4*k)
	}
	pctab := mem.image[tab.pctab.addr:tab.pctab.end()]
	for k, field := range fields {
		r := tableRef{use: tableUse(k), field: field}
		if off := uint64(mem.u32(field)); off != 0 {
			n, ok := sizes[off]
			if !ok {
				var err error
				if n, err = tableLen(pctab, off); err != nil {
					return funcRecord{}, errors.New(r.use.String() + ": " + err.Error())
				}
				sizes[off] = n
			}
			r.table = span{off, n}
		}
		f.refs = append(f.refs, r)
	}
	return f, nil
}

// tableLen returns the length of the table at off in pctab: pairs of a
// value delta and a pc delta (varints), ended by a zero value delta
// after the first pair.
func tableLen(pctab []byte, off uint64) (uint64, error) {
	if off >= uint64(len(pctab)) {
		return 0, errors.New("table offset " + strconv.FormatUint(off, 10) + " is past the end of pctab")
	}
	p := pctab[off:]
	i := 0
	for first := true; ; first = false {
		if i < len(p) && p[i] == 0 && !first {
			return uint64(i + 1), nil
		}
		for range 2 {
			_, n := binary.Uvarint(p[i:])
			if n <= 0 {
				return 0, errors.New("the table at offset " + strconv.FormatUint(off, 10) + " runs past the end of pctab")
			}
			i += n
		}
	}
}

// PclntabParts is how the bytes of a Go program's pclntab divide.
type PclntabParts struct {
	Header    int // the pclntab's header
	FuncNames int // the functions' names
	NamesCut  int // of FuncNames, the names StripFuncNames cut (zeros), with their terminators
	CUs       int // the compilation units' file lists
	Files     int // the file names
	Funcs     int // the function index and the functions' records (_func)
	PCTab     int // the tables that map a program counter to a value
	// Tables divides PCTab by the record fields that refer to each table
	// (a table several kinds of field share is counted once, under all of
	// them), largest first.
	Tables []TableBytes
	// Unreferenced is the bytes of PCTab no record refers to: the tables
	// StripLineTables cut, which are zeros.
	Unreferenced int
}

// TableBytes is the size of the tables that the same kinds of record field
// refer to: Fields names them, such as "pcsp" or "pcln + pcdata 1 (stack
// maps)".
type TableBytes struct {
	Fields string
	Bytes  int
}

// MeasurePclntab divides the pclntab of wasm, a Go program for js/wasm,
// into its parts. It reads the table as StripLineTables does, and fails
// where it would.
func MeasurePclntab(wasm []byte) (PclntabParts, error) {
	mem, err := readMemory(wasm)
	if err != nil {
		return PclntabParts{}, err
	}
	tab, err := findPclntab(&mem)
	if err != nil {
		return PclntabParts{}, err
	}
	p := PclntabParts{
		Header:    headerSize,
		FuncNames: int(tab.funcnames.n),
		CUs:       int(tab.cutab.n),
		Files:     int(tab.filetab.n),
		Funcs:     int(tab.pcln.n),
		PCTab:     int(tab.pctab.n),
	}
	names := mem.image[tab.funcnames.addr:tab.funcnames.end()]
	for i, b := range names {
		// Every zero but the terminator of a name that is there.
		if b == 0 && (i == 0 || names[i-1] == 0) {
			p.NamesCut++
		}
	}
	uses := map[uint64][]tableUse{} // by offset
	size := map[uint64]uint64{}
	for _, f := range tab.funcs {
		for _, r := range f.refs {
			if r.table.n != 0 && !slices.Contains(uses[r.table.addr], r.use) {
				uses[r.table.addr] = append(uses[r.table.addr], r.use)
				size[r.table.addr] = r.table.n
			}
		}
	}
	byFields := map[string]int{}
	referenced := 0
	for off, us := range uses {
		slices.Sort(us)
		names := make([]string, len(us))
		for i, u := range us {
			names[i] = u.String()
		}
		byFields[strings.Join(names, " + ")] += int(size[off])
		referenced += int(size[off])
	}
	for fields, n := range byFields {
		p.Tables = append(p.Tables, TableBytes{fields, n})
	}
	slices.SortFunc(p.Tables, func(a, b TableBytes) int {
		return cmp.Or(cmp.Compare(b.Bytes, a.Bytes), cmp.Compare(a.Fields, b.Fields))
	})
	p.Unreferenced = p.PCTab - referenced
	return p, nil
}
