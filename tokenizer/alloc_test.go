//go:build !race

package tokenizer

import (
	"testing"

	"github.com/jsonmask/jsonmask/corpus"
)

// TestAllocs gates the scans (STYLE habit 6): once a Scanner has read a
// document, reading it again allocates nothing, whether it skips, appends
// to a dst with room, scans trusted, or reads members, under every kernel
// set.
func TestAllocs(t *testing.T) {
	doc := corpus.File(t, "twitter.json")
	dst := make([]byte, 0, len(doc))
	scans := []struct {
		name string
		scan func(s *Scanner, i int) error
	}{
		{"SkipValue", func(s *Scanner, i int) error { _, _, err := s.SkipValue(doc, i); return err }},
		{"AppendValue", func(s *Scanner, i int) error { _, _, _, err := s.AppendValue(dst[:0], doc, i); return err }},
		{"SkipTrusted", func(s *Scanner, i int) error { _, _, err := s.SkipTrusted(doc, i); return err }},
		{"AppendTrusted", func(s *Scanner, i int) error { _, _, _, err := s.AppendTrusted(dst[:0], doc, i); return err }},
		{"Members", func(s *Scanner, _ int) error { return walkMembers(s, doc) }},
	}
	eachKernelSet(t, func(t *testing.T) {
		for _, sc := range scans {
			t.Run(sc.name, func(t *testing.T) {
				var s Scanner
				run := func() {
					s.Reset(0)
					_, i, err := s.Peek(doc, 0)
					if err == nil {
						err = sc.scan(&s, i)
					}
					if err != nil {
						t.Fatal(err)
					}
				}
				run()
				if n := testing.AllocsPerRun(10, run); n != 0 {
					t.Errorf("%v allocations a scan", n)
				}
			})
		}
	})
}
