// Macros that the AVX-512 kernels share (quiet_amd64.s, escquote_amd64.s,
// strrun_amd64.s), and at the end the AVX2 ones' (quietBlocksAVX2,
// escquote2_amd64.s).

// ESCAPES is escapedBytes for a block with backslashes: from the backslash
// mask in AX and the carry in R9 (1: the block's first byte is escaped), the
// mask of the bytes a backslash escapes in DX and the carry into the next
// block in R12. It clobbers BX and R13. This is simdjson's escape scan: a run
// of backslashes escapes the byte after it when the run is odd. In Go terms:
//	potential := backslash &^ in
//	code := ((potential<<1 | odd) - potential) ^ odd
//	escaped := code ^ (backslash | in)
//	carry := (code & backslash) >> 63
#define ESCAPES \
	ANDNQ AX, R9, BX; \
	LEAQ (BX)(BX*1), R13; \
	MOVQ $0xAAAAAAAAAAAAAAAA, DX; \
	ORQ DX, R13; \
	SUBQ BX, R13; \
	XORQ DX, R13; \
	MOVQ AX, DX; \
	ORQ R9, DX; \
	XORQ R13, DX; \
	ANDQ AX, R13; \
	SHRQ $63, R13; \
	MOVQ R13, R12

// ESCAPED is ESCAPES for the block whose backslashes are in K2, which jumps
// to done at once, with DX the carry in R9 and R12 0, when it has none.
#define ESCAPED(done) \
	KMOVQ K2, AX; \
	MOVQ R9, DX; \
	XORQ R12, R12; \
	TESTQ AX, AX; \
	JZ done; \
	ESCAPES

// NEXTBLOCK jumps to end when CX, the blocks left, is 0; else it loads the
// block at SI into Z0 and finds its quotes (K1) and backslashes (K2), with
// '"' and '\\' in Z10 and Z11.
#define NEXTBLOCK(end) \
	TESTQ CX, CX; \
	JZ end; \
	VMOVDQU8 (SI), Z0; \
	VPCMPEQB Z10, Z0, K1; \
	VPCMPEQB Z11, Z0, K2

// ORBYTE adds to the mask k the bytes of Z0 equal to those of z, through K4.
#define ORBYTE(z, k) \
	VPCMPEQB z, Z0, K4; \
	KORQ K4, k, k

// SPLAT fills the ZMM register z with the 64-bit immediate imm, through AX:
// a byte to compare with, written 8 times.
#define SPLAT(imm, z) \
	MOVQ imm, AX; \
	VPBROADCASTQ AX, z

// JOIN64 sets r to the 64-bit mask of two 32-byte halves' byte masks, lo's
// bytes low, through t, and the flags to r's (ZF: no byte set). The skip
// and copy kernels (skip_amd64.s) use it too.
#define JOIN64(lo, hi, r, t) \
	VPMOVMSKB lo, r; \
	VPMOVMSKB hi, t; \
	SHLQ $32, t; \
	ORQ t, r

// MASK2 sets r to the mask of the block's bytes (Y0, Y1) equal to those of
// y, through Y2, Y3 and t.
#define MASK2(y, r, t) \
	VPCMPEQB y, Y0, Y2; \
	VPCMPEQB y, Y1, Y3; \
	JOIN64(Y2, Y3, r, t)

// BCAST fills y (whose low half is x) with the byte b, through AX.
#define BCAST(b, x, y) \
	MOVL b, AX; \
	VMOVD AX, x; \
	VPBROADCASTB x, y

// QUOTERETURN is the end of both escapedQuote kernels: at found, the quote
// that BX flags in the block at SI (from DI, the start), not escaped; at
// noquote, none in the blocks, R9 the carry of a backslash at their end.
#define QUOTERETURN(found, noquote) \
found: \
	TZCNTQ BX, BX; \
	SUBQ DI, SI; \
	ADDQ BX, SI; \
	MOVQ SI, n+24(FP); \
	MOVB $0, escaped+32(FP); \
	VZEROUPPER; \
	RET; \
noquote: \
	SUBQ DI, SI; \
	MOVQ SI, n+24(FP); \
	MOVB R9, escaped+32(FP); \
	VZEROUPPER; \
	RET
