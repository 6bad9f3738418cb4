package jsonmask_test

import (
	"testing"

	"github.com/jsonmask/jsonmask"
)

// TestCompileByteOrderMark: a mask file saved with a UTF-8 byte-order mark
// compiles and masks as without it (SPEC M8).
func TestCompileByteOrderMark(t *testing.T) {
	m, err := jsonmask.Compile([]byte("\xEF\xBB\xBF{\"id\":true}"))
	if err != nil {
		t.Fatal(err)
	}
	out, err := m.Append(nil, []byte(`{"id":1,"secret":"CANARY"}`))
	if err != nil || string(out) != `{"id":1}` {
		t.Fatalf("Append = %q, %v; want {\"id\":1}", out, err)
	}
}

// TestLoneSurrogateKeys pins SPEC M5's rule for escaped lone surrogates: one
// decodes to the three bytes of its code point on both sides, so "\ud800"
// matches "\uD800" and nothing else: not a surrogate pair, not U+FFFD, not
// the same text unescaped.
func TestLoneSurrogateKeys(t *testing.T) {
	for _, c := range []struct {
		name, mask, in, want string
	}{
		{"SameCase", `{"\ud800":true}`, `{"\ud800":1,"x":"CANARY"}`, `{"\ud800":1}`},
		{"OtherCase", `{"\ud800":true}`, `{"\uD800":1}`, `{"\uD800":1}`},
		{"NotAPair", `{"\ud800":true}`, `{"\ud800\udc00":"CANARY"}`, `{}`},
		{"NotReplacement", `{"\ud800":true}`, `{"\ufffd":"CANARY","` + "\uFFFD" + `":"CANARY"}`, `{}`},
		{"NotLiteralText", `{"\ud800":true}`, `{"\\ud800":"CANARY"}`, `{}`},
		{"LowAlone", `{"\udc00":true}`, `{"\uDC00":1,"\ud800":"CANARY"}`, `{"\uDC00":1}`},
		{"PairMatchesRaw", `{"\ud800\udc00":true}`, `{"` + "\U00010000" + `":1,"\ud800":"CANARY"}`, `{"` + "\U00010000" + `":1}`},
		{"ReversedPairIsTwoLones", `{"\udc00\ud800":true}`, `{"\uDC00\uD800":1,"` + "\U00010000" + `":"CANARY"}`, `{"\uDC00\uD800":1}`},
		{"LoneThenText", `{"\ud800a":{"b":true}}`, `{"\ud800\u0061":{"b":1,"c":"CANARY"}}`, `{"\ud800\u0061":{"b":1}}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := jsonmask.MustCompile(c.mask)
			for _, mode := range maskModes {
				out, err := mode.mask(m, []byte(c.in))
				if err != nil || string(out) != c.want {
					t.Errorf("%s: %q, %v; want %q", mode.name, out, err, c.want)
				}
			}
		})
	}
}
