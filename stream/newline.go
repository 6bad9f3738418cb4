package stream

import "bytes"

// newlineGo reports whether p holds a '\n': newlineAVX2's twin, and
// hasNewline where that kernel does not run.
func newlineGo(p []byte) bool { return bytes.IndexByte(p, '\n') >= 0 }
