//go:build amd64 && !noasm

package tokenizer

// quietBlocksAVX512 is quietBlocksGeneric over at most blocks blocks; out is
// nil when not copying, and has room for blocks*64 bytes otherwise.
//
//go:noescape
func quietBlocksAVX512(src *byte, blocks int, out *byte, st *quietState) (n, w int)

// quietBlocks is quietBlocksGeneric, with the AVX-512 kernel where it runs.
func quietBlocks(src, out []byte, copy bool, st *quietState) (n, w int) {
	if !hasAVX512 {
		return quietBlocksGeneric(src, out, copy, st)
	}
	blocks := len(src) / 64
	if copy {
		blocks = min(blocks, len(out)/64)
	}
	// At most maxKernelBlocks a call, so that a long value does not hold
	// off the scheduler: an assembly loop has no preemption points.
	for blocks > 0 {
		c := min(blocks, maxKernelBlocks)
		var dn, dw int
		if copy {
			dn, dw = quietBlocksAVX512(&src[n], c, &out[w], st)
		} else {
			dn, _ = quietBlocksAVX512(&src[n], c, nil, st)
		}
		n, w, blocks = n+dn, w+dw, blocks-c
		if dn < c*64 {
			break
		}
	}
	return n, w
}
