//go:build amd64 && !noasm

#include "textflag.h"
#include "kernels_amd64.h"

// func escapedQuoteAVX2(src *byte, blocks int, carry bool) (n int, escaped bool)
//
// escapedQuoteAVX512 with AVX2: each 64-byte block as two YMM halves, its
// backslashes and quotes by VPCMPEQB and VPMOVMSKB (MASK2), the bytes a
// backslash escapes by ESCAPES. VEX only, VZEROUPPER before RET (a legacy-SSE
// instruction after a YMM one stalls: bench/REPORT.md, round 5). Registers as
// in quietBlocksAVX2: SI the block, CX blocks left, R9 the carry; DI src.
TEXT ·escapedQuoteAVX2(SB), NOSPLIT, $0-33
	MOVQ src+0(FP), SI
	MOVQ blocks+8(FP), CX
	MOVBQZX carry+16(FP), R9
	MOVQ SI, DI
	BCAST($0x22, X10, Y10) // '"'
	BCAST($0x5c, X11, Y11) // '\\'

quote:
	TESTQ CX, CX
	JZ noquote
	VMOVDQU (SI), Y0
	VMOVDQU 32(SI), Y1
	MASK2(Y11, AX, BX)
	MOVQ R9, DX
	XORQ R12, R12
	TESTQ AX, AX
	JZ quoteEscaped
	ESCAPES

quoteEscaped:
	MASK2(Y10, BX, R13)
	ANDNQ BX, DX, BX // the quotes no backslash escapes
	JNZ found
	MOVQ R12, R9
	ADDQ $64, SI
	DECQ CX
	JMP quote

QUOTERETURN(found, noquote)
