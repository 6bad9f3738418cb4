//go:build amd64 && !noasm

#include "textflag.h"

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
// skipSpaces is a VPSHUFB table by a byte's low nibble: a byte is JSON
// whitespace iff the table gives the byte itself (' ' 0x20, '\t' 0x09, '\n'
// 0x0A, '\r' 0x0D; any other nibble gives 0, which no byte with that nibble
// is, and VPSHUFB gives 0 for a byte from 0x80).
DATA ·skipSpaces<>+0(SB)/8, $0x0000000000000020
DATA ·skipSpaces<>+8(SB)/8, $0x00000D00000A0900
DATA ·skipSpaces<>+16(SB)/8, $0x0000000000000020
DATA ·skipSpaces<>+24(SB)/8, $0x00000D00000A0900
GLOBL ·skipSpaces<>(SB), RODATA|NOPTR, $32

// skipMasks from +16-n is the mask of n bytes out of 16.
DATA ·skipMasks<>+0(SB)/8, $0xffffffffffffffff
DATA ·skipMasks<>+8(SB)/8, $0xffffffffffffffff
DATA ·skipMasks<>+16(SB)/8, $0
DATA ·skipMasks<>+24(SB)/8, $0
GLOBL ·skipMasks<>(SB), RODATA|NOPTR, $32

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
// nothing at or past src[n]: 32 bytes a step where 32 remain, a byte at a
// time after. With depth > 0 it starts inside depth open containers
// (stack), where R9 = entry says (skipFrom), after whitespace.
//
// Registers, all the way through:
//	SI src, DX n, BX the index, CX where the current string or number began
//	R10 the stack of open containers (1 an object, the innermost in bit 0)
//	R11 the depth; room and maxToken are compared in memory, from the arguments
//	R12 the length of the separator learned in an array (0: none), X9 its
//	bytes and X10 their mask; R13 scratch in ws
//	DI 1 while a key is read, 0 for a string value; in a number, where
//	its fraction or exponent digits begin
//	R9 where ws goes back to: 0 open1, 1 next1, 2 comma1, 3 colon1, 4 value
//	AX, R8 scratch; AL the byte at BX where a label says so
//	Y0 '"', Y1 '\\', Y2 0x1F, Y8 the whitespace table; Y3-Y5 scratch
TEXT ·skipWholeAVX2(SB), NOSPLIT, $0-96
	MOVQ src+0(FP), SI
	MOVQ n+8(FP), DX
	MOVQ i+16(FP), BX
	XORQ R12, R12
	MOVQ $0, ckPos+72(FP)
	MOVQ $0, ckStack+80(FP)
	MOVQ $0, ckDepth+88(FP)
	XORQ R10, R10
	XORQ R11, R11
	VMOVDQU ·skipQuotes<>(SB), Y0
	VMOVDQU ·skipBackslashes<>(SB), Y1
	VMOVDQU ·skipControl<>(SB), Y2
	VMOVDQU ·skipSpaces<>(SB), Y8
	CMPQ depth+48(FP), $0
	JEQ  open
	MOVQ stack+40(FP), R10 // a value an earlier window began
	MOVQ depth+48(FP), R11
	MOVQ entry+56(FP), R9
	MOVQ BX, CX
	CMPQ BX, DX
	JAE  fail
	CMPB (SI)(BX*1), $0x20
	JA   wsDone
	JMP  ws

open: // src[BX] is '{' or '['
	CMPQ R11, room+24(FP)
	JGE  fail
	MOVBLZX (SI)(BX*1), AX
	SHRL $5, AX
	ANDL $1, AX
	SHLQ $1, R10
	ORQ  AX, R10
	INCQ R11
	INCQ BX
	CMPQ BX, DX
	JAE  fail
	CMPB (SI)(BX*1), $0x20
	JA   open1
	XORL R9, R9
	JMP  ws

open1: // after '{' or '[' and whitespace: src[BX] is in src
	MOVBLZX (SI)(BX*1), AX
	TESTQ $1, R10
	JZ   arrayFirst
	CMPB AL, $0x7D // '}'
	JEQ  closed
	JMP  key

arrayFirst:
	CMPB AL, $0x5D // ']'
	JEQ  closed

value: // a value starts at src[BX], in src
	MOVBLZX (SI)(BX*1), AX
	CMPB AL, $0x22
	JEQ  valueString
	CMPB AL, $0x5B
	JB   number // '-' and the digits are below '['
	JEQ  open
	CMPB AL, $0x7B
	JEQ  open
	CMPB AL, $0x74
	JEQ  literal
	CMPB AL, $0x66
	JEQ  literal
	CMPB AL, $0x6E
	JEQ  literal
	JMP  fail

