//go:build amd64 && !noasm

#include "textflag.h"

// ANY128 goes to found when the 128 bytes from r hold a '\n': four 32-byte
// compares OR-ed into one test.
#define ANY128(r) \
	VPCMPEQB (r), Y0, Y1; \
	VPCMPEQB 32(r), Y0, Y2; \
	VPCMPEQB 64(r), Y0, Y3; \
	VPCMPEQB 96(r), Y0, Y4; \
	VPOR     Y1, Y2, Y1; \
	VPOR     Y3, Y4, Y3; \
	VPOR     Y1, Y3, Y1; \
	VPTEST   Y1, Y1; \
	JNZ      found

// func newlineAVX2(p *byte, n int) bool
//
// Registers: SI the block, DX the last block (p+n-128), Y0 '\n' in every
// byte, Y1-Y4 the compares.
TEXT ·newlineAVX2(SB), NOSPLIT, $0-17
	MOVQ p+0(FP), SI
	MOVQ n+8(FP), DX
	LEAQ -128(SI)(DX*1), DX
	MOVL $0x0a, AX
	MOVQ AX, X0
	VPBROADCASTB X0, Y0
	CMPQ SI, DX
	JAE  last

loop:
	ANY128(SI)
	ADDQ     $128, SI
	CMPQ     SI, DX
	JB       loop

last:
	ANY128(DX)
	VZEROUPPER
	MOVB     $0, ret+16(FP)
	RET

found:
	VZEROUPPER
	MOVB $1, ret+16(FP)
	RET
