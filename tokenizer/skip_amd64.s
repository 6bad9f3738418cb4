//go:build amd64 && !noasm

#include "textflag.h"
#include "kernels_amd64.h"

#include "skipdefs_amd64.h"

// CHECKPOINT(r) records the checkpoint at BX: its position, the stack and
// the depth (and in the copy kernel the output's length there; r is
// scratch).
#define CHECKPOINT(r) \
	MOVQ BX, ckPos+72(FP); \
	MOVQ R10, ckStack+80(FP); \
	MOVQ R11, ckDepth+88(FP)
TEXT ·skipWholeAVX2(SB), NOSPLIT, $32-96
#include "skipgrammar_amd64.h"


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
// The copy kernel's PADSTR: 37 bytes.
#undef PADSTR
#define PADSTR INT3X8; INT3X8; INT3X8; INT3X8; INT3X4; INT3X1
#undef PADNUM
#define PADNUM INT3X8; INT3X8; INT3X8; INT3X8; INT3X8; INT3X8; INT3X8; INT3X8; INT3X8
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
