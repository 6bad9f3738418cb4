//go:build !amd64 || noasm

package tokenizer

import (
	"encoding/binary"
	"math/bits"
)

// The value loops where there is no value kernel (noasm, or not amd64), in
// the order of this file:
//
//   - copyGo: skipGo that also appends the value without its whitespace;
//     copyOut, putLong: its output and its 16-byte moves.
//   - sepRun: the whitespace last read after a ',' at a depth, matched
//     against the next in one compare.
//   - wholeStringTail: the rest of a string, a word at a time.
//   - skipGo: skipWholeGeneric's grammar, limits and checkpoints, with
//     arrays of numbers (and canada's "],[") in one loop; skipState.
//
// Both are checked against skipWholeGeneric and value by TestWholeGoNumbers
// and FuzzWholeGo (whole_noasm_test.go).

// copyGo is copyWhole where there is no kernel: skipGo that also appends
// the value to free (dst's capacity past its length), without the
// whitespace between its tokens (SPEC O1), one move per stretch between two
// runs of whitespace, 16 bytes at once for a short one, as value's
// appendShort. It returns dst extended, the index after the value and true;
// or false with skipGo's checkpoint (depth 0 when there is none, or when
// the output up to it does not fit) and dst extended with the output up to
// it. It reads src only as far as the output is sure to fit in free. It
// never grows dst. Past the extended dst, in its capacity, it leaves
// zeros: 16 bytes after true, all it wrote after false.
func copyGo(dst, src []byte, i, room, maxToken int, from skipFrom) ([]byte, int, bool, skipCheckpoint) {
	var (
		stack uint64 // one bit per open container, the innermost lowest: 1 an object
		depth int
		start int
		k0    int
		seps  [8]sepRun // the whitespace last read after a ',', by depth (modulo 8)
		o     = copyOut{n0: len(dst), free: dst[len(dst):cap(dst)], run: i}
	)
	// The output of src[i:j] is at most j-i bytes: read no further than
	// what fits in free with 16 bytes to spare, as if the window ended
	// there, so that a value whose output may not fit is refused at the
	// last checkpoint that fits, not read to its end and then refused
	// whole (the caller's dst is smaller than the value when streaming).
	if lim := i + len(o.free) - 16; lim < len(src) {
		src = src[:lim]
	}
	room = min(room, maxSkipDepth)
	if from.depth > 0 {
		stack, depth = from.stack, from.depth
		if i < len(src) && space[src[i]] {
			i = skipSpace(src, i)
			o.run = i
		}
		if i >= len(src) {
			goto refuse
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
		goto refuse
	}
	stack = stack<<1 | uint64(src[i]>>5&1) // '{' 0x7B, '[' 0x5B
	depth++
	i++
	if i < len(src) && space[src[i]] {
		if i-o.run <= 16 && o.run+16 <= len(src) && o.w+16 <= len(o.free) {
			*(*[16]byte)(o.free[o.w : o.w+16]) = *(*[16]byte)(src[o.run : o.run+16])
			o.w += i - o.run
		} else if w2 := putLong(o.free, o.w, src, o.run, i); w2 >= 0 {
			o.w = w2
		} else {
			goto refuse
		}
		i = skipSpace(src, i)
		o.run = i
	}
	if i >= len(src) {
		goto refuse
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
		} else if i = wholeStringTail(src, i); i == 0 {
			goto refuse
		}
		if i-start > maxToken {
			goto refuse
		}
		goto next
	case 't', 'f', 'n':
		n := wholeLiteral(src, i)
		if n == 0 {
			goto refuse
		}
		i += n
		goto next
	}
	start = i
	if i = numberEnd(src, i); i == 0 || i-start > maxToken {
		goto refuse
	}
	// In an array, number ',' number, read here; numberEnd leaves a byte
	// after the number inside src.
numbers:
	for stack&1 == 0 && src[i] == ',' {
		k := i + 1
		if k < len(src) && src[k] <= ' ' {
			if !space[src[k]] {
				break
			}
			o.ck, o.ckOut = skipCheckpoint{i, stack, depth}, o.w+i-o.run
			i = k
			if i-o.run <= 16 && o.run+16 <= len(src) && o.w+16 <= len(o.free) {
				*(*[16]byte)(o.free[o.w : o.w+16]) = *(*[16]byte)(src[o.run : o.run+16])
				o.w += i - o.run
			} else if w2 := putLong(o.free, o.w, src, o.run, i); w2 >= 0 {
				o.w = w2
			} else {
				goto refuse
			}
			r := &seps[depth&7]
			if r.match(src, k) {
				k += r.n
			}
			if k < len(src) && space[src[k]] {
				k0 = k
				k = skipSpace(src, k)
				r.set(src, k0, k)
			}
			o.run = k
			if k >= len(src) {
				goto refuse
			}
			if i = k; src[k]-'0' >= 10 && src[k] != '-' {
				goto value // the ',' and the whitespace read: a value follows
			}
			start = k
			if k = numberEnd(src, k); k == 0 || k-start > maxToken {
				goto refuse // from the checkpoint before the ','
			}
			i = k
			continue
		}
		if k >= len(src) || src[k]-'0' >= 10 && src[k] != '-' {
			break // the grammar below reads the ',' again
		}
		start = k
		if k = numberEnd(src, k); k == 0 || k-start > maxToken {
			o.ck, o.ckOut = skipCheckpoint{i, stack, depth}, o.w+i-o.run
			goto refuse
		}
		i = k
	}
	// "],[" in an array of arrays of numbers, as in skipGo.
	if src[i] == ']' && stack&3 == 0 && depth > 1 && i+3 < len(src) &&
		src[i+1] == ',' && src[i+2] == '[' && (src[i+3]-'0' < 10 || src[i+3] == '-') {
		k := i + 3
		start = k
		if k = numberEnd(src, k); k == 0 || k-start > maxToken {
			o.ck, o.ckOut = skipCheckpoint{i + 1, stack >> 1, depth - 1}, o.w+i+1-o.run
			goto refuse
		}
		i = k
		goto numbers
	}

next: // after a value in a container: ',' or the closing bracket
	o.ck, o.ckOut = skipCheckpoint{i, stack, depth}, o.w+i-o.run
	if i < len(src) && space[src[i]] {
		if i-o.run <= 16 && o.run+16 <= len(src) && o.w+16 <= len(o.free) {
			*(*[16]byte)(o.free[o.w : o.w+16]) = *(*[16]byte)(src[o.run : o.run+16])
			o.w += i - o.run
		} else if w2 := putLong(o.free, o.w, src, o.run, i); w2 >= 0 {
			o.w = w2
		} else {
			goto refuse
		}
		i = skipSpace(src, i)
		o.run = i
	}
	if i >= len(src) {
		goto refuse
	}

nextByte: // src[i], in src, is not whitespace
	switch src[i] {
	case ',':
		i++
		if i < len(src) && src[i] <= ' ' {
			if i-o.run <= 16 && o.run+16 <= len(src) && o.w+16 <= len(o.free) {
				*(*[16]byte)(o.free[o.w : o.w+16]) = *(*[16]byte)(src[o.run : o.run+16])
				o.w += i - o.run
			} else if w2 := putLong(o.free, o.w, src, o.run, i); w2 >= 0 {
				o.w = w2
			} else {
				goto refuse
			}
			r := &seps[depth&7]
			if r.match(src, i) {
				i += r.n
			}
			if i < len(src) && space[src[i]] {
				k0 = i
				i = skipSpace(src, i)
				r.set(src, k0, i)
			}
			o.run = i
		}
		if i >= len(src) {
			goto refuse
		}
		if stack&1 == 0 {
			goto value
		}
	case '}':
		if stack&1 == 0 {
			goto refuse
		}
		i++
		goto closed
	case ']':
		if stack&1 != 0 {
			goto refuse
		}
		i++
		goto closed
	default:
		goto refuse
	}

key: // a key must start at src[i], in src
	if src[i] != '"' {
		goto refuse
	}
	start = i
	if i = plainEnd(src, i+1); i < len(src) && src[i] == '"' {
		i++
	} else if i = wholeStringTail(src, i); i == 0 {
		goto refuse
	}
	if i-start > maxToken {
		goto refuse
	}

colon: // after a key
	if i < len(src) && space[src[i]] {
		if i-o.run <= 16 && o.run+16 <= len(src) && o.w+16 <= len(o.free) {
			*(*[16]byte)(o.free[o.w : o.w+16]) = *(*[16]byte)(src[o.run : o.run+16])
			o.w += i - o.run
		} else if w2 := putLong(o.free, o.w, src, o.run, i); w2 >= 0 {
			o.w = w2
		} else {
			goto refuse
		}
		i = skipSpace(src, i)
		o.run = i
	}
	if i >= len(src) || src[i] != ':' {
		goto refuse
	}
	i++
	if i < len(src) && space[src[i]] {
		if i-o.run <= 16 && o.run+16 <= len(src) && o.w+16 <= len(o.free) {
			*(*[16]byte)(o.free[o.w : o.w+16]) = *(*[16]byte)(src[o.run : o.run+16])
			o.w += i - o.run
		} else if w2 := putLong(o.free, o.w, src, o.run, i); w2 >= 0 {
			o.w = w2
		} else {
			goto refuse
		}
		if oneSpace(src, i) {
			i++
		} else {
			i = skipSpace(src, i)
		}
		o.run = i
	}
	if i >= len(src) {
		goto refuse
	}
	goto value

closed: // a container ended at src[i-1]
	stack >>= 1
	if depth--; depth > 0 {
		goto next
	}
	if i-o.run <= 16 && o.run+16 <= len(src) && o.w+16 <= len(o.free) {
		*(*[16]byte)(o.free[o.w : o.w+16]) = *(*[16]byte)(src[o.run : o.run+16])
		o.w += i - o.run
	} else if w2 := putLong(o.free, o.w, src, o.run, i); w2 >= 0 {
		o.w = w2
	} else {
		goto refuse
	}
	// A 16-byte move may have left bytes from past the value after its
	// last byte.
	clear(o.free[o.w:min(o.w+16, len(o.free))])
	return dst[:o.n0+o.w], i, true, skipCheckpoint{}

refuse: // not mine: the checkpoint, if any
	if o.ck.depth == 0 || o.ckOut > len(o.free) {
		clear(o.free[:min(o.w+16, len(o.free))])
		return dst, 0, false, skipCheckpoint{}
	}
	if o.w < o.ckOut {
		// The o.run that the checkpoint ends, not yet copied: the bytes
		// before o.ck.pos, none of them whitespace.
		copy(o.free[o.w:o.ckOut], src[o.ck.pos-(o.ckOut-o.w):o.ck.pos])
	}
	clear(o.free[o.ckOut:min(max(o.w, o.ckOut)+16, len(o.free))])
	return dst[:o.n0+o.ckOut], 0, false, o.ck
}

