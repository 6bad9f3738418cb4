package stream

import (
	"runtime"
	"testing"

	"github.com/jsonmask/jsonmask/compile"
)

// BenchmarkWindows measures Machine.Write fed slices of the document itself
// (no Read, no copy): the whole document in one window, windows of 256, 32
// and 8 KiB cut at any byte, and windows of 32, 24 and 16 KiB cut as Copy
// cuts a full Read (cut). Against BenchmarkAppend, what the windows' boundaries cost
// apart from the copy, and how much a cut after a comma saves. Beside
// wall time it reports the thread's CPU time (cpu-ns/op) where the system
// gives it.
func BenchmarkWindows(b *testing.B) {
	eachWorkload(b, func(b *testing.B, doc []byte, prog *compile.Program, cfg Config) {
		for _, c := range []struct {
			name  string
			size  int
			comma bool
		}{
			{"whole", len(doc), false},
			{"256KiB", 256 << 10, false},
			{"32KiB", 32 << 10, false},
			{"32KiB-cut", 32 << 10, true},
			{"24KiB-cut", 24 << 10, true},
			{"16KiB-cut", 16 << 10, true},
			{"8KiB", 8 << 10, false},
		} {
			b.Run("window="+c.name, func(b *testing.B) {
				var m Machine
				dst := make([]byte, 0, len(doc))
				b.SetBytes(int64(len(doc)))
				runtime.LockOSThread()
				defer runtime.UnlockOSThread()
				start := threadCPU()
				for b.Loop() {
					m.Reset(prog, cfg)
					dst = dst[:0]
					for p := doc; len(p) > 0; {
						w := p[:min(len(p), c.size)]
						if c.comma && len(p) > len(w) {
							w = w[:cut(w, holdMax)]
						}
						out, n, err := m.Write(dst, w)
						if err != nil {
							b.Fatal(err)
						}
						dst, p = out, p[n:]
					}
					for done := false; !done; {
						var err error
						if dst, done, err = m.Close(dst); err != nil {
							b.Fatal(err)
						}
					}
				}
				if cpu := threadCPU() - start; start > 0 && cpu > 0 {
					b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
				}
			})
		}
	})
}
