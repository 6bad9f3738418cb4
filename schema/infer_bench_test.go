package schema_test

import (
	"testing"

	"github.com/jsonmask/jsonmask/corpus"
	"github.com/jsonmask/jsonmask/schema"
)

// benchDocs are the corpus documents (package corpus) that BenchmarkInfer
// reads: small objects with many numbers (conversation_items), text
// (twitter), escapes, numbers (canada), pretty-printing (mesh.pretty).
var benchDocs = []string{"conversation_items", "flow_document", "twitter", "twitterescaped", "citm_catalog", "canada", "github_events", "mesh.pretty"}

// benchWindow is the size of the windows an Inferrer is given, as
// toolresult reads a body.
const benchWindow = 32 << 10

// BenchmarkInfer infers the schema of each corpus document, given in
// windows as toolresult gives them, with one Inferrer per document as
// toolresult uses one per response; with an observer that does nothing
// (obs=nop), the cost of feeding one.
func BenchmarkInfer(b *testing.B) {
	for _, name := range benchDocs {
		doc := corpus.File(b, name+".json")
		for _, obs := range []string{"none", "nop"} {
			b.Run("doc="+name+"/obs="+obs, func(b *testing.B) {
				b.SetBytes(int64(len(doc)))
				b.ReportAllocs()
				for b.Loop() {
					var in schema.Inferrer
					if obs == "nop" {
						in.SetObserver(nopObserver{})
					}
					inferWindows(b, &in, doc)
				}
			})
		}
	}
}

// inferWindows writes doc to in in windows of benchWindow bytes, and ends it.
func inferWindows(tb testing.TB, in *schema.Inferrer, doc []byte) {
	for i := 0; i < len(doc); i += benchWindow {
		if _, err := in.Write(doc[i:min(i+benchWindow, len(doc))]); err != nil {
			tb.Fatal(err)
		}
	}
	if err := in.End(); err != nil {
		tb.Fatal(err)
	}
}

// nopObserver sees the tokens and does nothing with them.
type nopObserver struct{}

func (nopObserver) Begin(schema.Kind)       {}
func (nopObserver) Key(_, _ []byte, _ bool) {}
func (nopObserver) Piece(_ []byte, _ bool)  {}
func (nopObserver) End(schema.Kind)         {}

// BenchmarkRender writes the schema of each corpus document as JSON Schema
// and in the compact form, as toolresult writes a variable's schema: the
// quoting of keys and enum values, and the walk of the tree.
func BenchmarkRender(b *testing.B) {
	for _, name := range benchDocs {
		var in schema.Inferrer
		inferWindows(b, &in, corpus.File(b, name+".json"))
		s := in.Schema()
		b.Run("doc="+name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_ = s.JSON()
				_ = s.Compact(0)
			}
		})
	}
}