literal: // true, false or null at src[BX]
	LEAQ 4(BX), R8
	CMPQ R8, DX
	JA   fail
	MOVL (SI)(BX*1), R8
	CMPL R8, $0x65757274 // "true"
	JEQ  literal4
	CMPL R8, $0x6c6c756e // "null"
	JEQ  literal4
	CMPL R8, $0x736c6166 // "fals"
	JNE  fail
	LEAQ 5(BX), R8
	CMPQ R8, DX
	JA   fail
	CMPB 4(SI)(BX*1), $0x65
	JNE  fail
	ADDQ $5, BX
	JMP  next
literal4:
	ADDQ $4, BX
	JMP  next

number: // AL = src[BX], below '[': the number grammar, as numberEnd
	MOVQ BX, CX
	CMPB AL, $0x2D // '-'
	JNE  number1
	INCQ BX
	CMPQ BX, DX
	JAE  fail
	MOVBLZX (SI)(BX*1), AX
number1:
	CMPB AL, $0x30
	JEQ  numberZero
	SUBB $0x31, AL
	CMPB AL, $8
	JA   fail
	INCQ BX
digitsInt:
	LEAQ 8(BX), AX
	CMPQ AX, DX
	JA   digitsIntByte
	DIGITS(digitsInt, numberInt)
digitsIntByte:
	CMPQ BX, DX
	JAE  fail
	MOVBLZX (SI)(BX*1), AX
	SUBB $0x30, AL
	CMPB AL, $9
	JA   numberInt
	INCQ BX
	JMP  digitsIntByte
numberZero:
	INCQ BX
numberInt: // after the integer part
	CMPQ BX, DX
	JAE  fail
	MOVBLZX (SI)(BX*1), AX
	CMPB AL, $0x2E // '.'
	JNE  numberExp
	INCQ BX
	MOVQ BX, DI // digits must follow (DI is free outside strings)
digitsFrac:
	LEAQ 8(BX), AX
	CMPQ AX, DX
	JA   digitsFracByte
	DIGITS(digitsFrac, numberFrac)
digitsFracByte:
	CMPQ BX, DX
	JAE  fail
	MOVBLZX (SI)(BX*1), AX
	SUBB $0x30, AL
	CMPB AL, $9
	JA   numberFrac
	INCQ BX
	JMP  digitsFracByte
numberFrac:
	CMPQ BX, DI
	JEQ  fail
	CMPQ BX, DX
	JAE  fail
	MOVBLZX (SI)(BX*1), AX
numberExp: // AL = src[BX], after the mantissa
	ORB  $0x20, AL
	CMPB AL, $0x65 // 'e' or 'E'
	JNE  numberEnd
	INCQ BX
	CMPQ BX, DX
	JAE  fail
	MOVBLZX (SI)(BX*1), AX
	CMPB AL, $0x2B // '+'
	JEQ  numberSign
	CMPB AL, $0x2D // '-'
	JNE  numberExpDigits
numberSign:
	INCQ BX
numberExpDigits:
	MOVQ BX, DI // digits must follow (DI is free outside strings)
digitsExp:
	LEAQ 8(BX), AX
	CMPQ AX, DX
	JA   digitsExpByte
	DIGITS(digitsExp, numberExpEnd)
digitsExpByte:
	CMPQ BX, DX
	JAE  fail
	MOVBLZX (SI)(BX*1), AX
	SUBB $0x30, AL
	CMPB AL, $9
	JA   numberExpEnd
	INCQ BX
	JMP  digitsExpByte
numberExpEnd:
	CMPQ BX, DI
	JEQ  fail
	CMPQ BX, DX
	JAE  fail
numberEnd: // the number ended at src[BX-1], and src[BX] is in src
	MOVQ BX, AX
	SUBQ CX, AX
	CMPQ AX, maxToken+32(FP)
	JA   fail
	JMP  next

key: // a key starts at src[BX], in src
	CMPB (SI)(BX*1), $0x22
	JNE  fail
	MOVL $1, DI
	JMP  str
valueString:
	XORL DI, DI
str: // a string starts at src[BX]
	MOVQ BX, CX
	INCQ BX
strLoop: // content from src[BX] on, where a character starts: 32 bytes a step
	LEAQ 32(BX), AX
	CMPQ AX, DX
	JA   strTail
	VMOVDQU (SI)(BX*1), Y3
	VPCMPEQB Y0, Y3, Y4
	VPCMPEQB Y1, Y3, Y5
	VPOR Y5, Y4, Y4
	VPMAXUB Y2, Y3, Y5
	VPCMPEQB Y2, Y5, Y5
	VPOR Y5, Y4, Y4
	VPOR Y3, Y4, Y4 // and the bytes from 0x80, by their high bit
	VPMOVMSKB Y4, AX
	TESTL AX, AX
	JNZ  strStop
	ADDQ $32, BX
	JMP  strLoop
strStop:
	BSFL AX, AX
	ADDQ AX, BX
	MOVBLZX (SI)(BX*1), AX
strByte: // AL = src[BX]: a quote, a backslash, a control byte or from 0x80
	CMPB AL, $0x22
	JEQ  strEnd
	CMPB AL, $0x5C
	JEQ  strEscape
	CMPB AL, $0x80
	JB   fail // a control byte
	JMP  utf8
