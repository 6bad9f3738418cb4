package stream

import (
	"io"
	"testing"

	"github.com/jsonmask/jsonmask/compile"
	"github.com/jsonmask/jsonmask/corpus"
)

// workloadRunner is a *testing.T or a *testing.B.
type workloadRunner[T testing.TB] interface {
	testing.TB
	Run(name string, f func(T)) bool
}

// eachWorkload runs f once per workload of the bench module's corpus and
// mode, as workload=<name>/mode=default|trusted, with its document, program
// and configuration.
func eachWorkload[T workloadRunner[T]](tb T, f func(tb T, doc []byte, prog *compile.Program, cfg Config)) {
	for _, w := range corpus.Workloads(tb) {
		doc := corpus.File(tb, w.File)
		prog, err := compile.Compile(w.Mask, compile.Options{})
		if err != nil {
			tb.Fatal(err)
		}
		cfg := Config{Arrays: w.Options.Arrays, NDJSON: w.Options.NDJSON}
		tb.Run("workload="+w.SubName(), func(tb T) {
			for _, trusted := range []bool{false, true} {
				cfg.Trusted = trusted
				name := "mode=default"
				if trusted {
					name = "mode=trusted"
				}
				tb.Run(name, func(tb T) { f(tb, doc, prog, cfg) })
			}
		})
	}
}

// BenchmarkAppend measures Machine.Append over the bench module's workloads:
// the in-memory path, with a reused Machine and output buffer.
func BenchmarkAppend(b *testing.B) {
	eachWorkload(b, func(b *testing.B, doc []byte, prog *compile.Program, cfg Config) {
		var m Machine
		dst := make([]byte, 0, len(doc))
		b.SetBytes(int64(len(doc)))
		b.ReportAllocs()
		for b.Loop() {
			m.Reset(prog, cfg)
			var err error
			if dst, err = m.Append(dst[:0], doc); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkCopy measures Stream.Copy over the bench module's workloads,
// through windows of 32 KiB, into io.Discard.
func BenchmarkCopy(b *testing.B) {
	eachWorkload(b, func(b *testing.B, doc []byte, prog *compile.Program, cfg Config) {
		var s Stream
		r := &rewindReader{data: doc}
		b.SetBytes(int64(len(doc)))
		b.ReportAllocs()
		for b.Loop() {
			s.Reset(prog, cfg, 32<<10)
			r.pos = 0
			if _, err := s.Copy(io.Discard, r); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkWrite measures Machine.Write over the bench module's workloads,
// fed 32 KiB slices of the document itself: the windows of BenchmarkCopy
// without the Read's copy into the window. Against BenchmarkAppend it gives
// the cost of the windows' boundaries alone; against BenchmarkCopy, the
// cost of the copy (bench/REPORT.md, round 7, streaming against in-memory).
func BenchmarkWrite(b *testing.B) {
	eachWorkload(b, func(b *testing.B, doc []byte, prog *compile.Program, cfg Config) {
		var m Machine
		dst := make([]byte, 0, 64<<10)
		b.SetBytes(int64(len(doc)))
		b.ReportAllocs()
		for b.Loop() {
			m.Reset(prog, cfg)
			for p := doc; len(p) > 0; {
				out, n, err := m.Write(dst[:0], p[:min(len(p), 32<<10)])
				if err != nil {
					b.Fatal(err)
				}
				dst, p = out, p[n:]
			}
			for done := false; !done; {
				var err error
				if dst, done, err = m.Close(dst[:0]); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
}

// rewindReader yields data, at most chunk bytes a Read when chunk is not 0,
// and can be rewound without allocating.
type rewindReader struct {
	data  []byte
	pos   int
	chunk int
}

func (r *rewindReader) Read(p []byte) (int, error) {
	if r.pos == len(r.data) {
		return 0, io.EOF
	}
	if r.chunk > 0 {
		p = p[:min(len(p), r.chunk)]
	}
	n := copy(p, r.data[r.pos:])
	r.pos += n
	return n, nil
}
