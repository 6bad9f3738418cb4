//go:build !race

package stream

import (
	"io"
	"testing"

	"github.com/jsonmask/jsonmask/compile"
)

// TestAllocs gates the machine (STYLE habit 6): once a Machine or Stream has
// masked a workload, masking it again allocates nothing, in memory into a dst
// with room and streaming into io.Discard.
func TestAllocs(t *testing.T) {
	eachWorkload(t, func(t *testing.T, doc []byte, prog *compile.Program, cfg Config) {
		var m Machine
		dst := make([]byte, 0, len(doc))
		appendOnce := func() {
			m.Reset(prog, cfg)
			if _, err := m.Append(dst[:0], doc); err != nil {
				t.Fatal(err)
			}
		}
		var s Stream
		r := &rewindReader{data: doc}
		copyOnce := func() {
			s.Reset(prog, cfg, 32<<10)
			r.pos = 0
			if _, err := s.Copy(io.Discard, r); err != nil {
				t.Fatal(err)
			}
		}
		appendOnce()
		copyOnce()
		if n := testing.AllocsPerRun(5, appendOnce); n != 0 {
			t.Errorf("Append: %v allocations", n)
		}
		if n := testing.AllocsPerRun(5, copyOnce); n != 0 {
			t.Errorf("Copy: %v allocations", n)
		}
	})
}