strTail: // fewer than 32 bytes remain: a byte at a time
	CMPQ BX, DX
	JAE  fail
	MOVBLZX (SI)(BX*1), AX
	CMPB AL, $0x20
	JB   strByte
	CMPB AL, $0x80
	JAE  strByte
	CMPB AL, $0x22
	JEQ  strEnd
	CMPB AL, $0x5C
	JEQ  strEscape
	INCQ BX
	JMP  strTail
strNext: // after an escape or a UTF-8 sequence: another, or back to the loop
	CMPQ BX, DX
	JAE  fail
	MOVBLZX (SI)(BX*1), AX
	CMPB AL, $0x80
	JAE  utf8
	CMPB AL, $0x5C
	JEQ  strEscape
	JMP  strLoop

strEscape: // src[BX] is a backslash
	LEAQ 1(BX), R8
	CMPQ R8, DX
	JAE  fail
	MOVBLZX 1(SI)(BX*1), AX
	CMPB AL, $0x75 // 'u'
	JEQ  strEscapeU
	LEAQ ·simpleEscape(SB), R8
	CMPB (R8)(AX*1), $0
	JEQ  fail
	ADDQ $2, BX
	JMP  strNext
strEscapeU: // four hex digits must follow
	LEAQ 6(BX), R8
	CMPQ R8, DX
	JA   fail
	LEAQ ·hexVal(SB), R8
	MOVBLZX 2(SI)(BX*1), AX
	CMPB (R8)(AX*1), $0
	JLT  fail
	MOVBLZX 3(SI)(BX*1), AX
	CMPB (R8)(AX*1), $0
	JLT  fail
	MOVBLZX 4(SI)(BX*1), AX
	CMPB (R8)(AX*1), $0
	JLT  fail
	MOVBLZX 5(SI)(BX*1), AX
	CMPB (R8)(AX*1), $0
	JLT  fail
	ADDQ $6, BX
	JMP  strNext

utf8: // AL = src[BX], from 0x80: a UTF-8 sequence, checked as runeLen does
	// Text in most scripts is 2- and 3-byte sequences whose lead needs no
	// special second-byte range: checked as a word, as str does (R9 is
	// free inside a string).
	LEAQ 4(BX), R8
	CMPQ R8, DX
	JA   utf8Lead
	MOVL (SI)(BX*1), R8
	LEAL -0xE1(AX), R9
	CMPL R9, $0xE
	JA   utf8Word2 // not E1..EF
	CMPB AL, $0xED
	JEQ  utf8Lead
	ANDL $0xC0C000, R8
	CMPL R8, $0x808000
	JNE  fail
	ADDQ $3, BX
	JMP  strNext
utf8Word2:
	LEAL -0xC2(AX), R9
	CMPL R9, $0x1D
	JA   utf8Lead // not C2..DF
	ANDL $0xC000, R8
	CMPL R8, $0x8000
	JNE  fail
	ADDQ $2, BX
	JMP  strNext
utf8Lead: // a byte at a time
	CMPB AL, $0xC2
	JB   fail
	CMPB AL, $0xE0
	JAE  utf8Three
	LEAQ 1(BX), R8
	CMPQ R8, DX
	JAE  fail
	MOVBLZX 1(SI)(BX*1), R8
	ANDB $0xC0, R8
	CMPB R8, $0x80
	JNE  fail
	ADDQ $2, BX
	JMP  strNext
utf8Three:
	CMPB AL, $0xF0
	JAE  utf8Four
	LEAQ 2(BX), R8
	CMPQ R8, DX
	JAE  fail
	MOVBLZX 1(SI)(BX*1), R8
	CMPB AL, $0xE0
	JEQ  utf8E0
	CMPB AL, $0xED
	JEQ  utf8ED
	ANDB $0xC0, R8
	CMPB R8, $0x80
	JNE  fail
	JMP  utf8Three2
utf8E0: // no overlong form: A0..BF
	CMPB R8, $0xA0
	JB   fail
	CMPB R8, $0xBF
	JA   fail
	JMP  utf8Three2
utf8ED: // no surrogate: 80..9F
	CMPB R8, $0x80
	JB   fail
	CMPB R8, $0x9F
	JA   fail
utf8Three2:
	MOVBLZX 2(SI)(BX*1), R8
	ANDB $0xC0, R8
	CMPB R8, $0x80
	JNE  fail
	ADDQ $3, BX
	JMP  strNext
utf8Four:
	CMPB AL, $0xF4
	JA   fail
	LEAQ 3(BX), R8
	CMPQ R8, DX
	JAE  fail
	MOVBLZX 1(SI)(BX*1), R8
	CMPB AL, $0xF0
	JEQ  utf8F0
	CMPB AL, $0xF4
	JEQ  utf8F4
	ANDB $0xC0, R8
	CMPB R8, $0x80
	JNE  fail
	JMP  utf8Four2
