package toolresult

import (
	"testing"

	"github.com/jsonmask/jsonmask/corpus"
	"github.com/jsonmask/jsonmask/schema"
)

// BenchmarkSample is the variable route's pass over the data without the
// store: schema inference with the sampler as its observer (the preview's
// sample and the hints), over conversation_items.json in 32 KiB windows, at
// the default budget, whose caps the file passes.
func BenchmarkSample(b *testing.B) {
	doc := corpus.File(b, "conversation_items.json")
	b.SetBytes(int64(len(doc)))
	b.ReportAllocs()
	for b.Loop() {
		var in schema.Inferrer
		in.SetObserver(newSampler(DefaultBudget))
		for i := 0; i < len(doc); i += 32 << 10 {
			if _, err := in.Write(doc[i:min(i+32<<10, len(doc))]); err != nil {
				b.Fatal(err)
			}
		}
		if err := in.End(); err != nil {
			b.Fatal(err)
		}
	}
}
