//go:build !amd64 || noasm

package tokenizer

// plainKernel is false: there is no kernel.
func plainKernel() bool { return false }

// plainRunAVX2 is plainRunGo, never called: there is no kernel.
func plainRunAVX2(src []byte, i int) int { return plainRunGo(src, i) }
