//go:build amd64 && !noasm

#include "textflag.h"
#include "go_asm.h"
#include "kernels_amd64.h"

// QUIETRETURN writes the state in R8-R10 back to st and returns the bytes
// scanned (CX blocks were left) and written (DI): both quiet kernels end so.
#define QUIETRETURN \
	MOVQ st+24(FP), AX; \
	MOVQ R8, quietState_inStr(AX); \
	MOVB R9, quietState_escaped(AX); \
	MOVQ R10, quietState_depth(AX); \
	MOVQ blocks+8(FP), AX; \
	SUBQ CX, AX; \
	SHLQ $6, AX; \
	MOVQ AX, n+32(FP); \
	MOVQ out+16(FP), AX; \
	SUBQ AX, DI; \
	MOVQ DI, w+40(FP); \
	VZEROUPPER; \
	RET

// QUIETSTOP writes the bit of the bracket where DEPTH stopped (R14) to
// st.stop.
#define QUIETSTOP \
	MOVQ st+24(FP), AX; \
	MOVQ R14, quietState_stop(AX)

// DEPTH is quietDepth: from the masks of the brackets a block opens (AX)
// and closes (DX) outside strings, the depth in R10 and the room in R11, it
// jumps to done, R10 kept, when a bracket closes the value or opens at room
// or deeper; else it sets R10 to the depth after the block. Most blocks are
// decided by the counts of brackets alone (POPCNT); the others a bracket at
// a time (BLSI, BLSR). At done, R14 is the bit of the bracket where it
// stopped. It clobbers DX, R13 and R14 (scratch in ABI0).
#define DEPTH(walk0, walk, close, walked, done) \
	POPCNTQ AX, R13; \
	POPCNTQ DX, R14; \
	CMPQ R10, R14; \
	JLE walk0; \
	ADDQ R10, R13; \
	CMPQ R13, R11; \
	JLT walked; \
walk0: \
	MOVQ R10, R13; \
	ORQ AX, DX; \
walk: \
	XORQ R14, R14; \
	TESTQ DX, DX; \
	JZ walked; \
	BLSIQ DX, R14; \
	BLSRQ DX, DX; \
	TESTQ AX, R14; \
	JZ close; \
	CMPQ R13, R11; \
	JGE done; \
	INCQ R13; \
	JMP walk; \
close: \
	DECQ R13; \
	JNZ walk; \
	JMP done; \
walked: \
	SUBQ R14, R13; \
	MOVQ R13, R10

// func quietBlocksAVX512(src *byte, blocks int, out *byte, st *quietState) (n, w int)
//
// quietBlocksGeneric, 64 bytes per step in ZMM registers. st's fields are
// read and written at the offsets go_asm.h gives. DEPTH is shared with
// quietBlocksAVX2, which the tests run on any AVX2 CPU.
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
	ANDNQ AX, BX, AX // brackets opened
	KMOVQ K4, DX
	ANDNQ DX, BX, DX // brackets closed
	DEPTH(walk0, walk, close, walked, stopped)
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

stopped:
	QUIETSTOP

done:
	QUIETRETURN
	// Pads this kernel to a multiple of 64 bytes and aligns it to 64, so
	// that the AVX2 kernels after it (quietBlocksAVX2, then skip_amd64.s's
	// and strrun2_amd64.s's) start at the same offsets mod 64 whatever the
	// Go code before them: quietBlocksAVX2 at 0, skipWholeAVX2 at 32,
	// copyWholeAVX2 at 0, stringRunAVX2 at 32 while their sizes stay. A Go
	// change that moved them all by 32 cost citm-keep-most streamed 21 % at
	// equal instructions (bench/REPORT.md, round 8). Unreachable.
	PCALIGN $64