utf8F0: // no overlong form: 90..BF
	CMPB R8, $0x90
	JB   fail
	CMPB R8, $0xBF
	JA   fail
	JMP  utf8Four2
utf8F4: // nothing past U+10FFFF: 80..8F
	CMPB R8, $0x80
	JB   fail
	CMPB R8, $0x8F
	JA   fail
utf8Four2:
	MOVBLZX 2(SI)(BX*1), R8
	ANDB $0xC0, R8
	CMPB R8, $0x80
	JNE  fail
	MOVBLZX 3(SI)(BX*1), R8
	ANDB $0xC0, R8
	CMPB R8, $0x80
	JNE  fail
	ADDQ $4, BX
	JMP  strNext

strEnd: // src[BX] is the closing quote
	INCQ BX
	MOVQ BX, AX
	SUBQ CX, AX
	CMPQ AX, maxToken+32(FP)
	JA   fail
	TESTL DI, DI
	JZ   next
	CMPQ BX, DX // after a key: ':'
	JAE  fail
	CMPB (SI)(BX*1), $0x20
	JA   colon1
	MOVL $3, R9
	JMP  ws
colon1:
	CMPB (SI)(BX*1), $0x3A
	JNE  fail
	INCQ BX
	CMPQ BX, DX
	JAE  fail
	CMPB (SI)(BX*1), $0x20
	JA   value
	MOVL $4, R9
	JMP  ws

next: // after a value in a container: ',' or the closing bracket
	MOVQ BX, ckPos+72(FP)
	MOVQ R10, ckStack+80(FP)
	MOVQ R11, ckDepth+88(FP)
	CMPQ BX, DX
	JAE  fail
	MOVBLZX (SI)(BX*1), AX
	CMPB AL, $0x20
	JA   next1
	MOVL $1, R9
	JMP  ws
next1: // AL = src[BX], not whitespace
	CMPB AL, $0x2C
	JEQ  comma
	CMPB AL, $0x7D
	JEQ  closeObject
	CMPB AL, $0x5D
	JNE  fail
	TESTQ $1, R10
	JNZ  fail
	JMP  closed
closeObject:
	TESTQ $1, R10
	JZ   fail
closed: // src[BX] closes the innermost container
	INCQ BX
	SHRQ $1, R10
	DECQ R11
	JNZ  next
	VZEROUPPER
	MOVQ BX, end+64(FP)
	RET
comma:
	INCQ BX
	CMPQ BX, DX
	JAE  fail
	CMPB (SI)(BX*1), $0x20
	JA   comma1
	MOVL $2, R9
	TESTQ $1, R10
	JNZ  ws
	// In an array, the whitespace after ',' is most often the same as
	// after the last: compared as 16 bytes with the run ws learned, X9
	// under the mask X10, R12 bytes long (value does as much for arrays
	// of numbers).
	TESTQ R12, R12
	JZ   ws
	LEAQ 16(BX), AX
	CMPQ AX, DX
	JA   ws
	VMOVDQU (SI)(BX*1), X3
	VPXOR X9, X3, X3
	VPAND X10, X3, X3
	VPTEST X3, X3
	JNZ  ws
	ADDQ R12, BX
	CMPB (SI)(BX*1), $0x20
	JA   value
	JMP  ws
comma1:
	TESTQ $1, R10
	JNZ  key
	JMP  value

ws: // src[BX] is in src and at most ' ': skip JSON whitespace, then back by R9
	// As skipSpace: a run of spaces is measured a word at a time. CX, a
	// token's start, is free here: it keeps where the run began.
	MOVQ BX, CX
	LEAQ ·space(SB), R8
wsLoop:
	CMPQ BX, DX
	JAE  fail
	MOVBLZX (SI)(BX*1), AX
	CMPB AL, $0x20
	JEQ  wsSpaces
	CMPB (R8)(AX*1), $0
	JEQ  wsDone
	INCQ BX
	JMP  wsLoop
wsSpaces:
	LEAQ 8(BX), AX
	CMPQ AX, DX
	JA   wsOne
	MOVQ (SI)(BX*1), AX
	MOVQ $0x2020202020202020, R13
	XORQ R13, AX
	JZ   wsEight
	BSFQ AX, AX
	SHRQ $3, AX
	ADDQ AX, BX
	JMP  wsLoop
wsEight:
	ADDQ $8, BX
	JMP  wsLoop
wsOne:
	INCQ BX
	JMP  wsLoop
wsDone: // src[BX], in src, is not whitespace
	MOVBLZX (SI)(BX*1), AX
	CMPL R9, $1
	JEQ  next1
	JB   open1
	CMPL R9, $3
	JEQ  colon1
	JA   value
	TESTQ $1, R10 // 2: after ','
	JNZ  key
	MOVQ BX, R13 // in an array: the run from CX is the separator to match
	SUBQ CX, R13
	CMPQ R13, $2
	JB   value
	CMPQ R13, $16
	JA   value
	LEAQ 16(CX), R8
	CMPQ R8, DX
	JA   value
	VMOVDQU (SI)(CX*1), X9
	LEAQ ·skipMasks<>+16(SB), R8
	SUBQ R13, R8
	VMOVDQU (R8), X10
	MOVQ R13, R12
	JMP  value

