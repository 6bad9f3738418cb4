// The grammar of skipWholeAVX2 and copyWholeAVX2, one body for both
// (skip_amd64.s includes it in each TEXT block; labels are the function's
// own). Where COPY is defined, the copy kernel's lines are taken: the
// argument offsets of its frame, the runs appended at each whitespace
// (COPYRUN) and at the end, and the output's length kept with the
// checkpoint. Everything else is the same instructions in both.
// PADNUM, PADSTR, PADUTF8, PADEND and PADTAIL are padding that skip_amd64.s defines
// per kernel (it says why); nothing runs them.

// CHAIN is strStop's steps on the block of n bytes (32 or 64) from R9,
// its stops in AX (a bit past the block's end: none), at most 128 bytes
// after the current string's quote. The common `"key":"` and `","` go
// from one string to the next in the block: a key that ends at BX (lim1:
// R8 at most n-4, the 3 bytes after the quote in the block) followed by
// ':' and '"' (or, in the skip kernel, which drops whitespace, ' ' '"')
// starts the value's string there, and the key's and the value's quotes
// are the two least stops (':' and ' ' are none); after ':' and any other
// byte, value or ws goes on as colon1 would. A string value (lim2: R8 at
// most n-3) followed by `","` starts the next string, a key in an object,
// a value in an array, after the checkpoint that next writes. The chain
// takes the two least stops and goes on at the next, or at the block's
// end to strShort: the string begun in the block ends within 128 bytes
// of its quote or goes on in strLoop. in, colon, colon1, vstop and chain
// are the copy's labels; a stop that is no quote goes to sbyte (utf8Chain
// or utf8Chain32, with AX the stops not yet taken); a string value not
// followed by `","` goes to vsep (VSEP: `,`, the run its depth predicts and a
// key), and `":` with whitespace after it to colonSpace.
#ifdef KEYSPACE
#undef KEYSPACE
#undef CHAIN
#undef SEPCOPY
#undef SEPSKIP
#undef SEPKEY
#undef SEPRUN
#undef VSEP
#endif
#ifdef COPY
#define SEPCOPY(lroom, l32, l16, lmore, lbyte, ldone) \
	COPYRUN(lroom, l32, l16, lmore, lbyte, ldone)
#define SEPRUN MOVQ BX, run-8(SP)
#define KEYSPACE(colon1, chain)
#else
#define SEPCOPY(lroom, l32, l16, lmore, lbyte, ldone)
#define SEPRUN
#define KEYSPACE(colon1, chain) \
	CMPL R13, $0x22203A; \
	JNE  colon1; \
	LEAQ 2(BX), CX; \
	XORL DI, DI; \
	JMP  chain; \
colon1:
#endif
// SEPSKIP steps over a whitespace run (round 13, sep13): after '{' or
// '[', after ',' and after a value before ',' or the closing bracket. The
// 32 bytes from BX are classified by skipSpaces (Y8, VPSHUFB by the low
// nibble): the first byte that is no whitespace ends the run (all 32
// whitespace, or fewer than 32 bytes in src: ws as before, R9 set by the
// caller). Its length is compared with the one predicted for its depth
// (R11, or R11-1 before a closing bracket: dec), a byte per depth mod 8
// in slot: entry's argument after ',', depth's after '{', '[' and before
// a closing bracket (mesh.pretty.json's ", \n" makes those a byte
// shorter); both are read only at the start, and any content is safe,
// since the compare decides; equal, BX steps by the predicted
// length, so that the next index does not wait for the scan (adding the
// scanned length made citm 30 % slower at 17 % fewer instructions);
// else by the scanned one, which is stored as the next prediction
// (lmiss). Then src[BX], no whitespace, goes to back with AL loaded. In
// the copy kernel the run before it is appended first (SEPCOPY). It
// clobbers AX, R8, R13, Y3 and Y4.
#define SEPSKIP(back, slot, dec, lmiss, lroom, l32, l16, lmore, lbyte, ldone) \
	LEAQ 32(BX), AX; \
	CMPQ AX, DX; \
	JA   ws; \
	SEPCOPY(lroom, l32, l16, lmore, lbyte, ldone); \
	SEPRUN; \
	VMOVDQU (SI)(BX*1), Y3; \
	VPSHUFB Y3, Y8, Y4; \
	VPCMPEQB Y3, Y4, Y4; \
	VPMOVMSKB Y4, AX; \
	NOTL AX; \
	BSFL AX, AX; \
	JZ   ws; \
	MOVQ R11, R13; \
	dec; \
	ANDL $7, R13; \
	MOVBLZX slot(R13*1), R8; \
	CMPL AX, R8; \
	JNE  lmiss; \
	ADDQ R8, BX; \
	SEPRUN; \
	MOVBLZX (SI)(BX*1), AX; \
	JMP  back; \
