package tokenizer

import (
	"strings"
	"testing"
)

// checkPlainRun compares plainRun's kernel with its twin, plainRunGo, and
// both with a byte loop, from every index of src.
func checkPlainRun(t *testing.T, src []byte) {
	t.Helper()
	if len(src) < 32 {
		return
	}
	for i := 0; i <= len(src); i++ {
		want := i
		for want < len(src) && !stopByte(src[want]) {
			want++
		}
		if got := plainRunGo(src, i); got != want {
			t.Fatalf("plainRunGo(%q, %d) = %d, want %d", src, i, got, want)
		}
		if plainKernel() {
			if got := plainRunAVX2(src, i); got != want {
				t.Fatalf("plainRunAVX2(%q, %d) = %d, want %d", src, i, got, want)
			}
		}
	}
}

// plainRunCases: a stop of each kind at each place of a 32-byte block and of
// the last, partial one, and none.
func plainRunCases() [][]byte {
	var cases [][]byte
	for _, n := range []int{32, 33, 40, 63, 64, 65, 95, 96, 100, 131} {
		base := strings.Repeat("abcdefghijklmnopqrstuvwxyz0123456789 /:.-_~", 4)[:n]
		cases = append(cases, []byte(base))
		for _, stop := range []byte{'"', '\\', 0, 0x1f, 0x7f, 0x80, 0xc3, 0xff, ' ' - 1} {
			for at := 0; at < n; at += 1 + at/7 {
				b := []byte(base)
				b[at] = stop
				cases = append(cases, b)
			}
		}
	}
	return cases
}

func TestPlainRun(t *testing.T) {
	eachKernelSet(t, func(t *testing.T) {
		for _, c := range plainRunCases() {
			checkPlainRun(t, c)
		}
	})
}

func FuzzPlainRun(f *testing.F) {
	for _, c := range plainRunCases()[:40] {
		f.Add(c)
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		checkPlainRun(t, src)
	})
}
