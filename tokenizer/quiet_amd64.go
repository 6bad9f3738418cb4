//go:build amd64 && !noasm

package tokenizer

// quietBlocksAVX512 is quietBlocksGeneric over at most blocks blocks; out is
// nil when not copying, and has room for blocks*64 bytes otherwise.
//
//go:noescape
func quietBlocksAVX512(src *byte, blocks int, out *byte, st *quietState) (n, w int)

// quietBlocksAVX2 is quietBlocksAVX512 with AVX2 (and PCLMULQDQ, POPCNT and
// BMI1: cpuAVX2BMI).
//
//go:noescape
func quietBlocksAVX2(src *byte, blocks int, out *byte, st *quietState) (n, w int)

// quietBlocks is quietBlocksGeneric, with the AVX-512 kernel where it runs,
// else the AVX2 one (unless a test asks for the twin).
func quietBlocks(src, out []byte, copy bool, st *quietState) (n, w int) {
	avx512 := hasAVX512
	if forceTwins || !avx512 && !(hasAVX2 && cpuAVX2BMI) {
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
		var dst *byte // nil: no copy
		if copy {
			dst = &out[w]
		}
		var dn, dw int
		if avx512 {
			dn, dw = quietBlocksAVX512(&src[n], c, dst, st)
		} else {
			dn, dw = quietBlocksAVX2(&src[n], c, dst, st)
		}
		n, w, blocks = n+dn, w+dw, blocks-c
		if dn < c*64 {
			break
		}
	}
	return n, w
}

// compactCheckedAVX512 is compactCheckedGeneric over blocks blocks; out has
// room for blocks*64 bytes.
//
//go:noescape
func compactCheckedAVX512(src *byte, blocks int, out *byte, st *quietState) (w int)

// compactChecked is compactCheckedGeneric, with the AVX-512 kernel where it
// runs (unless a test asks for the twin).
func compactChecked(src, out []byte, st *quietState) (w int) {
	if forceTwins || !hasAVX512 {
		return compactCheckedGeneric(src, out, st)
	}
	blocks := min(len(src), len(out)) / 64
	// At most maxKernelBlocks a call: an assembly loop has no preemption
	// points.
	for n := 0; blocks > 0; {
		c := min(blocks, maxKernelBlocks)
		w += compactCheckedAVX512(&src[n], c, &out[w], st)
		n, blocks = n+c*64, blocks-c
	}
	return w
}

// quietSkip is quietBlocks without a copy, from a src of 64 bytes at least,
// where hasAVX2 is true: for skipBlocks, whose containers most often end in
// their first block, the kernel called with fewer tests on the way (about 20
// instructions a call fewer, callgrind, flow-document trusted).
func quietSkip(src []byte, st *quietState) (n int) {
	if forceTwins || !hasAVX512 && !cpuAVX2BMI {
		n, _ = quietBlocksGeneric(src, nil, false, st)
		return n
	}
	for blocks := len(src) >> 6; ; {
		c := min(blocks, maxKernelBlocks)
		var dn int
		if hasAVX512 {
			dn, _ = quietBlocksAVX512(&src[n], c, nil, st)
		} else {
			dn, _ = quietBlocksAVX2(&src[n], c, nil, st)
		}
		n += dn
		if blocks -= c; blocks == 0 || dn < c*64 {
			return n
		}
	}
}
