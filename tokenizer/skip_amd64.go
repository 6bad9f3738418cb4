//go:build amd64 && !noasm

package tokenizer

import "unsafe"

//go:noescape
func skipWholeAVX2(src *byte, n, i, room, maxToken int, stack uint64, depth, entry int) (end, ckPos int, ckStack uint64, ckDepth int)

// skipWhole is skipWholeGeneric, by the AVX2 kernel; without AVX2 or with
// maxToken below skipMinToken it takes nothing, and value reads every value
// as before (the twin alone costs more than value on some workloads:
// bench/REPORT.md, round 6).
func skipWhole(src []byte, i, room, maxToken int, from skipFrom) (int, bool, skipCheckpoint) {
	if !skipKernelRuns(maxToken) {
		return 0, false, skipCheckpoint{}
	}
	end, pos, stack, depth := skipWholeAVX2(&src[0], len(src), i, min(room, maxSkipDepth), maxToken, from.stack, from.depth, from.entry)
	return end, end != 0, skipCheckpoint{pos, stack, depth}
}

//go:noescape
func copyWholeAVX2(src *byte, n, i, room, maxToken int, stack uint64, depth, entry int, dst *byte, dstCap int) (end, outLen, ckPos int, ckStack uint64, ckDepth, ckOut int)

// copyWhole is skipWhole (from depth 0, or from a later window) that also appends the value to dst
// without the whitespace between its tokens (SPEC O1), as value with copy
// does: the extended dst, the index after the value and true. Or false
// ("not mine", as skipWhole), when there is no kernel or when the value and
// 16 bytes more do not fit in dst's capacity (its 16-byte moves may spill
// past the value); then with skipWhole's checkpoint and dst extended with
// the value's output up to it (the checkpoint's depth 0 and dst as given
// when there is none, or when that output does not fit). It never grows
// dst: growing it to hold the rest of src would hold memory in proportion
// to the input rather than the output; value grows it as it appends. Past
// the extended dst's length, in its capacity, it leaves zeros: 16 bytes
// after true, all it wrote after false.
func copyWhole(dst, src []byte, i, room, maxToken int, from skipFrom) ([]byte, int, bool, skipCheckpoint) {
	n := len(dst)
	if !skipKernelRuns(maxToken) || cap(dst)-n <= 16 {
		return dst, 0, false, skipCheckpoint{}
	}
	free := dst[n:cap(dst)]
	end, m, pos, stack, depth, out := copyWholeAVX2(&src[0], len(src), i, min(room, maxSkipDepth), maxToken, from.stack, from.depth, from.entry, unsafe.SliceData(free), len(free))
	if end != 0 {
		// The last 16-byte move may have left bytes from past the value
		// (the document's, maybe a dropped member's) after the value's
		// last byte.
		*(*[16]byte)(free[m : m+16]) = [16]byte{}
		return dst[:n+m], end, true, skipCheckpoint{}
	}
	if depth == 0 || out > len(free) {
		clear(free[:min(m+16, len(free))])
		return dst, 0, false, skipCheckpoint{}
	}
	if m < out {
		// The run that the checkpoint ends, not yet appended: the bytes
		// before pos, none of them whitespace.
		copy(free[m:out], src[pos-(out-m):pos])
	}
	clear(free[out:min(max(m, out)+16, len(free))])
	return dst[:n+out], 0, false, skipCheckpoint{pos, stack, depth}
}

// skipKernelRuns reports whether skipWhole runs the kernel for maxToken.
func skipKernelRuns(maxToken int) bool { return hasAVX2 && maxToken >= skipMinToken }
