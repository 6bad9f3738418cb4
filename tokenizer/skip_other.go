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
//
// copyGo reads no further than its output is sure to fit in dst's capacity
// (the input's length). Where it stopped there at a checkpoint, the
// whitespace it dropped on the way left room for more: it goes on from
// the checkpoint, in as many calls as each leaves more room.
func copyWhole(dst, src []byte, i, room, maxToken int, from skipFrom) ([]byte, int, bool, skipCheckpoint) {
	if !skipKernelRuns(maxToken) || cap(dst)-len(dst) <= 16 {
		return dst, 0, false, skipCheckpoint{}
	}
	out, end, ok, ck := copyGo(dst, src, i, room, maxToken, from)
	for bound := i + cap(dst) - len(dst); !ok && ck.depth > 0 && bound-16 < len(src); {
		// From the checkpoint, after a value ck.depth containers deep.
		next := ck.pos + cap(out) - len(out)
		if next <= bound || cap(out)-len(out) <= 16 {
			break // no whitespace dropped: no more room
		}
		o2, e2, ok2, ck2 := copyGo(out, src, ck.pos, room, maxToken, skipFrom{ck.stack, ck.depth, skipNext})
		if !ok2 && ck2.depth == 0 {
			break // nothing taken past ck: out stands at ck
		}
		out, end, ok, ck, bound = o2, e2, ok2, ck2, next
	}
	return out, end, ok, ck
}

// skipKernelRuns reports whether skipWhole runs its loop (skipGo, copyGo)
// for maxToken.
func skipKernelRuns(maxToken int) bool { return maxToken >= skipMinToken }