fail:
	VZEROUPPER
	MOVQ $0, end+64(FP)
	RET


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
TEXT ·copyWholeAVX2(SB), NOSPLIT, $24-128
	MOVQ $0, ckPos+96(FP)
	MOVQ $0, ckStack+104(FP)
	MOVQ $0, ckDepth+112(FP)
	MOVQ $0, ckOut+120(FP)
	MOVQ src+0(FP), SI
	MOVQ n+8(FP), DX
	MOVQ i+16(FP), BX
	MOVQ dst+64(FP), R14
	MOVQ dstCap+72(FP), AX
	ADDQ R14, AX
	MOVQ AX, lim-16(SP)
	MOVQ dstCap+72(FP), AX
	LEAQ -16(BX)(AX*1), AX
	MOVQ AX, sure-24(SP)
	MOVQ BX, run-8(SP)
	XORQ R12, R12
	XORQ R10, R10
	XORQ R11, R11
	VMOVDQU ·skipQuotes<>(SB), Y0
	VMOVDQU ·skipBackslashes<>(SB), Y1
	VMOVDQU ·skipControl<>(SB), Y2
	VMOVDQU ·skipSpaces<>(SB), Y8
	CMPQ depth+48(FP), $0
	JEQ  open
	MOVQ stack+40(FP), R10 // a value an earlier window began
	MOVQ depth+48(FP), R11
	MOVQ entry+56(FP), R9
	MOVQ BX, CX
	CMPQ BX, DX
	JAE  fail
	CMPB (SI)(BX*1), $0x20
	JA   wsDone
	JMP  ws

open: // src[BX] is '{' or '['
	CMPQ R11, room+24(FP)
	JGE  fail
	MOVBLZX (SI)(BX*1), AX
	SHRL $5, AX
	ANDL $1, AX
	SHLQ $1, R10
	ORQ  AX, R10
	INCQ R11
	INCQ BX
	CMPQ BX, DX
	JAE  fail
	CMPB (SI)(BX*1), $0x20
	JA   open1
	XORL R9, R9
	JMP  ws

open1: // after '{' or '[' and whitespace: src[BX] is in src
	MOVBLZX (SI)(BX*1), AX
	TESTQ $1, R10
	JZ   arrayFirst
	CMPB AL, $0x7D // '}'
	JEQ  closed
	JMP  key

arrayFirst:
	CMPB AL, $0x5D // ']'
	JEQ  closed

value: // a value starts at src[BX], in src
	MOVBLZX (SI)(BX*1), AX
	CMPB AL, $0x22
	JEQ  valueString
	CMPB AL, $0x5B
	JB   number // '-' and the digits are below '['
	JEQ  open
	CMPB AL, $0x7B
	JEQ  open
	CMPB AL, $0x74
	JEQ  literal
	CMPB AL, $0x66
	JEQ  literal
	CMPB AL, $0x6E
	JEQ  literal
	JMP  fail

literal: // true, false or null at src[BX]
	LEAQ 4(BX), R8
	CMPQ R8, DX
	JA   fail
	MOVL (SI)(BX*1), R8
	CMPL R8, $0x65757274 // "true"
	JEQ  literal4
	CMPL R8, $0x6c6c756e // "null"
	JEQ  literal4
	CMPL R8, $0x736c6166 // "fals"
	JNE  fail
	LEAQ 5(BX), R8
	CMPQ R8, DX
	JA   fail
	CMPB 4(SI)(BX*1), $0x65
	JNE  fail
	ADDQ $5, BX
	JMP  next
literal4:
	ADDQ $4, BX
	JMP  next

number: // AL = src[BX], below '[': the number grammar, as numberEnd
	MOVQ BX, CX
	CMPB AL, $0x2D // '-'
	JNE  number1
	INCQ BX
	CMPQ BX, DX
	JAE  fail
	MOVBLZX (SI)(BX*1), AX
number1:
	CMPB AL, $0x30
	JEQ  numberZero
	SUBB $0x31, AL
	CMPB AL, $8
	JA   fail
	INCQ BX
digitsInt:
	LEAQ 8(BX), AX
	CMPQ AX, DX
	JA   digitsIntByte
	DIGITS(digitsInt, numberInt)
digitsIntByte:
	CMPQ BX, DX
	JAE  fail
	MOVBLZX (SI)(BX*1), AX
	SUBB $0x30, AL
	CMPB AL, $9
	JA   numberInt
	INCQ BX
	JMP  digitsIntByte
numberZero:
	INCQ BX
