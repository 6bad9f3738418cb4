//go:build amd64 && !noasm

#include "textflag.h"

// JOIN joins the byte masks of two halves, ya the lower, into the 64-bit
// mask reg, through CX.
#define JOIN(ya, yb, reg) \
	VPMOVMSKB ya, reg; \
	VPMOVMSKB yb, CX; \
	SHLQ $32, CX; \
	ORQ CX, reg

// UTF8HALF sets reg to the 32-bit mask of the bytes of the half in that the
// UTF-8 lookup check flags (stringRunGeneric's utf8Error), prev being the 32
// bytes before in. It clobbers Y2-Y7. Go operand order: the destination last,
// VPALIGNR $k, lo, hi is hi:lo shifted right by k bytes in each lane.
#define UTF8HALF(in, prev, reg) \
	VPERM2I128 $0x21, in, prev, Y2; \
	VPALIGNR $15, Y2, in, Y3; \
	VPALIGNR $14, Y2, in, Y4; \
	VPALIGNR $13, Y2, in, Y5; \
	VPSRLW $4, Y3, Y6; \
	VPAND Y8, Y6, Y6; \
	VPSHUFB Y6, Y9, Y6; \
	VPAND Y8, Y3, Y7; \
	VPSHUFB Y7, Y10, Y7; \
	VPAND Y7, Y6, Y6; \
	VPSRLW $4, in, Y7; \
	VPAND Y8, Y7, Y7; \
	VPSHUFB Y7, Y11, Y7; \
	VPAND Y7, Y6, Y6; \
	VPSUBUSB s2c60<>(SB), Y4, Y4; \
	VPSUBUSB s2c70<>(SB), Y5, Y5; \
	VPOR Y5, Y4, Y4; \
	VPAND s2c80<>(SB), Y4, Y4; \
	VPXOR Y6, Y4, Y4; \
	VPXOR Y7, Y7, Y7; \
	VPCMPEQB Y7, Y4, Y4; \
	VPMOVMSKB Y4, reg; \
	NOTL reg

// ESCCLASS sets out to the escape classes of in's bytes (escClass): two
// lookups, by the high nibble in Y4 and by the low one in Y5. It clobbers
// Y2 and Y3.
#define ESCCLASS(in, out) \
	VPSRLW $4, in, Y2; \
	VPAND Y8, Y2, Y2; \
	VPSHUFB Y2, Y4, Y2; \
	VPAND Y8, in, Y3; \
	VPSHUFB Y3, Y5, Y3; \
	VPAND Y3, Y2, out

// CLASSBIT sets the sign bit of each byte of out whose class in in has a bit
// of mask set (mask+top is 0x80 for the least of them, and below 0x80 for 0).
#define CLASSBIT(in, mask, top, out) \
	VPAND mask, in, out; \
	VPADDB top, out, out

// func stringRunAVX2(src *byte, blocks int, stopBackslash bool) (n int)
//
// stringRunGeneric over at most blocks blocks, with AVX2 and no other
// extension (no BMI): the AVX-512 kernel's steps (strrun_amd64.s), a block
// taken as two 32-byte halves whose masks are joined into one 64-bit mask.
//
// Registers: SI src, DI its start, CX a temporary (the end is a local), R8 the last block's last
// three bytes hold one of 0x80 and above, R9 escaped, R10 the bytes that a \u
// escape before the block needs to be hex digits, R11 the last index that
// starts a character; Y0 and Y1 the block's halves, Y15 the last block's
// upper half; Y8 the low nibble, Y9-Y11 the UTF-8 lookup tables, Y12 '"',
// Y13 '\\', Y14 0x1f. Locals: the end of the blocks, the block's continuation
// bytes and the bytes the UTF-8 check flags.
TEXT ·stringRunAVX2(SB), NOSPLIT, $24-32
	MOVQ src+0(FP), SI
	MOVQ blocks+8(FP), CX
	MOVQ SI, DI
	SHLQ $6, CX
	ADDQ SI, CX
	MOVQ CX, end-24(SP)
	XORQ R8, R8
	XORQ R9, R9
	XORQ R10, R10
	XORQ R11, R11
	VPXOR Y15, Y15, Y15
	VMOVDQU s2nibble<>(SB), Y8
	VBROADCASTI128 s2byte1High<>(SB), Y9
	VBROADCASTI128 s2byte1Low<>(SB), Y10
	VBROADCASTI128 s2byte2High<>(SB), Y11
	VMOVDQU s2quote<>(SB), Y12
	VMOVDQU s2backslash<>(SB), Y13
	VMOVDQU s2ctl<>(SB), Y14

