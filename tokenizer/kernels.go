package tokenizer

// Which kernels run: what the CPU has (cpu_amd64.go), unless a test lowers
// them (useKernels, in export_test.go) to run a lesser CPU's paths on this
// one. Nothing else writes these.
var (
	hasAVX2   = cpuAVX2   // classify takes a block with classifyAVX2; the trusted scans take blocks; stringRun and quietBlocks call their AVX2 kernels
	hasAVX512 = cpuAVX512 // quietBlocks, escapedQuote and stringRun call their AVX-512 kernels

	// forceTwins makes str hand escaped and non-ASCII text to stringRun,
	// whose Go twin then runs where a kernel would: tests only.
	forceTwins = false
)