lmiss: \
	MOVB AL, slot(R13*1); \
	ADDQ AX, BX; \
	SEPRUN; \
	MOVBLZX (SI)(BX*1), AX; \
	JMP  back
// SEPKEY is SEPSKIP after ',' in an object (slot entry's argument): the
// run's end, src[BX], must be the key's quote, and str goes on from it (key's
// steps, without a jump to key and AL).
#define SEPKEY(lkey, lmiss, lroom, l32, l16, lmore, lbyte, ldone) \
	LEAQ 32(BX), AX; \
	CMPQ AX, DX; \
	JA   ws; \
	SEPCOPY(lroom, l32, l16, lmore, lbyte, ldone); \
	SEPRUN; \
	VMOVDQU (SI)(BX*1), Y3; \
	VPSHUFB Y3, Y8, Y4; \
	VPCMPEQB Y3, Y4, Y4; \
	VPMOVMSKB Y4, AX; \
	NOTL AX; \
	BSFL AX, AX; \
	JZ   ws; \
	MOVQ R11, R13; \
	ANDL $7, R13; \
	MOVBLZX entry+56(FP)(R13*1), R8; \
	CMPL AX, R8; \
	JNE  lmiss; \
	ADDQ R8, BX; \
	SEPRUN; \
lkey: \
	CMPB (SI)(BX*1), $0x22; \
	JNE  fail; \
	MOVL $1, DI; \
	JMP  str; \
lmiss: \
	MOVB AL, entry+56(FP)(R13*1); \
	ADDQ AX, BX; \
	SEPRUN; \
	JMP  lkey
// VSEP is CHAIN's `","` with whitespace between ',' and the key's quote
// (pretty-printed members): where a string value ends at BX (R8 at most
// n-3: ',' in the block), ',' follows, the run after it is as long as
// SEPSKIP predicts for the depth (at most 31 bytes, 32 in src after ',')
// and the byte after it is the key's quote, the checkpoint that next
// writes is written at ','; a quote before the block's last byte (last:
// n-1): the stops up to it are dropped (the run's newline is one) and the
// chain goes on at the key (in) as after `","`; a quote after it: str
// from it, as key would (far). Any other byte, an array, another length
// or fewer than 34 bytes in src: strEndValue, as before (its comma
// learns the length). Only the skip kernel, which drops whitespace; the
// copy kernel appends its runs in ws. R8, R13, Y3 and Y4 are free in a
// string; CX is the new string's start.
#ifdef COPY
#define VSEP(vsep, in, far, n, last) \
vsep: \
	JMP  strEndValue
#else
#define VSEP(vsep, in, far, n, last) \
vsep: \
	CMPB 1(SI)(BX*1), $0x2C; \
	JNE  strEndValue; \
	TESTQ $1, R10; \
	JZ   strEndValue; \
	LEAQ 34(BX), R8; \
	CMPQ R8, DX; \
	JA   strEndValue; \
	VMOVDQU 2(SI)(BX*1), Y3; \
	VPSHUFB Y3, Y8, Y4; \
	VPCMPEQB Y3, Y4, Y4; \
	VPMOVMSKB Y4, R13; \
	NOTL R13; \
	BSFL R13, R13; \
	JZ   strEndValue; \
	MOVQ R11, R8; \
	ANDL $7, R8; \
	MOVBLZX entry+56(FP)(R8*1), R8; \
	CMPL R13, R8; \
	JNE  strEndValue; \
	LEAQ 2(BX)(R8*1), R8; \
	CMPB (SI)(R8*1), $0x22; \
	JNE  strEndValue; \
	INCQ BX; \
	CHECKPOINT(R13); \
	MOVL $1, DI; \
	LEAQ last(R9), R13; \
	CMPQ R8, R13; \
	JAE  far; \
	MOVQ R8, CX; \
	SUBQ R9, CX; \
	INCQ CX; \
	SHRQ CX, AX; \
	SHLQ CX, AX; \
	MOVQ R8, CX; \
	TESTQ AX, AX; \
	JNZ  in; \
	LEAQ n(R9), BX; \
	JMP  strShort; \
far: \
	MOVQ R8, BX; \
	JMP  str
#endif
#define CHAIN(in, colon, colon1, vstop, chain, sbyte, vsep, lim1, lim2, n) \
in: \
	BSFQ AX, R8; \
	LEAQ (R9)(R8*1), BX; \
	CMPB (SI)(BX*1), $0x22; \
	JNE  sbyte; \
	TESTL DI, DI; \
	JZ   vstop; \
	CMPQ R8, lim1; \
	JA   strEndKey; \
	CMPW 1(SI)(BX*1), $0x223A; \
	JNE  colon; \
	INCQ BX; \
	LEAQ 1(BX), CX; \
	XORL DI, DI; \
	JMP  chain; \
