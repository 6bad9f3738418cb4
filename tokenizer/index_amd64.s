//go:build amd64 && !noasm

#include "textflag.h"

// func quoteBitsAVX2(src *byte, blocks int, out *quoteBlock)
// For each of blocks 64-byte blocks of src, the mask of its quotes and
// backslashes, stored as one quoteBlock (a word) in out.
TEXT ·quoteBitsAVX2(SB), NOSPLIT, $0-24
	MOVQ src+0(FP), SI
	MOVQ blocks+8(FP), CX
	MOVQ out+16(FP), DI
	MOVQ $0x2222222222222222, AX
	MOVQ AX, X8
	VPBROADCASTQ X8, Y8
	MOVQ $0x5c5c5c5c5c5c5c5c, AX
	MOVQ AX, X9
	VPBROADCASTQ X9, Y9
	TESTQ CX, CX
	JLE done

loop:
	VMOVDQU (SI), Y0
	VMOVDQU 32(SI), Y1
	VPCMPEQB Y8, Y0, Y2
	VPCMPEQB Y8, Y1, Y3
	VPCMPEQB Y9, Y0, Y4
	VPCMPEQB Y9, Y1, Y5
	VPOR Y4, Y2, Y2
	VPOR Y5, Y3, Y3
	VPMOVMSKB Y2, AX
	VPMOVMSKB Y3, BX
	SHLQ $32, BX
	ORQ BX, AX
	MOVQ AX, (DI)
	ADDQ $64, SI
	ADDQ $8, DI
	DECQ CX
	JNZ loop

done:
	VZEROUPPER
	RET
