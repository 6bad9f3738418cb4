package tokenizer

import (
	"encoding/binary"
	"math"
	"math/bits"
)

// Trusted-scan states.
const (
	tsStart   = iota // at the value's first byte
	tsScalar         // inside a number or literal
	tsString         // inside a string
	tsOutside        // inside an object or array, outside strings
)

// endsTrustedScalar reports whether c ends a number or literal in a trusted
// scan: ',', '}', ']' or whitespace. [Scanner.Scalar] relies on it too.
func endsTrustedScalar(c byte) bool {
	return c == ',' || c == '}' || c == ']' || space[c]
}

// escapableOutside reports whether a backslash outside strings (not valid
// JSON, but the block scan's escape mask gives it a meaning that the byte
// loops must share) escapes c: only a quote or a backslash.
func escapableOutside(c byte) bool { return c == '"' || c == '\\' }

// SkipTrusted consumes one whole value checking only string quoting and
// bracket nesting (SPEC V4): for inputs known to be valid. Like
// [Scanner.SkipValue] it starts at a value's first byte (after Peek) or
// resumes the value left unfinished. Nesting beyond the limit is still an
// error.
func (s *Scanner) SkipTrusted(src []byte, i int) (int, bool, error) {
	if s.trusted == tsStart && i < len(src)-64 && src[i]|0x20 == '{' && hasAVX2 && s.maxToken == math.MaxInt && s.depth < s.maxDepth {
		return s.skipBlocks(src, i)
	}
	return s.trustedScan(src, i, false)
}

// skipBlocks is SkipTrusted for the container that opens at src[i], below
// the nesting limit, with a whole block after its bracket: the blocks go to
// the quiet kernel at once (quietSkip), and where it stops (st.stop) the
// value ends, or a bracket opens at the limit. Most dropped containers are
// small ({"x": "a", "y": [1, 2, 3]}) and end in the first block: by way of
// trustedScan and quietBlocks, the same kernel call cost about 45
// instructions more a container (callgrind, flow-document trusted: 11.71 ->
// 11.32 instructions/byte). Where fewer than 64 bytes are left, trustedScan
// goes on in the state the blocks left.
func (s *Scanner) skipBlocks(src []byte, i int) (int, bool, error) {
	s.tokStart = s.offset + int64(i)
	st := quietState{depth: 1, room: s.maxDepth - s.depth}
	n := quietSkip(src[i+1:], &st)
	j := i + 1 + n
	if st.stop != 0 {
		k := j + bits.TrailingZeros64(st.stop)
		if src[k]|0x20 == '{' { // '{' or '[' at the limit
			return k, false, s.errDepth(k)
		}
		s.state = s.after()
		return k + 1, true, nil
	}
	s.trusted, s.tdepth, s.esc = tsOutside, st.depth, escNone
	if st.inStr != 0 {
		s.trusted = tsString
	}
	if st.escaped {
		s.esc = escBackslash
	}
	return s.trustedScan(src, j, false)
}

// AppendTrusted is SkipTrusted that also appends the value to dst without
// the whitespace outside its strings, and returns the extended dst: for
// valid input, the same bytes as AppendValue's.
func (s *Scanner) AppendTrusted(dst, src []byte, i int) ([]byte, int, bool, error) {
	s.out = dst
	i, done, err := s.trustedScan(src, i, true)
	dst, s.out = s.out, nil
	return dst, i, done, err
}

// WideCopy reports whether AppendTrusted copies 64 bytes at a time, with the
// AVX-512 kernel: then a value checked by SkipValue and copied by
// AppendTrusted costs less than one that AppendValue copies, where
// whitespace between its tokens is dense. Where it is false, AppendTrusted
// reads a word at a time.
func WideCopy() bool { return hasAVX512 }

