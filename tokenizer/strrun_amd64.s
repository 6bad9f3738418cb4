//go:build amd64 && !noasm

#include "textflag.h"
#include "kernels_amd64.h"

// func stringRunAVX512(src *byte, blocks int, stopBackslash bool) (n int)
//
// stringRunGeneric over at most blocks blocks.
//
// Registers: SI src, DI its start, CX blocks left, R8 the last block's last
// three bytes hold one of 0x80 and above, R9 escaped, R10 the bytes that a \u
// escape before the block needs to be hex digits, R11 the last index that
// starts a character; Z24 the last block; Z25-Z27 the UTF-8 lookup tables;
// Z10-Z12, Z15 and Z28-Z31 the bytes compared with; Z13-Z14 the escape
// class tables (escClass).
TEXT ·stringRunAVX512(SB), NOSPLIT, $0-32
	MOVQ src+0(FP), SI
	MOVQ blocks+8(FP), CX
	MOVQ SI, DI
	XORQ R8, R8
	XORQ R9, R9
	XORQ R10, R10
	XORQ R11, R11
	VPXORQ Z24, Z24, Z24
	VBROADCASTI32X4 utf8Byte1High<>(SB), Z25
	VBROADCASTI32X4 utf8Byte1Low<>(SB), Z26
	VBROADCASTI32X4 utf8Byte2High<>(SB), Z27
	SPLAT($0x0f0f0f0f0f0f0f0f, Z28) // low nibble
	SPLAT($0xe0e0e0e0e0e0e0e0, Z29) // 3-byte leads and above
	SPLAT($0xf0f0f0f0f0f0f0f0, Z30) // 4-byte leads and above
	SPLAT($0xc0c0c0c0c0c0c0c0, Z31) // continuation bytes lie below, from 0x80

	SPLAT($0x2222222222222222, Z10) // '"'
	SPLAT($0x5c5c5c5c5c5c5c5c, Z11) // '\\'
	SPLAT($0x2020202020202020, Z12) // control bytes lie below; and the bit that folds 'A'-'F' onto 'a'-'f'
	VBROADCASTI32X4 escClassHigh<>(SB), Z13
	VBROADCASTI32X4 escClassLow<>(SB), Z14
	SPLAT($0x3030303030303030, Z15) // the classes of hex digits

run:
	NEXTBLOCK(runEnd)
	VPCMPUB $1, Z12, Z0, K3   // control bytes
	VPMOVB2M Z0, K4           // bytes of 0x80 and above

	// UTF-8 (see stringRunGeneric): the bytes the check flags in K7, the
	// continuation bytes in K0. A block of ASCII after one that ends in
	// ASCII has neither.
	KMOVQ K4, AX
	MOVQ AX, R13
	ORQ R8, R13
	SHRQ $61, AX
	MOVQ AX, R8
	TESTQ R13, R13
	JNZ runUTF8
	KXORQ K7, K7, K7
	KXORQ K0, K0, K0
	JMP runUTF8Done

runUTF8:
	VALIGND $12, Z24, Z0, Z1  // the last block's last 16 bytes, then this one's first 48
	VPALIGNR $15, Z1, Z0, Z2  // the byte before each
	VPALIGNR $14, Z1, Z0, Z3  // two before
	VPALIGNR $13, Z1, Z0, Z4  // three before
	VPSRLW $4, Z2, Z5
	VPANDQ Z28, Z5, Z5
	VPSHUFB Z5, Z25, Z5
	VPANDQ Z28, Z2, Z6
	VPSHUFB Z6, Z26, Z6
	VPANDQ Z6, Z5, Z5
	VPSRLW $4, Z0, Z6
	VPANDQ Z28, Z6, Z6
	VPSHUFB Z6, Z27, Z6
	VPANDQ Z6, Z5, Z5         // special: the classes all three lookups share
	VPCMPUB $5, Z29, Z3, K5
	VPCMPUB $5, Z30, Z4, K6
	KORQ K5, K6, K5           // must continue a 3- or 4-byte sequence
	VPMOVB2M Z5, K6
	KXORQ K5, K6, K5
	VPADDB Z5, Z5, Z6
	VPTESTMB Z6, Z6, K6
	KORQ K5, K6, K7           // flagged: special ^ must != 0
	VPCMPUB $1, Z31, Z0, K6
	KANDQ K4, K6, K0          // continuation bytes

