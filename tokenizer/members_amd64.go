//go:build amd64 && !noasm

package tokenizer

import "unsafe"

// dropWhole is skipWhole for a container that Members drops, at src[i] with
// no value scan under way (skipFrom{}): the kernel called straight from
// dropValue, small enough to inline there. Its caller checks
// skipKernelRuns first. end is 0 where the kernel did not take the
// container ("not mine"); then pos, stack and depth are its checkpoint.
// room is at most maxSkipDepth; src[i] is in src.
func dropWhole(src []byte, i, room, maxToken int) (end, pos int, stack uint64, depth int) {
	// Named results and a bare return: written as return f(...), the
	// function costs the inliner 87, over its budget of 80.
	end, pos, stack, depth = skipWholeAVX2(unsafe.SliceData(src), len(src), i, room, maxToken, 0, 0, skipFirst)
	return
}
