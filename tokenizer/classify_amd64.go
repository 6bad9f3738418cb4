//go:build amd64 && !noasm

package tokenizer

// hasAVX2 says whether classify64 may run: the CPU has AVX2 and the
// operating system saves the YMM registers.
var hasAVX2 = detectAVX2()

func detectAVX2() bool {
	_, _, ecx1, _ := cpuid(1, 0)
	const osxsave, avx = 1 << 27, 1 << 28
	if ecx1&osxsave == 0 || ecx1&avx == 0 {
		return false
	}
	if eax, _ := xgetbv(); eax&6 != 6 { // XMM and YMM state enabled
		return false
	}
	_, ebx7, _, _ := cpuid(7, 0)
	return ebx7&(1<<5) != 0
}

//go:noescape
func classifyAVX2(b *[64]byte, m *blockMasks)

func cpuid(eax, ecx uint32) (a, b, c, d uint32)

func xgetbv() (eax, edx uint32)

// classify computes a block's masks with AVX2.
func classify(b *[64]byte, m *blockMasks) { classifyAVX2(b, m) }
