//go:build amd64 && !noasm

package tokenizer

//go:noescape
func plainRunAVX2(src []byte, i int) int

// plainKernel reports whether plainRunAVX2 runs (unless a test asks for the
// twin, plainRunGo).
func plainKernel() bool { return hasAVX2 && !forceTwins }