colon: \
	MOVL (SI)(BX*1), R13; \
	SHRL $8, R13; \
	CMPB R13, $0x3A; \
	JNE  strEndKey; \
	INCQ BX; \
	KEYSPACE(colon1, chain); \
	INCQ BX; \
	CMPB (SI)(BX*1), $0x20; \
	JA   value; \
	JMP  colonSpace; \
	INT3X4; INT3X1; INT3X1; \
vstop: \
	CMPQ R8, lim2; \
	JA   strEndValue; \
	CMPW 1(SI)(BX*1), $0x222C; \
	JNE  vsep; \
	INCQ BX; \
	CHECKPOINT(R8); \
	LEAQ 1(BX), CX; \
	MOVL R10, DI; \
	ANDL $1, DI; \
chain: \
	LEAQ -1(AX), R13; \
	ANDQ R13, AX; \
	LEAQ -1(AX), R13; \
	ANDQ R13, AX; \
	JNZ  in; \
	LEAQ n(R9), BX; \
	JMP  strShort

#ifdef COPY
	MOVQ $0, ckPos+96(FP)
	MOVQ $0, ckStack+104(FP)
	MOVQ $0, ckDepth+112(FP)
	MOVQ $0, ckOut+120(FP)
#endif
	MOVQ src+0(FP), SI
	MOVQ n+8(FP), DX
	MOVQ i+16(FP), BX
#ifdef COPY
	MOVQ dst+64(FP), R14
	MOVQ dstCap+72(FP), AX
	ADDQ R14, AX
	MOVQ AX, lim-16(SP)
	MOVQ dstCap+72(FP), AX
	LEAQ -16(BX)(AX*1), AX
	MOVQ AX, sure-24(SP)
	MOVQ BX, run-8(SP)
#endif
	// 11 bytes of NOP where R12 and osep-32(SP) were cleared for LEARNSEP
	// (removed in round 14): the labels after keep their offsets mod 64.
	BYTE $0x0f; BYTE $0x1f; BYTE $0x44; BYTE $0x00; BYTE $0x00
	BYTE $0x66; BYTE $0x0f; BYTE $0x1f; BYTE $0x44; BYTE $0x00; BYTE $0x00
#ifndef COPY
	MOVQ $0, ckPos+72(FP)
	MOVQ $0, ckStack+80(FP)
	MOVQ $0, ckDepth+88(FP)
#endif
	XORQ R10, R10
	XORQ R11, R11
	VMOVDQU ·skipQuotes<>(SB), Y0
	VMOVDQU ·skipBackslashes<>(SB), Y1
	VMOVDQU ·skipC20<>(SB), Y2
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
	JMP  openSep

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
	// Three ways, each what the byte steps (numberScalar on) would read:
	// an integer that starts with 1 to 9 and ends in the 8 bytes from BX,
	// no '.', 'e' or 'E' after it, from one word (as DIGITS), a longer one
	// a word at a time (digitsInt); else, where 32 bytes remain, the
	// mantissa from their masks (numberMasks); else, and for mantissas
	// that start with '0' or "-0", byte by byte. The word and the byte
	// steps of a leading 0 reach the number's end in a shorter chain of
	// work than the masks (bench/REPORT.md, round 9: mesh's short integers
	// and 0.x fractions ran 16 % slower by masks).
	MOVQ BX, CX
	LEAL -0x31(AX), R8
	CMPL R8, $8
	JA   numberNot19
	LEAQ 8(BX), R8
	CMPQ R8, DX
	JA   numberMasks
	MOVQ (SI)(BX*1), AX
	MOVQ $0x3030303030303030, R13
	MOVQ AX, R8
	SUBQ R13, R8
	MOVQ $0x4646464646464646, R13
	ADDQ AX, R13
	ORQ  R13, R8
	ORQ  AX, R8
	MOVQ $0x8080808080808080, R13
	ANDQ R13, R8 // the bytes that are no digit
	JZ   numberLong
	BSFQ R8, R8
	SHRQ $3, R8
	ADDQ BX, R8 // the integer's end
	MOVBLZX (SI)(R8*1), AX
	ORB  $0x20, AL
	CMPB AL, $0x2E // '.' (or 0x0E, which the masks refuse)
	JEQ  numberMasks
	CMPB AL, $0x65 // 'e' or 'E'
	JEQ  numberMasks
	MOVQ R8, BX
	JMP  numberEnd
