//go:build !race

package schema_test

import (
	"testing"

	"github.com/jsonmask/jsonmask/corpus"
	"github.com/jsonmask/jsonmask/schema"
)

// TestInferAllocs gates inference in steady state (STYLE habit 6): once an
// Inferrer has read a document, reading it again, a window at a time,
// allocates nothing: keys are found without a string per key, strings are
// unescaped and their formats checked in the Inferrer's own buffers (no
// time.Parse or url.Parse for the common dates and URLs), and places are
// allocated only when first seen. With and without an observer.
func TestInferAllocs(t *testing.T) {
	for _, name := range benchDocs {
		doc := corpus.File(t, name+".json")
		for _, obs := range []string{"none", "nop"} {
			t.Run("doc="+name+"/obs="+obs, func(t *testing.T) {
				var in schema.Inferrer
				if obs == "nop" {
					in.SetObserver(nopObserver{})
				}
				inferWindows(t, &in, doc)
				if n := testing.AllocsPerRun(3, func() { inferWindows(t, &in, doc) }); n != 0 {
					t.Errorf("%v allocations per document", n)
				}
			})
		}
	}
}