numberInt: // after the integer part
	CMPQ BX, DX
	JAE  fail
	MOVBLZX (SI)(BX*1), AX
	CMPB AL, $0x2E // '.'
	JNE  numberExp
	INCQ BX
	MOVQ BX, DI // digits must follow (DI is free outside strings)
digitsFrac:
	LEAQ 8(BX), AX
	CMPQ AX, DX
	JA   digitsFracByte
	DIGITS(digitsFrac, numberFrac)
digitsFracByte:
	CMPQ BX, DX
	JAE  fail
	MOVBLZX (SI)(BX*1), AX
	SUBB $0x30, AL
	CMPB AL, $9
	JA   numberFrac
	INCQ BX
	JMP  digitsFracByte
numberFrac:
	CMPQ BX, DI
	JEQ  fail
	CMPQ BX, DX
	JAE  fail
	MOVBLZX (SI)(BX*1), AX
numberExp: // AL = src[BX], after the mantissa
	ORB  $0x20, AL
	CMPB AL, $0x65 // 'e' or 'E'
	JNE  numberEnd
	INCQ BX
	CMPQ BX, DX
	JAE  fail
	MOVBLZX (SI)(BX*1), AX
	CMPB AL, $0x2B // '+'
	JEQ  numberSign
	CMPB AL, $0x2D // '-'
	JNE  numberExpDigits
numberSign:
	INCQ BX
numberExpDigits:
	MOVQ BX, DI // digits must follow (DI is free outside strings)
digitsExp:
	LEAQ 8(BX), AX
	CMPQ AX, DX
	JA   digitsExpByte
	DIGITS(digitsExp, numberExpEnd)
digitsExpByte:
	CMPQ BX, DX
	JAE  fail
	MOVBLZX (SI)(BX*1), AX
	SUBB $0x30, AL
	CMPB AL, $9
	JA   numberExpEnd
	INCQ BX
	JMP  digitsExpByte
numberExpEnd:
	CMPQ BX, DI
	JEQ  fail
	CMPQ BX, DX
	JAE  fail
numberEnd: // the number ended at src[BX-1], and src[BX] is in src
	MOVQ BX, AX
	SUBQ CX, AX
	CMPQ AX, maxToken+32(FP)
	JA   fail
	JMP  next

key: // a key starts at src[BX], in src
	CMPB (SI)(BX*1), $0x22
	JNE  fail
	MOVL $1, DI
	JMP  str
valueString:
	XORL DI, DI
str: // a string starts at src[BX]
	MOVQ BX, CX
	INCQ BX
strLoop: // content from src[BX] on, where a character starts: 32 bytes a step
	LEAQ 32(BX), AX
	CMPQ AX, DX
	JA   strTail
	VMOVDQU (SI)(BX*1), Y3
	VPCMPEQB Y0, Y3, Y4
	VPCMPEQB Y1, Y3, Y5
	VPOR Y5, Y4, Y4
	VPMAXUB Y2, Y3, Y5
	VPCMPEQB Y2, Y5, Y5
	VPOR Y5, Y4, Y4
	VPOR Y3, Y4, Y4 // and the bytes from 0x80, by their high bit
	VPMOVMSKB Y4, AX
	TESTL AX, AX
	JNZ  strStop
	ADDQ $32, BX
	JMP  strLoop
strStop:
	BSFL AX, AX
	ADDQ AX, BX
	MOVBLZX (SI)(BX*1), AX
strByte: // AL = src[BX]: a quote, a backslash, a control byte or from 0x80
	CMPB AL, $0x22
	JEQ  strEnd
	CMPB AL, $0x5C
	JEQ  strEscape
	CMPB AL, $0x80
	JB   fail // a control byte
	JMP  utf8
strTail: // fewer than 32 bytes remain: a byte at a time
	CMPQ BX, DX
	JAE  fail
	MOVBLZX (SI)(BX*1), AX
	CMPB AL, $0x20
	JB   strByte
	CMPB AL, $0x80
	JAE  strByte
	CMPB AL, $0x22
	JEQ  strEnd
	CMPB AL, $0x5C
	JEQ  strEscape
	INCQ BX
	JMP  strTail
strNext: // after an escape or a UTF-8 sequence: another, or back to the loop
	CMPQ BX, DX
	JAE  fail
	MOVBLZX (SI)(BX*1), AX
	CMPB AL, $0x80
	JAE  utf8
	CMPB AL, $0x5C
	JEQ  strEscape
	JMP  strLoop

strEscape: // src[BX] is a backslash
	LEAQ 1(BX), R8
	CMPQ R8, DX
	JAE  fail
	MOVBLZX 1(SI)(BX*1), AX
	CMPB AL, $0x75 // 'u'
	JEQ  strEscapeU
	LEAQ ·simpleEscape(SB), R8
	CMPB (R8)(AX*1), $0
	JEQ  fail
	ADDQ $2, BX
	JMP  strNext
