//go:build !amd64 || noasm

package tokenizer

// skipWhole is skipWholeGeneric where there is no kernel, by skipGo, the
// pure-Go build's own loop (skipWholeGeneric itself costs more than value
// on twitter and mesh: bench/REPORT.md, round 6; skipGo reads arrays of
// numbers, indentation and text as value does). As the kernel, it takes
// nothing with maxToken below skipMinToken: value reads every value.
func skipWhole(src []byte, i, room, maxToken int, from skipFrom) (int, bool, skipCheckpoint) {
	if !skipKernelRuns(maxToken) {
		return 0, false, skipCheckpoint{}
	}
	return skipGo(src, i, room, maxToken, from)
}

// copyWhole is skipWhole that also appends the value to dst without the
// whitespace between its tokens (SPEC O1), in dst's capacity, as the amd64
// kernel's copyWhole: see copyGo.
func copyWhole(dst, src []byte, i, room, maxToken int, from skipFrom) ([]byte, int, bool, skipCheckpoint) {
	if !skipKernelRuns(maxToken) || cap(dst)-len(dst) <= 16 {
		return dst, 0, false, skipCheckpoint{}
	}
	return copyGo(dst, src, i, room, maxToken, from)
}

// skipKernelRuns reports whether skipWhole runs its loop (skipGo, copyGo)
// for maxToken.
func skipKernelRuns(maxToken int) bool { return maxToken >= skipMinToken }
