package jsonmask_test

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jsonmask/jsonmask"
)

// workload is an entry of bench/testdata/workloads.json: a corpus file and a
// mask. The peers' benchmarks are in the bench module; these measure
// jsonmask alone, for quick profiling: go test -bench . -cpuprofile cpu.out
type workload struct {
	Name    string          `json:"name"`
	File    string          `json:"file"`
	Mask    json.RawMessage `json:"mask"`
	Options caseOptions     `json:"options"`
}

func loadWorkloads(b *testing.B) []workload {
	data, err := os.ReadFile("bench/testdata/workloads.json")
	if err != nil {
		b.Skip("no bench/testdata:", err)
	}
	var ws []workload
	if err := json.Unmarshal(data, &ws); err != nil {
		b.Fatal(err)
	}
	return ws
}

func BenchmarkMask(b *testing.B) {
	for _, w := range loadWorkloads(b) {
		doc, err := os.ReadFile(filepath.Join("bench/testdata", w.File))
		if err != nil {
			b.Fatal(err)
		}
		name := "workload=" + strings.ReplaceAll(w.Name, "/", "-")
		for _, impl := range []struct {
			name string
			opts []jsonmask.Option
		}{{"jsonmask", nil}, {"jsonmask-trusted", []jsonmask.Option{jsonmask.WithTrustedInput(true)}}} {
			m, err := jsonmask.Compile(w.Mask, append(w.Options.list(), impl.opts...)...)
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
		m, _ := jsonmask.Compile(w.Mask, w.Options.list()...)
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
	data, err := os.ReadFile("bench/testdata/conversation_items.ndjson")
	if err != nil {
		b.Skip("no bench/testdata:", err)
	}
	doc, _, _ := strings.Cut(string(data), "\n")
	var mask json.RawMessage
	for _, w := range loadWorkloads(b) {
		if w.File == "conversation_items.ndjson" {
			mask = w.Mask
		}
	}
	m, err := jsonmask.Compile(mask)
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
