package deflate

import "slices"

// window is how far back DEFLATE's distances reach.
const window = 1 << 15

// The match finder's limits: a match is 3 to 258 bytes long, and at most
// maxChain earlier places are tried for each position (compress/flate's
// BestCompression tries 4096).
const (
	minMatch = 3
	maxMatch = 258
	maxChain = 4096
)

// Compress returns raw as one final DEFLATE block that continues after dict
// (the preset dictionary, of which the last 32 KiB count): what
// Decompress(Compress(raw, dict), dict, len(raw)) gives back is raw. It
// writes the block four ways and returns the shortest: with fixed and with
// dynamic codes, each with matches of 3 bytes and more or of 4 and more (a
// 3-byte match saves bits in words but costs them in numbers, whose digits
// are cheap literals). The same input always gives the same output.
func Compress(raw, dict []byte) []byte {
	if len(dict) > window {
		dict = dict[len(dict)-window:]
	}
	buf := append(dict[:len(dict):len(dict)], raw...)
	prev := chains(buf)
	var best []byte
	for least := minMatch; least <= minMatch+1; least++ {
		tokens := matches(buf, prev, len(dict), least)
		var fixed, dynamic writer
		fixed.bits(1|1<<1, 3) // final, fixed codes
		fixed.block(tokens, fixedLit.lengths(288), fixedDist.lengths(30))
		dynamic.bits(1|2<<1, 3) // final, dynamic codes
		dynamic.dynamic(tokens)
		for _, out := range [][]byte{fixed.flush(), dynamic.flush()} {
			if best == nil || len(out) < len(best) {
				best = out
			}
		}
	}
	return best
}

// lengths returns the code lengths of h's n symbols.
func (h *huffman) lengths(n int) []uint8 {
	l := make([]uint8, n)
	s := 0
	for length := 1; length < 16; length++ {
		for range h.count[length] {
			l[h.symbol[s]] = uint8(length)
			s++
		}
	}
	return l
}

// token is a literal byte (length 0) or a match of length bytes dist back
// (at most maxMatch and window, both within 16 bits).
type token struct {
	length, dist uint16
	lit          byte
}

// chains returns, for each position of buf that starts 3 bytes, how far
// back the last position whose 3 bytes hash alike is (0: none within the
// window, which no match reaches past): the hash chains that matches
// walks, the same for each length of match it looks for.
func chains(buf []byte) []uint16 {
	const hashBits = 15
	head := make([]int32, 1<<hashBits) // 1 + the last position with the hash
	prev := make([]uint16, len(buf))
	for i := 0; i+minMatch <= len(buf); i++ {
		h := int((uint32(buf[i])<<16|uint32(buf[i+1])<<8|uint32(buf[i+2]))*0x9e3779b1) >> (32 - hashBits)
		if j := int(head[h]) - 1; j >= 0 && i-j <= window {
			prev[i] = uint16(i - j)
		}
		head[h] = int32(i + 1)
	}
	return prev
}

// back is the position before i on its hash chain, or −1.
func back(prev []uint16, i int) int {
	if prev[i] == 0 {
		return -1
	}
	return i - int(prev[i])
}

// matches turns buf[start:] into literals and matches of least bytes or
// more that may reach back into buf[:start], finding matches through the
// hash chains prev (chains(buf)) and preferring a longer match at the next
// byte to the one at this byte (lazy matching).
func matches(buf []byte, prev []uint16, start, least int) []token {
	longest := func(i int) (length, dist int) {
		if i+minMatch > len(buf) {
			return 0, 0
		}
		most := min(maxMatch, len(buf)-i)
		for j, chain := back(prev, i), maxChain; j >= 0 && i-j <= window && chain > 0; j, chain = back(prev, j), chain-1 {
			n := 0
			for n < most && buf[j+n] == buf[i+n] {
				n++
			}
			// A 3-byte match far back costs more than its literals.
			if n > length && n >= least && (n > minMatch || i-j <= 4096) {
				length, dist = n, i-j
				if n == most {
					break
				}
			}
		}
		return length, dist
	}
	out := make([]token, 0, (len(buf)-start)/2)
	length, dist := longest(start)
	for i := start; i < len(buf); {
		if length < minMatch {
			out = append(out, token{lit: buf[i]})
			i++
			length, dist = longest(i)
			continue
		}
		if l, d := longest(i + 1); l > length {
			out = append(out, token{lit: buf[i]})
			i++
			length, dist = l, d
			continue
		}
		out = append(out, token{length: uint16(length), dist: uint16(dist)})
		i += length
		length, dist = longest(i)
	}
	return out
}