numberLong: // 8 digits: the rest of a long integer a word at a time
	ADDQ $8, BX
	JMP  digitsInt
numberNot19: // '-' then 1 to 9 to the masks; a leading '0' as before
	// (its integer part needs no work)
	CMPB AL, $0x2D
	JNE  numberScalar
	LEAQ 32(BX), R8
	CMPQ R8, DX
	JA   numberScalar
	CMPB 1(SI)(BX*1), $0x30
	JEQ  numberScalar
numberMasks: // the mantissa from the masks of the 32 bytes from BX
	// It starts with 1 to 9, or '-' and no '0' (a leading 0 never comes
	// here). The run of digits, '.' and '-' from BX (a byte after it in
	// the 32) must be -?[1-9][0-9]*(\.[0-9]+)? whole, and then it is the
	// mantissa that the byte steps would read (the byte after it is no
	// digit, no '.'); numberExp goes on from its end. Any other run, or
	// one that fills the 32 bytes, goes byte by byte, which decides.
	LEAQ 32(BX), R8
	CMPQ R8, DX
	JA   numberByte
	VMOVDQU (SI)(BX*1), Y3
	DIGITS32(Y3, Y4, Y5)
	VPCMPEQB ·skipDots<>(SB), Y3, Y5
	VPCMPEQB ·skipMinus<>(SB), Y3, Y6
	VPMOVMSKB Y4, R8  // the digits
	VPMOVMSKB Y5, R9  // the dots
	VPMOVMSKB Y6, R13 // the minus signs
	MOVL R8, AX
	ORL  R9, AX
	ORL  R13, AX
	NOTL AX
	MOVL AX, DI
	NEGL DI
	ANDL AX, DI // the byte after the run (0: it fills the 32)
	JZ   numberByte
	LEAL -1(DI), AX // the run
	ANDL AX, R13
	CMPL R13, $1
	JA   numberByte // a '-' past the first byte
	INCL R13 // the first digit's bit
	TESTL R13, R8
	JZ   numberByte
	LEAL -1(DI), AX
	ANDL AX, R9 // the dots in the run
	LEAL -1(R9), AX
	TESTL AX, R9
	JNZ  numberByte // two dots
	ADDL R9, R9 // the byte after the dot, a digit
	NOTL R8
	TESTL R8, R9
	JNZ  numberByte
	BSFL DI, DI // the mantissa's length
	ADDQ DI, BX
	MOVBLZX (SI)(BX*1), AX
	// ',' or ']' after it ends the number: next's steps for them, here
	CMPB AL, $0x2C
	JEQ  numberComma
	CMPB AL, $0x5D
	JNE  numberExp
	CMPQ DI, maxToken+32(FP)
	JA   fail
	CHECKPOINT(AX)
	TESTQ $1, R10
	JNZ  fail
	JMP  closed
numberComma:
	CMPQ DI, maxToken+32(FP)
	JA   fail
	CHECKPOINT(AX)
	JMP  comma
numberByte: // AL again
	MOVBLZX (SI)(BX*1), AX
numberScalar:
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
	CMPB (SI)(BX*1), $0x2C // ',': next's steps for it, here
	JNE  next
	CHECKPOINT(AX)
	JMP  comma
PADNUM

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
	// Its first 32 bytes alone: most strings end in them, and where the
	// next string does not follow in them, the 64 bytes of strShort cost
	// more (bench/REPORT.md, round 10). Fewer than 32 in src: strShort.
	LEAQ 32(BX), AX
	CMPQ AX, DX
	JA   strShort
	VMOVDQU (SI)(BX*1), Y3
	VPCMPEQB Y0, Y3, Y4
	VPCMPEQB Y1, Y3, Y5
	VPCMPGTB Y3, Y2, Y6 // 0x20 > the byte, signed: a control byte or from 0x80
	VPOR Y5, Y4, Y4
	VPOR Y6, Y4, Y4
	VPMOVMSKB Y4, AX
	TESTL AX, AX
	JNZ  strStop32
	ADDQ $32, BX
strShort: // as strLoop, where the string began at CX >= BX-64
	// Its end in these 64 bytes makes it at most 128 bytes long (with
	// its quotes), which maxToken allows (the kernels run only with
	// maxToken >= skipMinToken, skip.go): strStop's steps check no token
	// length. Without a stop the string goes on in strLoop.
	LEAQ 64(BX), AX
	CMPQ AX, DX
	JA   strShortTail
	STOPS64(BX)
	JNZ  strStop
	ADDQ $64, BX
