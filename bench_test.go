package jsonmask_test

import (
	"io"
	"strings"
	"testing"

	"github.com/jsonmask/jsonmask"
	"github.com/jsonmask/jsonmask/corpus"
)

// The peers' benchmarks are in the bench module; these measure jsonmask
// alone, over the corpus' workloads, for quick profiling:
// go test -bench . -cpuprofile cpu.out

func BenchmarkMask(b *testing.B) {
	for _, w := range corpus.Workloads(b) {
		doc := corpus.File(b, w.File)
		name := "workload=" + w.SubName()
		opts := []jsonmask.Option{jsonmask.WithArrays(w.Options.Arrays), jsonmask.WithNDJSON(w.Options.NDJSON)}
		for _, impl := range []struct {
			name string
			opts []jsonmask.Option
		}{{"jsonmask", nil}, {"jsonmask-trusted", []jsonmask.Option{jsonmask.WithTrustedInput(true)}}} {
			m, err := jsonmask.Compile(w.Mask, append(opts, impl.opts...)...)
			if err != nil {
				b.Fatal(err)
			}
			dst, err := m.Append(nil, doc)
			if err != nil {
				b.Fatal(err)
			}
			b.Run(name+"/impl="+impl.name, func(b *testing.B) {
				b.SetBytes(int64(len(doc)))
				b.ReportAllocs()
				for b.Loop() {
					dst, _ = m.Append(dst[:0], doc)
				}
			})
		}
		m, _ := jsonmask.Compile(w.Mask, opts...)
		b.Run(name+"/impl=jsonmask-stream", func(b *testing.B) {
			r := &resettableReader{data: doc, size: 32 << 10}
			b.SetBytes(int64(len(doc)))
			b.ReportAllocs()
			for b.Loop() {
				r.pos = 0
				if _, err := m.Copy(io.Discard, r); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkSmall masks one short document per call, as a gateway masks a
// tool's response: the first line of conversation_items.ndjson (3.3 KB)
// with its workload's mask. What a call costs besides reading the bytes
// (taking a Machine from the pool, resetting it) weighs most here.
func BenchmarkSmall(b *testing.B) {
	w := corpus.Find(b, "conversation-items-ndjson/decision-fields")
	doc, _, _ := strings.Cut(string(corpus.File(b, w.File)), "\n")
	m, err := jsonmask.Compile(w.Mask)
	if err != nil {
		b.Fatal(err)
	}
	src := []byte(doc)
	dst, err := m.Append(nil, src)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		dst, _ = m.Append(dst[:0], src)
	}
}
