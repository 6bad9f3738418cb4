//go:build amd64 && !noasm

#include "textflag.h"
#include "kernels_amd64.h"

// Constants, 32 bytes each, loaded with VMOVDQU: the kernel is VEX-only
// (bench/REPORT.md, round 5: a legacy-SSE MOVQ in a YMM kernel's prologue
// cost 11 %).
DATA ·skipQuotes<>+0(SB)/8, $0x2222222222222222
DATA ·skipQuotes<>+8(SB)/8, $0x2222222222222222
DATA ·skipQuotes<>+16(SB)/8, $0x2222222222222222
DATA ·skipQuotes<>+24(SB)/8, $0x2222222222222222
GLOBL ·skipQuotes<>(SB), RODATA|NOPTR, $32
DATA ·skipBackslashes<>+0(SB)/8, $0x5c5c5c5c5c5c5c5c
DATA ·skipBackslashes<>+8(SB)/8, $0x5c5c5c5c5c5c5c5c
DATA ·skipBackslashes<>+16(SB)/8, $0x5c5c5c5c5c5c5c5c
DATA ·skipBackslashes<>+24(SB)/8, $0x5c5c5c5c5c5c5c5c
GLOBL ·skipBackslashes<>(SB), RODATA|NOPTR, $32
DATA ·skipControl<>+0(SB)/8, $0x1f1f1f1f1f1f1f1f
DATA ·skipControl<>+8(SB)/8, $0x1f1f1f1f1f1f1f1f
DATA ·skipControl<>+16(SB)/8, $0x1f1f1f1f1f1f1f1f
DATA ·skipControl<>+24(SB)/8, $0x1f1f1f1f1f1f1f1f
GLOBL ·skipControl<>(SB), RODATA|NOPTR, $32
// skipC20 is ' ': a byte below it as a signed byte (VPCMPGTB) is a control
// byte or one from 0x80, which strLoop stops at alike.
DATA ·skipC20<>+0(SB)/8, $0x2020202020202020
DATA ·skipC20<>+8(SB)/8, $0x2020202020202020
DATA ·skipC20<>+16(SB)/8, $0x2020202020202020
DATA ·skipC20<>+24(SB)/8, $0x2020202020202020
GLOBL ·skipC20<>(SB), RODATA|NOPTR, $32
// skipSpaces is a VPSHUFB table by a byte's low nibble: a byte is JSON
// whitespace iff the table gives the byte itself (' ' 0x20, '\t' 0x09, '\n'
// 0x0A, '\r' 0x0D; any other nibble gives 0, which no byte with that nibble
// is, and VPSHUFB gives 0 for a byte from 0x80).
DATA ·skipSpaces<>+0(SB)/8, $0x0000000000000020
DATA ·skipSpaces<>+8(SB)/8, $0x00000D00000A0900
DATA ·skipSpaces<>+16(SB)/8, $0x0000000000000020
DATA ·skipSpaces<>+24(SB)/8, $0x00000D00000A0900
GLOBL ·skipSpaces<>(SB), RODATA|NOPTR, $32

