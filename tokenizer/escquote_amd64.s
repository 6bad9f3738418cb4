//go:build amd64 && !noasm

#include "textflag.h"
#include "kernels_amd64.h"

// func escapedQuoteAVX512(src *byte, blocks int, carry bool) (n int, escaped bool)
//
// escapedQuoteGeneric over blocks blocks, from a first byte that a backslash
// escapes when carry is true. Registers as in quietBlocksAVX512.
TEXT ·escapedQuoteAVX512(SB), NOSPLIT, $0-33
	MOVQ src+0(FP), SI
	MOVQ blocks+8(FP), CX
	MOVBQZX carry+16(FP), R9
	MOVQ SI, DI
	SPLAT($0x2222222222222222, Z10) // '"'
	SPLAT($0x5c5c5c5c5c5c5c5c, Z11) // '\\'

quote:
	NEXTBLOCK(noquote)
	ESCAPED(quoteEscaped)

quoteEscaped:
	KMOVQ K1, BX
	ANDNQ BX, DX, BX // the quotes no backslash escapes
	TESTQ BX, BX
	JNZ found
	MOVQ R12, R9
	ADDQ $64, SI
	DECQ CX
	JMP quote

QUOTERETURN(found, noquote)