// writer collects a stream's bits, least significant first.
type writer struct {
	out  []byte
	buf  uint64
	nbuf uint
}

// bits writes the n low bits of v.
func (w *writer) bits(v int, n uint8) {
	w.buf |= uint64(v) << w.nbuf
	w.nbuf += uint(n)
	for w.nbuf >= 8 {
		w.out = append(w.out, byte(w.buf))
		w.buf >>= 8
		w.nbuf -= 8
	}
}

// flush writes the last partial byte and returns the stream.
func (w *writer) flush() []byte {
	if w.nbuf > 0 {
		w.out = append(w.out, byte(w.buf))
		w.buf, w.nbuf = 0, 0
	}
	return w.out
}

// code writes symbol s of the canonical code whose lengths are lengths and
// whose codes are codes (already bit-reversed, as DEFLATE writes them).
type code struct {
	lengths []uint8
	codes   []uint16
}

func newCode(lengths []uint8) code {
	var count, next [16]uint16
	for _, l := range lengths {
		count[l]++
	}
	count[0] = 0
	for l := 1; l < 16; l++ {
		next[l] = (next[l-1] + count[l-1]) << 1
	}
	c := code{lengths, make([]uint16, len(lengths))}
	for s, l := range lengths {
		if l != 0 {
			v := next[l]
			next[l]++
			for range l { // reverse the l bits of v
				c.codes[s] = c.codes[s]<<1 | v&1
				v >>= 1
			}
		}
	}
	return c
}

func (w *writer) symbol(c code, s int) { w.bits(int(c.codes[s]), c.lengths[s]) }

// lengthCode and distCode return the code of a match's length or distance.
func lengthCode(n int) int {
	i := len(lengthBase) - 1
	for int(lengthBase[i]) > n {
		i--
	}
	return i
}

func distCode(d int) int {
	i := len(distBase) - 1
	for int(distBase[i]) > d {
		i--
	}
	return i
}

// block writes tokens and the end code with the given codes.
func (w *writer) block(tokens []token, litLengths, distLengths []uint8) {
	lit, dist := newCode(litLengths), newCode(distLengths)
	for _, t := range tokens {
		if t.length == 0 {
			w.symbol(lit, int(t.lit))
			continue
		}
		l, d := lengthCode(int(t.length)), distCode(int(t.dist))
		w.symbol(lit, 257+l)
		w.bits(int(t.length)-int(lengthBase[l]), lengthExtra[l])
		w.symbol(dist, d)
		w.bits(int(t.dist)-int(distBase[d]), distExtra[d])
	}
	w.symbol(lit, 256)
}

