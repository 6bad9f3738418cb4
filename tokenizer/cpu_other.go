//go:build !amd64 || noasm

package tokenizer

// There are no kernels: the Go loops and twins run.
const cpuAVX2, cpuAVX512 = false, false
