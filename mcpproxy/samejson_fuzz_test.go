package mcpproxy

import (
	"bytes"
	"testing"
	"time"
)

// sameJSONSeeds are pairs that differ in whitespace, escapes or a byte,
// texts cut inside a token, and numbers at the very end: the inputs on
// which sameJSON once asked its scanners for ever.
var sameJSONSeeds = [][2]string{
	{`{"a":[1,2]}`, "{ \"a\" : [ 1 , 2 ] }\n"},
	{`{"a":"é"}`, `{"a":"\u00e9"}`},
	{"\xEF\xBB\xBF{}", `{}`},
	{`{"a":1}`, `{"a":1.0}`},
	{`1`, ` 1`}, {`1`, `2`}, {`-1.5e3`, `-1.5e3 `}, {`12`, `1`},
	{`{ "ab`, `{"ab`}, {`{"a\`, `{ "a\`}, {`[1, tru`, `[1,tru`}, {`[1, 2`, `[1,2`},
	{`{`, `{`}, {`"ab`, ` "ab`}, {``, ` `},
}

// FuzzSameJSON: sameJSON answers on any two texts, whole or cut short, and
// says the same whichever comes first; a text's token hash (the streamed
// path's comparison, bigValues.same) is the same whole or in windows of any
// size after a first that holds a byte-order mark whole (longline's first
// window of a value is bigAt bytes), and two texts have the same hash
// exactly when sameJSON says they are the same JSON (the two paths judge a
// result alike: a number at the very end of a text used to leave its digits
// out of the hash, so that 1 and 2 had the same).
func FuzzSameJSON(f *testing.F) {
	for _, s := range sameJSONSeeds {
		f.Add([]byte(s[0]), []byte(s[1]), uint8(1))
		f.Add([]byte(s[0]), []byte(s[1]), uint8(3))
	}
	f.Fuzz(func(t *testing.T, a, b []byte, size uint8) {
		done := make(chan [2]bool, 1)
		go func() { done <- [2]bool{sameJSON(a, b), sameJSON(b, a)} }()
		var same [2]bool
		select {
		case same = <-done:
		case <-time.After(10 * time.Second):
			t.Fatal("sameJSON did not answer")
		}
		if same[0] != same[1] {
			t.Fatalf("sameJSON(a, b) = %v, sameJSON(b, a) = %v", same[0], same[1])
		}
		ha, hb := hashOf(a), hashOf(b)
		if hashed := ha != nil && bytes.Equal(ha, hb); hashed != same[0] {
			t.Fatalf("sameJSON = %v, same token hash = %v", same[0], hashed)
		}
		n := 1 + int(size)%16
		h := newTokenHash()
		first := min(max(n, 3), len(a))
		h.Write(a[:first])
		for p := a[first:]; len(p) > 0; p = p[min(n, len(p)):] {
			h.Write(p[:min(n, len(p))])
		}
		if got := h.sum(); !bytes.Equal(got, ha) {
			t.Fatalf("hash in windows of %d: %x, whole: %x", n, got, ha)
		}
	})
}

// TestTokenHashLead: a text's byte-order mark is its lead only at its very
// start, however the windows fall: after whitespace, in the first window or
// the next, it makes the text invalid (no sum), as sameJSON judges it; an
// empty window changes nothing.
func TestTokenHashLead(t *testing.T) {
	for _, c := range []struct {
		name    string
		windows []string
		valid   bool
	}{
		{"Whole", []string{"\ufeff{}"}, true},
		{"EmptyFirst", []string{"", "\ufeff{}"}, true},
		{"SpacesThenBOM", []string{"      ", "\ufeff{}"}, false},
		{"SpacesThenBOMWhole", []string{"      \ufeff{}"}, false},
		{"BOMThenSpaces", []string{"\ufeff  ", " {}"}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := newTokenHash()
			for _, w := range c.windows {
				h.Write([]byte(w))
			}
			if got := h.sum() != nil; got != c.valid {
				t.Fatalf("sum present = %v, want %v", got, c.valid)
			}
			if c.valid && !bytes.Equal(h.sum(), hashOf([]byte(`{}`))) {
				t.Fatal("not the hash of {}")
			}
		})
	}
}