// copyOut is copyGo's output and checkpoint. It is a struct of more than
// four fields so that it stays in memory (the compiler does not break it
// into registers): in copyGo's number loop, only the index and the stack
// live in registers across numberEnd's call, as in skipGo.
type copyOut struct {
	ck    skipCheckpoint
	ckOut int    // the output's length at the checkpoint
	free  []byte // dst's capacity past its length
	w     int    // the output's length in free; nothing past w+16 was written
	run   int    // src[run:i] is not yet copied
	n0    int    // dst's length
}

// putLong copies src[a:b] to free at w, where copyGo's 16-byte move does
// not fit: the output's new length, or -1 when src[a:b] does not fit in
// free.
func putLong(free []byte, w int, src []byte, a, b int) int {
	if w+b-a > len(free) {
		return -1
	}
	copy(free[w:], src[a:b])
	return w + b - a
}

// sepRun is the run of whitespace last read after a ',': up to 16 bytes, in
// two words and their masks; n 0 when there is none.
type sepRun struct {
	w0, w1, m0, m1 uint64
	n              int
}

// match reports whether the bytes at src[j] are the run's.
func (r *sepRun) match(src []byte, j int) bool {
	return r.n > 0 && j+16 <= len(src) &&
		(binary.LittleEndian.Uint64(src[j:j+8])^r.w0)&r.m0 == 0 &&
		(binary.LittleEndian.Uint64(src[j+8:j+16])^r.w1)&r.m1 == 0
}

