package wasmbuild

import (
	"errors"
	"strconv"
)

// ComputeFindfunctab returns the WebAssembly module wasm, a Go program
// for js/wasm, with the runtime's program-counter lookup table (the
// module data's findfunctab, which runtime.findfunc reads to grow stacks,
// collect garbage and unwind panics) no longer stored in its data section
// but written into memory by a start function that the pass adds, which
// the module runs when it is instantiated, before the Go program starts.
//
// The linker writes one 20-byte bucket (runtime.findfuncbucket: the index
// of the first function in it, then 16 offsets from that index) per 4,096
// program counters. On wasm a function spans 65,536 of them (its index
// shifted left by 16), so the table holds 16 buckets per function, each
// bucket's index is its number divided by 16 and nearly every offset is 0:
// 1.4 MB of the playground's 7 MB, mostly zeros that the browser still
// receives, copies and hands to the compiler. The pass checks that every
// bucket's index is its number divided by 16, sets those indexes to zero
// in the data (the offsets stay; MergeDataSegments then leaves the
// zeroed stretch out of the data), and adds a function that writes them
// back: the memory the Go program starts with is byte for byte the same.
//
// A module whose table does not read so (a future layout), that has a
// start function already or that is not well formed gets an error naming
// what is at fault, and wasm is not changed.
func ComputeFindfunctab(wasm []byte) ([]byte, error) {
	out, mem, tab, err := openPclntab(wasm)
	if err != nil {
		return nil, err
	}
	table := mem.u64(tab.moduledata + moduleFindfunctab)
	minpc, maxpc := mem.u64(tab.moduledata+moduleMinPC), mem.u64(tab.moduledata+moduleMaxPC)
	if maxpc <= minpc || (maxpc-minpc)/bucketPCs > maxImage/bucketSize {
		return nil, errors.New("the runtime's module data spans program counters " + strconv.FormatUint(minpc, 10) + " to " + strconv.FormatUint(maxpc, 10))
	}
	buckets := (maxpc - minpc + bucketPCs - 1) / bucketPCs
	if !mem.has(span{table, buckets * bucketSize}) || table+buckets*bucketSize > 1<<31 {
		return nil, errors.New("the findfunctab at address " + strconv.FormatUint(table, 10) + " runs past memory")
	}
	for b := range buckets {
		if idx := mem.u32(table + b*bucketSize); uint64(idx) != b/bucketsPerFunc {
			return nil, errors.New("bucket " + strconv.FormatUint(b, 10) + " of the findfunctab starts at function " +
				strconv.FormatUint(uint64(idx), 10) + ", not at " + strconv.FormatUint(b/bucketsPerFunc, 10) + " (a function per 65,536 program counters)")
		}
	}
	for b := range buckets {
		mem.zero(table+b*bucketSize, 4)
	}
	return addStartFunc(out, fillBuckets(uint32(table), uint32(buckets)))
}

// The runtime's findfunctab on wasm (runtime.findfuncbucket, and the
// linker's bucket of program counters).
const (
	bucketSize     = 20   // idx uint32, subbuckets [16]byte
	bucketPCs      = 4096 // internal/abi.FuncTabBucketSize
	bucketsPerFunc = 1 << 16 / bucketPCs

	moduleFindfunctab = moduleSlices + 6*24 // after the six slices; then minpc, maxpc
	moduleMinPC       = moduleFindfunctab + 8
	moduleMaxPC       = moduleFindfunctab + 16
)

// fillBuckets returns the body of a function that stores, for each of n
// buckets of the findfunctab at addr, its index: its number divided by
// 16.
//
//	for b := 0; ; { mem[addr+20*b] = b >> 4; b++; if b >= n { break } }
func fillBuckets(addr, n uint32) []byte {
	code := []byte{
		1, 1, valI32, // one local, b
		opLoop, blockVoid,
		opLocalGet, 0, opI32Const, bucketSize, opI32Mul, // the address, less addr
		opLocalGet, 0, opI32Const, 4, opI32ShrU, // the index
		opI32Store, 2, // aligned to 4 bytes, at offset addr:
	}
	code = appendUleb(code, uint64(addr))
	code = append(code, opLocalGet, 0, opI32Const, 1, opI32Add, opLocalTee, 0, opI32Const)
	code = appendSleb(code, int64(n))
	return append(code, opI32LtU, opBrIf, 0, opEnd, opEnd)
}

// The instructions fillBuckets uses.
const (
	valI32     = 0x7f
	blockVoid  = 0x40
	opLoop     = 0x03
	opBrIf     = 0x0d
	opLocalGet = 0x20
	opLocalTee = 0x22
	opI32Store = 0x36
	opI32LtU   = 0x49
	opI32Add   = 0x6a
	opI32Mul   = 0x6c
	opI32ShrU  = 0x76
)
