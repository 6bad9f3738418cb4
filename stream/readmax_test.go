package stream

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"testing"

	"github.com/jsonmask/jsonmask/compile"
)

// largestReader is a fullReader that records the largest buffer it was
// given.
type largestReader struct {
	fullReader
	largest int
}

func (r *largestReader) Read(p []byte) (int, error) {
	r.largest = max(r.largest, len(p))
	return r.fullReader.Read(p)
}

// TestReadMax masks the bench module's workloads through Copy, a Reader and
// its WriteTo, with windows around and above readMax, from a source that
// fills every buffer: each way gives Append's output, no Read is given more
// than min(window, readMax) bytes, and the Stream's input buffer holds no
// more than that and the room for the bytes held.
func TestReadMax(t *testing.T) {
	eachWorkload(t, func(t *testing.T, doc []byte, prog *compile.Program, cfg Config) {
		var m Machine
		m.Reset(prog, cfg)
		want := dropResult(m.Append(nil, doc))
		for _, size := range []int{readMax - 1, readMax, readMax + 1, 32 << 10, 1 << 20} {
			for _, d := range holdDoors {
				r := &largestReader{fullReader: fullReader{data: doc, end: io.EOF}}
				s := Get(prog, cfg, size)
				if n := cap(s.in); n > holdMax+readMax {
					t.Fatalf("window %d: an input buffer of %d bytes", size, n)
				}
				if got := holdResult(d.run(s, r)); got != want {
					t.Fatalf("%s, window %d: got\n%.300s\nwant\n%.300s", d.name, size, got, want)
				}
				if r.largest > min(size, readMax) {
					t.Fatalf("%s, window %d: a Read of %d bytes", d.name, size, r.largest)
				}
			}
		}
	})
}

// lastStopBytes is lastStop a byte at a time.
func lastStopBytes(p []byte) int {
	for i := len(p) - 1; i >= 0; i-- {
		if p[i] == ',' || p[i] == '\n' {
			return i
		}
	}
	return -1
}

// TestLastStop compares lastStop with a byte loop on every length to 40 and
// every place of a comma and a newline in it, among bytes that differ from
// ',' (0x2C) and '\n' (0x0A) by one bit, high bits included, and on random
// bytes.
func TestLastStop(t *testing.T) {
	near := []byte{0x2D, 0x2E, 0x28, 0x24, 0x3C, 0x0C, 0xAC, 0x8A, 0x0B, 0x08, 0x1A, 0x00, 0xFF, 0x7F, 0x80}
	for n := 0; n <= 40; n++ {
		p := make([]byte, n)
		for k := range p {
			p[k] = near[k%len(near)]
		}
		for c := -1; c < n; c++ {
			for l := -1; l < n; l++ {
				q := bytes.Clone(p)
				if c >= 0 {
					q[c] = ','
				}
				if l >= 0 {
					q[l] = '\n'
				}
				if got, want := lastStop(q), lastStopBytes(q); got != want {
					t.Fatalf("%q: %d, want %d", q, got, want)
				}
			}
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		p := make([]byte, rng.IntN(600))
		for k := range p {
			p[k] = byte(rng.IntN(256))
			if rng.IntN(40) == 0 {
				p[k] = ",\n"[rng.IntN(2)]
			}
		}
		if got, want := lastStop(p), lastStopBytes(p); got != want {
			t.Fatalf("%s: %d, want %d", fmt.Sprintf("%q", p), got, want)
		}
	}
}

// FuzzLastStop compares lastStop with a byte loop.
func FuzzLastStop(f *testing.F) {
	f.Add([]byte(`{"a": 1, "b": [2, 3]}` + "\n"))
	f.Fuzz(func(t *testing.T, p []byte) {
		if got, want := lastStop(p), lastStopBytes(p); got != want {
			t.Fatalf("%q: %d, want %d", p, got, want)
		}
	})
}
