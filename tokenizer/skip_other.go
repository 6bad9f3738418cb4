//go:build !amd64 || noasm

package tokenizer

// skipWhole takes nothing where there is no kernel: value reads every value
// as before. (skipWholeGeneric, the kernel's twin, costs more instructions
// than value on twitter and mesh: bench/REPORT.md, round 6.)
func skipWhole(src []byte, i, room, maxToken int, from skipFrom) (int, bool, skipCheckpoint) {
	return 0, false, skipCheckpoint{}
}

// copyWhole takes nothing where there is no kernel: value copies every
// value as before.
func copyWhole(dst, src []byte, i, room, maxToken int, from skipFrom) ([]byte, int, bool, skipCheckpoint) {
	return dst, 0, false, skipCheckpoint{}
}

// skipKernelRuns reports whether skipWhole runs a kernel for maxToken.
func skipKernelRuns(maxToken int) bool { return false }
