//go:build amd64 && !noasm

package stream

import (
	"unsafe"

	"golang.org/x/sys/cpu"
)

// useAVX2 says newlineAVX2 may run; a variable, so that a test can run
// the twin instead.
var useAVX2 = cpu.X86.HasAVX2

// newlineAVX2 reports whether the n bytes from p, n at least 128, hold a
// '\n': 128 bytes a loop, four 32-byte compares OR-ed into one test, then the
// last 128 bytes, which may overlap the loop's. bytes.IndexByte tests 32
// bytes a loop; on a line of conversation-items-ndjson (1.4 KB, in L1) this
// takes half its time.
//
//go:noescape
func newlineAVX2(p *byte, n int) bool

// hasNewline reports whether p holds a '\n'.
func hasNewline(p []byte) bool {
	if len(p) >= 128 && useAVX2 {
		return newlineAVX2(unsafe.SliceData(p), len(p))
	}
	return newlineGo(p)
}