// set makes src[i:j], whitespace that skipSpace read, the run when it has
// two bytes or more and fits.
func (r *sepRun) set(src []byte, i, j int) {
	if n := j - i; n >= 2 && n <= 16 && i+16 <= len(src) {
		r.n = n
		r.w0, r.m0 = binary.LittleEndian.Uint64(src[i:i+8]), lowBytes(n)
		r.w1, r.m1 = binary.LittleEndian.Uint64(src[i+8:i+16]), lowBytes(n-8)
	}
}

// wholeStringTail is stringTail (the string whose content goes on at
// src[i], where a plain run stopped: the index after its closing quote, or
// 0) with text in most scripts, runs of 2- and 3-byte sequences whose lead
// byte needs no special second-byte range, checked a word at a time, as
// str checks it.
func wholeStringTail(src []byte, i int) int {
	for {
		for i < len(src)-7 {
			if m := stringStops(binary.LittleEndian.Uint64(src[i:])); m != 0 {
				i += bits.TrailingZeros64(m) >> 3
				break
			}
			i += 8
		}
		for i < len(src) && plain[src[i]] {
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
			for i+6 <= len(src) && binary.LittleEndian.Uint16(src[i:]) == '\\'|'u'<<8 &&
				allHex(binary.LittleEndian.Uint32(src[i+2:])) {
				i += 6
			}
		case c < 0x20:
			return 0
		default:
			n := runeLen(src[i:])
			if n == 0 {
				return 0
			}
			i += n
			for i+4 <= len(src) {
				x := binary.LittleEndian.Uint32(src[i:])
				if c := byte(x); c-0xE1 < 0xF && c != 0xED && x&0xC0C000 == 0x808000 {
					i += 3
				} else if c-0xC2 < 0x1E && x&0xC000 == 0x8000 {
					i += 2
				} else {
					break
				}
			}
		}
	}
}

