//go:build !race

package jsonmask_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/jsonmask/jsonmask"
)

// TestWildcardAllocs gates the hot paths with wildcards (STYLE habit 6):
// Append into a dst with room and Copy in steady state allocate nothing,
// wildcard matches, escaped keys, long keys and errors' names included.
func TestWildcardAllocs(t *testing.T) {
	long := strings.Repeat("k", 500)
	doc := []byte(`{"id":1,"a":{"x":1,"y":"s"},"b\u0062":{"x":[1,2],"z":{}},"` + long + `":{"x":2},"c":[{"x":3},{"w":4}],"n":5}`)
	for _, fields := range []string{"*", "id,*/x", "*(x,*),c/w", "a/*,*/x"} {
		t.Run(fields, func(t *testing.T) {
			m := jsonmask.MustCompileFields(fields, jsonmask.WithBufferSize(64))
			dst := make([]byte, 0, 2*len(doc))
			if n := testing.AllocsPerRun(100, func() { dst, _ = m.Append(dst[:0], doc) }); n != 0 {
				t.Errorf("Append: %v allocations", n)
			}
			var out bytes.Buffer
			r := bytes.NewReader(doc)
			copyOnce := func() {
				out.Reset()
				r.Reset(doc)
				if _, err := m.Copy(&out, r); err != nil {
					t.Fatal(err)
				}
			}
			copyOnce()
			if n := testing.AllocsPerRun(100, copyOnce); n != 0 {
				t.Errorf("Copy: %v allocations", n)
			}
		})
	}
}