strLoop: // content from src[BX] on, where a character starts: 64 bytes a step
	LEAQ 64(BX), AX
	CMPQ AX, DX
	JA   strLoopTail
	STOPS64(BX)
	JNZ  strStopLong
	ADDQ $64, BX
	JMP  strLoop
strShortTail: // fewer than 64 bytes from BX: the last 64 of src, shifted
	STOPSTAIL(strStop)
strLoopTail:
	STOPSTAIL(strStopLong)
strStopLong: // AX: the stops in the 64 bytes from BX, the string maybe long
	// The token up to the first stop (a byte of it) must fit in maxToken:
	// checked here, the steps after check no length. A string that ends
	// later is longer, and is refused the same.
	BSFQ AX, R8
	LEAQ 1(BX)(R8*1), R8
	SUBQ CX, R8
	CMPQ R8, maxToken+32(FP)
	JA   fail
strStop: // AX: the stops in the 64 bytes from BX (none past src's end)
	// No string that ends from here on in the block is longer than
	// maxToken (strShort and strStopLong say why): its end is one INCQ.
	// The common `"key":"` and `","` go from one string to the next in
	// the block, with its stops: R9 the block, AX the stops not yet
	// taken (CHAIN, below). R9 and R13 are free inside a string.
	MOVQ BX, R9
	CHAIN(strStopIn, strKeyColon, strKeyColon1, strValueStop, strChain, utf8Chain, strValueSep, $60, $61, 64)
strStop32: // strStop for the 32 bytes from BX, the first after a quote
	MOVQ BX, R9
	CHAIN(strStopIn32, strKeyColon32, strKeyColon132, strValueStop32, strChain32, utf8Chain32, strValueSep32, $28, $29, 32)
PADSTR
strByte: // AL = src[BX]: a quote, a backslash, a control byte or from 0x80
	CMPB AL, $0x22
	JEQ  strEnd
strByte1:
	CMPB AL, $0x5C
	JEQ  strEscape
	CMPB AL, $0x80
	JB   fail // a control byte
utf8Block: // AL = src[BX], from 0x80, starts a character: UTF-8 by the block
	// The 32 bytes from BX (where 32 remain, else the scalar utf8) up to
	// the first quote, backslash or control byte, P bytes (32 if none),
	// are checked by UTF8BLOCK as Keiser and Lemire's lookups do, with
	// ASCII before BX (a character starts there). A flag before P hands
	// the sequence at BX to utf8, which decides exactly. A sequence that P
	// cuts is not checked: where P is the block's end, the next block
	// starts at its lead; before a stop, utf8 takes it from its lead (and
	// fails). R9 and R13 are free inside a string.
	LEAQ 32(BX), R8
	CMPQ R8, DX
	JA   utf8
	VMOVDQU (SI)(BX*1), Y3
	VPCMPEQB Y0, Y3, Y4
	VPCMPEQB Y1, Y3, Y5
	VPOR Y5, Y4, Y4
	VPMAXUB ·skipControl<>(SB), Y3, Y5
	VPCMPEQB ·skipControl<>(SB), Y5, Y5
	VPOR Y5, Y4, Y4
	VPMOVMSKB Y4, R9 // the stops
	UTF8BLOCK(R8)    // the flags
	BTSQ $32, R9
	BTSQ $32, R8
	BSFQ R8, R8
	MOVQ R9, R13
	BSFQ R9, R9      // P
	CMPQ R8, R9
	JB   utf8        // a flag before P
	LEAQ -1(R13), R8
	NOTQ R13
	ANDQ R8, R13     // the bytes before P
	VPMAXUB ·skipLeads<>(SB), Y3, Y4
	VPCMPEQB Y3, Y4, Y4
	VPMOVMSKB Y4, R8 // the leads, from 0xC0
	ANDQ R8, R13
	BSRQ R13, R13    // the last lead before P
	JZ   utf8Whole
	LEAQ (BX)(R13*1), R8
	MOVBLZX (SI)(R8*1), AX
	LEAQ 2(R13), R8  // where its sequence ends: 2, 3 or 4 bytes on
	CMPL AX, $0xE0
	JB   utf8Len
	INCQ R8
	CMPL AX, $0xF0
	JB   utf8Len
	INCQ R8
utf8Len:
	CMPQ R8, R9
	JA   utf8Cut
utf8Whole: // the P bytes from BX are valid UTF-8, whole
	ADDQ R9, BX
	CMPQ R9, $32
	JEQ  strLoop
	MOVBLZX (SI)(BX*1), AX
	JMP  strByte
utf8Cut: // P cuts the sequence at BX+R13
	ADDQ R13, BX
	MOVBLZX (SI)(BX*1), AX
	CMPQ R9, $32
	JEQ  utf8Block
	JMP  utf8