strEscapeU: // four hex digits must follow
	LEAQ 6(BX), R8
	CMPQ R8, DX
	JA   fail
	LEAQ ·hexVal(SB), R8
	MOVBLZX 2(SI)(BX*1), AX
	CMPB (R8)(AX*1), $0
	JLT  fail
	MOVBLZX 3(SI)(BX*1), AX
	CMPB (R8)(AX*1), $0
	JLT  fail
	MOVBLZX 4(SI)(BX*1), AX
	CMPB (R8)(AX*1), $0
	JLT  fail
	MOVBLZX 5(SI)(BX*1), AX
	CMPB (R8)(AX*1), $0
	JLT  fail
	ADDQ $6, BX
	JMP  strNext

utf8: // AL = src[BX], from 0x80: a UTF-8 sequence, checked as runeLen does
	// Text in most scripts is 2- and 3-byte sequences whose lead needs no
	// special second-byte range: checked as a word, as str does (R9 is
	// free inside a string).
	LEAQ 4(BX), R8
	CMPQ R8, DX
	JA   utf8Lead
	MOVL (SI)(BX*1), R8
	LEAL -0xE1(AX), R9
	CMPL R9, $0xE
	JA   utf8Word2 // not E1..EF
	CMPB AL, $0xED
	JEQ  utf8Lead
	ANDL $0xC0C000, R8
	CMPL R8, $0x808000
	JNE  fail
	ADDQ $3, BX
	JMP  strNext
utf8Word2:
	LEAL -0xC2(AX), R9
	CMPL R9, $0x1D
	JA   utf8Lead // not C2..DF
	ANDL $0xC000, R8
	CMPL R8, $0x8000
	JNE  fail
	ADDQ $2, BX
	JMP  strNext
utf8Lead: // a byte at a time
	CMPB AL, $0xC2
	JB   fail
	CMPB AL, $0xE0
	JAE  utf8Three
	LEAQ 1(BX), R8
	CMPQ R8, DX
	JAE  fail
	MOVBLZX 1(SI)(BX*1), R8
	ANDB $0xC0, R8
	CMPB R8, $0x80
	JNE  fail
	ADDQ $2, BX
	JMP  strNext
utf8Three:
	CMPB AL, $0xF0
	JAE  utf8Four
	LEAQ 2(BX), R8
	CMPQ R8, DX
	JAE  fail
	MOVBLZX 1(SI)(BX*1), R8
	CMPB AL, $0xE0
	JEQ  utf8E0
	CMPB AL, $0xED
	JEQ  utf8ED
	ANDB $0xC0, R8
	CMPB R8, $0x80
	JNE  fail
	JMP  utf8Three2
utf8E0: // no overlong form: A0..BF
	CMPB R8, $0xA0
	JB   fail
	CMPB R8, $0xBF
	JA   fail
	JMP  utf8Three2
utf8ED: // no surrogate: 80..9F
	CMPB R8, $0x80
	JB   fail
	CMPB R8, $0x9F
	JA   fail
utf8Three2:
	MOVBLZX 2(SI)(BX*1), R8
	ANDB $0xC0, R8
	CMPB R8, $0x80
	JNE  fail
	ADDQ $3, BX
	JMP  strNext
utf8Four:
	CMPB AL, $0xF4
	JA   fail
	LEAQ 3(BX), R8
	CMPQ R8, DX
	JAE  fail
	MOVBLZX 1(SI)(BX*1), R8
	CMPB AL, $0xF0
	JEQ  utf8F0
	CMPB AL, $0xF4
	JEQ  utf8F4
	ANDB $0xC0, R8
	CMPB R8, $0x80
	JNE  fail
	JMP  utf8Four2
utf8F0: // no overlong form: 90..BF
	CMPB R8, $0x90
	JB   fail
	CMPB R8, $0xBF
	JA   fail
	JMP  utf8Four2
utf8F4: // nothing past U+10FFFF: 80..8F
	CMPB R8, $0x80
	JB   fail
	CMPB R8, $0x8F
	JA   fail
utf8Four2:
	MOVBLZX 2(SI)(BX*1), R8
	ANDB $0xC0, R8
	CMPB R8, $0x80
	JNE  fail
	MOVBLZX 3(SI)(BX*1), R8
	ANDB $0xC0, R8
	CMPB R8, $0x80
	JNE  fail
	ADDQ $4, BX
	JMP  strNext

strEnd: // src[BX] is the closing quote
	INCQ BX
	MOVQ BX, AX
	SUBQ CX, AX
	CMPQ AX, maxToken+32(FP)
	JA   fail
	TESTL DI, DI
	JZ   next
	CMPQ BX, DX // after a key: ':'
	JAE  fail
	CMPB (SI)(BX*1), $0x20
	JA   colon1
	MOVL $3, R9
	JMP  ws
colon1:
	CMPB (SI)(BX*1), $0x3A
	JNE  fail
	INCQ BX
	CMPQ BX, DX
	JAE  fail
	CMPB (SI)(BX*1), $0x20
	JA   value
	MOVL $4, R9
	JMP  ws