run:
	CMPQ SI, end-24(SP)
	JAE runEnd
	VMOVDQU (SI), Y0
	VMOVDQU 32(SI), Y1

	// UTF-8 (see stringRunGeneric): the bytes the check flags and the
	// continuation bytes. A block of ASCII after one that ends in ASCII has
	// neither.
	JOIN(Y0, Y1, AX) // bytes of 0x80 and above
	MOVQ AX, R13
	ORQ R8, R13
	SHRQ $61, AX
	MOVQ AX, R8
	XORQ AX, AX
	MOVQ AX, cont-8(SP)
	MOVQ AX, bad-16(SP)
	TESTQ R13, R13
	JZ runUTF8Done
	UTF8HALF(Y0, Y15, AX)
	UTF8HALF(Y1, Y0, R13)
	SHLQ $32, R13
	ORQ R13, AX
	MOVQ AX, bad-16(SP)
	// Continuation bytes, 0x80 to 0xbf: below 0xc0 as signed bytes.
	VMOVDQU s2lead<>(SB), Y2
	VPCMPGTB Y0, Y2, Y3
	VPCMPGTB Y1, Y2, Y4
	JOIN(Y3, Y4, AX)
	MOVQ AX, cont-8(SP)

runUTF8Done:
	VMOVDQU Y1, Y15
	VPCMPEQB Y12, Y0, Y2
	VPCMPEQB Y12, Y1, Y3
	JOIN(Y2, Y3, R15) // quotes
	VPCMPEQB Y13, Y0, Y2
	VPCMPEQB Y13, Y1, Y3
	JOIN(Y2, Y3, AX) // backslashes

	// The bytes a backslash escapes (escapedBytes): DX, and the carry into
	// the next block: R12. In Go terms:
	//	potential := backslash &^ in
	//	code := ((potential<<1 | odd) - potential) ^ odd
	//	escaped := code ^ (backslash | in)
	//	carry := (code & backslash) >> 63
	MOVQ R9, DX
	XORQ R12, R12
	TESTQ AX, AX
	JZ runEscaped
	MOVQ R9, BX
	NOTQ BX
	ANDQ AX, BX               // potential
	LEAQ (BX)(BX*1), R13
	MOVQ $0xAAAAAAAAAAAAAAAA, DX
	ORQ DX, R13
	SUBQ BX, R13
	XORQ DX, R13              // code
	MOVQ AX, DX
	ORQ R9, DX
	XORQ R13, DX              // escaped
	ANDQ AX, R13
	SHRQ $63, R13
	MOVQ R13, R12

runEscaped:
	MOVQ DX, BX
	NOTQ BX
	ANDQ R15, BX              // quotes that end the string
	VPMINUB Y14, Y0, Y2
	VPMINUB Y14, Y1, Y3
	VPCMPEQB Y2, Y0, Y2
	VPCMPEQB Y3, Y1, Y3
	JOIN(Y2, Y3, R13)
	ORQ R13, BX               // control bytes
	ORQ bad-16(SP), BX        // stops: quotes, control bytes, UTF-8 errors
	CMPB stopBackslash+16(FP), $0
	JEQ runStopsSoFar
	ORQ AX, BX                // and backslashes