strTail: // fewer than 32 bytes remain: a byte at a time
	CMPQ BX, DX
	JAE  fail
	MOVBLZX (SI)(BX*1), AX
	CMPB AL, $0x20
	JB   fail // a control byte
	CMPB AL, $0x80
	JAE  utf8
	CMPB AL, $0x22
	JEQ  strEnd
	CMPB AL, $0x5C
	JEQ  strEscape
	INCQ BX
	JMP  strTail
strNext: // after an escape or a UTF-8 sequence: another escape, or back to the loop
	// (a byte from 0x80 too: strLoop's block check, utf8Chain, takes it)
	CMPQ BX, DX
	JAE  fail
	CMPB (SI)(BX*1), $0x5C
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
	// A run of \uXXXX escapes (text in a script escaped whole) is taken
	// up to 5 at a time: the 32 bytes from BX matched with the pattern
	// of 5 escapes, '\\' and 'u' compared, the hex digits classified
	// ((b - '0') <= 9 or ((b | 0x20) - 'a') <= 5, unsigned), t the bytes
	// that match before the first that does not (at most 30), t/6 the
	// escapes whole (t*43>>8 for t <= 30). None whole: the scalar check
	// below decides.
	LEAQ 32(BX), R8
	CMPQ R8, DX
	JA   strEscapeU1
	VMOVDQU (SI)(BX*1), Y3
	VPCMPEQB ·skipEscU<>(SB), Y3, Y4
	DIGITS32(Y3, Y5, Y6)
	VPOR Y2, Y3, Y6
	VPSUBB ·skipC61<>(SB), Y6, Y6
	VPMINUB ·skipC05<>(SB), Y6, Y7
	VPCMPEQB Y7, Y6, Y6 // the letters a..f, A..F
	VPOR Y6, Y5, Y5
	VPMOVMSKB Y4, R8
	VPMOVMSKB Y5, R9
	ANDL $0x030C30C3, R8 // '\\' and 'u' at 6j and 6j+1
	ANDL $0x3CF3CF3C, R9 // hex digits at 6j+2 to 6j+5
	ORL  R9, R8
	NOTL R8
	BSFL R8, R8 // t
	IMUL3L $43, R8, R8
	SHRL $8, R8 // t/6
	JZ   strEscapeU1
	LEAL (R8)(R8*2), R8
	ADDL R8, R8
	ADDQ R8, BX
	JMP  strNext
strEscapeU1: // one escape, a byte at a time
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
PADUTF8

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
PADEND

strEndValue: // src[BX] closes a string value
	INCQ BX
	MOVQ BX, AX
	SUBQ CX, AX
	CMPQ AX, maxToken+32(FP)
	JA   fail
	JMP  next
strEnd: // src[BX] is the closing quote
	TESTL DI, DI
	JZ   strEndValue
strEndKey: // src[BX] closes a key
	INCQ BX
	MOVQ BX, AX
	SUBQ CX, AX
	CMPQ AX, maxToken+32(FP)
	JA   fail
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
	CHECKPOINT(AX)
	CMPQ BX, DX
	JAE  fail
	MOVBLZX (SI)(BX*1), AX
	CMPB AL, $0x20
	JA   next1
	MOVL $1, R9
	JMP  nextSep
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
#ifdef COPY
	COPYRUN(endRunRoom, endRun32, endRun16, endRunMore, endRunByte, endRunDone)
#endif
	VZEROUPPER
#ifdef COPY
	MOVQ BX, end+80(FP)
	SUBQ dst+64(FP), R14
	MOVQ R14, outLen+88(FP)
#else
	MOVQ BX, end+64(FP)
#endif
	RET
comma:
	INCQ BX
	CMPQ BX, DX
	JAE  fail
	CMPB (SI)(BX*1), $0x20
	JA   comma1
	MOVL $2, R9
	TESTQ $1, R10
	JNZ  commaObjectVec
	// The run is SEPSKIP's, out of line (commaArray, commaObjectVec);
	// int3 bytes where the separator's compare was keep the labels after
	// where they were (JNZ commaObjectVec is 4 bytes longer than a jump
	// here, to commaObject, was until round 14).
	JMP  commaArray
#ifdef COPY
	INT3X8; INT3X8; INT3X8; INT3X8; INT3X8; INT3X8; INT3X8; INT3X8; INT3X8; INT3X8; INT3X8; INT3X8; INT3X8; INT3X8; INT3X8; INT3X8; INT3X8; INT3X8; INT3X8; INT3X8; INT3X8; INT3X8; INT3X8; INT3X8
#else
	INT3X8; INT3X8; INT3X8; INT3X8; INT3X8; INT3X1; INT3X1
