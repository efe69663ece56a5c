package wasmbuild

import (
	"cmp"
	"errors"
	"slices"
	"strconv"
)

// DataGap is the largest run of zero bytes between two data segments that
// the playground's build fills in to make them one segment. Go's linker
// starts a new segment at every run of more than 8 zero bytes, which gives
// the playground about 100,000 segments whose headers compress poorly;
// bench/README.md has the sizes each gap gives.
const DataGap = 4096

// MergeDataSegments returns the WebAssembly module wasm with its data
// section rewritten: its active segments, taken in address order, become
// one segment wherever the gap between a segment's end and the next one's
// start is at most gap bytes, the gap written out as zeros. A module's
// memory starts out zeroed, so the memory the module starts with is
// byte for byte the same; every other section is copied unchanged, in its
// place. The merged segments are written in address order; a segment
// of zeros alone is left out (ComputeFindfunctab makes those).
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

// mergeSegments sorts segs by address and joins neighbours at most gap
// bytes apart.
func mergeSegments(segs []segment, gap int) ([]segment, error) {
	segs = slices.DeleteFunc(slices.Clone(segs), func(s segment) bool { return allZero(s.data) })
	slices.SortStableFunc(segs, func(a, b segment) int { return cmp.Compare(a.offset, b.offset) })
	var merged []segment
	for i := 0; i < len(segs); {
		// segs[i:j] become one segment.
		j, end := i+1, segs[i].end()
		for ; j < len(segs); j++ {
			next := uint64(segs[j].offset)
			if next < end {
				return nil, errors.New("data segments overlap at address " + strconv.FormatUint(next, 10))
			}
			if next-end > uint64(gap) {
				break
			}
			end = segs[j].end()
		}
		if j == i+1 {
			merged = append(merged, segs[i])
			i = j
			continue
		}
		data := make([]byte, end-uint64(segs[i].offset)) // zeros in the gaps
		for _, s := range segs[i:j] {
			copy(data[s.offset-segs[i].offset:], s.data)
		}
		merged = append(merged, segment{segs[i].offset, data})
		i = j
	}
	return merged, nil
}

// allZero reports whether every byte of b is zero.
func allZero(b []byte) bool {
	for _, c := range b {
		if c != 0 {
			return false
		}
	}
	return true
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
	out = append(out, dataSection)
	out = appendUleb(out, uint64(len(body)))
	return append(out, body...)
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