runStopsSoFar:
	XORQ R14, R14             // need: the bytes that must be hex digits
	XORQ R15, R15             // needHex for the next block
	MOVQ DX, AX
	ORQ R10, AX
	JZ runStops

	// Escapes: the byte after a backslash must be one that may follow it,
	// and the four after \u hex digits.
	VBROADCASTI128 escClassHigh2<>(SB), Y4
	VBROADCASTI128 escClassLow2<>(SB), Y5
	ESCCLASS(Y0, Y6)
	ESCCLASS(Y1, Y7)
	CLASSBIT(Y6, Y8, s2c7f<>(SB), Y2)
	CLASSBIT(Y7, Y8, s2c7f<>(SB), Y3)
	JOIN(Y2, Y3, AX) // the bytes that may follow a backslash
	NOTQ AX
	ANDQ DX, AX
	ORQ AX, BX                // escaped bytes that may not be
	JOIN(Y6, Y7, AX) // 'u': its class has the sign bit
	ANDQ DX, AX               // u: the escaped 'u's
	MOVQ R10, R14
	LEAQ (AX)(AX*1), R13
	ORQ R13, R14
	LEAQ (AX*4), R13
	ORQ R13, R14
	LEAQ (AX*8), R13
	ORQ R13, R14
	MOVQ AX, R13
	SHLQ $4, R13
	ORQ R13, R14              // need
	CLASSBIT(Y6, s2c30<>(SB), s2c70<>(SB), Y2)
	CLASSBIT(Y7, s2c30<>(SB), s2c70<>(SB), Y3)
	JOIN(Y2, Y3, R13) // hex digits
	NOTQ R13
	ANDQ R14, R13
	ORQ R13, BX               // digits of \u escapes that are not hex
	MOVQ AX, R15
	SHRQ $60, R15
	MOVQ AX, R13
	SHRQ $61, R13
	ORQ R13, R15
	MOVQ AX, R13
	SHRQ $62, R13
	ORQ R13, R15
	SHRQ $63, AX
	ORQ AX, R15               // needHex for the next block

runStops:
	ORQ DX, R14
	ORQ cont-8(SP), R14
	NOTQ R14                  // the bytes that start a character
	MOVQ SI, AX
	SUBQ DI, AX               // the block's index
	TESTQ BX, BX
	JNZ runStop
	BSRQ R14, R13
	JZ runNext
	LEAQ (AX)(R13*1), R11
runNext:
	MOVQ R12, R9
	MOVQ R15, R10
	ADDQ $64, SI
	JMP run

runStop:
	// The last start at or before the first stop; before it when the check
	// of UTF-8 flagged it.
	BSFQ BX, BX
	MOVQ bad-16(SP), R13
	BTQ BX, R13
	INCQ BX                   // INC keeps the carry of BT
	SBBQ $0, BX
	CMPQ BX, $64
	JAE runStopMasked
	MOVQ BX, CX
	MOVQ $1, R13
	SHLQ CX, R13
	DECQ R13
	ANDQ R13, R14             // the starts before bit BX
runStopMasked:
	BSRQ R14, R13
	JZ runEnd
	LEAQ (AX)(R13*1), R11

runEnd:
	MOVQ R11, n+24(FP)
	VZEROUPPER
	RET

