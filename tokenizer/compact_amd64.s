//go:build amd64 && !noasm

#include "textflag.h"

// func compactAVX2(out *byte, b *[64]byte, keep uint64, t *compactTables) int
//
// compactShuffleGeneric: per 8-byte chunk of b, the shuffle for its byte of
// keep moves the kept bytes to the front (PSHUFB; zeros after them), the
// word is written at out+w and w advances by their count. The last word ends
// at out+64 at most.
// Registers: DI out, SI the chunk, DX keep (shifted a byte a step), R8 the
// tables (shuffles at 0, counts at 2048), AX w, CX the chunks left.
TEXT ·compactAVX2(SB), NOSPLIT, $0-40
	MOVQ out+0(FP), DI
	MOVQ b+8(FP), SI
	MOVQ keep+16(FP), DX
	MOVQ t+24(FP), R8
	XORQ AX, AX
	MOVQ $8, CX

loop:
	MOVBQZX DL, BX
	MOVQ (SI), X0
	MOVQ (R8)(BX*8), X1
	PSHUFB X1, X0
	MOVQ X0, (DI)(AX*1)
	MOVBQZX 2048(R8)(BX*1), BX
	ADDQ BX, AX
	ADDQ $8, SI
	SHRQ $8, DX
	DECQ CX
	JNZ loop

	MOVQ AX, ret+32(FP)
	RET
