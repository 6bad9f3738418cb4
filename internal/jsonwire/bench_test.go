package jsonwire

import (
	"strings"
	"testing"
)

// benchStrings are the shapes a string takes in the benchmarks: plain ASCII,
// CJK, text with escapes and HTML, and JSON text (a '"' every few bytes, as
// a tool's text holds it).
var benchStrings = []struct{ name, s string }{
	{"ascii", strings.Repeat("The quick brown fox jumps over the lazy dog. ", 8)},
	{"cjk", strings.Repeat("日本語のテキストです。", 12)},
	{"escapes", strings.Repeat("line \"one\"\n<b>two</b> & \\three\t", 8)},
	{"json", strings.Repeat(`{"id":12345,"name":"n1","tags":["a","b"]},`, 8)},
}

// BenchmarkQuote: both dialects over each shape.
func BenchmarkQuote(b *testing.B) {
	for _, impl := range []struct {
		name  string
		quote func([]byte, string) []byte
	}{{"marshal", AppendMarshalString}, {"house", AppendQuote}} {
		for _, c := range benchStrings {
			b.Run("impl="+impl.name+"/shape="+c.name, func(b *testing.B) {
				dst := make([]byte, 0, 4*len(c.s))
				b.SetBytes(int64(len(c.s)))
				b.ReportAllocs()
				for b.Loop() {
					dst = impl.quote(dst[:0], c.s)
				}
			})
		}
	}
}

// BenchmarkPointerToken compares EscapePointerToken with what compile did
// before (a strings.Replacer built per call) and fallback did (one
// Replacer, shared).
func BenchmarkPointerToken(b *testing.B) {
	shared := strings.NewReplacer("~", "~0", "/", "~1")
	for _, tok := range []struct{ name, s string }{{"plain", "customer_email"}, {"escaped", "paths/~user/a/b"}} {
		b.Run("impl=jsonwire/tok="+tok.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_ = EscapePointerToken(tok.s)
			}
		})
		b.Run("impl=replacer-per-call/tok="+tok.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if strings.ContainsAny(tok.s, "~/") {
					_ = strings.NewReplacer("~", "~0", "/", "~1").Replace(tok.s)
				}
			}
		})
		b.Run("impl=replacer-shared/tok="+tok.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_ = shared.Replace(tok.s)
			}
		})
	}
}
