// Package deflate reads and writes raw DEFLATE streams (RFC 1951) that
// start from a preset dictionary, as share links do. It does what
// compress/flate's NewReaderDict and NewWriterDict do for a link, in a
// fraction of the code: the playground's wasm links it instead of
// compress/flate, which is 30 KB of its download at brotli quality 11.
// Compress keeps the whole input in memory (links are small) and writes one
// final block; Decompress reads any valid stream, compress/flate's included.
package deflate

import "errors"

// ErrShort reports a stream that ends before its final block does: the
// data was cut short.
var ErrShort = errors.New("the compressed data ends early")

// ErrTooLarge reports a stream that expands to more than the limit
// Decompress was given.
var ErrTooLarge = errors.New("the data expands past its limit")

// CorruptError reports a stream that is not valid DEFLATE; it names what
// is wrong.
type CorruptError string

func (e CorruptError) Error() string { return "corrupt compressed data: " + string(e) }

// The bases and extra bits of the length codes (257–285) and the distance
// codes (0–29), RFC 1951 section 3.2.5.
var (
	lengthBase  = [29]uint16{3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258}
	lengthExtra = [29]uint8{0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0}
	distBase    = [30]uint16{1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577}
	distExtra   = [30]uint8{0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13}
)

// codeOrder is the order in which a dynamic block lists the lengths of the
// code length code.
var codeOrder = [19]uint8{16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15}

// Decompress returns what packed expands to when it continues after dict
// (the preset dictionary: distances may reach back into it). It fails with
// ErrShort if packed ends before its final block, ErrTooLarge once the
// output would pass max bytes, and a CorruptError if packed is not DEFLATE.
// Bytes after the final block are ignored, as compress/flate ignores them.
func Decompress(packed, dict []byte, max int) ([]byte, error) {
	r := reader{in: packed, out: append([]byte(nil), dict...)}
	limit := len(dict) + max
	for last := false; !last; {
		last = r.bits(1) == 1
		var err error
		switch r.bits(2) {
		case 0:
			err = r.stored(limit)
		case 1:
			err = r.codes(&fixedLit, &fixedDist, limit)
		case 2:
			var lit, dist huffman
			if err = r.dynamic(&lit, &dist); err == nil {
				err = r.codes(&lit, &dist, limit)
			}
		default:
			err = CorruptError("a block of type 3")
		}
		if r.short {
			return nil, ErrShort
		}
		if err != nil {
			return nil, err
		}
	}
	return r.out[len(dict):], nil
}

// reader reads a stream's bits, least significant first, and keeps the
// output (after the dictionary) that distances refer back into. Reading
// past the end gives zero bits and sets short, which every caller checks
// before it trusts what it read.
type reader struct {
	in    []byte
	pos   int
	buf   uint32
	nbuf  uint
	short bool
	out   []byte
}

// bits returns the next n (at most 24) bits of the stream.
func (r *reader) bits(n uint) int {
	for r.nbuf < n {
		if r.pos == len(r.in) {
			r.short = true
			return 0
		}
		r.buf |= uint32(r.in[r.pos]) << r.nbuf
		r.pos++
		r.nbuf += 8
	}
	v := r.buf & (1<<n - 1)
	r.buf >>= n
	r.nbuf -= n
	return int(v)
}

// stored copies a stored block, which starts at the next byte boundary.
func (r *reader) stored(limit int) error {
	r.buf, r.nbuf = 0, 0
	if r.pos+4 > len(r.in) {
		r.short = true
		return nil
	}
	n := int(r.in[r.pos]) | int(r.in[r.pos+1])<<8
	if n^0xffff != int(r.in[r.pos+2])|int(r.in[r.pos+3])<<8 {
		return CorruptError("a stored block's length does not match its complement")
	}
	r.pos += 4
	if r.pos+n > len(r.in) {
		r.short = true
		return nil
	}
	if len(r.out)+n > limit {
		return ErrTooLarge
	}
	r.out = append(r.out, r.in[r.pos:r.pos+n]...)
	r.pos += n
	return nil
}

// huffman is a canonical Huffman code as RFC 1951 builds it from code
// lengths: how many codes have each length, and the symbols in code order.
type huffman struct {
	count  [16]uint16
	symbol []uint16
}

// build makes h the code of lengths and returns how many codes of the
// longest length are left unused: 0 for a complete code, more for an
// incomplete one, and a negative number for lengths no code can have.
func (h *huffman) build(lengths []uint8) int {
	h.count = [16]uint16{}
	for _, l := range lengths {
		h.count[l]++
	}
	left := 1
	for l := 1; l < 16; l++ {
		left = left<<1 - int(h.count[l])
		if left < 0 {
			return left
		}
	}
	var offs [16]uint16
	for l := 1; l < 15; l++ {
		offs[l+1] = offs[l] + h.count[l]
	}
	h.symbol = make([]uint16, len(lengths))
	for s, l := range lengths {
		if l != 0 {
			h.symbol[offs[l]] = uint16(s)
			offs[l]++
		}
	}
	return left
}