// trustedScan is SkipTrusted, and AppendTrusted (appending to s.out) when
// copy is true: one loop that looks, a word at a time, only for the bytes
// that matter: quotes and backslashes inside strings; quotes, brackets (and
// whitespace, when copying) outside.
//
// Its states (s.trusted between calls), what each looks for, and where it
// goes:
//
//	tsStart    the value's first byte: '{' or '[' outside, '"' inString,
//	           else a number or literal, tsScalar
//	tsScalar   the byte that ends a number or literal (',', '}', ']' or
//	           whitespace): done
//	inString   (tsString) the closing quote, a backslash skipping the byte
//	           after it; then done for a string alone, else outside; with
//	           64 bytes left and the kernels on, blocks
//	outside    (tsOutside) a quote (inString), a bracket (the depth; done
//	           when it returns to 0), whitespace to drop when copying; with
//	           64 bytes left and the kernels on, blocks
//	blocks     64 bytes a step, quiet runs by quietBlocks, others a bracket
//	           at a time: done where the value ends, else inString or
//	           outside for the last bytes
//	done       the value ended: the run copied, the state reset
//	window     the window ended: the state kept for the next call
func (s *Scanner) trustedScan(src []byte, i int, copy bool) (int, bool, error) {
	run := i
	depth := s.tdepth
	// Blocks of 64 bytes classified by the kernels, where there are some: runs
	// of quiet blocks by quietBlocks (one AVX-512 or AVX2 call for many), the
	// others a bracket at a time. Not when strings must be measured
	// (WithMaxTokenSize), which the byte loops do.
	useBlocks := hasAVX2 && s.maxToken == math.MaxInt
	var inStr bool
	var st quietState // the block scan's state
	switch s.trusted {
	case tsStart:
		if i >= len(src) {
			return i, false, nil
		}
		s.tokStart = s.offset + int64(i)
		switch src[i] {
		case '{', '[':
			if s.depth >= s.maxDepth {
				return i, false, s.errDepth(i)
			}
			depth = 1
			i++
			goto outside
		case '"':
			s.esc = escNone
			i++
			goto inString
		}
		s.trusted = tsScalar
		fallthrough
	case tsScalar:
		for ; i < len(src); i++ {
			if endsTrustedScalar(src[i]) {
				if err := s.CheckToken(i); err != nil {
					return i, false, err
				}
				goto done
			}
		}
		goto window
	case tsString:
		if s.esc != escNone {
			if i >= len(src) {
				goto window
			}
			s.esc = escNone
			i++
		}
		goto inString
	default:
		if s.esc != escNone { // a backslash ended the last window, outside strings
			if i >= len(src) {
				goto window
			}
			s.esc = escNone
			if escapableOutside(src[i]) {
				i++
			}
		}
		goto outside
	}

inString:
	for {
		if useBlocks && depth > 0 && i+64 <= len(src) { // a string value alone ends at its quote: the byte loop finds it
			inStr = true
			goto blocks
		}
		i = quoteOrBackslashAt(src, i)
		if i >= len(src) {
			s.trusted = tsString
			goto window
		}
		if src[i] == '"' {
			break
		}
		if i+1 >= len(src) {
			s.trusted, s.esc = tsString, escBackslash
			i = len(src)
			goto window
		}
		i += 2
	}
	i++
	if err := s.CheckToken(i); err != nil {
		return i, false, err
	}
	if depth == 0 {
		goto done
	}

outside:
	for {
		if useBlocks && i+64 <= len(src) {
			inStr = false
			goto blocks
		}
		if copy {
			for i < len(src)-7 { // i+8 <= len(src), as in plainEnd
				if m := structuralOrSpace(binary.LittleEndian.Uint64(src[i:])); m != 0 {
					i += bits.TrailingZeros64(m) >> 3
					break
				}
				i += 8
			}
		} else {
			for i < len(src)-7 { // i+8 <= len(src), as in plainEnd
				if m := structural(binary.LittleEndian.Uint64(src[i:])); m != 0 {
					i += bits.TrailingZeros64(m) >> 3
					break
				}
				i += 8
			}
		}
		if i >= len(src) {
			s.trusted = tsOutside
			goto window
		}
		switch c := src[i]; c {
		case '"':
			s.tokStart = s.offset + int64(i)
			i++
			goto inString
		case '\\':
			// Not valid here, but the block scan's escape mask says what it
			// does, and both scans must agree: it escapes a quote or a
			// backslash after it, and leaves anything else as it is.
			if i+1 >= len(src) {
				s.trusted, s.esc = tsOutside, escBackslash
				i++
				goto window
			}
			if escapableOutside(src[i+1]) {
				i++
			}
		case '{', '[':
			if s.depth+depth >= s.maxDepth {
				return i, false, s.errDepth(i)
			}
			depth++
		case '}', ']':
			if depth--; depth == 0 {
				i++
				goto done
			}
		default:
			if c <= ' ' && copy {
				// Whitespace, or a control byte that valid JSON has none of here:
				// dropped alike, as the block scan does.
				s.out = append(s.out, src[run:i]...)
				for i < len(src) && src[i] <= ' ' {
					i++
				}
				run = i
				continue
			}
		}
		i++
	}

blocks:
	// The value goes on past src[i]: inside a string if inStr. Each block's
	// masks give the bytes a backslash escapes, hence the real quotes, hence
	// (by a prefix XOR) the bytes inside strings, hence the brackets and the
	// whitespace outside them.
	st = quietState{depth: depth, room: s.maxDepth - s.depth}
	if inStr {
		st.inStr = ^uint64(0)
	}
	for i+64 <= len(src) {
		// Most blocks need no closer look: quietBlocks takes runs of them.
		var n int
		if copy {
			s.out = append(s.out, src[run:i]...)
			var w int
			n, w = quietBlocks(src[i:], s.out[len(s.out):cap(s.out)], true, &st)
			s.out = s.out[:len(s.out)+w]
			run = i + n
		} else {
			n, _ = quietBlocks(src[i:], nil, false, &st)
			if st.stop != 0 {
				// The block where the scan stopped, at the bracket st.stop
				// flags: no need to classify it again.
				k := i + n + bits.TrailingZeros64(st.stop)
				if src[k]|0x20 == '{' { // '{' or '[' at the limit
					return k, false, s.errDepth(k)
				}
				i = k + 1
				goto done
			}
		}
		if i += n; i+64 > len(src) {
			break
		}

		// This block, a bracket at a time: the value ends in it, a bracket
		// opens at the depth limit, or the output has no room for a whole
		// block.
		var m blockMasks
		classify((*[64]byte)(src[i:i+64]), &m)
		strs, carry := m.strings(st.inStr, st.escaped)
		open := m.open &^ strs
		end := 65 // where the value ends in this block, 65 if it goes on
		for b := open | m.close&^strs; b != 0; b &= b - 1 {
			k := bits.TrailingZeros64(b)
			if open>>k&1 != 0 {
				if st.depth >= st.room {
					return i + k, false, s.errDepth(i + k)
				}
				st.depth++
			} else if st.depth--; st.depth == 0 {
				end = k + 1
				break
			}
		}
		if copy {
			ws := m.space &^ strs
			limit := i + 64 // the value's bytes go on at least this far
			if end < 64 {
				ws &= 1<<end - 1 // only what lies before the value's end
				limit = i + end
			}
			for ws != 0 {
				k := bits.TrailingZeros64(ws)
				n := bits.TrailingZeros64(^(ws >> k)) // length of the run
				s.out = appendRun(s.out, src, run, i+k, limit)
				run = i + k + n
				if k+n >= 64 {
					break
				}
				ws &^= (1<<n - 1) << k
			}
		}
		if end <= 64 {
			i += end
			goto done
		}
		st.inStr, st.escaped = uint64(int64(strs)>>63), carry
		i += 64
	}
	// Fewer than 64 bytes left: the byte loops take over in the same state.
	inStr, depth = st.inStr != 0, st.depth
	if st.escaped {
		if i >= len(src) {
			s.trusted, s.esc = tsString, escBackslash
			if !inStr {
				s.trusted = tsOutside
			}
			goto window
		}
		// The byte a backslash at the end of the last block escapes: any byte
		// in a string; outside one, only a quote or a backslash means anything.
		if inStr || escapableOutside(src[i]) {
			i++
		}
	}
	if inStr {
		goto inString
	}
	goto outside

done:
	if copy {
		s.out = append(s.out, src[run:i]...)
	}
	s.trusted, s.tdepth = tsStart, 0
	s.state = s.after()
	return i, true, nil

window:
	if copy {
		s.out = append(s.out, src[run:i]...)
	}
	s.tdepth = depth
	return i, false, nil
}
