package studio

import (
	"bytes"
	"testing"

	"github.com/jsonmask/jsonmask/corpus"
)

// tenMB is a sample of about 10 MB: the conversation items' data, five
// times over.
func tenMB(b *testing.B) []byte {
	doc := corpus.File(b, "conversation_items.json")
	start := bytes.Index(doc, []byte(`"data":[`)) + len(`"data":[`)
	end := bytes.LastIndex(doc, []byte(`],"has_more"`))
	if start < len(`"data":[`) || end < 0 {
		b.Fatal("the corpus's conversation items changed shape")
	}
	items := doc[start:end]
	var out []byte
	out = append(out, doc[:start]...)
	for i := range 5 {
		if i > 0 {
			out = append(out, ',')
		}
		out = append(out, items...)
	}
	return append(out, doc[end:]...)
}

// BenchmarkFirstView is what a 10 MB sample costs from the command's start
// to the page's first view (SPEC section 13, the issue: within 2 s): New
// reads the sample's paths, and the first view masks it, explains it, and
// lists the root's children, before any token is counted.
func BenchmarkFirstView(b *testing.B) {
	doc := tenMB(b)
	b.SetBytes(int64(len(doc)))
	for b.Loop() {
		s, err := New(Config{Samples: []Sample{{"10mb.json", doc}}})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := s.view(&viewRequest{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkTokensView is the view that follows the first: the tokens in
// and out and those of the root's children, counted for the first time.
func BenchmarkTokensView(b *testing.B) {
	doc := tenMB(b)
	b.SetBytes(int64(len(doc)))
	for b.Loop() {
		s, err := New(Config{Samples: []Sample{{"10mb.json", doc}}})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := s.view(&viewRequest{Tokens: true}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkClick is a click on a 10 MB sample once its paths' tokens are
// counted: the edit, Append, Explain, Paths and the tokens out.
func BenchmarkClick(b *testing.B) {
	doc := tenMB(b)
	s, err := New(Config{Samples: []Sample{{"10mb.json", doc}}})
	if err != nil {
		b.Fatal(err)
	}
	if _, err := s.view(&viewRequest{Tokens: true}); err != nil {
		b.Fatal(err)
	}
	req := &viewRequest{Mask: []byte(`{"object":true}`)}
	req.Edit = &struct {
		Path   string `json:"path"`
		Action string `json:"action"`
	}{"/data/*/id", actKeep}
	b.SetBytes(int64(len(doc)))
	for b.Loop() {
		if _, err := s.view(req); err != nil {
			b.Fatal(err)
		}
	}
}
