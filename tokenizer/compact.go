package tokenizer

import "encoding/binary"

// compactTables drive the shuffle compaction, 8 bytes a step: for each 8-bit
// mask of the bytes of a chunk to keep, the PSHUFB indices that move those
// bytes to the front of the chunk, in order (0x80, which gives a zero, in the
// lanes after them), and how many they are.
type compactTables struct {
	shuf [256][8]byte // at offset 0, for the kernel
	n    [256]uint8   // at offset 2048
}

var compactTab = func() (t compactTables) {
	for m := range 256 {
		w := 0
		for i := range 8 {
			if m>>i&1 != 0 {
				t.shuf[m][w] = byte(i)
				w++
			}
		}
		for i := w; i < 8; i++ {
			t.shuf[m][i] = 0x80
		}
		t.n[m] = uint8(w)
	}
	return t
}()

// compactShuffleGeneric writes the bytes of b that keep flags to out, in
// order, and returns how many it wrote: each 8-byte chunk's kept bytes moved
// to its front by the table and written as one word, so up to 7 bytes past
// them are zeros (which the next chunk or block overwrites). out has room for
// 64 bytes. It is the twin of the AVX2 kernel (PSHUFB), fuzzed against it.
func compactShuffleGeneric(out []byte, b *[64]byte, keep uint64) int {
	_ = out[63]
	w := 0
	for c := 0; c < 64; c += 8 {
		m := byte(keep >> c)
		var chunk [8]byte
		for i, k := range compactTab.shuf[m] {
			if k < 8 {
				chunk[i] = b[c+int(k)]
			}
		}
		// The last chunk's word ends at out[64] at most: w <= 56 here.
		binary.LittleEndian.PutUint64(out[w:w+8], binary.LittleEndian.Uint64(chunk[:]))
		w += int(compactTab.n[m])
	}
	return w
}