runUTF8Done:
	VMOVDQU64 Z0, Z24
	// The bytes a backslash escapes (escapedBytes): DX, and the carry into
	// the next block: R12.
	ESCAPED(runEscaped)

runEscaped:
	KMOVQ K1, BX
	ANDNQ BX, DX, BX          // quotes that end the string
	KMOVQ K3, AX
	ORQ AX, BX
	KMOVQ K7, AX
	ORQ AX, BX                // stops: quotes, control bytes, UTF-8 errors
	CMPB stopBackslash+16(FP), $0
	JEQ runStopsSoFar
	KMOVQ K2, AX
	ORQ AX, BX                // and backslashes

runStopsSoFar:
	XORQ R14, R14             // need: the bytes that must be hex digits
	XORQ R15, R15             // needHex for the next block
	MOVQ DX, AX
	ORQ R10, AX
	JZ runStops

	// Escapes: the byte after a backslash must be one that may follow it,
	// and the four after \u hex digits.
	VPSRLW $4, Z0, Z2
	VPANDQ Z28, Z2, Z2
	VPSHUFB Z2, Z13, Z2
	VPANDQ Z28, Z0, Z3
	VPSHUFB Z3, Z14, Z3
	VPANDQ Z3, Z2, Z2         // the classes (escClass)
	VPTESTMB Z28, Z2, K3      // the bytes that may follow a backslash
	VPMOVB2M Z2, K5           // 'u'
	VPTESTMB Z15, Z2, K4      // hex digits
	KMOVQ K3, AX
	ANDNQ DX, AX, AX
	ORQ AX, BX                // escaped bytes that may not be
	KMOVQ K5, AX
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
	KMOVQ K4, R13
	ANDNQ R14, R13, R13
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
	KMOVQ K0, AX
	ORQ AX, R14
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
	DECQ CX
	JMP run

runStop:
	// The last start at or before the first stop; before it when the check
	// of UTF-8 flagged it.
	TZCNTQ BX, BX
	KMOVQ K7, R13
	BTQ BX, R13
	INCQ BX
	SBBQ $0, BX
	BZHIQ BX, R14, R14
	BSRQ R14, R13
	JZ runEnd
	LEAQ (AX)(R13*1), R11

runEnd:
	MOVQ R11, n+24(FP)
	VZEROUPPER
	RET
	// 32 int3 bytes that no jump reaches: they keep plainRunAVX2, which the
	// linker places after this function (tail_amd64.s), at 32 mod 64, where
	// it was before round 13 made this function and strrun2_amd64.s's
	// shorter (escClass) and added stringShortAVX2 and stringShortAVX512.
	LONG $0xcccccccc; LONG $0xcccccccc; LONG $0xcccccccc; LONG $0xcccccccc
	LONG $0xcccccccc; LONG $0xcccccccc; LONG $0xcccccccc; LONG $0xcccccccc

// The UTF-8 lookup tables of stringRunGeneric (utf8Byte1High, utf8Byte1Low,
// utf8Byte2High), 16 bytes each.
DATA utf8Byte1High<>+0(SB)/8, $0x0202020202020202
DATA utf8Byte1High<>+8(SB)/8, $0x4915012180808080
GLOBL utf8Byte1High<>(SB), RODATA|NOPTR, $16
DATA utf8Byte1Low<>+0(SB)/8, $0xcbcbcb8b8383a3e7
DATA utf8Byte1Low<>+8(SB)/8, $0xcbcbdbcbcbcbcbcb
GLOBL utf8Byte1Low<>(SB), RODATA|NOPTR, $16
DATA utf8Byte2High<>+0(SB)/8, $0x0101010101010101
DATA utf8Byte2High<>+8(SB)/8, $0x01010101babaaee6
GLOBL utf8Byte2High<>(SB), RODATA|NOPTR, $16

// The escape class tables of escClass (escClassHigh, escClassLow), 16 bytes
// each.
DATA escClassHigh<>+0(SB)/8, $0x8824022010010000
DATA escClassHigh<>+8(SB)/8, $0x0000000000000000
GLOBL escClassHigh<>(SB), RODATA|NOPTR, $16
DATA escClassLow<>+0(SB)/8, $0x1034b838303d3010
DATA escClassLow<>+8(SB)/8, $0x0104000200001010
GLOBL escClassLow<>(SB), RODATA|NOPTR, $16
