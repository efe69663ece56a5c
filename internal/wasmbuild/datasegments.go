package wasmbuild

import (
	"cmp"
	"errors"
	"slices"
	"strconv"
)

// DataGap is the longest run of zero bytes the playground's build writes
// out in its data section. Go's linker starts a new segment at every run
// of more than 8 zero bytes, which gives the playground about 100,000
// segments whose headers compress poorly; the longer runs, which the
// cuts after the link make too (StripLineTables, StripFuncNames,
// ComputeFindfunctab), cost the download nothing once compressed but
// cost the browser the time to receive, copy and hand them to the
// compiler. bench/README.md has the sizes each gap gives.
const DataGap = 256

// MergeDataSegments returns the WebAssembly module wasm with its data
// section rewritten so that it writes the same bytes to memory in fewer
// segments and without long runs of zeros: its active segments, taken in
// address order, are cut at every run of more than gap zero bytes and
// lose the zeros at their ends, and the pieces become one segment
// wherever the gap between them is at most gap bytes, the gap written out
// as zeros. A module's memory starts out zeroed, so the memory the
// module starts with is byte for byte the same; every other section is
// copied unchanged, in its place. The segments are written in address
// order, each starting and ending with a byte that is not zero.
//
// It handles what Go's linker writes: active segments of memory 0 whose
// offset is an i32.const. A module with a passive segment, an offset of
// another form, overlapping segments (the later one would win) or a data
// count section gets an error naming it, and wasm is not changed; so does
// a module that is not well formed.
func MergeDataSegments(wasm []byte, gap int) ([]byte, error) {
	if len(wasm) < 8 || string(wasm[:4]) != "\x00asm" {
		return nil, errors.New("not a WebAssembly module (no \\0asm magic)")
	}
	out := make([]byte, 0, len(wasm)+len(wasm)/4)
	out = append(out, wasm[:8]...)
	for r := (wasmReader{b: wasm, off: 8}); r.off < len(wasm); {
		start := r.off
		id := r.byte()
		body := r.bytes(int(r.uleb()))
		if r.err != nil {
			return nil, r.err
		}
		switch id {
		case dataCountSection:
			return nil, errors.New("the module has a data count section (bulk-memory segments), which merging would renumber")
		case dataSection:
			segs, err := readSegments(body)
			if err != nil {
				return nil, err
			}
			merged, err := mergeSegments(segs, gap)
			if err != nil {
				return nil, err
			}
			out = appendDataSection(out, merged)
		default:
			out = append(out, wasm[start:r.off]...)
		}
	}
	return out, nil
}

const (
	dataSection      = 11
	dataCountSection = 12
)

// segment is an active data segment of memory 0: data goes at offset.
type segment struct {
	offset uint32
	data   []byte
}

// end returns the address just past the segment.
func (s segment) end() uint64 { return uint64(s.offset) + uint64(len(s.data)) }

// readSegments reads a data section's body.
func readSegments(body []byte) ([]segment, error) {
	r := wasmReader{b: body}
	n := r.uleb()
	segs := make([]segment, 0, min(n, uint64(len(body))))
	for i := uint64(0); i < n && r.err == nil; i++ {
		where := "data segment " + strconv.FormatUint(i, 10)
		if flag := r.uleb(); flag != 0 && r.err == nil {
			return nil, errors.New(where + " is not an active segment of memory 0 (flag " + strconv.FormatUint(flag, 10) + ")")
		}
		if op := r.byte(); op != opI32Const && r.err == nil {
			return nil, errors.New(where + "'s offset is not an i32.const")
		}
		offset := uint32(r.sleb32())
		if op := r.byte(); op != opEnd && r.err == nil {
			return nil, errors.New(where + "'s offset is more than one i32.const")
		}
		data := r.bytes(int(r.uleb()))
		segs = append(segs, segment{offset, data})
	}
	if r.err == nil && r.off != len(body) {
		return nil, errors.New("the data section has " + strconv.Itoa(len(body)-r.off) + " bytes after its last segment")
	}
	return segs, r.err
}

