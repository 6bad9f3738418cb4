package stream

import (
	"io"
	"runtime"
	"testing"

	"github.com/jsonmask/jsonmask/compile"
)

// BenchmarkRatio times Machine.Append and Stream.Copy (32 KiB windows, from
// a rewindReader that yields 32 KiB a Read, as the bench module's reader
// does, into io.Discard) in turns, four documents each, on the
// thread's CPU clock, and reports streamed / in-memory speed (ratio: figure
// 5a of issue 25) and each one's CPU time a document. In one benchmark, the
// two share the machine's load, which drifts between the bench module's
// separate runs of its two impls.
func BenchmarkRatio(b *testing.B) {
	eachWorkload(b, func(b *testing.B, doc []byte, prog *compile.Program, cfg Config) {
		var (
			m      Machine
			s      Stream
			r      = &rewindReader{data: doc, chunk: 32 << 10}
			dst    = make([]byte, 0, len(doc)+len(doc)/8)
			tm, ts int64
		)
		const k = 4
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		for b.Loop() {
			t0 := threadCPU()
			for range k {
				m.Reset(prog, cfg)
				var err error
				if dst, err = m.Append(dst[:0], doc); err != nil {
					b.Fatal(err)
				}
			}
			t1 := threadCPU()
			for range k {
				s.Reset(prog, cfg, 32<<10)
				r.pos = 0
				if _, err := s.Copy(io.Discard, r); err != nil {
					b.Fatal(err)
				}
			}
			t2 := threadCPU()
			tm += int64(t1 - t0)
			ts += int64(t2 - t1)
		}
		if tm > 0 && ts > 0 {
			b.ReportMetric(float64(tm)/float64(ts), "ratio")
			b.ReportMetric(float64(tm)/float64(b.N*k), "mem-cpu-ns/doc")
			b.ReportMetric(float64(ts)/float64(b.N*k), "stream-cpu-ns/doc")
		}
	})
}
