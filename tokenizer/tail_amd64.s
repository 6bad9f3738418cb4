//go:build amd64 && !noasm

#include "textflag.h"
#include "kernels_amd64.h"

// func plainRunAVX2(src []byte, i int) int
//
// plainRunGo with AVX2 (see there): the index of the first byte at or after
// src[i] that is a quote, a backslash, a control byte or not ASCII, else
// len(src); src holds 32 bytes or more and i is at most len(src). Each 32
// bytes by three compares, VPMOVMSKB and one branch; the last (fewer than
// 32 from where the loop stopped) by the window's last 32 bytes, with the
// flags of those before the loop's end shifted off. VEX only, VZEROUPPER
// before RET. This file sorts after skip_amd64.s and strrun*.s, so the
// linker places it after their kernels, which keep their phases (mod 64).
// plainBytes holds plainRunAVX2's three bytes, four of each.
DATA plainBytes<>+0(SB)/4, $0x22222222
DATA plainBytes<>+4(SB)/4, $0x5c5c5c5c
DATA plainBytes<>+8(SB)/4, $0x20202020
GLOBL plainBytes<>(SB), RODATA|NOPTR, $12

TEXT ·plainRunAVX2(SB), NOSPLIT, $0-40
	MOVQ src_base+0(FP), SI
	MOVQ src_len+8(FP), DX
	MOVQ i+24(FP), R8
	// The three bytes from memory, one load each: BCAST's three
	// instructions each were 9 of about 25 in a call that ends in the
	// first block (apache's urls and names).
	VPBROADCASTD plainBytes<>+0(SB), Y1 // '"'
	VPBROADCASTD plainBytes<>+4(SB), Y3 // '\\'
	VPBROADCASTD plainBytes<>+8(SB), Y5 // 0x20: as a signed byte, above the control bytes and those not ASCII
	LEAQ -32(DX), DI     // the last block's start
	CMPQ R8, DI
	JA   last

block:
	VMOVDQU   (SI)(R8*1), Y0
	VPCMPEQB  Y0, Y1, Y2
	VPCMPEQB  Y0, Y3, Y4
	VPCMPGTB  Y0, Y5, Y6 // 0x20 > the byte, signed: below ' ', or 0x80 and up
	VPOR      Y2, Y4, Y2
	VPOR      Y2, Y6, Y2
	VPMOVMSKB Y2, BX
	TESTL     BX, BX
	JNZ       found
	ADDQ      $32, R8
	CMPQ      R8, DI
	JBE       block

last: // fewer than 32 bytes from R8 (R8 > DI): the window's last 32
	CMPQ      R8, DX
	JAE       none
	VMOVDQU   (SI)(DI*1), Y0
	VPCMPEQB  Y0, Y1, Y2
	VPCMPEQB  Y0, Y3, Y4
	VPCMPGTB  Y0, Y5, Y6
	VPOR      Y2, Y4, Y2
	VPOR      Y2, Y6, Y2
	VPMOVMSKB Y2, BX
	MOVQ      R8, CX
	SUBQ      DI, CX     // 1 to 31: the bytes before R8
	SHRL      CX, BX
	TESTL     BX, BX
	JZ        none

found:
	BSFL      BX, BX
	ADDQ      BX, R8
	MOVQ      R8, ret+32(FP)
	VZEROUPPER
	RET

none:
	MOVQ DX, ret+32(FP)
	VZEROUPPER
	RET