// skipGo is skipWhole where there is no kernel: skipWholeGeneric, with
// arrays of numbers read number ',' number in one loop, the whitespace
// after a ',' compared with the last run read there (by depth, modulo 8),
// and text in most scripts read a word at a time (wholeStringTail).
func skipGo(src []byte, i, room, maxToken int, from skipFrom) (int, bool, skipCheckpoint) {
	var (
		stack uint64 // one bit per open container, the innermost lowest: 1 an object
		depth int
		start int
		k0    int
		seps  [8]sepRun // the whitespace last read after a ',', by depth (modulo 8)
		o     skipState
	)
	room = min(room, maxSkipDepth)
	if from.depth > 0 {
		stack, depth = from.stack, from.depth
		if i < len(src) && space[src[i]] {
			i = skipSpace(src, i)
		}
		if i >= len(src) {
			return 0, false, o.ck
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
		return 0, false, o.ck
	}
	stack = stack<<1 | uint64(src[i]>>5&1) // '{' 0x7B, '[' 0x5B
	depth++
	i++
	if i < len(src) && space[src[i]] {
		i = skipSpace(src, i)
	}
	if i >= len(src) {
		return 0, false, o.ck
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
		} else if i = wholeStringTail(src, i); i == 0 {
			return 0, false, o.ck
		}
		if i-start > maxToken {
			return 0, false, o.ck
		}
		goto next
	case 't', 'f', 'n':
		n := wholeLiteral(src, i)
		if n == 0 {
			return 0, false, o.ck
		}
		i += n
		goto next
	}
	start = i
	if i = numberEnd(src, i); i == 0 || i-start > maxToken {
		return 0, false, o.ck
	}
	// In an array, number ',' number, read here; numberEnd leaves a byte
	// after the number inside src. The checkpoint is the last number's end.
numbers:
	for stack&1 == 0 && src[i] == ',' {
		k := i + 1
		if k < len(src) && src[k] <= ' ' {
			r := &seps[depth&7]
			if r.match(src, k) {
				k += r.n
			}
			if k < len(src) && space[src[k]] {
				k0 = k
				k = skipSpace(src, k)
				r.set(src, k0, k)
			}
		}
		if k >= len(src) || src[k]-'0' >= 10 && src[k] != '-' {
			break // the grammar below reads the ',' again
		}
		start = k
		if k = numberEnd(src, k); k == 0 || k-start > maxToken {
			return 0, false, skipCheckpoint{i, stack, depth}
		}
		i = k
	}
	// "],[" in an array of arrays of numbers (canada's coordinates): the
	// array closes and the next opens at the same depth; its first number
	// is read here. The checkpoint, when that number is not taken, is after
	// the ']', as the grammar below would leave it.
	if src[i] == ']' && stack&3 == 0 && depth > 1 && i+3 < len(src) &&
		src[i+1] == ',' && src[i+2] == '[' && (src[i+3]-'0' < 10 || src[i+3] == '-') {
		k := i + 3
		start = k
		if k = numberEnd(src, k); k == 0 || k-start > maxToken {
			return 0, false, skipCheckpoint{i + 1, stack >> 1, depth - 1}
		}
		i = k
		goto numbers
	}

next: // after a value in a container: ',' or the closing bracket
	o.ck = skipCheckpoint{i, stack, depth}
	if i < len(src) && space[src[i]] {
		i = skipSpace(src, i)
	}
	if i >= len(src) {
		return 0, false, o.ck
	}

nextByte: // src[i], in src, is not whitespace
	switch src[i] {
	case ',':
		i++
		if i < len(src) && src[i] <= ' ' {
			r := &seps[depth&7]
			if r.match(src, i) {
				i += r.n
			}
			if i < len(src) && space[src[i]] {
				k0 = i
				i = skipSpace(src, i)
				r.set(src, k0, i)
			}
		}
		if i >= len(src) {
			return 0, false, o.ck
		}
		if stack&1 == 0 {
			goto value
		}
	case '}':
		if stack&1 == 0 {
			return 0, false, o.ck
		}
		i++
		goto closed
	case ']':
		if stack&1 != 0 {
			return 0, false, o.ck
		}
		i++
		goto closed
	default:
		return 0, false, o.ck
	}

key: // a key must start at src[i], in src
	if src[i] != '"' {
		return 0, false, o.ck
	}
	start = i
	if i = plainEnd(src, i+1); i < len(src) && src[i] == '"' {
		i++
	} else if i = wholeStringTail(src, i); i == 0 {
		return 0, false, o.ck
	}
	if i-start > maxToken {
		return 0, false, o.ck
	}

colon: // after a key
	if i < len(src) && space[src[i]] {
		if oneSpace(src, i) {
			i++
		} else {
			i = skipSpace(src, i)
		}
	}
	if i >= len(src) || src[i] != ':' {
		return 0, false, o.ck
	}
	i++
	if i < len(src) && space[src[i]] {
		if oneSpace(src, i) {
			i++
		} else {
			i = skipSpace(src, i)
		}
	}
	if i >= len(src) {
		return 0, false, o.ck
	}
	goto value

closed: // a container ended at src[i-1]
	stack >>= 1
	if depth--; depth == 0 {
		return i, true, o.ck
	}
	goto next
}

// skipState is skipGo's checkpoint, a struct of more than four fields so
// that it stays in memory, as copyOut.
type skipState struct {
	ck   skipCheckpoint
	_, _ int
}
