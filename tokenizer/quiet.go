package tokenizer

import "math/bits"

// maxKernelBlocks bounds the blocks of one call to a kernel: 64 KiB, so that
// a long value does not hold off the scheduler (an assembly loop has no
// preemption points).
const maxKernelBlocks = 1024

// quietState is what the trusted block scan carries from one 64-byte block
// to the next, for [quietBlocks].
type quietState struct {
	inStr   uint64 // all ones when the next block starts inside a string, else 0
	escaped bool   // a backslash at the end of the last block escapes the next block's first byte
	depth   int    // brackets open in the value being scanned
	room    int    // depth must stay below room: maxDepth less the depth the value began at
	// stop is set by a scan that stops at a block's bracket, the one that
	// closes the value or opens at room: its bit in the block (one bit), so
	// that a skip need not classify that block again. Left as it was when
	// the scan stops for want of blocks or room to copy.
	stop uint64
}

// quietBlocks scans, from src[0], the whole 64-byte blocks of a trusted
// value in which nothing needs a closer look: the value does not end in them
// and no bracket opens at the depth limit (quietDepth). It stops before the first block that
// does not qualify, or when fewer than 64 bytes remain, or, when copying, after
// len(out)/64 blocks, for which out has room; the caller takes that block a
// bracket at a time. It returns the bytes scanned and, when copy is true, the
// bytes written to out: each block without the whitespace and control bytes
// outside its strings. st goes on past the blocks scanned.
//
// The block loop of the trusted scan relies on it, where AVX2 runs (it
// classifies with classify); the AVX-512 kernel does the same where the CPU
// has it, and is fuzzed against this twin.
func quietBlocksGeneric(src, out []byte, copy bool, st *quietState) (n, w int) {
	limit := len(src)
	if copy {
		limit = min(limit, len(out)) // a block writes at most 64 bytes
	}
	for n+64 <= limit {
		var m blockMasks
		classify((*[64]byte)(src[n:n+64]), &m)
		strs, carry := m.strings(st.inStr, st.escaped)
		depth, stop := quietDepth(st.depth, st.room, m.open&^strs, m.close&^strs)
		if stop != 0 {
			st.stop = stop
			break
		}
		st.depth = depth
		st.inStr, st.escaped = uint64(int64(strs)>>63), carry
		if copy {
			w += compactBlock(out[w:], (*[64]byte)(src[n:n+64]), m.space&^strs)
		}
		n += 64
	}
	return n, w
}

// quietDepth returns the depth after a block whose brackets outside strings
// open and close flag, from depth, and 0 when the value goes on past the
// block within the limit; else the bit of the bracket where it stops: the one
// that closes the value or opens at room or deeper (where trustedScan stops
// with errDepth). Most blocks are decided by their counts of brackets; the
// others a bracket at a time, so that a block of small values closed as they
// open (a depth that goes up and down, never to 0) stays in the kernel.
func quietDepth(depth, room int, open, close uint64) (int, uint64) {
	if nc := bits.OnesCount64(close); depth > nc {
		if d := depth + bits.OnesCount64(open); d < room {
			return d - nc, 0
		}
	}
	for b := open | close; b != 0; b &= b - 1 {
		if bit := b & -b; open&bit != 0 {
			if depth >= room {
				return depth, bit
			}
			depth++
		} else if depth--; depth == 0 {
			return depth, bit
		}
	}
	return depth, 0
}

// compactBlock writes the bytes of b that drop does not flag to out, in
// order, and returns how many it wrote. out has room for 64 bytes at least.
//
// A block with nothing to drop is one 64-byte move. Otherwise each run of
// kept bytes moves 16 bytes at a time, from a copy of the block padded to 80
// bytes, when out has room for 80: a run's last move may write up to 15
// bytes past it, which the next run or the next block overwrites, and
// which are the block's own bytes (the value's, never another's) or zeros.
// Moves of fixed size are inline code, where copy calls memmove for each run:
// a pretty-printed document has a run per line (callgrind, twitter/keep-most
// in trusted mode: 7.44 -> 6.37 instructions/byte).
//
// Where the CPU has AVX2, the kept bytes go 8 at a time with a shuffle
// instead (compactShuffle, PSHUFB), whatever the runs: a pretty-printed
// block has a run per line, each a move of its own here (callgrind,
// twitter/keep-most in trusted mode: see compactShuffle's commit).
func compactBlock(out []byte, b *[64]byte, drop uint64) int {
	if drop == 0 {
		*(*[64]byte)(out[:64]) = *b
		return 64
	}
	if hasAVX2 {
		return compactShuffle(out, b, ^drop)
	}
	if len(out) < 80 {
		return compactBlockCopy(out, b, drop)
	}
	var buf [80]byte
	*(*[64]byte)(buf[:64]) = *b
	w := 0
	for keep := ^drop; keep != 0; {
		k := bits.TrailingZeros64(keep)
		n := bits.TrailingZeros64(^(keep >> k)) // the run of kept bytes from k
		for j := 0; j < n; j += 16 {
			*(*[16]byte)(out[w+j : w+j+16]) = *(*[16]byte)(buf[k+j : k+j+16])
		}
		w += n
		if k+n >= 64 {
			break
		}
		keep &^= (1<<n - 1) << k
	}
	return w
}

// compactBlockCopy is compactBlock with copy, writing nothing past what it
// keeps: for an out with less room.
func compactBlockCopy(out []byte, b *[64]byte, drop uint64) int {
	w, k := 0, 0
	for keep := ^drop; keep != 0; {
		k = bits.TrailingZeros64(keep)
		n := bits.TrailingZeros64(^(keep >> k)) // the run of kept bytes from k
		w += copy(out[w:], b[k:k+n])
		if k+n >= 64 {
			break
		}
		keep &^= (1<<n - 1) << k
	}
	return w
}

// compactCheckedGeneric writes to out the bytes of the whole 64-byte blocks
// of src, as many as out has room for, without those <= ' ' outside strings,
// and returns how many it wrote: quietBlocksGeneric's copy without its
// brackets, for the blocks of a value that SkipValue has checked, in which
// there is no bracket to count and no end to find. st's inStr and escaped
// go on past the blocks; its depth and room are not used. Past what it
// writes, within out's first 64 bytes a block, it may leave the blocks' own
// bytes (compactBlock) or zeros (the AVX-512 kernel, fuzzed against this
// twin).
func compactCheckedGeneric(src, out []byte, st *quietState) (w int) {
	for n := 0; n+64 <= len(src) && n+64 <= len(out); n += 64 {
		var m blockMasks
		classify((*[64]byte)(src[n:n+64]), &m)
		strs, carry := m.strings(st.inStr, st.escaped)
		st.inStr, st.escaped = uint64(int64(strs)>>63), carry
		w += compactBlock(out[w:], (*[64]byte)(src[n:n+64]), m.space&^strs)
	}
	return w
}
