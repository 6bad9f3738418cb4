//go:build amd64 && !noasm

#include "textflag.h"
#include "go_asm.h"
#include "kernels_amd64.h"

// func quietBlocksAVX512(src *byte, blocks int, out *byte, st *quietState) (n, w int)
//
// quietBlocksGeneric, 64 bytes per step in ZMM registers. st's fields are
// read and written at the offsets go_asm.h gives.
//
// Registers: SI src, CX blocks left, DI out (0: no copy), R8 inStr,
// R9 escaped, R10 depth, R11 room; Z10-Z13 the bytes compared with; X4 all
// ones, for the prefix XOR by carry-less multiplication.
TEXT ·quietBlocksAVX512(SB), NOSPLIT, $0-48
	MOVQ src+0(FP), SI
	MOVQ blocks+8(FP), CX
	MOVQ out+16(FP), DI
	MOVQ st+24(FP), AX
	MOVQ quietState_inStr(AX), R8
	MOVBQZX quietState_escaped(AX), R9
	MOVQ quietState_depth(AX), R10
	MOVQ quietState_room(AX), R11

	SPLAT($0x2222222222222222, Z10) // '"'
	SPLAT($0x5c5c5c5c5c5c5c5c, Z11) // '\\'
	SPLAT($0x2020202020202020, Z12) // ' ', and the bit that maps '[' to '{' and ']' to '}'
	SPLAT($0x7b7b7b7b7b7b7b7b, Z13) // '{'
	SPLAT($0x7d7d7d7d7d7d7d7d, Z14) // '}'
	MOVQ $-1, AX
	VMOVQ AX, X4

loop:
	NEXTBLOCK(done)
	VPORQ Z12, Z0, Z1
	VPCMPEQB Z13, Z1, K3      // '{' and '['
	VPCMPEQB Z14, Z1, K4      // '}' and ']'
	VPCMPUB $2, Z12, Z0, K5   // c <= ' '

	// The bytes a backslash escapes (escapedBytes): DX, and the carry into
	// the next block: R12.
	ESCAPED(escaped)

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
	MOVQ R8, quietState_inStr(AX)
	MOVB R9, quietState_escaped(AX)
	MOVQ R10, quietState_depth(AX)
	MOVQ blocks+8(FP), AX
	SUBQ CX, AX
	SHLQ $6, AX
	MOVQ AX, n+32(FP)
	MOVQ out+16(FP), AX
	SUBQ AX, DI
	MOVQ DI, w+40(FP)
	VZEROUPPER
	RET