#endif
comma1:
	TESTQ $1, R10
	JNZ  key
	JMP  value
	INT3X4; INT3X1; INT3X1 // where commaObject's NOP and jump were
#ifdef COPY
	INT3X8; INT3X8; INT3X8; INT3X8; INT3X8; INT3X8; INT3X8; INT3X8; INT3X8; INT3X8; INT3X8; INT3X8; INT3X8; INT3X8; INT3X8; INT3X8; INT3X8; INT3X8; INT3X8; INT3X8; INT3X8; INT3X8; INT3X8; INT3X8; INT3X1; INT3X1; INT3X1
#else
	INT3X8; INT3X8; INT3X8; INT3X8; INT3X8; INT3X8
#endif

ws: // src[BX] is in src and at most ' ': skip JSON whitespace, then back by R9
	// As skipSpace: a run of spaces is measured a word at a time. CX, a
	// token's start, is free here: it keeps where the run began.
#ifdef COPY
	COPYRUN(wsRunRoom, wsRun32, wsRun16, wsRunMore, wsRunByte, wsRunDone)
#endif
	MOVQ BX, CX
	CMPB (SI)(BX*1), $0x20 // one space before a token (": ", ", "): no scan
	JNE  wsScan
	LEAQ 1(BX), AX
	CMPQ AX, DX
	JAE  fail
	CMPB 1(SI)(BX*1), $0x20
	JBE  wsScan
	MOVQ AX, BX
	JMP  wsDone
wsScan:
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
#ifdef COPY
wsDone: // src[BX], in src, is not whitespace: a run starts
	MOVQ BX, run-8(SP)
#else
wsDone: // src[BX], in src, is not whitespace
#endif
	MOVBLZX (SI)(BX*1), AX
	CMPL R9, $1
	JEQ  next1
	JB   open1
	CMPL R9, $3
	JEQ  colon1
	JA   value
	TESTQ $1, R10 // 2: after ','
	JNZ  key
	JMP  value

fail:
	VZEROUPPER
#ifdef COPY
	MOVQ $0, end+80(FP)
	SUBQ dst+64(FP), R14
	MOVQ R14, outLen+88(FP)
	MOVQ ckOut+120(FP), AX // R14 less the run's start at the checkpoint
	SUBQ dst+64(FP), AX
	ADDQ ckPos+96(FP), AX
	MOVQ AX, ckOut+120(FP)
#else
	MOVQ $0, end+64(FP)
#endif
	RET

utf8Chain: // src[BX], the first stop of strStop's block (R9, 64 bytes) that is no quote; AX the stops from it
	// A backslash or a control byte as strByte1. A byte from 0x80 starts
	// a character (every byte before it in the block is ASCII: the chain
	// takes quotes only) and stops no more: the block's UTF-8 is checked
	// at once by the lookups (UTF8ERR, the bytes before R9 taken as ASCII:
	// R9 starts a character, or STOPSTAIL's block holds bytes before BX
	// that may only add flags). No flag: the stops from 0x80 are dropped,
	// but for a lead that the block's end cuts (UTF8KEEP), where the chain
	// comes back (the block's last 3 bytes): the next block starts at it
	// (strLoop), or, at src's end, utf8Block decides. A flag: utf8Block
	// from BX, the exact path. The token up to the first stop left must
	// fit in maxToken (strStopLong checked an earlier stop). R8 and R13
	// are free inside a string.
	MOVBLZX (SI)(BX*1), R8
	CMPB R8, $0x5C
	JEQ  strEscape
	CMPB R8, $0x80
	JB   fail // a control byte
	LEAQ 61(R9), R13
	CMPQ BX, R13
	JAE  utf8ChainEnd
	VMOVDQU 32(SI)(R9*1), Y3
	VMOVDQU 16(SI)(R9*1), Y4
	UTF8ERR(Y3)
	VMOVDQU Y6, Y13
	VMOVDQU (SI)(R9*1), Y7
	VPERM2I128 $0x28, Y7, Y7, Y4
	UTF8ERR(Y7)
	VPOR Y13, Y6, Y6
	VPTEST Y6, Y6
	JNZ  utf8ChainExact
	UTF8KEEP(Y3, Y5)
	VPMOVMSKB Y5, R13
	SHLQ $32, R13
	VPMOVMSKB Y7, R8
	ORQ  R8, R13
	NOTQ R13
	ANDQ R13, AX // the stops left
	MOVL $64, R13
	BSFQ AX, R8
	CMOVQEQ R13, R8 // the first (64: none)
	CMPQ R8, $61
	JAE  utf8ChainNext
	LEAQ 1(R9)(R8*1), R8
	SUBQ CX, R8
	CMPQ R8, maxToken+32(FP)
	JA   fail
	JMP  strStopIn