// func compactCheckedAVX512(src *byte, blocks int, out *byte, st *quietState) (w int)
//
// compactCheckedGeneric: quietBlocksAVX512's copy without its brackets, for
// blocks of a value that SkipValue has checked (no bracket to count, no end
// to find): per block, the quotes and backslashes, the bytes inside strings
// (ESCAPED, then the prefix XOR), the bytes <= ' ' outside them dropped by
// VPCOMPRESSB, zeroing the lanes after the kept bytes, and one 64-byte store:
// past the kept bytes it writes zeros, within out's blocks*64 bytes. st's
// inStr and escaped carry from one block to the next and from call to call;
// its depth and room are not used.
//
// Registers: SI src, CX blocks left, DI out, R8 inStr, R9 escaped; Z10-Z12
// the bytes compared with; X4 all ones, for the prefix XOR.
TEXT ·compactCheckedAVX512(SB), NOSPLIT, $0-40
	MOVQ src+0(FP), SI
	MOVQ blocks+8(FP), CX
	MOVQ out+16(FP), DI
	MOVQ st+24(FP), AX
	MOVQ quietState_inStr(AX), R8
	MOVBQZX quietState_escaped(AX), R9

	SPLAT($0x2222222222222222, Z10) // '"'
	SPLAT($0x5c5c5c5c5c5c5c5c, Z11) // '\\'
	SPLAT($0x2020202020202020, Z12) // ' '
	MOVQ $-1, AX
	VMOVQ AX, X4

cloop:
	NEXTBLOCK(cdone)
	VPCMPUB $2, Z12, Z0, K5 // c <= ' '
	ESCAPED(cescaped)

cescaped:
	KMOVQ K1, BX
	ANDNQ BX, DX, BX
	VMOVQ BX, X3
	VPCLMULQDQ $0, X4, X3, X3
	VMOVQ X3, BX
	XORQ R8, BX // strs
	MOVQ R12, R9
	MOVQ BX, R8
	SARQ $63, R8

	KMOVQ K5, AX
	ANDNQ AX, BX, AX // whitespace outside strings
	NOTQ AX
	KMOVQ AX, K6
	VPCOMPRESSB.Z Z0, K6, Z5
	POPCNTQ AX, AX
	VMOVDQU8 Z5, (DI)
	ADDQ AX, DI
	ADDQ $64, SI
	DECQ CX
	JMP cloop

cdone:
	MOVQ st+24(FP), AX
	MOVQ R8, quietState_inStr(AX)
	MOVB R9, quietState_escaped(AX)
	MOVQ out+16(FP), AX
	SUBQ AX, DI
	MOVQ DI, w+32(FP)
	VZEROUPPER
	RET
	// Pads this kernel to a multiple of 64 bytes, as quietBlocksAVX512.
	// Unreachable.
	PCALIGN $64

// COMPACT8 writes the bytes of the 8 at off(SI) that the low byte of AX
// flags at DI, moved to the front by their shuffle from the table at R13
// (PSHUFB, as compactAVX2: 8 bytes written, zeros after the kept ones), and
// advances DI by their count and AX by a byte. It clobbers BX, X2 and X3.
#define COMPACT8(off) \
	MOVBQZX AL, BX; \
	VMOVQ off(SI), X2; \
	VMOVQ (R13)(BX*8), X3; \
	VPSHUFB X3, X2, X2; \
	VMOVQ X2, (DI); \
	MOVBQZX 2048(R13)(BX*1), BX; \
	ADDQ BX, DI; \
	SHRQ $8, AX

