package tokenizer

import (
	"encoding/binary"
)

// maxSkipDepth is how deep a container skipWhole tracks: its stack of open
// containers is the bits of one word.
const maxSkipDepth = 64

// skipMinToken is the least maxToken the kernels run with: a string that
// begins at most 64 bytes before the 64-byte block it ends in is at most
// 128 bytes long, and they check no length for it (skipgrammar_amd64.h,
// strShort). A smaller limit is left to value, as without a kernel.
const skipMinToken = 128

// skipCheckpoint is where skipWhole last stood after a value inside the
// container it was reading: the index after that value, the stack of open
// containers (as skipWholeGeneric keeps it) and their number; depth 0 when
// it never stood there.
type skipCheckpoint struct {
	pos   int
	stack uint64
	depth int
}

// skipFrom is where skipWhole starts: at the object or array at src[i]
// (depth 0), or, for a value that an earlier window began, inside depth open
// containers (stack as skipCheckpoint has it), where the grammar expects
// what entry says. The entries are the kernel's, after whitespace.
type skipFrom struct {
	stack uint64
	depth int
	entry int
}

// The entries of skipFrom, by the grammar state value would be in.
const (
	skipFirst = iota // after '{' or '[': stKeyOrEnd, stValueOrEnd
	skipNext         // stNext
	skipKey          // stKey
	skipColon        // stColon
	skipValue        // stValue
)

// skipEntry maps the grammar states between tokens to skipFrom's entries.
var skipEntry = [...]int{
	stValue: skipValue, stValueOrEnd: skipFirst, stKeyOrEnd: skipFirst,
	stKey: skipKey, stColon: skipColon, stNext: skipNext,
}