// The UTF-8 lookup tables of stringRunGeneric (strrun2_amd64.s has the
// same), 16 bytes each, broadcast to both lanes by UTF8BLOCK; the low
// nibble; the bytes 0x60, 0x70 and 0x80 that find the third and fourth bytes
// of a sequence; and 0xC0, the least lead byte.
DATA ·skipByte1High<>+0(SB)/8, $0x0202020202020202
DATA ·skipByte1High<>+8(SB)/8, $0x4915012180808080
GLOBL ·skipByte1High<>(SB), RODATA|NOPTR, $16
DATA ·skipByte1Low<>+0(SB)/8, $0xcbcbcb8b8383a3e7
DATA ·skipByte1Low<>+8(SB)/8, $0xcbcbdbcbcbcbcbcb
GLOBL ·skipByte1Low<>(SB), RODATA|NOPTR, $16
DATA ·skipByte2High<>+0(SB)/8, $0x0101010101010101
DATA ·skipByte2High<>+8(SB)/8, $0x01010101babaaee6
GLOBL ·skipByte2High<>(SB), RODATA|NOPTR, $16
DATA ·skipNibble<>+0(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA ·skipNibble<>+8(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA ·skipNibble<>+16(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA ·skipNibble<>+24(SB)/8, $0x0f0f0f0f0f0f0f0f
GLOBL ·skipNibble<>(SB), RODATA|NOPTR, $32
DATA ·skipC60<>+0(SB)/8, $0x6060606060606060
DATA ·skipC60<>+8(SB)/8, $0x6060606060606060
DATA ·skipC60<>+16(SB)/8, $0x6060606060606060
DATA ·skipC60<>+24(SB)/8, $0x6060606060606060
GLOBL ·skipC60<>(SB), RODATA|NOPTR, $32
DATA ·skipC70<>+0(SB)/8, $0x7070707070707070
DATA ·skipC70<>+8(SB)/8, $0x7070707070707070
DATA ·skipC70<>+16(SB)/8, $0x7070707070707070
DATA ·skipC70<>+24(SB)/8, $0x7070707070707070
GLOBL ·skipC70<>(SB), RODATA|NOPTR, $32
DATA ·skipC80<>+0(SB)/8, $0x8080808080808080
DATA ·skipC80<>+8(SB)/8, $0x8080808080808080
DATA ·skipC80<>+16(SB)/8, $0x8080808080808080
DATA ·skipC80<>+24(SB)/8, $0x8080808080808080
GLOBL ·skipC80<>(SB), RODATA|NOPTR, $32
DATA ·skipLeads<>+0(SB)/8, $0xc0c0c0c0c0c0c0c0
DATA ·skipLeads<>+8(SB)/8, $0xc0c0c0c0c0c0c0c0
DATA ·skipLeads<>+16(SB)/8, $0xc0c0c0c0c0c0c0c0
DATA ·skipLeads<>+24(SB)/8, $0xc0c0c0c0c0c0c0c0
GLOBL ·skipLeads<>(SB), RODATA|NOPTR, $32

// The \uXXXX run (strEscapeU): skipEscU is '\\' and 'u' where 5 escapes
// one after another have them (the other bytes are masked after the
// compare); the hex digit classes take '0', 9, 'a' and 5 (and skipC20).
DATA ·skipEscU<>+0(SB)/8, $0x755c00000000755c
DATA ·skipEscU<>+8(SB)/8, $0x0000755c00000000
DATA ·skipEscU<>+16(SB)/8, $0x00000000755c0000
DATA ·skipEscU<>+24(SB)/8, $0x000000000000755c
GLOBL ·skipEscU<>(SB), RODATA|NOPTR, $32
DATA ·skipC30<>+0(SB)/8, $0x3030303030303030
DATA ·skipC30<>+8(SB)/8, $0x3030303030303030
DATA ·skipC30<>+16(SB)/8, $0x3030303030303030
DATA ·skipC30<>+24(SB)/8, $0x3030303030303030
GLOBL ·skipC30<>(SB), RODATA|NOPTR, $32
DATA ·skipC09<>+0(SB)/8, $0x0909090909090909
DATA ·skipC09<>+8(SB)/8, $0x0909090909090909
DATA ·skipC09<>+16(SB)/8, $0x0909090909090909
DATA ·skipC09<>+24(SB)/8, $0x0909090909090909
GLOBL ·skipC09<>(SB), RODATA|NOPTR, $32
DATA ·skipC61<>+0(SB)/8, $0x6161616161616161
DATA ·skipC61<>+8(SB)/8, $0x6161616161616161
DATA ·skipC61<>+16(SB)/8, $0x6161616161616161
DATA ·skipC61<>+24(SB)/8, $0x6161616161616161
GLOBL ·skipC61<>(SB), RODATA|NOPTR, $32
// skipDots and skipMinus are '.' and '-', for the mantissa's masks.
DATA ·skipDots<>+0(SB)/8, $0x2e2e2e2e2e2e2e2e
DATA ·skipDots<>+8(SB)/8, $0x2e2e2e2e2e2e2e2e
DATA ·skipDots<>+16(SB)/8, $0x2e2e2e2e2e2e2e2e
DATA ·skipDots<>+24(SB)/8, $0x2e2e2e2e2e2e2e2e
GLOBL ·skipDots<>(SB), RODATA|NOPTR, $32
DATA ·skipMinus<>+0(SB)/8, $0x2d2d2d2d2d2d2d2d
DATA ·skipMinus<>+8(SB)/8, $0x2d2d2d2d2d2d2d2d
DATA ·skipMinus<>+16(SB)/8, $0x2d2d2d2d2d2d2d2d
DATA ·skipMinus<>+24(SB)/8, $0x2d2d2d2d2d2d2d2d
GLOBL ·skipMinus<>(SB), RODATA|NOPTR, $32
DATA ·skipC05<>+0(SB)/8, $0x0505050505050505
DATA ·skipC05<>+8(SB)/8, $0x0505050505050505
DATA ·skipC05<>+16(SB)/8, $0x0505050505050505
DATA ·skipC05<>+24(SB)/8, $0x0505050505050505
GLOBL ·skipC05<>(SB), RODATA|NOPTR, $32

// UTF8BLOCK sets reg to the 32-bit mask of the bytes of Y3 that the UTF-8
// lookup check flags (stringRunGeneric's utf8Error; strrun2_amd64.s's
// UTF8HALF), the bytes before Y3 taken as ASCII: the previous byte's high
// and low nibble and the byte's high nibble looked up, and the third and
// fourth bytes of 3- and 4-byte sequences, which must be continuations. It
// clobbers Y4-Y7 and Y11-Y13. Go operand order: the destination last;
// VPERM2I128 $0x28 puts Y3's lower lane in the upper one and zeros below.
#define UTF8BLOCK(reg) \
	VPERM2I128 $0x28, Y3, Y3, Y4; \
	VPALIGNR $15, Y4, Y3, Y5; \
	VPALIGNR $14, Y4, Y3, Y6; \
	VPALIGNR $13, Y4, Y3, Y4; \
	VMOVDQU ·skipNibble<>(SB), Y7; \
	VPSRLW $4, Y5, Y11; \
	VPAND Y7, Y11, Y11; \
	VBROADCASTI128 ·skipByte1High<>(SB), Y12; \
	VPSHUFB Y11, Y12, Y11; \
	VPAND Y7, Y5, Y12; \
	VBROADCASTI128 ·skipByte1Low<>(SB), Y13; \
	VPSHUFB Y12, Y13, Y12; \
	VPAND Y12, Y11, Y11; \
	VPSRLW $4, Y3, Y12; \
	VPAND Y7, Y12, Y12; \
	VBROADCASTI128 ·skipByte2High<>(SB), Y13; \
	VPSHUFB Y12, Y13, Y12; \
	VPAND Y12, Y11, Y11; \
	VPSUBUSB ·skipC60<>(SB), Y6, Y6; \
	VPSUBUSB ·skipC70<>(SB), Y4, Y4; \
	VPOR Y4, Y6, Y6; \
	VPAND ·skipC80<>(SB), Y6, Y6; \
	VPXOR Y11, Y6, Y6; \
	VPXOR Y7, Y7, Y7; \
	VPCMPEQB Y7, Y6, Y6; \
	VPMOVMSKB Y6, reg; \
	NOTL reg

// UTF8ERR sets Y6 to the lookup check's flags (UTF8BLOCK's, as bytes: not
// 0 where flagged) for the 32 bytes in cur, with Y4 the 32 bytes from 16
// before cur (the bytes before cur; VPERM2I128 $0x28 for ASCII before). It
// clobbers Y4, Y5, Y11 and Y12; the tables are read from memory.
#define UTF8ERR(cur) \
	VPALIGNR $15, Y4, cur, Y5; \
	VPALIGNR $14, Y4, cur, Y6; \
	VPALIGNR $13, Y4, cur, Y4; \
	VPSRLW $4, Y5, Y11; \
	VPAND ·skipNibble<>(SB), Y11, Y11; \
	VBROADCASTI128 ·skipByte1High<>(SB), Y12; \
	VPSHUFB Y11, Y12, Y11; \
	VPAND ·skipNibble<>(SB), Y5, Y12; \
	VBROADCASTI128 ·skipByte1Low<>(SB), Y5; \
	VPSHUFB Y12, Y5, Y12; \
	VPAND Y12, Y11, Y11; \
	VPSRLW $4, cur, Y12; \
	VPAND ·skipNibble<>(SB), Y12, Y12; \
	VBROADCASTI128 ·skipByte2High<>(SB), Y5; \
	VPSHUFB Y12, Y5, Y12; \
	VPAND Y12, Y11, Y11; \
	VPSUBUSB ·skipC60<>(SB), Y6, Y6; \
	VPSUBUSB ·skipC70<>(SB), Y4, Y4; \
	VPOR Y4, Y6, Y6; \
	VPAND ·skipC80<>(SB), Y6, Y6; \
	VPXOR Y11, Y6, Y6

// skipCut is, by byte, the greatest byte that no lead cut by the end of 32
// bytes is: 0xEF, 0xDF and 0xBF for the last three (a 4-, 3- or 2-byte
// lead there), 0xFF before. It is 32 bytes, and skipMasks 64: the RODATA
// of this file has the size it had when skipCut was 64 and skipMasks 32,
// which keeps the tables after them at their offsets mod 64.
DATA ·skipCut<>+0(SB)/8, $0xffffffffffffffff
DATA ·skipCut<>+8(SB)/8, $0xffffffffffffffff
DATA ·skipCut<>+16(SB)/8, $0xffffffffffffffff
DATA ·skipCut<>+24(SB)/8, $0xbfdfefffffffffff
GLOBL ·skipCut<>(SB), RODATA|NOPTR, $32

// UTF8KEEP sets out's high bits where the 32 bytes in cur are from 0x80
// and no lead that their end cuts (with no flag in them, such a lead is
// in the last 3). It clobbers Y12.
#define UTF8KEEP(cur, out) \
	VPSUBUSB ·skipCut<>(SB), cur, out; \
	VPXOR Y12, Y12, Y12; \
	VPCMPEQB Y12, out, out; \
	VPAND cur, out, out

// skipMasks from +32-n is the mask of n bytes out of 32.
DATA ·skipMasks<>+0(SB)/8, $0xffffffffffffffff
DATA ·skipMasks<>+8(SB)/8, $0xffffffffffffffff
DATA ·skipMasks<>+16(SB)/8, $0xffffffffffffffff
DATA ·skipMasks<>+24(SB)/8, $0xffffffffffffffff
DATA ·skipMasks<>+32(SB)/8, $0
DATA ·skipMasks<>+40(SB)/8, $0
DATA ·skipMasks<>+48(SB)/8, $0
DATA ·skipMasks<>+56(SB)/8, $0
GLOBL ·skipMasks<>(SB), RODATA|NOPTR, $64

// DIGITS is nonDigits on the word at src[BX] (8 bytes, in src): it adds
// 8 to BX and jumps to loop when all are digits, else adds the number of
// digits before the first other byte and jumps to done. It clobbers AX, R8
// and R13.
#define DIGITS(loop, done) \
	MOVQ (SI)(BX*1), AX; \
	MOVQ $0x3030303030303030, R13; \
	MOVQ AX, R8; \
	SUBQ R13, R8; \
	MOVQ $0x4646464646464646, R13; \
	ADDQ AX, R13; \
	ORQ  R13, R8; \
	ORQ  AX, R8; \
	MOVQ $0x8080808080808080, R13; \
	ANDQ R13, R8; \
	JNZ  3(PC); \
	ADDQ $8, BX; \
	JMP  loop; \
	BSFQ R8, R8; \
	SHRQ $3, R8; \
	ADDQ R8, BX; \
	JMP  done

// func skipWholeAVX2(src *byte, n, i, room, maxToken int, stack uint64, depth, entry int) (end, ckPos int, ckStack uint64, ckDepth int)
//
// skipWholeGeneric in assembly (skip.go says what it does): the index after
// the object or array at src[i], or 0 for "not mine", and the last
// checkpoint, written at each pass at next (ckDepth 0: none). It reads
// nothing at or past src[n]: 32 bytes a step where 32 remain (in strings
// 64 where 64 remain, then src's last 64 bytes, which may begin before
// src[i]), a byte at a time after. It runs only with maxToken >=
// skipMinToken (skip.go). With depth > 0 it starts inside depth open
// containers (stack), where R9 = entry says (skipFrom), after whitespace.
//
// Registers, all the way through:
//	SI src, DX n, BX the index, CX where the current string or number began
//	R10 the stack of open containers (1 an object, the innermost in bit 0)
//	R11 the depth; room and maxToken are compared in memory, from the arguments
//	R13 scratch in ws; SEPSKIP and VSEP scan a whitespace run and predict
//	its length by depth, a byte per depth mod 8 in entry+56(FP) (after
//	',') and depth+48(FP) (after '{' or '[' and before a closing bracket)
//	DI 1 while a key is read, 0 for a string value; in a number, where
//	its fraction or exponent digits begin
//	R9 where ws goes back to: 0 open1, 1 next1, 2 comma1, 3 colon1, 4 value
//	AX, R8 scratch; AL the byte at BX where a label says so; R9 and R13
//	scratch in a string (utf8Block)
//	Y0 '"', Y1 '\\', Y2 0x20, Y8 the whitespace table; Y3-Y7, Y11-Y13 scratch
//	R12, Y9, Y10, Y14, Y15 and the frame's slot -32(SP) are unused since
//	LEARNSEP went (round 14); the frame stays $32, so that every SP- and
//	FP-relative operand keeps its size (a disp8 is not a disp32)
// PADSTR, PADUTF8 and PADEND are int3 bytes that no jump reaches, after
// three unconditional jumps of the grammar (before strByte, utf8 and
// strEndValue), sized per kernel so that the labels after them keep the
// offsets mod 64 that main had before round 8 added the string chain
// (bench/REPORT.md, round 8: with the labels after the strings moved by 22
// bytes, citm-performances ran 8 % slower at the same instructions). Whoever
// changes the grammar: compare `go tool objdump` of both builds label by
// label and size these again, or measure without them.
// INT3X1, INT3X4 and INT3X8 are 1, 4 and 8 int3 bytes.
// DIGITS32(in, d, t) sets in d's bytes 0xff where in's bytes are ASCII
// digits (b - '0' <= 9, unsigned), with t as scratch.
#define DIGITS32(in, d, t) \
	VPSUBB ·skipC30<>(SB), in, d; \
	VPMINUB ·skipC09<>(SB), d, t; \
	VPCMPEQB t, d, d
// STOPS64(b) sets AX to the mask of the stops in the 64 bytes from
// src[b]: quotes, backslashes, control bytes and bytes from 0x80 (0x20 >
// the byte, signed), and the flags to AX's (ZF: none). It clobbers R8 and
// Y3-Y7.
#define STOPS64(b) \
	VMOVDQU (SI)(b*1), Y3; \
	VMOVDQU 32(SI)(b*1), Y7; \
	VPCMPEQB Y0, Y3, Y4; \
	VPCMPEQB Y1, Y3, Y5; \
	VPCMPGTB Y3, Y2, Y6; \
	VPOR Y5, Y4, Y4; \
	VPOR Y6, Y4, Y4; \
	VPCMPEQB Y0, Y7, Y5; \
	VPCMPEQB Y1, Y7, Y6; \
	VPCMPGTB Y7, Y2, Y7; \
	VPOR Y6, Y5, Y5; \
	VPOR Y7, Y5, Y5; \
	JOIN64(Y4, Y5, AX, R8)
// STOPSTAIL is strLoop's step where fewer than 64 bytes remain from BX:
// with 64 bytes in src, the block is its last 64 bytes, BX their start,
// AX their stops from the old BX on, and it goes on at stop (no stop: the
// string does not end in src, and fails); else a byte at a time
// (strTail). It clobbers R8, R13 and Y3-Y7; CX is kept.
#define STOPSTAIL(stop) \
	CMPQ BX, DX; \
	JAE  fail; \
	CMPQ DX, $64; \
	JB   strTail; \
	LEAQ -64(DX), R8; \
	MOVQ BX, R13; \
	SUBQ R8, R13; \
	MOVQ R8, BX; \
	STOPS64(BX); \
	MOVQ CX, R8; \
	MOVQ R13, CX; \
	SHRQ CX, AX; \
	SHLQ CX, AX; \
	MOVQ R8, CX; \
	TESTQ AX, AX; \
	JZ   fail; \
	JMP  stop
#define INT3X1 BYTE $0xcc
#define INT3X4 LONG $0xcccccccc
#define INT3X8 INT3X4; INT3X4
// The skip kernel's pads: 56, 67 and 42 bytes; the copy kernel's PADSTR is
// its own (below), its PADUTF8 and PADEND are these. Round 12 grew PADSTR
// by the 15 bytes of CHAIN's sbyte steps (utf8Chain jumps from the chain)
// and PADUTF8 by the 10 of strNext's test for a byte from 0x80.
#define PADSTR INT3X8; INT3X8; INT3X8; INT3X8; INT3X8; INT3X8; INT3X8
#define PADUTF8 INT3X8; INT3X8; INT3X8; INT3X8; INT3X8; INT3X8; INT3X8; INT3X8; INT3X1; INT3X1; INT3X1
#define PADEND INT3X8; INT3X8; INT3X8; INT3X8; INT3X8; INT3X1; INT3X1
// PADTAIL ends each kernel (after colonSpace, unreached): 5 bytes
// here, 18 in the copy kernel, which keep the next function's phase
// (copyWholeAVX2 0, stringRunAVX2 32 mod 64; functions start at 32).
#define PADTAIL INT3X4; INT3X1
// PADNUM keeps the labels after the number grammar where they were before
// round 9 read the mantissa from masks (mod 64): 73 bytes here, 72 in the
// copy kernel.
#define PADNUM INT3X8; INT3X8; INT3X8; INT3X8; INT3X8; INT3X8; INT3X8; INT3X8; INT3X8; INT3X1
// CHECKPOINT(r) records the checkpoint at BX: its position, the stack and
// the depth (and in the copy kernel the output's length there; r is
// scratch).
#define CHECKPOINT(r) \
	MOVQ BX, ckPos+72(FP); \
	MOVQ R10, ckStack+80(FP); \
	MOVQ R11, ckDepth+88(FP)
TEXT ·skipWholeAVX2(SB), NOSPLIT, $32-96
#include "skipgrammar_amd64.h"

// COPYRUN appends src[run-8(SP):BX], the run of bytes since the last
// whitespace, at R14 and advances R14: 32 bytes a move while 32 remain in
// the run, then 16-byte moves, which may write up to 15 bytes past the run
// (AppendValue's contract lets them: its caller clears them), while the
// load stays in src, else a byte at a time. It fails ("not mine") first
// when the run and 16 bytes do not fit before lim-16(SP), the end of dst's
// capacity; that is checked only past sure-24(SP), i+dstCap-16, since the
// output is never longer than the input read (most often never). It
// clobbers AX, R8, R13 and Y3.
#define COPYRUN(lroom, l32, l16, lmore, lbyte, ldone) \
	MOVQ run-8(SP), R8; \
	CMPQ BX, sure-24(SP); \
	JLE  lroom; \
	MOVQ BX, AX; \
	SUBQ R8, AX; \
	LEAQ 16(R14)(AX*1), AX; \
	CMPQ AX, lim-16(SP); \
	JA   fail; \
lroom: \
l32: \
	LEAQ 32(R8), AX; \
	CMPQ AX, BX; \
	JA   l16; \
	VMOVDQU (SI)(R8*1), Y3; \
	VMOVDQU Y3, (R14); \
	ADDQ $32, R14; \
	MOVQ AX, R8; \
	JMP  l32; \
l16: \
	MOVQ BX, R13; \
	SUBQ R8, R13; \
	JZ   ldone; \
	LEAQ 16(R8), AX; \
	CMPQ AX, DX; \
	JA   lbyte; \
	VMOVDQU (SI)(R8*1), X3; \
	VMOVDQU X3, (R14); \
	CMPQ R13, $16; \
	JA   lmore; \
	ADDQ R13, R14; \
	JMP  ldone; \
lmore: \
	ADDQ $16, R14; \
	MOVQ AX, R8; \
	JMP  l16; \
lbyte: \
	MOVBLZX (SI)(R8*1), AX; \
	MOVB AL, (R14); \
	INCQ R8; \
	INCQ R14; \
	CMPQ R8, BX; \
	JB   lbyte; \
ldone:

// func copyWholeAVX2(src *byte, n, i, room, maxToken int, stack uint64, depth, entry int, dst *byte, dstCap int) (end, outLen, ckPos int, ckStack uint64, ckDepth, ckOut int)
//
// skipWholeAVX2 (from depth 0, or from a later window) that also copies
// the value at src[i] to dst without the whitespace between its tokens
// (SPEC O1), as value does with copy: each run of bytes between two runs
// of whitespace is appended at the whitespace (COPYRUN), the last at the
// end. It returns the index after the value and the bytes written, or end
// 0 for "not mine" and the bytes written until then; "not mine" too when
// the output would not fit in dstCap bytes with 16 to spare. R14 is where
// the next byte goes; the run's start is in run-8(SP), the end of dst's
// capacity in lim-16(SP) (and sure-24(SP), COPYRUN says); the other registers are skipWholeAVX2's.
// Its checkpoint is skipWholeAVX2's, with ckOut, the output's length there
// (kept as R14 less the run's start until fail): with "not mine", the
// bytes written may end before it (the run from its start up to ckPos not
// yet appended) or after it.
// The copy kernel's PADSTR: 52 bytes.
#undef PADSTR
#define PADSTR INT3X8; INT3X8; INT3X8; INT3X8; INT3X8; INT3X8; INT3X4
#undef PADNUM
#define PADNUM INT3X8; INT3X8; INT3X8; INT3X8; INT3X8; INT3X8; INT3X8; INT3X8; INT3X8
#undef PADTAIL
#define PADTAIL INT3X8; INT3X8; INT3X1; INT3X1
#define COPY
TEXT ·copyWholeAVX2(SB), NOSPLIT, $32-128
// CHECKPOINT, the copy kernel's (here, where go vet reads it as its).
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
