//go:build amd64 && !noasm

#include "textflag.h"
#include "go_asm.h"

// Broadcast constants, 32 bytes each.
DATA ·quotes<>+0(SB)/8, $0x2222222222222222
DATA ·quotes<>+8(SB)/8, $0x2222222222222222
DATA ·quotes<>+16(SB)/8, $0x2222222222222222
DATA ·quotes<>+24(SB)/8, $0x2222222222222222
GLOBL ·quotes<>(SB), RODATA|NOPTR, $32

DATA ·backslashes<>+0(SB)/8, $0x5c5c5c5c5c5c5c5c
DATA ·backslashes<>+8(SB)/8, $0x5c5c5c5c5c5c5c5c
DATA ·backslashes<>+16(SB)/8, $0x5c5c5c5c5c5c5c5c
DATA ·backslashes<>+24(SB)/8, $0x5c5c5c5c5c5c5c5c
GLOBL ·backslashes<>(SB), RODATA|NOPTR, $32

DATA ·bit5<>+0(SB)/8, $0x2020202020202020
DATA ·bit5<>+8(SB)/8, $0x2020202020202020
DATA ·bit5<>+16(SB)/8, $0x2020202020202020
DATA ·bit5<>+24(SB)/8, $0x2020202020202020
GLOBL ·bit5<>(SB), RODATA|NOPTR, $32

DATA ·openBraces<>+0(SB)/8, $0x7b7b7b7b7b7b7b7b
DATA ·openBraces<>+8(SB)/8, $0x7b7b7b7b7b7b7b7b
DATA ·openBraces<>+16(SB)/8, $0x7b7b7b7b7b7b7b7b
DATA ·openBraces<>+24(SB)/8, $0x7b7b7b7b7b7b7b7b
GLOBL ·openBraces<>(SB), RODATA|NOPTR, $32

DATA ·closeBraces<>+0(SB)/8, $0x7d7d7d7d7d7d7d7d
DATA ·closeBraces<>+8(SB)/8, $0x7d7d7d7d7d7d7d7d
DATA ·closeBraces<>+16(SB)/8, $0x7d7d7d7d7d7d7d7d
DATA ·closeBraces<>+24(SB)/8, $0x7d7d7d7d7d7d7d7d
GLOBL ·closeBraces<>(SB), RODATA|NOPTR, $32

// func classifyAVX2(b *[64]byte, m *blockMasks)
// m's fields are written at the offsets go_asm.h gives.
// A byte that is a quote, a backslash, a bracket or at most ' ' is in exactly
// the masks classifyGeneric puts it in: bit 5 set on '"' or '\\' gives neither
// '{' nor '}', and none of those bytes is at most ' '.
TEXT ·classifyAVX2(SB), NOSPLIT, $0-16
	MOVQ b+0(FP), SI
	MOVQ m+8(FP), DI
	VMOVDQU (SI), Y0
	VMOVDQU 32(SI), Y1

	VMOVDQU ·quotes<>(SB), Y2
	VPCMPEQB Y2, Y0, Y3
	VPCMPEQB Y2, Y1, Y4
	VPMOVMSKB Y3, AX
	VPMOVMSKB Y4, BX
	SHLQ $32, BX
	ORQ BX, AX
	MOVQ AX, blockMasks_quote(DI)

	VMOVDQU ·backslashes<>(SB), Y2
	VPCMPEQB Y2, Y0, Y3
	VPCMPEQB Y2, Y1, Y4
	VPMOVMSKB Y3, AX
	VPMOVMSKB Y4, BX
	SHLQ $32, BX
	ORQ BX, AX
	MOVQ AX, blockMasks_backslash(DI)

	// '[' | 0x20 == '{' and ']' | 0x20 == '}'.
	VMOVDQU ·bit5<>(SB), Y5
	VPOR Y5, Y0, Y6
	VPOR Y5, Y1, Y7
	VMOVDQU ·openBraces<>(SB), Y2
	VPCMPEQB Y2, Y6, Y3
	VPCMPEQB Y2, Y7, Y4
	VPMOVMSKB Y3, AX
	VPMOVMSKB Y4, BX
	SHLQ $32, BX
	ORQ BX, AX
	MOVQ AX, blockMasks_open(DI)

	VMOVDQU ·closeBraces<>(SB), Y2
	VPCMPEQB Y2, Y6, Y3
	VPCMPEQB Y2, Y7, Y4
	VPMOVMSKB Y3, AX
	VPMOVMSKB Y4, BX
	SHLQ $32, BX
	ORQ BX, AX
	MOVQ AX, blockMasks_close(DI)

	// c <= ' ' (unsigned) exactly when min(c, ' ') == c.
	VPMINUB Y5, Y0, Y3
	VPMINUB Y5, Y1, Y4
	VPCMPEQB Y3, Y0, Y3
	VPCMPEQB Y4, Y1, Y4
	VPMOVMSKB Y3, AX
	VPMOVMSKB Y4, BX
	SHLQ $32, BX
	ORQ BX, AX
	MOVQ AX, blockMasks_space(DI)

	VZEROUPPER
	RET
