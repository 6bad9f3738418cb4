package jsonmask_test

import (
	"runtime"
	"strings"
	"testing"

	"github.com/jsonmask/jsonmask"
)

// TestMemoryPerLevel measures what a document's nesting costs while it is
// being masked, as the package doc states it: a bit per level inside values
// dropped or kept whole, and 32 bytes (64 with the slack of a growing stack)
// per level that the mask recurses into. The heap is measured while a Writer
// is 5000 levels deep.
func TestMemoryPerLevel(t *testing.T) {
	const depth = 5000
	nested := strings.Repeat(`{"a":`, depth) + "true" + strings.Repeat("}", depth)
	for _, c := range []struct {
		name, mask string
		perLevel   int64
	}{
		{"Masked", nested, 64},
		{"Dropped", `{"b":true}`, 1},
		{"Kept", `{"a":true}`, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := jsonmask.MustCompile(c.mask, jsonmask.WithMaxDepth(2*depth))
			var out countingWriter
			w := m.NewWriter(&out)
			// The first level allocates what any document needs (what the
			// tokenizer remembers of layouts): not counted.
			if _, err := w.Write([]byte(`{"a":`)); err != nil {
				t.Fatal(err)
			}
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			if _, err := w.Write([]byte(strings.Repeat(`{"a":`, depth-1))); err != nil {
				t.Fatal(err)
			}
			runtime.GC()
			runtime.ReadMemStats(&after)
			held := int64(after.HeapAlloc) - int64(before.HeapAlloc)
			t.Logf("%d levels held %d bytes: %.1f a level", depth, held, float64(held)/depth)
			if held > c.perLevel*depth+4096 {
				t.Errorf("%d levels held %d bytes, more than %d a level", depth, held, c.perLevel)
			}
			if _, err := w.Write([]byte("1" + strings.Repeat("}", depth))); err != nil {
				t.Fatal(err)
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestMemoryPerLevelAllocated measures the rest of what the package doc
// states of nesting: a mask nested 5000 deep takes about 150 bytes a level,
// and a call that first goes that deep allocates about 160 bytes a level as
// its stack grows.
func TestMemoryPerLevelAllocated(t *testing.T) {
	const depth = 5000
	mask := strings.Repeat(`{"a":`, depth) + "true" + strings.Repeat("}", depth)
	doc := []byte(strings.Repeat(`{"a":`, depth) + "1" + strings.Repeat("}", depth))
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	m := jsonmask.MustCompile(mask)
	runtime.GC()
	runtime.ReadMemStats(&after)
	program := int64(after.HeapAlloc) - int64(before.HeapAlloc)
	dst := make([]byte, 0, len(doc))
	runtime.ReadMemStats(&before)
	if _, err := m.Append(dst, doc); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	call := int64(after.TotalAlloc - before.TotalAlloc)
	t.Logf("per level: the compiled mask holds %.1f bytes, the first call allocates %.1f", float64(program)/depth, float64(call)/depth)
	if program > 256*depth || call > 256*depth {
		t.Errorf("per level: the compiled mask holds %d bytes, the first call allocates %d; the doc says about 150 and 160", program/depth, call/depth)
	}
	runtime.KeepAlive(m)
}