next: // after a value in a container (the checkpoint): ',' or the closing bracket
	MOVQ BX, ckPos+96(FP)
	MOVQ R10, ckStack+104(FP)
	MOVQ R11, ckDepth+112(FP)
	MOVQ R14, AX
	SUBQ run-8(SP), AX
	MOVQ AX, ckOut+120(FP)
	CMPQ BX, DX
	JAE  fail
	MOVBLZX (SI)(BX*1), AX
	CMPB AL, $0x20
	JA   next1
	MOVL $1, R9
	JMP  ws
next1: // AL = src[BX], not whitespace
	CMPB AL, $0x2C
	JEQ  comma
	CMPB AL, $0x7D
	JEQ  closeObject
	CMPB AL, $0x5D
	JNE  fail
	TESTQ $1, R10
	JNZ  fail
	JMP  closed
closeObject:
	TESTQ $1, R10
	JZ   fail
closed: // src[BX] closes the innermost container
	INCQ BX
	SHRQ $1, R10
	DECQ R11
	JNZ  next
	COPYRUN(endRunRoom, endRun32, endRun16, endRunMore, endRunByte, endRunDone)
	VZEROUPPER
	MOVQ BX, end+80(FP)
	SUBQ dst+64(FP), R14
	MOVQ R14, outLen+88(FP)
	RET
comma:
	INCQ BX
	CMPQ BX, DX
	JAE  fail
	CMPB (SI)(BX*1), $0x20
	JA   comma1
	MOVL $2, R9
	TESTQ $1, R10
	JNZ  ws
	// In an array, the whitespace after ',' is most often the same as
	// after the last: compared as 16 bytes with the run ws learned, X9
	// under the mask X10, R12 bytes long (value does as much for arrays
	// of numbers).
	TESTQ R12, R12
	JZ   ws
	LEAQ 16(BX), AX
	CMPQ AX, DX
	JA   ws
	VMOVDQU (SI)(BX*1), X3
	VPXOR X9, X3, X3
	VPAND X10, X3, X3
	VPTEST X3, X3
	JNZ  ws
	COPYRUN(sepRunRoom, sepRun32, sepRun16, sepRunMore, sepRunByte, sepRunDone)
	ADDQ R12, BX
	MOVQ BX, run-8(SP)
	CMPB (SI)(BX*1), $0x20
	JA   value
	JMP  ws
comma1:
	TESTQ $1, R10
	JNZ  key
	JMP  value

ws: // src[BX] is in src and at most ' ': skip JSON whitespace, then back by R9
	// As skipSpace: a run of spaces is measured a word at a time. CX, a
	// token's start, is free here: it keeps where the run began.
	COPYRUN(wsRunRoom, wsRun32, wsRun16, wsRunMore, wsRunByte, wsRunDone)
	MOVQ BX, CX
	LEAQ ·space(SB), R8
wsLoop:
	CMPQ BX, DX
	JAE  fail
	MOVBLZX (SI)(BX*1), AX
	CMPB AL, $0x20
	JEQ  wsSpaces
	CMPB (R8)(AX*1), $0
	JEQ  wsDone
	INCQ BX
	JMP  wsLoop
wsSpaces:
	LEAQ 8(BX), AX
	CMPQ AX, DX
	JA   wsOne
	MOVQ (SI)(BX*1), AX
	MOVQ $0x2020202020202020, R13
	XORQ R13, AX
	JZ   wsEight
	BSFQ AX, AX
	SHRQ $3, AX
	ADDQ AX, BX
	JMP  wsLoop
wsEight:
	ADDQ $8, BX
	JMP  wsLoop
wsOne:
	INCQ BX
	JMP  wsLoop
wsDone: // src[BX], in src, is not whitespace: a run starts
	MOVQ BX, run-8(SP)
	MOVBLZX (SI)(BX*1), AX
	CMPL R9, $1
	JEQ  next1
	JB   open1
	CMPL R9, $3
	JEQ  colon1
	JA   value
	TESTQ $1, R10 // 2: after ','
	JNZ  key
	MOVQ BX, R13 // in an array: the run from CX is the separator to match
	SUBQ CX, R13
	CMPQ R13, $2
	JB   value
	CMPQ R13, $16
	JA   value
	LEAQ 16(CX), R8
	CMPQ R8, DX
	JA   value
	VMOVDQU (SI)(CX*1), X9
	LEAQ ·skipMasks<>+16(SB), R8
	SUBQ R13, R8
	VMOVDQU (R8), X10
	MOVQ R13, R12
	JMP  value

fail:
	VZEROUPPER
	MOVQ $0, end+80(FP)
	SUBQ dst+64(FP), R14
	MOVQ R14, outLen+88(FP)
	MOVQ ckOut+120(FP), AX // R14 less the run's start at the checkpoint
	SUBQ dst+64(FP), AX
	ADDQ ckPos+96(FP), AX
	MOVQ AX, ckOut+120(FP)
	RET
