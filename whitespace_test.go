package jsonmask_test

import (
	"runtime"
	"strings"
	"testing"

	"github.com/jsonmask/jsonmask"
)

// TestLeadMemory: whitespace before a body is kept until the body is
// classified, in at most one byte of memory per byte whatever its pattern
// (SPEC B1). Alternating space and tab used to take about 4 bytes per byte.
// The heap is measured while a Writer holds 8 MiB of such a lead.
func TestLeadMemory(t *testing.T) {
	const n = 8 << 20
	for _, c := range []struct{ name, unit string }{
		{"SpaceTab", " \t"},
		{"RunThenTwo", "        \t\n"},
		{"Indented", "\n" + strings.Repeat(" ", 40)},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := jsonmask.MustCompile(`{"a":true}`)
			chunk := []byte(strings.Repeat(c.unit, 4096/len(c.unit)))
			var out countingWriter
			w := m.NewWriter(&out)
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			written := 0
			for written+len(chunk) <= n {
				if _, err := w.Write(chunk); err != nil {
					t.Fatal(err)
				}
				written += len(chunk)
			}
			runtime.GC()
			runtime.ReadMemStats(&after)
			// SPEC B1 allows a byte per byte; the encoding takes at most half
			// a byte per byte, so with a slice's slack under three quarters.
			if held := int64(after.HeapAlloc) - int64(before.HeapAlloc); held > int64(written)*3/4 {
				t.Errorf("%d bytes of lead held %d bytes of heap", written, held)
			} else {
				t.Logf("%d bytes of lead held %d bytes of heap", written, held)
			}
			if _, err := w.Write([]byte("text")); err != nil { // not an object: passes through
				t.Fatal(err)
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			if out.n != int64(written)+4 {
				t.Errorf("passed %d bytes through, want %d", out.n, written+4)
			}
		})
	}
}
