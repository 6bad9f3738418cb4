//go:build amd64 && !noasm

#include "textflag.h"
#include "kernels_amd64.h"
#include "skipdefs_amd64.h"

// EXPERIMENT (round 11, bench/REPORT.md): the value kernels' grammar
// (skipgrammar_amd64.h) with the string's blocks classified by AVX-512,
// dispatched where hasAVX512. Two variants:
//
// default: STOPS64 and STRFIRST as the AVX2 kernels', each half's three
// compare masks joined by one VPTERNLOGD (OR) rather than two VPORs.
//
// -asmflags=...tokenizer=-D=OPMASKS: one 64-byte load and three compares
// into opmask registers (VPCMPEQB/VPCMPGTB to K1-K3, KORQ, KMOVQ) for the
// 64-byte blocks, and the same on 32 bytes for the first block. Z16 holds
// '"', Z17 '\\' and Z18 0x20 in every byte (KSETUP); Z19 is scratch.
//
// This file sorts after skip_amd64.s, so the linker places these after
// the AVX2 kernels, which keep their addresses mod 64; the pads here are
// none, and 32 int3 bytes at the end keep stringRunAVX2 at 32 mod 64.
#undef PADSTR
#undef PADUTF8
#undef PADEND
#undef PADNUM
#define PADSTR
#define PADUTF8
#define PADEND
#define PADNUM
#undef KSETUP
#undef STOPS64
#undef STRFIRST

#ifdef OPMASKS
#define KSETUP \
	SPLAT($0x2222222222222222, Z16); \
	SPLAT($0x5c5c5c5c5c5c5c5c, Z17); \
	SPLAT($0x2020202020202020, Z18)
#define STOPS64(b) \
	VMOVDQU64 (SI)(b*1), Z19; \
	VPCMPEQB Z16, Z19, K1; \
	VPCMPEQB Z17, Z19, K2; \
	VPCMPGTB Z19, Z18, K3; \
	KORQ K1, K2, K1; \
	KORQ K3, K1, K1; \
	KMOVQ K1, AX; \
	TESTQ AX, AX
#define STRFIRST \
	LEAQ 32(BX), AX; \
	CMPQ AX, DX; \
	JA   strShort; \
	VMOVDQU8 (SI)(BX*1), Y19; \
	VPCMPEQB Y16, Y19, K1; \
	VPCMPEQB Y17, Y19, K2; \
	VPCMPGTB Y19, Y18, K3; \
	KORD K1, K2, K1; \
	KORD K3, K1, K1; \
	KMOVD K1, AX; \
	TESTL AX, AX; \
	JNZ  strStop32; \
	ADDQ $32, BX
#else
#define KSETUP
#define STOPS64(b) \
	VMOVDQU (SI)(b*1), Y3; \
	VMOVDQU 32(SI)(b*1), Y7; \
	VPCMPEQB Y0, Y3, Y4; \
	VPCMPEQB Y1, Y3, Y5; \
	VPCMPGTB Y3, Y2, Y6; \
	VPTERNLOGD $0xfe, Y6, Y5, Y4; \
	VPCMPEQB Y0, Y7, Y5; \
	VPCMPEQB Y1, Y7, Y6; \
	VPCMPGTB Y7, Y2, Y7; \
	VPTERNLOGD $0xfe, Y7, Y6, Y5; \
	JOIN64(Y4, Y5, AX, R8)
#define STRFIRST \
	LEAQ 32(BX), AX; \
	CMPQ AX, DX; \
	JA   strShort; \
	VMOVDQU (SI)(BX*1), Y3; \
	VPCMPEQB Y0, Y3, Y4; \
	VPCMPEQB Y1, Y3, Y5; \
	VPCMPGTB Y3, Y2, Y6; \
	VPTERNLOGD $0xfe, Y6, Y5, Y4; \
	VPMOVMSKB Y4, AX; \
	TESTL AX, AX; \
	JNZ  strStop32; \
	ADDQ $32, BX
#endif

// CHECKPOINT(r) is skip_amd64.s's, for each kernel.
#define CHECKPOINT(r) \
	MOVQ BX, ckPos+72(FP); \
	MOVQ R10, ckStack+80(FP); \
	MOVQ R11, ckDepth+88(FP)

// func skipWholeAVX512(src *byte, n, i, room, maxToken int, stack uint64, depth, entry int) (end, ckPos int, ckStack uint64, ckDepth int)
//
// skipWholeAVX2 with STOPS64 and STRFIRST by AVX-512; the same results.
TEXT ·skipWholeAVX512(SB), NOSPLIT, $32-96
#include "skipgrammar_amd64.h"

// func copyWholeAVX512(src *byte, n, i, room, maxToken int, stack uint64, depth, entry int, dst *byte, dstCap int) (end, outLen, ckPos int, ckStack uint64, ckDepth, ckOut int)
//
// copyWholeAVX2 with STOPS64 and STRFIRST by AVX-512; the same results.
#define COPY
TEXT ·copyWholeAVX512(SB), NOSPLIT, $32-128
#undef CHECKPOINT
#define CHECKPOINT(r) \
	MOVQ BX, ckPos+96(FP); \
	MOVQ R10, ckStack+104(FP); \
	MOVQ R11, ckDepth+112(FP); \
	MOVQ R14, r; \
	SUBQ run-8(SP), r; \
	MOVQ r, ckOut+120(FP)
#include "skipgrammar_amd64.h"
#undef COPY
	INT3X8; INT3X8; INT3X8; INT3X8
