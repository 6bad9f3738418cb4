package tokenizer

import "testing"

// kernelSet is a choice of the paths the scans take, as a CPU would make it:
// tests run each set that this machine can, so that the paths of a lesser CPU
// (or of noasm) are tested on one with AVX-512 too.
type kernelSet struct {
	name   string
	avx2   bool // classifyAVX2, and the trusted scans' block loops
	avx512 bool // the AVX-512 kernels
	twins  bool // the Go twins of the AVX-512 kernels, where those would run
}

// kernelSets are the sets tests run: the byte and word loops alone (a CPU
// without AVX2, or noasm), an AVX2 CPU, the AVX-512 kernels' Go twins in
// their place, and the kernels.
var kernelSets = []kernelSet{
	{name: "kernels=none"},
	{name: "kernels=avx2", avx2: true},
	{name: "kernels=twins", avx2: true, twins: true},
	{name: "kernels=avx512", avx2: true, avx512: true},
}

// available reports whether this machine can run k: a set that needs what
// the CPU lacks would only repeat another.
func (k kernelSet) available() bool {
	return (!k.avx2 || cpuAVX2) && (!k.avx512 || cpuAVX512)
}

// withKernels runs f with the paths of k, then restores the CPU's own.
func withKernels(k kernelSet, f func()) {
	avx2, avx512, twins := hasAVX2, hasAVX512, forceTwins
	hasAVX2, hasAVX512, forceTwins = k.avx2 && cpuAVX2, k.avx512 && cpuAVX512, k.twins
	defer func() { hasAVX2, hasAVX512, forceTwins = avx2, avx512, twins }()
	f()
}

// eachKernelSet runs f as a subtest, named for the set, under each set that
// this machine can run.
func eachKernelSet(t *testing.T, f func(t *testing.T)) {
	for _, k := range kernelSets {
		if !k.available() {
			continue
		}
		t.Run(k.name, func(t *testing.T) { withKernels(k, func() { f(t) }) })
	}
}

// The sets by name, for tests that compare two.
var (
	kernelsNone   = kernelSets[0]
	kernelsAVX2   = kernelSets[1]
	kernelsTwins  = kernelSets[2]
	kernelsAVX512 = kernelSets[3]
)
