package compile

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/jsonmask/jsonmask/tokenizer"
)

// TestLookup checks each node's trie against a map, on random key sets full of
// shared prefixes, and on probes that are prefixes, extensions and neighbours
// of the keys.
func TestLookup(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	// The long piece makes keys of 63 bytes and more, which share one bit
	// of a node's filter of key lengths.
	alphabet := []string{"a", "b", "ab", "é", "\x00", "\"", "😋", strings.Repeat("L", 31)}
	word := func() string {
		var sb strings.Builder
		for range rng.IntN(5) {
			sb.WriteString(alphabet[rng.IntN(len(alphabet))])
		}
		return sb.String()
	}
	for range 2000 {
		keys := map[string]bool{}
		for range rng.IntN(12) {
			keys[word()] = rng.IntN(2) == 0
		}
		mask := map[string]any{}
		for k, keep := range keys {
			if keep {
				mask[k] = true
			} else {
				mask[k] = map[string]any{"x": true}
			}
		}
		src, _ := json.Marshal(mask)
		p, err := Compile(src, Options{})
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		probes := []string{""}
		for k := range keys {
			probes = append(probes, k, k+"a", k+"\x00")
			if k != "" {
				probes = append(probes, k[:len(k)-1], k[1:])
			}
		}
		for range 20 {
			probes = append(probes, word())
		}
		for _, probe := range probes {
			e := p.Lookup(0, []byte(probe))
			keep, named := keys[probe]
			switch {
			case !named && e != NoEntry:
				t.Fatalf("mask %s: Lookup(%q) = entry %q, want none", src, probe, p.Entry(e).Key)
			case named && e == NoEntry:
				t.Fatalf("mask %s: Lookup(%q) = none", src, probe)
			case named && p.Entry(e).Key != probe:
				t.Fatalf("mask %s: Lookup(%q) = entry %q", src, probe, p.Entry(e).Key)
			case named && keep != (p.Entry(e).Node == Keep):
				t.Fatalf("mask %s: Lookup(%q): wrong action", src, probe)
			case named && !keep && p.Lookup(p.Entry(e).Node, []byte("x")) == NoEntry:
				t.Fatalf("mask %s: Lookup(%q): nested node lacks x", src, probe)
			}
		}
	}
}

// TestLookupLengths looks up keys around 63 bytes, where the filter of key
// lengths stops telling lengths apart, and keys as long as a mask key but not
// one.
func TestLookupLengths(t *testing.T) {
	mask := map[string]any{}
	for _, n := range []int{0, 1, 62, 63, 64, 200} {
		mask[strings.Repeat("k", n)] = true
	}
	src, _ := json.Marshal(mask)
	p, err := Compile(src, Options{})
	if err != nil {
		t.Fatal(err)
	}
	lens := p.KeyLengths(0)
	for n := range 210 {
		for _, c := range []string{"k", "j"} {
			key := strings.Repeat(c, n)
			_, named := mask[key]
			if got := p.Lookup(0, []byte(key)) != NoEntry; got != named {
				t.Errorf("Lookup(%d × %q) found %v, want %v", n, c, got, named)
			}
		}
		// KeyLengths: exactly the lengths of the mask's keys, 63 and over in one bit.
		want := false
		for k := range mask {
			want = want || min(len(k), 63) == min(n, 63)
		}
		if got := lens>>min(n, 63)&1 != 0; got != want {
			t.Errorf("KeyLengths bit for %d bytes is %v, want %v", n, got, want)
		}
	}
}

// TestLookupLargeNodes checks nodes whose keys the hash cannot tell apart
// (same length, first and last byte: every slot falls back to the trie) and
// nodes with thousands of distinct keys, against a map, with near misses.
func TestLookupLargeNodes(t *testing.T) {
	for _, n := range []int{2, 17, 1000, 5000} {
		for _, style := range []string{"k%05dz", "%d"} {
			keys := map[string]bool{}
			mask := map[string]any{}
			for i := range n {
				k := fmt.Sprintf(style, i*7)
				keys[k] = true
				mask[k] = true
			}
			src, _ := json.Marshal(mask)
			p, err := Compile(src, Options{})
			if err != nil {
				t.Fatal(err)
			}
			for i := range 7 * n {
				k := fmt.Sprintf(style, i)
				for _, probe := range []string{k, k + "z", "k" + k, k[:len(k)-1]} {
					e := p.Lookup(0, []byte(probe))
					if named := keys[probe]; named != (e != NoEntry) || named && p.Entry(e).Key != probe {
						t.Fatalf("%d keys %q: Lookup(%q) = %d, named %v", n, style, probe, e, named)
					}
				}
			}
		}
	}
}