// func quietBlocksAVX2(src *byte, blocks int, out *byte, st *quietState) (n, w int)
//
// quietBlocksGeneric, 64 bytes per step as two YMM halves, in the way of
// simdjson's stage 1: byte masks by VPCMPEQB and VPMOVMSKB, the escaped
// bytes by ESCAPES, the bytes inside strings by a carry-less multiplication
// with all ones (a prefix XOR), brackets counted by POPCNT, all state in
// registers. When copying, a block with nothing to drop is one 64-byte move,
// others are compacted 8 bytes a step as compactAVX2 does (the same bytes
// written, past the kept ones too). VEX instructions only, and VZEROUPPER
// before RET: a legacy-SSE instruction after a YMM one stalls on Zen 3 and
// Intel alike (bench/REPORT.md, round 5).
//
// Registers: SI src, CX blocks left, DI out (0: no copy), R8 inStr,
// R9 escaped, R10 depth, R11 room; Y10-Y14 the bytes compared with; X9 all
// ones, for the prefix XOR.
TEXT ·quietBlocksAVX2(SB), NOSPLIT, $0-48
	MOVQ src+0(FP), SI
	MOVQ blocks+8(FP), CX
	MOVQ out+16(FP), DI
	MOVQ st+24(FP), AX
	MOVQ quietState_inStr(AX), R8
	MOVBQZX quietState_escaped(AX), R9
	MOVQ quietState_depth(AX), R10
	MOVQ quietState_room(AX), R11

	BCAST($0x22, X10, Y10) // '"'
	BCAST($0x5c, X11, Y11) // '\\'
	BCAST($0x20, X12, Y12) // ' ', and the bit that maps '[' to '{' and ']' to '}'
	BCAST($0x7b, X13, Y13) // '{'
	BCAST($0x7d, X14, Y14) // '}'
	MOVQ $-1, AX
	VMOVQ AX, X9

avx2loop:
	TESTQ CX, CX
	JZ avx2done
	VMOVDQU (SI), Y0
	VMOVDQU 32(SI), Y1

	// The bytes a backslash escapes (escapedBytes): DX, and the carry into
	// the next block: R12.
	MASK2(Y11, AX, BX)
	MOVQ R9, DX
	XORQ R12, R12
	TESTQ AX, AX
	JZ avx2escaped
	ESCAPES

avx2escaped:
	// The bytes inside strings: a prefix XOR of the real quotes.
	MASK2(Y10, BX, R13)
	ANDNQ BX, DX, BX
	VMOVQ BX, X4
	VPCLMULQDQ $0, X9, X4, X4
	VMOVQ X4, BX
	XORQ R8, BX // strs

	VPOR Y12, Y0, Y4
	VPOR Y12, Y1, Y5
	VPCMPEQB Y13, Y4, Y2
	VPCMPEQB Y13, Y5, Y3
	VPMOVMSKB Y2, AX
	VPMOVMSKB Y3, DX
	SHLQ $32, DX
	ORQ DX, AX
	ANDNQ AX, BX, AX // brackets opened
	VPCMPEQB Y14, Y4, Y2
	VPCMPEQB Y14, Y5, Y3
	VPMOVMSKB Y2, DX
	VPMOVMSKB Y3, R13
	SHLQ $32, R13
	ORQ R13, DX
	ANDNQ DX, BX, DX // brackets closed
	DEPTH(avx2walk0, avx2walk, avx2close, avx2walked, avx2stopped)
	MOVQ R12, R9
	MOVQ BX, R8
	SARQ $63, R8

	TESTQ DI, DI
	JZ avx2next
	// c <= ' ' (unsigned) exactly when min(c, ' ') == c: whitespace and
	// control bytes, dropped outside strings.
	VPMINUB Y12, Y0, Y2
	VPMINUB Y12, Y1, Y3
	VPCMPEQB Y2, Y0, Y2
	VPCMPEQB Y3, Y1, Y3
	VPMOVMSKB Y2, AX
	VPMOVMSKB Y3, DX
	SHLQ $32, DX
	ORQ DX, AX
	ANDNQ AX, BX, AX
	JNZ avx2compact
	VMOVDQU Y0, (DI)
	VMOVDQU Y1, 32(DI)
	ADDQ $64, DI
	JMP avx2next

avx2compact:
	NOTQ AX // the bytes kept
	LEAQ ·compactTab(SB), R13
	COMPACT8(0)
	COMPACT8(8)
	COMPACT8(16)
	COMPACT8(24)
	COMPACT8(32)
	COMPACT8(40)
	COMPACT8(48)
	COMPACT8(56)

avx2next:
	ADDQ $64, SI
	DECQ CX
	JMP avx2loop

avx2stopped:
	QUIETSTOP

avx2done:
	QUIETRETURN