// symbol reads one symbol of h's code, or returns -1 for a code h does not
// have.
func (r *reader) symbol(h *huffman) int {
	code, first, index := 0, 0, 0
	for l := 1; l < 16; l++ {
		code |= r.bits(1)
		count := int(h.count[l])
		if code-first < count {
			return int(h.symbol[index+code-first])
		}
		index += count
		first = (first + count) << 1
		code <<= 1
	}
	return -1
}

// fixedLit and fixedDist are the codes of a fixed-code block.
var fixedLit, fixedDist = fixedCodes()

func fixedCodes() (lit, dist huffman) {
	var l [288]uint8
	for s := range l {
		l[s] = fixedLength(s)
	}
	lit.build(l[:])
	var d [30]uint8
	for s := range d {
		d[s] = 5
	}
	dist.build(d[:])
	return lit, dist
}

// fixedLength is the length of symbol s in the fixed literal/length code.
func fixedLength(s int) uint8 {
	switch {
	case s < 144:
		return 8
	case s < 256:
		return 9
	case s < 280:
		return 7
	}
	return 8
}

// dynamic reads a dynamic block's code lengths into lit and dist.
func (r *reader) dynamic(lit, dist *huffman) error {
	nlit, ndist, ncode := r.bits(5)+257, r.bits(5)+1, r.bits(4)+4
	if nlit > 286 || ndist > 30 {
		return CorruptError("a dynamic block with too many codes")
	}
	var lengths [286 + 30]uint8
	for i := 0; i < ncode; i++ {
		lengths[codeOrder[i]] = uint8(r.bits(3))
	}
	var lencode huffman
	if lencode.build(lengths[:19]) != 0 {
		return CorruptError("an incomplete code length code")
	}
	lengths = [286 + 30]uint8{}
	for i := 0; i < nlit+ndist; {
		s := r.symbol(&lencode)
		if r.short {
			return nil
		}
		if s < 16 {
			lengths[i] = uint8(s)
			i++
			continue
		}
		var v uint8
		n := 0
		switch s {
		case 16:
			if i == 0 {
				return CorruptError("a repeat with no length before it")
			}
			v, n = lengths[i-1], 3+r.bits(2)
		case 17:
			n = 3 + r.bits(3)
		default:
			n = 11 + r.bits(7)
		}
		if i+n > nlit+ndist {
			return CorruptError("code lengths that run past their count")
		}
		for ; n > 0; n-- {
			lengths[i] = v
			i++
		}
	}
	if lengths[256] == 0 {
		return CorruptError("a block with no end code")
	}
	if !lit.valid(lengths[:nlit]) {
		return CorruptError("an invalid literal/length code")
	}
	if !dist.valid(lengths[nlit : nlit+ndist]) {
		return CorruptError("an invalid distance code")
	}
	return nil
}

// valid builds h from lengths and reports whether they make a code a
// block may use: a complete one, or one of at most a single symbol of
// length 1 (what compress/flate accepts too).
func (h *huffman) valid(lengths []uint8) bool {
	left := h.build(lengths)
	return left == 0 || left > 0 && len(lengths)-int(h.count[0]) == int(h.count[1])
}

// codes decodes a block's literals and matches up to its end code.
func (r *reader) codes(lit, dist *huffman, limit int) error {
	for {
		s := r.symbol(lit)
		switch {
		case r.short:
			return nil
		case s < 0:
			return CorruptError("a literal/length code that does not exist")
		case s < 256:
			if len(r.out) == limit {
				return ErrTooLarge
			}
			r.out = append(r.out, byte(s))
			continue
		case s == 256:
			return nil
		case s > 285:
			return CorruptError("a length code that does not exist")
		}
		s -= 257
		n := int(lengthBase[s]) + r.bits(uint(lengthExtra[s]))
		d := r.symbol(dist)
		if d < 0 || d > 29 {
			if r.short {
				return nil
			}
			return CorruptError("a distance code that does not exist")
		}
		back := int(distBase[d]) + r.bits(uint(distExtra[d]))
		switch {
		case r.short:
			return nil
		case back > len(r.out):
			return CorruptError("a distance that reaches before the dictionary")
		case len(r.out)+n > limit:
			return ErrTooLarge
		}
		from := len(r.out) - back
		for i := 0; i < n; i++ {
			r.out = append(r.out, r.out[from+i])
		}
	}
}