// TestEscapedKeys checks SPEC M5 on the mask's side: keys are unescaped, and
// surrogates decode as the tokenizer decodes response keys.
func TestEscapedKeys(t *testing.T) {
	p, err := Compile([]byte(`{"\u005fid":true,"\ud83d\ude0b":true,"\ud800":true,"a\/b":true}`), Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"_id", "😋", "a/b", string(tokenizer.AppendUnescaped(nil, []byte(`\ud800`)))} {
		if p.Lookup(0, []byte(k)) == NoEntry {
			t.Errorf("%q not found", k)
		}
	}
	if p.Lookup(0, []byte("\uFFFD")) != NoEntry {
		t.Errorf("a lone surrogate matched U+FFFD")
	}
	if p.MaxKeyLen() != 4 {
		t.Errorf("MaxKeyLen = %d, want 4", p.MaxKeyLen())
	}
}

func TestErrors(t *testing.T) {
	for _, c := range []struct {
		mask    string
		offset  int64
		pointer string
		msg     string
	}{
		{`{"members":{"email":false}}`, 20, "/members/email", `mask member "/members/email" must be true or an object, got false`},
		{`{"a":null}`, 5, "/a", `mask member "/a" must be true or an object, got null`},
		{`{"a":1}`, 5, "/a", `mask member "/a" must be true or an object, got a number`},
		{`{"a":"b"}`, 5, "/a", `mask member "/a" must be true or an object, got a string`},
		{`{"a/b~":[true]}`, 8, "/a~1b~0", `mask member "/a~1b~0" must be true or an object, got an array`},
		{`{"a":true,"\u0061":{}}`, 10, "/a", `mask member "/a" appears twice (SPEC M4) at offset 10`},
		{`{"x":{"a":true,"b":true,"a":true}}`, 24, "/x/a", `mask member "/x/a" appears twice (SPEC M4) at offset 24`},
		{`["a"]`, 0, "", `invalid mask: a mask must be a JSON object, got an array at offset 0`},
		{`true`, 0, "", `invalid mask: a mask must be a JSON object, got true at offset 0`},
		{`{"a":true`, 9, "", `invalid mask: unexpected end of JSON input at offset 9`},
		{`{"a":true}{}`, 10, "", `invalid mask: invalid character '{' after top-level value at offset 10`},
		{``, 0, "", `invalid mask: unexpected end of JSON input at offset 0`},
		{"\xef\xbb{}", 0, "", `invalid mask: invalid character '\xef' looking for beginning of value at offset 0`},
		{"\xef\xbb\xbf", 3, "", `invalid mask: unexpected end of JSON input at offset 3`},
		{"\xef\xbb\xbf\xef\xbb\xbf{}", 3, "", `invalid mask: invalid character '\xef' looking for beginning of value at offset 3`},
		{"\xef\xbb\xbf{\"a\":false}", 8, "/a", `mask member "/a" must be true or an object, got false`},
	} {
		t.Run(fmt.Sprintf("%q", c.mask), func(t *testing.T) {
			_, err := Compile([]byte(c.mask), Options{})
			var ce *Error
			if !errors.As(err, &ce) || ce.Offset != c.offset || ce.Pointer != c.pointer || ce.Msg != c.msg {
				t.Errorf("Compile(%s) = %#v, want %q at offset %d pointer %q", c.mask, err, c.msg, c.offset, c.pointer)
			}
		})
	}
	if _, err := Compile([]byte(strings.Repeat(`{"a":`, 20)+"true"+strings.Repeat("}", 20)), Options{MaxDepth: 5}); !errors.Is(err, tokenizer.ErrMaxDepth) {
		t.Errorf("deep mask: %v, want ErrMaxDepth", err)
	}
}

// TestByteOrderMark: a mask may begin with a UTF-8 byte-order mark (SPEC M8),
// and compiles to the same program as without it.
func TestByteOrderMark(t *testing.T) {
	for _, mask := range []string{`{}`, `{"a":true}`, " \n{\"a\":{\"b\":true},\"c\":true} "} {
		t.Run(fmt.Sprintf("%q", mask), func(t *testing.T) {
			want, err := Compile([]byte(mask), Options{})
			if err != nil {
				t.Fatal(err)
			}
			got, err := Compile([]byte("\xEF\xBB\xBF"+mask), Options{})
			if err != nil {
				t.Fatalf("with a byte-order mark: %v", err)
			}
			if !slices.Equal(got.entries, want.entries) {
				t.Errorf("entries %v, want %v", got.entries, want.entries)
			}
		})
	}
}
