package stream

import (
	"bytes"
	"testing"
)

// checkNewline compares hasNewline on p with its twin.
func checkNewline(t *testing.T, p []byte) {
	t.Helper()
	if got, want := hasNewline(p), newlineGo(p); got != want {
		t.Fatalf("hasNewline(%d bytes, '\\n' at %d) = %v, want %v", len(p), bytes.IndexByte(p, '\n'), got, want)
	}
}

// TestNewline puts a '\n' at every place of slices of 0 to 520 bytes, and
// none, with '\n' just outside them on both sides, which must not count.
func TestNewline(t *testing.T) {
	t.Logf("AVX2 kernel: %v", useAVX2)
	buf := bytes.Repeat([]byte{'\n'}, 600)
	for n := range 521 {
		p := buf[40 : 40+n]
		for i := range p {
			p[i] = 'a' + byte(i%26)
		}
		checkNewline(t, p)
		for k := range p {
			p[k] = '\n'
			checkNewline(t, p)
			p[k] = '\n' + 1 + byte(k%3) // near misses: 0x0b to 0x0d
			checkNewline(t, p)
		}
		for i := range p {
			p[i] = '\n'
		}
	}
}

// FuzzNewline compares hasNewline with its twin on any bytes, at any
// offset in memory.
func FuzzNewline(f *testing.F) {
	f.Add(bytes.Repeat([]byte("x"), 300), uint8(0))
	f.Add(append(bytes.Repeat([]byte("y"), 250), '\n'), uint8(3))
	f.Fuzz(func(t *testing.T, p []byte, skip uint8) {
		checkNewline(t, p[min(int(skip), len(p)):])
	})
}
