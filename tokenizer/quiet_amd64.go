//go:build amd64 && !noasm

package tokenizer

// hasAVX512 says whether the AVX-512 kernels may run: the CPU has AVX-512 F, BW
// and VBMI2 (for VPCOMPRESSB), PCLMULQDQ, POPCNT, BMI1 and BMI2, and the
// operating system saves the opmask and ZMM registers.
var hasAVX512 = detectAVX512()

func detectAVX512() bool {
	if !hasAVX2 {
		return false
	}
	_, _, ecx1, _ := cpuid(1, 0)
	const pclmul, popcnt = 1 << 1, 1 << 23
	if ecx1&pclmul == 0 || ecx1&popcnt == 0 {
		return false
	}
	if eax, _ := xgetbv(); eax&0xe6 != 0xe6 { // XMM, YMM, opmask, ZMM state enabled
		return false
	}
	_, ebx7, ecx7, _ := cpuid(7, 0)
	const bmi1, bmi2, avx512f, avx512bw = 1 << 3, 1 << 8, 1 << 16, 1 << 30
	const vbmi2 = 1 << 6
	return ebx7&(bmi1|bmi2|avx512f|avx512bw) == bmi1|bmi2|avx512f|avx512bw && ecx7&vbmi2 != 0
}

// quietBlocksAVX512 is quietBlocksGeneric over at most blocks blocks; out is
// nil when not copying, and has room for blocks*64 bytes otherwise.
//
//go:noescape
func quietBlocksAVX512(src *byte, blocks int, out *byte, st *quietState) (n, w int)

// quietBlocks is quietBlocksGeneric, with the AVX-512 kernel where the CPU
// has it and wide is true (tests turn it off to run the twin).
func quietBlocks(src, out []byte, copy, wide bool, st *quietState) (n, w int) {
	if !hasAVX512 || !wide {
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

//go:noescape
func escapedQuoteAVX512(src *byte, blocks int, carry bool) (n int, escaped bool)

// escapedQuote is escapedQuoteGeneric, with the AVX-512 kernel where the CPU
// has it and wide is true, at most maxKernelBlocks a call.
func escapedQuote(src []byte, wide bool) (n int, escaped bool) {
	if !hasAVX512 || !wide {
		return escapedQuoteGeneric(src)
	}
	for blocks := len(src) / 64; blocks > 0; {
		c := min(blocks, maxKernelBlocks)
		dn, esc := escapedQuoteAVX512(&src[n], c, escaped)
		n, blocks, escaped = n+dn, blocks-c, esc
		if dn < c*64 {
			break // found
		}
	}
	return n, escaped
}

//go:noescape
func stringRunAVX512(src *byte, blocks int, stopBackslash bool) (n int)

// stringRun is stringRunGeneric, with the AVX-512 kernel where the CPU has it
// and wide is true.
func stringRun(src []byte, stopBackslash, wide bool) int {
	if !hasAVX512 || !wide {
		return stringRunGeneric(src, stopBackslash)
	}
	if blocks := min(len(src)/64, maxKernelBlocks); blocks > 0 {
		return stringRunAVX512(&src[0], blocks, stopBackslash)
	}
	return 0
}