// SHORTSTEP ends a short string in one 32-byte step: when the first quote
// q in src[:32] (SI) ends content with no backslash and no control byte that
// is valid UTF-8 (UTF8HALF, with ASCII before the step: src[0] starts a
// character, so the string's bytes before it do not matter to the check),
// it returns q, where stringRun would stop; otherwise it jumps to fail, with
// the arguments as they came. So a short value or key in most scripts costs
// about 40 instructions where a whole block took 119, and a longer one about
// 8 more. It clobbers AX, CX, DX, Y0-Y11 and Y14-Y15. ascii names the
// step's end, taken when the bytes to the quote are ASCII.
#define SHORTSTEP(fail, ascii) \
	CMPB (SI), $0x5c; \
	JEQ fail; \
	VMOVDQU (SI), Y0; \
	VPCMPEQB s2quote<>(SB), Y0, Y1; \
	VPMOVMSKB Y1, AX; \
	BSFL AX, CX; \
	JZ fail; \
	MOVL $1, DX; \
	SHLL CX, DX; \
	DECL DX; \
	VPCMPEQB s2backslash<>(SB), Y0, Y1; \
	VMOVDQU s2ctl<>(SB), Y14; \
	VPMINUB Y14, Y0, Y2; \
	VPCMPEQB Y2, Y0, Y2; \
	VPOR Y2, Y1, Y1; \
	VPMOVMSKB Y1, AX; \
	TESTL DX, AX; \
	JNZ fail; \
	VPMOVMSKB Y0, AX; \
	TESTL DX, AX; \
	JZ ascii; \
	VMOVDQU s2nibble<>(SB), Y8; \
	VBROADCASTI128 s2byte1High<>(SB), Y9; \
	VBROADCASTI128 s2byte1Low<>(SB), Y10; \
	VBROADCASTI128 s2byte2High<>(SB), Y11; \
	VPXOR Y15, Y15, Y15; \
	UTF8HALF(Y0, Y15, AX); \
	LEAL 1(DX)(DX*1), DX; \
	TESTL DX, AX; \
	JNZ fail; \
ascii: \
	MOVQ CX, n+24(FP); \
	VZEROUPPER; \
	RET

// func stringShortAVX2(src *byte, blocks int, stopBackslash bool) (n int)
//
// stringRunAVX2, with SHORTSTEP first.
TEXT ·stringShortAVX2(SB), NOSPLIT, $0-32
	MOVQ src+0(FP), SI
	SHORTSTEP(shortRun2, shortASCII2)
shortRun2:
	JMP ·stringRunAVX2(SB)

// func stringShortAVX512(src *byte, blocks int, stopBackslash bool) (n int)
//
// stringRunAVX512, with SHORTSTEP first.
TEXT ·stringShortAVX512(SB), NOSPLIT, $0-32
	MOVQ src+0(FP), SI
	SHORTSTEP(shortRun512, shortASCII512)
shortRun512:
	JMP ·stringRunAVX512(SB)

