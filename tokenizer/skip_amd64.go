//go:build amd64 && !noasm

package tokenizer

//go:noescape
func skipWholeAVX2(src *byte, n, i, room, maxToken int, stack uint64, depth, entry int) (end, ckPos int, ckStack uint64, ckDepth int)

// skipWhole is skipWholeGeneric, by the AVX2 kernel; without AVX2 it takes
// nothing, and value reads every value as before (the twin alone costs more
// than value on some workloads: bench/REPORT.md, round 6).
func skipWhole(src []byte, i, room, maxToken int, from skipFrom) (int, bool, skipCheckpoint) {
	if !hasAVX2 {
		return 0, false, skipCheckpoint{}
	}
	end, pos, stack, depth := skipWholeAVX2(&src[0], len(src), i, min(room, maxSkipDepth), maxToken, from.stack, from.depth, from.entry)
	return end, end != 0, skipCheckpoint{pos, stack, depth}
}

// skipKernelRuns reports whether skipWhole runs the kernel.
func skipKernelRuns() bool { return hasAVX2 }
