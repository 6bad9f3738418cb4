//go:build amd64 && !noasm

package tokenizer

// What the CPU has, for the kernels (kernels.go says which run):
//
// cpuAVX2: AVX2, and the operating system saves the YMM registers; for
// classifyAVX2.
//
// cpuAVX512: that, and AVX-512 F, BW and VBMI2 (for VPCOMPRESSB), PCLMULQDQ,
// POPCNT, BMI1 and BMI2, and the operating system saves the opmask and ZMM
// registers; for quietBlocksAVX512, escapedQuoteAVX512 and stringRunAVX512.
//
// cpuAVX2BMI: AVX2, and PCLMULQDQ, POPCNT and BMI1, which every AVX2 CPU
// made has, but a virtual machine may hide; for quietBlocksAVX2 and
// escapedQuoteAVX2.
var (
	cpuAVX2    = detectAVX2()
	cpuAVX512  = cpuAVX2 && detectAVX512()
	cpuAVX2BMI = cpuAVX2 && detectBitOps()
)

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

func detectBitOps() bool {
	_, _, ecx1, _ := cpuid(1, 0)
	const pclmul, popcnt = 1 << 1, 1 << 23
	_, ebx7, _, _ := cpuid(7, 0)
	const bmi1 = 1 << 3
	return ecx1&pclmul != 0 && ecx1&popcnt != 0 && ebx7&bmi1 != 0
}

func detectAVX512() bool {
	_, _, ecx1, _ := cpuid(1, 0)
	const pclmul, popcnt = 1 << 1, 1 << 23
	if ecx1&pclmul == 0 || ecx1&popcnt == 0 {
		return false
	}
	if eax, _ := xgetbv(); eax&0xe6 != 0xe6 { // XMM, YMM, opmask, ZMM state enabled
		return false
	}
	_, ebx7, ecx7, _ := cpuid(7, 0)
	const bmi1, bmi2, avx512f, avx512bw = 1 << 3, 1 << 8, 1 << 16, 1 << 30
	const vbmi2 = 1 << 6
	return ebx7&(bmi1|bmi2|avx512f|avx512bw) == bmi1|bmi2|avx512f|avx512bw && ecx7&vbmi2 != 0
}

func cpuid(eax, ecx uint32) (a, b, c, d uint32)

func xgetbv() (eax, edx uint32)