utf8ChainNext: // none, or in the last 3 bytes (most often a cut lead): the next block from it
	LEAQ (R9)(R8*1), BX
	JMP  strLoop
utf8ChainEnd: // in the block's last 3 bytes
	LEAQ 64(R9), R13
	CMPQ R13, DX
	JB   strLoop
utf8ChainExact: // R8 = src[BX], from 0x80
	MOVL R8, AX
	JMP  utf8Block
utf8Chain32: // utf8Chain for strStop32's block (R9, 32 bytes: the string began at CX >= R9-1)
	MOVBLZX (SI)(BX*1), R8
	CMPB R8, $0x5C
	JEQ  strEscape
	CMPB R8, $0x80
	JB   fail // a control byte
	LEAQ 29(R9), R13
	CMPQ BX, R13
	JAE  utf8Chain32End
	VMOVDQU (SI)(R9*1), Y3
	VPERM2I128 $0x28, Y3, Y3, Y4
	UTF8ERR(Y3)
	VPTEST Y6, Y6
	JNZ  utf8ChainExact
	UTF8KEEP(Y3, Y5)
	VPMOVMSKB Y5, R13
	NOTQ R13
	ANDQ R13, AX // the stops left
	MOVL $32, R13
	BSFQ AX, R8
	CMOVQEQ R13, R8 // the first (32: none)
	CMPQ R8, $29
	JB   strStopIn32
	LEAQ (R9)(R8*1), BX // none, or in the last 3 bytes: strShort from it
	JMP  strShort
utf8Chain32End: // in the block's last 3 bytes: strShort from BX (CX >= BX-64)
	LEAQ 32(R9), R13
	CMPQ R13, DX
	JAE  utf8ChainExact
	JMP  strShort
openSep: // after '{' or '[' (R9 0), src[BX] at most ' ': the run of the container's depth
	SEPSKIP(open1, depth+48(FP), NOP, oaMiss, oaRunRoom, oaRun32, oaRun16, oaRunMore, oaRunByte, oaRunDone)
nextSep: // after a value (R9 1), src[BX] at most ' ': the run of the parent's depth (before ']' or '}')
	SEPSKIP(next1, depth+48(FP), DECQ R13, naMiss, naRunRoom, naRun32, naRun16, naRunMore, naRunByte, naRunDone)
commaArray: // after ',' in an array (R9 2), src[BX] at most ' '
	SEPSKIP(value, entry+56(FP), NOP, caMiss, caRunRoom, caRun32, caRun16, caRunMore, caRunByte, caRunDone)
commaObjectVec: // after ',' in an object (R9 2), src[BX] at most ' '
	SEPKEY(coKey, coMiss, coRunRoom, coRun32, coRun16, coRunMore, coRunByte, coRunDone)
	VSEP(strValueSep, strStopIn, strValueFar, 64, 63)
	VSEP(strValueSep32, strStopIn32, strValueFar32, 32, 31)
colonSpace: // CHAIN's `":` then src[BX] at most ' ', in src with the byte after it (lim1), flags from that compare
#ifndef COPY
	// The skip kernel takes `": ` and a byte above ' ' as ws would, without its steps and R9's dispatch,
	// and dispatches that byte as value does (round 14): it is no quote, since KEYSPACE took `": "`,
	// and literal fails as value would for any byte but 't', 'f' and 'n'. `false,` and `null,` (6
	// bytes in src) go on to comma with the checkpoint at ',', as next would (twitter has 4,400).
	JNE  colonSpace1
	MOVBLZX 1(SI)(BX*1), AX
	CMPB AL, $0x20
	JBE  colonSpace1
	INCQ BX
	CMPB AL, $0x5B
	JB   number // '-' and the digits are below '['
	JEQ  open
	CMPB AL, $0x7B
	JEQ  open
	LEAQ 6(BX), R8
	CMPQ R8, DX
	JA   literal
	MOVL (SI)(BX*1), R8
	CMPL R8, $0x736c6166 // "fals"
	JEQ  colonFalse
	CMPL R8, $0x6c6c756e // "null"
	JNE  literal
	CMPB 4(SI)(BX*1), $0x2C
	JNE  literal4
	ADDQ $4, BX
	JMP  colonLiteral
colonFalse:
	CMPW 4(SI)(BX*1), $0x2C65 // "e,"
	JNE  literal
	ADDQ $5, BX
colonLiteral:
	CHECKPOINT(AX)
	JMP  comma
colonSpace1:
#endif
	MOVL $4, R9
	JMP  ws
PADTAIL