// mergeSegments sorts segs by address, cuts them at runs of more than
// gap zeros and trims their zeros, and joins the pieces at most gap
// bytes apart.
func mergeSegments(segs []segment, gap int) ([]segment, error) {
	segs = slices.Clone(segs)
	slices.SortStableFunc(segs, func(a, b segment) int { return cmp.Compare(a.offset, b.offset) })
	var pieces []segment
	for i, s := range segs {
		if i > 0 && uint64(s.offset) < segs[i-1].end() {
			return nil, errors.New("data segments overlap at address " + strconv.FormatUint(uint64(s.offset), 10))
		}
		pieces = appendPieces(pieces, s, gap)
	}
	var merged []segment
	for i := 0; i < len(pieces); {
		// pieces[i:j] become one segment.
		j, end := i+1, pieces[i].end()
		for ; j < len(pieces) && uint64(pieces[j].offset)-end <= uint64(gap); j++ {
			end = pieces[j].end()
		}
		if j == i+1 {
			merged = append(merged, pieces[i])
			i = j
			continue
		}
		data := make([]byte, end-uint64(pieces[i].offset)) // zeros in the gaps
		for _, s := range pieces[i:j] {
			copy(data[s.offset-pieces[i].offset:], s.data)
		}
		merged = append(merged, segment{pieces[i].offset, data})
		i = j
	}
	return merged, nil
}

// appendPieces appends the parts of s between its runs of more than gap
// zero bytes, each trimmed of its zeros at both ends.
func appendPieces(pieces []segment, s segment, gap int) []segment {
	start, last := -1, -1 // the piece's first and last byte that is not zero
	for i, c := range s.data {
		if c == 0 {
			continue
		}
		if start >= 0 && i-last-1 > gap {
			pieces = append(pieces, segment{s.offset + uint32(start), s.data[start : last+1]})
			start = -1
		}
		if start < 0 {
			start = i
		}
		last = i
	}
	if start >= 0 {
		pieces = append(pieces, segment{s.offset + uint32(start), s.data[start : last+1]})
	}
	return pieces
}

// appendDataSection appends a data section holding segs.
func appendDataSection(out []byte, segs []segment) []byte {
	body := appendUleb(nil, uint64(len(segs)))
	for _, s := range segs {
		body = append(body, 0, opI32Const)
		body = appendSleb(body, int64(int32(s.offset)))
		body = append(body, opEnd)
		body = appendUleb(body, uint64(len(s.data)))
		body = append(body, s.data...)
	}
	return appendSection(out, dataSection, body)
}

const (
	opI32Const = 0x41
	opEnd      = 0x0b
)

// wasmReader reads a module's bytes; its first error sticks, and every
// read after it returns zero.
type wasmReader struct {
	b   []byte
	off int
	err error
}

func (r *wasmReader) fail(what string) {
	if r.err == nil {
		r.err = errors.New("malformed module: " + what + " at byte " + strconv.Itoa(r.off))
	}
}

func (r *wasmReader) byte() byte {
	if r.err != nil || r.off >= len(r.b) {
		r.fail("unexpected end")
		return 0
	}
	r.off++
	return r.b[r.off-1]
}

// bytes returns the next n bytes.
func (r *wasmReader) bytes(n int) []byte {
	if r.err != nil || n < 0 || n > len(r.b)-r.off {
		r.fail("length past the end")
		return nil
	}
	r.off += n
	return r.b[r.off-n : r.off]
}

// uleb reads an unsigned LEB128 number of at most 32 bits.
func (r *wasmReader) uleb() uint64 {
	var v uint64
	for shift := 0; shift < 35; shift += 7 {
		b := r.byte()
		v |= uint64(b&0x7f) << shift
		if b < 0x80 {
			return v
		}
	}
	r.fail("over-long unsigned number")
	return 0
}

// sleb32 reads a signed LEB128 number of at most 32 bits.
func (r *wasmReader) sleb32() int32 {
	var v int64
	for shift := 0; shift < 35; shift += 7 {
		b := r.byte()
		v |= int64(b&0x7f) << shift
		if b < 0x80 {
			if b&0x40 != 0 {
				v |= -1 << (shift + 7) // sign-extend
			}
			return int32(v)
		}
	}
	r.fail("over-long signed number")
	return 0
}

// appendUleb appends v as unsigned LEB128.
func appendUleb(b []byte, v uint64) []byte {
	for v >= 0x80 {
		b = append(b, byte(v)|0x80)
		v >>= 7
	}
	return append(b, byte(v))
}

// appendSleb appends v as signed LEB128.
func appendSleb(b []byte, v int64) []byte {
	for {
		c := byte(v & 0x7f)
		v >>= 7
		if v == 0 && c&0x40 == 0 || v == -1 && c&0x40 != 0 {
			return append(b, c)
		}
		b = append(b, c|0x80)
	}
}