// Constants, 32 bytes each: a byte written 32 times.
DATA s2nibble<>+0(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA s2nibble<>+8(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA s2nibble<>+16(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA s2nibble<>+24(SB)/8, $0x0f0f0f0f0f0f0f0f
GLOBL s2nibble<>(SB), RODATA|NOPTR, $32
DATA s2quote<>+0(SB)/8, $0x2222222222222222
DATA s2quote<>+8(SB)/8, $0x2222222222222222
DATA s2quote<>+16(SB)/8, $0x2222222222222222
DATA s2quote<>+24(SB)/8, $0x2222222222222222
GLOBL s2quote<>(SB), RODATA|NOPTR, $32
DATA s2backslash<>+0(SB)/8, $0x5c5c5c5c5c5c5c5c
DATA s2backslash<>+8(SB)/8, $0x5c5c5c5c5c5c5c5c
DATA s2backslash<>+16(SB)/8, $0x5c5c5c5c5c5c5c5c
DATA s2backslash<>+24(SB)/8, $0x5c5c5c5c5c5c5c5c
GLOBL s2backslash<>(SB), RODATA|NOPTR, $32
DATA s2ctl<>+0(SB)/8, $0x1f1f1f1f1f1f1f1f
DATA s2ctl<>+8(SB)/8, $0x1f1f1f1f1f1f1f1f
DATA s2ctl<>+16(SB)/8, $0x1f1f1f1f1f1f1f1f
DATA s2ctl<>+24(SB)/8, $0x1f1f1f1f1f1f1f1f
GLOBL s2ctl<>(SB), RODATA|NOPTR, $32
DATA s2lead<>+0(SB)/8, $0xc0c0c0c0c0c0c0c0
DATA s2lead<>+8(SB)/8, $0xc0c0c0c0c0c0c0c0
DATA s2lead<>+16(SB)/8, $0xc0c0c0c0c0c0c0c0
DATA s2lead<>+24(SB)/8, $0xc0c0c0c0c0c0c0c0
GLOBL s2lead<>(SB), RODATA|NOPTR, $32
DATA s2c60<>+0(SB)/8, $0x6060606060606060
DATA s2c60<>+8(SB)/8, $0x6060606060606060
DATA s2c60<>+16(SB)/8, $0x6060606060606060
DATA s2c60<>+24(SB)/8, $0x6060606060606060
GLOBL s2c60<>(SB), RODATA|NOPTR, $32
DATA s2c70<>+0(SB)/8, $0x7070707070707070
DATA s2c70<>+8(SB)/8, $0x7070707070707070
DATA s2c70<>+16(SB)/8, $0x7070707070707070
DATA s2c70<>+24(SB)/8, $0x7070707070707070
GLOBL s2c70<>(SB), RODATA|NOPTR, $32
DATA s2c80<>+0(SB)/8, $0x8080808080808080
DATA s2c80<>+8(SB)/8, $0x8080808080808080
DATA s2c80<>+16(SB)/8, $0x8080808080808080
DATA s2c80<>+24(SB)/8, $0x8080808080808080
GLOBL s2c80<>(SB), RODATA|NOPTR, $32
DATA s2c30<>+0(SB)/8, $0x3030303030303030
DATA s2c30<>+8(SB)/8, $0x3030303030303030
DATA s2c30<>+16(SB)/8, $0x3030303030303030
DATA s2c30<>+24(SB)/8, $0x3030303030303030
GLOBL s2c30<>(SB), RODATA|NOPTR, $32
DATA s2c7f<>+0(SB)/8, $0x7f7f7f7f7f7f7f7f
DATA s2c7f<>+8(SB)/8, $0x7f7f7f7f7f7f7f7f
DATA s2c7f<>+16(SB)/8, $0x7f7f7f7f7f7f7f7f
DATA s2c7f<>+24(SB)/8, $0x7f7f7f7f7f7f7f7f
GLOBL s2c7f<>(SB), RODATA|NOPTR, $32

// The UTF-8 lookup tables of stringRunGeneric, 16 bytes each (as in
// strrun_amd64.s), broadcast to both lanes.
DATA s2byte1High<>+0(SB)/8, $0x0202020202020202
DATA s2byte1High<>+8(SB)/8, $0x4915012180808080
GLOBL s2byte1High<>(SB), RODATA|NOPTR, $16
DATA s2byte1Low<>+0(SB)/8, $0xcbcbcb8b8383a3e7
DATA s2byte1Low<>+8(SB)/8, $0xcbcbdbcbcbcbcbcb
GLOBL s2byte1Low<>(SB), RODATA|NOPTR, $16
DATA s2byte2High<>+0(SB)/8, $0x0101010101010101
DATA s2byte2High<>+8(SB)/8, $0x01010101babaaee6
GLOBL s2byte2High<>(SB), RODATA|NOPTR, $16

// The escape class tables of escClass, 16 bytes each (as in strrun_amd64.s),
// broadcast to both lanes.
DATA escClassHigh2<>+0(SB)/8, $0x8824022010010000
DATA escClassHigh2<>+8(SB)/8, $0x0000000000000000
GLOBL escClassHigh2<>(SB), RODATA|NOPTR, $16
DATA escClassLow2<>+0(SB)/8, $0x1034b838303d3010
DATA escClassLow2<>+8(SB)/8, $0x0104000200001010
GLOBL escClassLow2<>(SB), RODATA|NOPTR, $16