// dynamic writes a dynamic-code block of tokens: codes made for their
// frequencies, the header that spells them, then the tokens.
func (w *writer) dynamic(tokens []token) {
	litFreq, distFreq := make([]int, 286), make([]int, 30)
	litFreq[256] = 1
	for _, t := range tokens {
		if t.length == 0 {
			litFreq[t.lit]++
		} else {
			litFreq[257+lengthCode(int(t.length))]++
			distFreq[distCode(int(t.dist))]++
		}
	}
	litLengths, distLengths := huffmanLengths(litFreq, 15), huffmanLengths(distFreq, 15)
	nlit, ndist := used(litLengths, 257), used(distLengths, 1)
	if ndist == 1 && distLengths[0] == 0 {
		distLengths[0] = 1 // no matches: one unused code, as RFC 1951 asks
	}

	// The two codes' lengths, run-length coded with symbols 16–18.
	all := append(litLengths[:nlit:nlit], distLengths[:ndist]...)
	type run struct {
		sym, extra int
		nextra     uint8
	}
	var runs []run
	codeFreq := make([]int, 19)
	add := func(sym, extra int, nextra uint8) {
		runs = append(runs, run{sym, extra, nextra})
		codeFreq[sym]++
	}
	for i := 0; i < len(all); {
		v, n := int(all[i]), 1
		for i+n < len(all) && int(all[i+n]) == v {
			n++
		}
		i += n
		if v == 0 {
			for ; n >= 11; n -= min(n, 138) {
				add(18, min(n, 138)-11, 7)
			}
			if n >= 3 {
				add(17, n-3, 3)
				n = 0
			}
		} else {
			add(v, 0, 0)
			n--
			for ; n >= 3; n -= min(n, 6) {
				add(16, min(n, 6)-3, 2)
			}
		}
		for ; n > 0; n-- {
			add(v, 0, 0)
		}
	}
	codeLengths := huffmanLengths(codeFreq, 7)
	ncode := 19
	for ncode > 4 && codeLengths[codeOrder[ncode-1]] == 0 {
		ncode--
	}
	w.bits(nlit-257, 5)
	w.bits(ndist-1, 5)
	w.bits(ncode-4, 4)
	for _, s := range codeOrder[:ncode] {
		w.bits(int(codeLengths[s]), 3)
	}
	cc := newCode(codeLengths)
	for _, r := range runs {
		w.symbol(cc, r.sym)
		w.bits(r.extra, r.nextra)
	}
	w.block(tokens, litLengths, distLengths)
}

// used returns how many of lengths a header must list: up to the last
// nonzero one, and at least least.
func used(lengths []uint8, least int) int {
	n := len(lengths)
	for n > least && lengths[n-1] == 0 {
		n--
	}
	return n
}

// huffmanLengths returns the code lengths of a Huffman code for freq (0 for
// a symbol that never occurs) no longer than limit: while the optimal code
// is too long, the frequencies are halved (keeping them above 0), which
// flattens the tree.
func huffmanLengths(freq []int, limit uint8) []uint8 {
	lengths := make([]uint8, len(freq))
	var syms []int
	for s, f := range freq {
		if f > 0 {
			syms = append(syms, s)
		}
	}
	switch len(syms) {
	case 0:
		return lengths
	case 1:
		lengths[syms[0]] = 1
		return lengths
	}
	weight := make([]int, 2*len(syms)-1)
	for i, s := range syms {
		weight[i] = freq[s]
	}
	for {
		// Sort the leaves by weight (then symbol); the internal nodes come
		// out in order of weight, so the two lightest are always at the
		// front of one list or the other.
		m := len(syms)
		order := make([]int, m)
		for i := range order {
			order[i] = i
		}
		slices.SortStableFunc(order, func(a, b int) int { return weight[a] - weight[b] })
		node := make([]int, 2*m-1) // leaves in order, then internal nodes
		w := make([]int, 2*m-1)
		for k, i := range order {
			node[k], w[k] = i, weight[i]
		}
		parent := make([]int, 2*m-1)
		leaf, inner := 0, m
		lightest := func(k int) int {
			if leaf < m && (inner == k || w[leaf] <= w[inner]) {
				leaf++
				return leaf - 1
			}
			inner++
			return inner - 1
		}
		for k := m; k < 2*m-1; k++ {
			a, b := lightest(k), lightest(k)
			w[k] = w[a] + w[b]
			parent[a], parent[b] = k, k
		}
		depth := make([]uint8, 2*m-1)
		longest := uint8(0)
		for k := 2*m - 3; k >= 0; k-- {
			depth[k] = depth[parent[k]] + 1
			if k < m {
				lengths[syms[node[k]]] = depth[k]
				longest = max(longest, depth[k])
			}
		}
		if longest <= limit {
			return lengths
		}
		for i := range syms {
			weight[i] = weight[i]/2 + 1
		}
	}
}