// skipWholeGeneric validates the whole value that starts at src[i], an
// object or array ('{' or '['), and returns the index after it and true. It
// returns false ("not mine") when the value does not end inside src, when it
// is invalid (SPEC V1), when it opens more than room containers at once or
// more than maxSkipDepth, or when a string (quotes included) or number runs
// longer than maxToken bytes. It is a pure function of its arguments: with
// false, the caller's resumable byte loop (value) goes on from the last
// checkpoint (everything before it is valid), or reads the value again from
// i when there is none, and reports the error with its offset, or goes on in
// the next window. So a value that a window cuts is not read twice. From
// a later window (from.depth > 0) it goes on with the value from where the
// last window left it, between two tokens.
//
// It is the spec of the AVX2 kernel skipWholeAVX2 and its Go twin, fuzzed
// against it and against value (FuzzSkipWhole). What it accepts, value
// accepts from a fresh scan, with the same end; and it accepts every valid
// value within its limits. A number ends inside src only when a byte
// follows it, as numberEnd has it.
//
// The loop is a goto per grammar state, as value's, with only the index,
// the depth and the stack of open containers (1 an object, 0 an array, the
// innermost in bit 0) live across tokens. The labels (the kernel's too):
//
//	open      src[i] opens a container: pushed, then first
//	first     after '{' or '[': the close, or a key or a value
//	value     a value: open, a string, a literal or a number, then next
//	next      after a value (the checkpoint): ',' then key or value, or a close
//	key       a key, then colon
//	colon     ':' then value
//	closed    popped: the end when the stack is empty, else next
func skipWholeGeneric(src []byte, i, room, maxToken int, from skipFrom) (end int, ok bool, ck skipCheckpoint) {
	var (
		stack uint64 // one bit per open container, the innermost lowest: 1 an object
		depth int
		start int
	)
	room = min(room, maxSkipDepth)
	if from.depth > 0 {
		stack, depth = from.stack, from.depth
		if i < len(src) && space[src[i]] {
			i = skipSpace(src, i)
		}
		if i >= len(src) {
			return 0, false, ck
		}
		switch from.entry {
		case skipFirst:
			goto first
		case skipNext:
			goto nextByte
		case skipKey:
			goto key
		case skipColon:
			goto colon
		}
		goto value
	}

open: // src[i] is '{' or '['
	if depth >= room {
		return 0, false, ck
	}
	stack = stack<<1 | uint64(src[i]>>5&1) // '{' 0x7B, '[' 0x5B
	depth++
	i++
	if i < len(src) && space[src[i]] {
		i = skipSpace(src, i)
	}
	if i >= len(src) {
		return 0, false, ck
	}

first: // after '{' or '[', src[i] in src: '}' or a key, ']' or a value
	if stack&1 != 0 {
		if src[i] == '}' {
			i++
			goto closed
		}
		goto key
	}
	if src[i] == ']' {
		i++
		goto closed
	}

value: // a value must start at src[i], in src
	switch src[i] {
	case '{', '[':
		goto open
	case '"':
		start = i
		if i = plainEnd(src, i+1); i < len(src) && src[i] == '"' {
			i++
		} else if i = stringTail(src, i); i == 0 {
			return 0, false, ck
		}
	case 't', 'f', 'n':
		n := wholeLiteral(src, i)
		if n == 0 {
			return 0, false, ck
		}
		i += n
		goto next
	default:
		start = i
		if i = numberEnd(src, i); i == 0 {
			return 0, false, ck
		}
	}
	if i-start > maxToken {
		return 0, false, ck
	}

next: // after a value in a container: ',' or the closing bracket
	ck = skipCheckpoint{i, stack, depth}
	if i < len(src) && space[src[i]] {
		i = skipSpace(src, i)
	}
	if i >= len(src) {
		return 0, false, ck
	}

nextByte: // src[i], in src, is not whitespace
	switch src[i] {
	case ',':
		i++
		if i < len(src) && space[src[i]] {
			i = skipSpace(src, i)
		}
		if i >= len(src) {
			return 0, false, ck
		}
		if stack&1 == 0 {
			goto value
		}
	case '}':
		if stack&1 == 0 {
			return 0, false, ck
		}
		i++
		goto closed
	case ']':
		if stack&1 != 0 {
			return 0, false, ck
		}
		i++
		goto closed
	default:
		return 0, false, ck
	}

key: // a key must start at src[i], in src
	if src[i] != '"' {
		return 0, false, ck
	}
	start = i
	if i = plainEnd(src, i+1); i < len(src) && src[i] == '"' {
		i++
	} else if i = stringTail(src, i); i == 0 {
		return 0, false, ck
	}
	if i-start > maxToken {
		return 0, false, ck
	}

colon: // after a key
	if i < len(src) && space[src[i]] {
		i = skipSpace(src, i)
	}
	if i >= len(src) || src[i] != ':' {
		return 0, false, ck
	}
	i++
	if i < len(src) && space[src[i]] {
		i = skipSpace(src, i)
	}
	if i >= len(src) {
		return 0, false, ck
	}
	goto value

closed: // a container ended at src[i-1]
	stack >>= 1
	if depth--; depth == 0 {
		return i, true, ck
	}
	goto next
}

// stringTail returns the index after the closing quote of the string whose
// content goes on at src[i], where a plain run stopped, when the rest is
// valid and ends inside src, and 0 otherwise: str's rules (escapes, control
// bytes, UTF-8 by runeLen) without its resumable state.
func stringTail(src []byte, i int) int {
	for {
		for i = plainEnd(src, i); i < len(src) && plain[src[i]]; {
			i++
		}
		if i >= len(src) {
			return 0
		}
		switch c := src[i]; {
		case c == '"':
			return i + 1
		case c == '\\':
			if i+1 >= len(src) {
				return 0
			}
			if e := src[i+1]; e != 'u' {
				if !simpleEscape[e] {
					return 0
				}
				i += 2
				continue
			}
			if i+6 > len(src) || !allHex(binary.LittleEndian.Uint32(src[i+2:])) {
				return 0
			}
			i += 6
		case c < 0x20:
			return 0
		default:
			n := runeLen(src[i:])
			if n == 0 {
				return 0
			}
			i += n
		}
	}
}
