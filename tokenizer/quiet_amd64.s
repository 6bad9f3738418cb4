//go:build amd64 && !noasm

#include "textflag.h"

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

// func quietBlocksAVX512(src *byte, blocks int, out *byte, st *quietState) (n, w int)
//
// quietBlocksGeneric, 64 bytes per step in ZMM registers. st: inStr (8 bytes),
// escaped (1 byte), depth, room at offsets 0, 8, 16, 24.
//
// Registers: SI src, CX blocks left, DI out (0: no copy), R8 inStr,
// R9 escaped, R10 depth, R11 room; Z10-Z13 the bytes compared with; X4 all
// ones, for the prefix XOR by carry-less multiplication.
TEXT ·quietBlocksAVX512(SB), NOSPLIT, $0-48
	MOVQ src+0(FP), SI
	MOVQ blocks+8(FP), CX
	MOVQ out+16(FP), DI
	MOVQ st+24(FP), AX
	MOVQ 0(AX), R8
	MOVBQZX 8(AX), R9
	MOVQ 16(AX), R10
	MOVQ 24(AX), R11

	MOVQ $0x2222222222222222, AX
	VPBROADCASTQ AX, Z10 // '"'
	MOVQ $0x5c5c5c5c5c5c5c5c, AX
	VPBROADCASTQ AX, Z11 // '\\'
	MOVQ $0x2020202020202020, AX
	VPBROADCASTQ AX, Z12 // ' ', and the bit that maps '[' to '{' and ']' to '}'
	MOVQ $0x7b7b7b7b7b7b7b7b, AX
	VPBROADCASTQ AX, Z13 // '{'
	MOVQ $0x7d7d7d7d7d7d7d7d, AX
	VPBROADCASTQ AX, Z14 // '}'
	MOVQ $-1, AX
	VMOVQ AX, X4

loop:
	TESTQ CX, CX
	JZ done
	VMOVDQU8 (SI), Z0
	VPCMPEQB Z10, Z0, K1      // quotes
	VPCMPEQB Z11, Z0, K2      // backslashes
	VPORQ Z12, Z0, Z1
	VPCMPEQB Z13, Z1, K3      // '{' and '['
	VPCMPEQB Z14, Z1, K4      // '}' and ']'
	VPCMPUB $2, Z12, Z0, K5   // c <= ' '

	// The bytes a backslash escapes (escapedBytes): DX, and the carry into
	// the next block: R12.
	KMOVQ K2, AX
	MOVQ R9, DX
	XORQ R12, R12
	TESTQ AX, AX
	JZ escaped
	ESCAPES

escaped:
	// The bytes inside strings: a prefix XOR of the real quotes.
	KMOVQ K1, BX
	ANDNQ BX, DX, BX
	VMOVQ BX, X3
	VPCLMULQDQ $0, X4, X3, X3
	VMOVQ X3, BX
	XORQ R8, BX      // strs

	KMOVQ K3, AX
	ANDNQ AX, BX, AX
	POPCNTQ AX, AX   // brackets opened
	KMOVQ K4, DX
	ANDNQ DX, BX, DX
	POPCNTQ DX, DX   // brackets closed
	CMPQ R10, DX
	JLE done         // the value may end in this block
	LEAQ (R10)(AX*1), R13
	CMPQ R13, R11
	JGE done         // the depth limit may be reached in this block
	SUBQ DX, R13
	MOVQ R13, R10
	MOVQ R12, R9
	MOVQ BX, R8
	SARQ $63, R8

	TESTQ DI, DI
	JZ next
	KMOVQ K5, AX
	ANDNQ AX, BX, AX // whitespace and control bytes outside strings
	NOTQ AX
	KMOVQ AX, K6
	VPCOMPRESSB Z0, K6, Z5
	POPCNTQ AX, AX
	MOVQ $-1, DX
	BZHIQ AX, DX, DX
	KMOVQ DX, K7
	VMOVDQU8 Z5, K7, (DI)
	ADDQ AX, DI

next:
	ADDQ $64, SI
	DECQ CX
	JMP loop

done:
	MOVQ st+24(FP), AX
	MOVQ R8, 0(AX)
	MOVB R9, 8(AX)
	MOVQ R10, 16(AX)
	MOVQ blocks+8(FP), AX
	SUBQ CX, AX
	SHLQ $6, AX
	MOVQ AX, n+32(FP)
	MOVQ out+16(FP), AX
	SUBQ AX, DI
	MOVQ DI, w+40(FP)
	VZEROUPPER
	RET

// func escapedQuoteAVX512(src *byte, blocks int, carry bool) (n int, escaped bool)
//
// escapedQuoteGeneric over blocks blocks, from a first byte that a backslash
// escapes when carry is true. Registers as in quietBlocksAVX512.
TEXT ·escapedQuoteAVX512(SB), NOSPLIT, $0-33
	MOVQ src+0(FP), SI
	MOVQ blocks+8(FP), CX
	MOVBQZX carry+16(FP), R9
	MOVQ SI, DI
	MOVQ $0x2222222222222222, AX
	VPBROADCASTQ AX, Z10 // '"'
	MOVQ $0x5c5c5c5c5c5c5c5c, AX
	VPBROADCASTQ AX, Z11 // '\\'

quote:
	TESTQ CX, CX
	JZ noquote
	VMOVDQU8 (SI), Z0
	VPCMPEQB Z10, Z0, K1
	VPCMPEQB Z11, Z0, K2
	KMOVQ K2, AX
	MOVQ R9, DX
	XORQ R12, R12
	TESTQ AX, AX
	JZ quoteEscaped
	ESCAPES

quoteEscaped:
	KMOVQ K1, BX
	ANDNQ BX, DX, BX // the quotes no backslash escapes
	TESTQ BX, BX
	JNZ found
	MOVQ R12, R9
	ADDQ $64, SI
	DECQ CX
	JMP quote

found:
	TZCNTQ BX, BX
	SUBQ DI, SI
	ADDQ BX, SI
	MOVQ SI, n+24(FP)
	MOVB $0, escaped+32(FP)
	VZEROUPPER
	RET

noquote:
	SUBQ DI, SI
	MOVQ SI, n+24(FP)
	MOVB R9, escaped+32(FP)
	VZEROUPPER
	RET
