package jsonmask_test

import (
	"bytes"
	"errors"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/jsonmask/jsonmask"
	"github.com/jsonmask/jsonmask/internal/reference"
)

// canary is in every value that a test's mask drops: it must never appear in
// any output.
const canary = "CANARY"

// TestWildcards checks SPEC T2 in every way of masking (maskModes): "*"
// matches every key at its level without an entry of its own; the entry of
// its own wins; "*" is an ordinary key without WithWildcards. Each case runs
// through the reference masker too, and the text form where it has one.
func TestWildcards(t *testing.T) {
	long := strings.Repeat("k", 300) // longer than any key the machine keeps across windows without a wildcard
	for _, c := range []struct {
		name     string
		mask     string // JSON, compiled WithWildcards(true) unless plain
		fields   string // the same mask as text, or ""
		plain    bool   // compiled without WithWildcards
		dropMis  bool
		in, out  string
		noCanary bool // the input has no canary to check
		arrays   bool
	}{
		{name: "KeepsAll", mask: `{"*":true}`, fields: "*",
			in: `{"a":1,"b":{"c":[1,2]},"":null,"*":"s"}`, out: `{"a":1,"b":{"c":[1,2]},"":null,"*":"s"}`, noCanary: true},
		{name: "OwnEntryWins", mask: `{"a":{"x":true},"*":true}`, fields: "a/x,*",
			in: `{"a":{"x":1,"y":"CANARY"},"b":3,"c":{"d":4}}`, out: `{"a":{"x":1},"b":3,"c":{"d":4}}`},
		{name: "OwnEntryWinsWrittenAfter", mask: `{"*":true,"a":{"x":true}}`, fields: "*,a(x)",
			in: `{"b":3,"a":{"y":"CANARY","x":1}}`, out: `{"b":3,"a":{"x":1}}`},
		{name: "NestedMask", mask: `{"*":{"id":true}}`, fields: "*/id",
			in: `{"u":{"id":1,"n":"CANARY"},"v":[{"id":2,"z":"CANARY"},{"q":"CANARY"}],"s":5}`, out: `{"u":{"id":1},"v":[{"id":2},{}],"s":5}`},
		{name: "NestedMaskDropMismatched", mask: `{"*":{"id":true}}`, fields: "*/id", dropMis: true,
			in: `{"u":{"id":1,"n":"CANARY"},"s":"CANARY","v":["CANARY",{"id":2}]}`, out: `{"u":{"id":1},"v":[{"id":2}]}`},
		{name: "Deep", mask: `{"data":{"*":{"*":{"v":true}}}}`, fields: "data/*/*/v",
			in: `{"data":{"a":{"x":{"v":1,"w":"CANARY"}},"b":{"y":{"v":2}}},"meta":"CANARY"}`, out: `{"data":{"a":{"x":{"v":1}},"b":{"y":{"v":2}}}}`},
		{name: "WildcardUnderWildcardOwnWins", mask: `{"*":{"id":true,"*":{"name":true}}}`, fields: "*(id,*/name)",
			in: `{"a":{"id":{"name":"kept whole","x":1},"o":{"name":1,"p":"CANARY"}}}`, out: `{"a":{"id":{"name":"kept whole","x":1},"o":{"name":1}}}`},
		{name: "EmptyKey", mask: `{"a":true,"*":{"x":true}}`, fields: "a,*/x",
			in: `{"":{"x":1,"y":"CANARY"},"a":2}`, out: `{"":{"x":1},"a":2}`},
		{name: "EmptyKeyOwnEntry", mask: `{"":true,"*":{"x":true}}`,
			in: `{"":{"x":1,"y":2},"b":{"x":3,"y":"CANARY"}}`, out: `{"":{"x":1,"y":2},"b":{"x":3}}`},
		{name: "EscapedKeys", mask: `{"ab":{"x":true},"*":true}`, fields: "ab/x,*",
			in: `{"a\u0062":{"x":1,"y":"CANARY"},"\u0061\u0062\u0063\u0064":{"y":2},"\n":3}`, out: `{"a\u0062":{"x":1},"\u0061\u0062\u0063\u0064":{"y":2},"\n":3}`},
		{name: "EscapedKeyLongerThanAnyEntry", mask: `{"*":{"v":true}}`, fields: "*/v",
			in: `{"\u0061\u0062\u0063":{"v":1,"w":"CANARY"}}`, out: `{"\u0061\u0062\u0063":{"v":1}}`},
		{name: "LongKeyKept", mask: `{"a":true,"*":true}`, fields: "a,*",
			in: `{"a":1,"` + long + `":2,"b":3}`, out: `{"a":1,"` + long + `":2,"b":3}`, noCanary: true},
		{name: "LongKeyNested", mask: `{"a":true,"*":{"v":true}}`, fields: "a,*/v",
			in: `{"` + long + `":{"v":1,"w":"CANARY"},"a":{"w":2}}`, out: `{"` + long + `":{"v":1},"a":{"w":2}}`},
		{name: "LongKeyNestedDropMismatched", mask: `{"a":true,"*":{"v":true}}`, fields: "a,*/v", dropMis: true,
			in: `{"` + long + `CANARY":"CANARY","` + long + `":{"v":1}}`, out: `{"` + long + `":{"v":1}}`},
		{name: "LongEscapedKeyNested", mask: `{"*":{"v":true}}`, fields: "*/v",
			in: `{"` + strings.Repeat(`\u0041`, 60) + `":{"v":1,"w":"CANARY"}}`, out: `{"` + strings.Repeat(`\u0041`, 60) + `":{"v":1}}`},
		{name: "LongKeyOwnEntryMisses", mask: `{"` + long + `":{"v":true},"*":{"w":true}}`, fields: long + "/v,*/w",
			in: `{"` + long + `x":{"v":"CANARY","w":1},"` + long + `":{"v":2,"w":"CANARY"}}`, out: `{"` + long + `x":{"w":1},"` + long + `":{"v":2}}`},
		{name: "DuplicateKeys", mask: `{"*":{"a":true}}`, fields: "*/a",
			in: `{"k":{"a":1},"k":{"b":"CANARY"},"k":{"a":2}}`, out: `{"k":{"a":1},"k":{},"k":{"a":2}}`},
		{name: "ManyMembers", mask: `{"id":true,"*":{"x":true}}`, fields: "id,*/x",
			in:  `{` + strings.Repeat(`"m":{"x":1,"y":"CANARY"},"n":2,`, 40) + `"id":3}`,
			out: `{` + strings.Repeat(`"m":{"x":1},"n":2,`, 40) + `"id":3}`},
		{name: "ArrayRoot", mask: `{"*":{"id":true}}`, fields: "*/id", arrays: true,
			in: `[{"a":{"id":1,"z":"CANARY"}},{"b":[]}]`, out: `[{"a":{"id":1}},{"b":[]}]`},
		{name: "StarIsAKeyWhenPlain", mask: `{"*":true,"a":{"*":true}}`, plain: true,
			in: `{"*":1,"b":"CANARY","a":{"x":"CANARY","*":2}}`, out: `{"*":1,"a":{"*":2}}`},
		{name: "StarEscapedIsTheWildcard", mask: `{"\u002a":{"x":true}}`,
			in: `{"q":{"x":1,"y":"CANARY"}}`, out: `{"q":{"x":1}}`},
		{name: "LiteralStarKeyInText", mask: "", fields: `\*,a`, plain: true,
			in: `{"*":1,"a":2,"b":"CANARY"}`, out: `{"*":1,"a":2}`},
		{name: "LiteralStarAndWildcardInText", mask: "", fields: `\*/x,*/y`,
			in: `{"*":{"x":1,"y":"CANARY"},"b":{"x":"CANARY","y":2}}`, out: `{"*":{"x":1},"b":{"y":2}}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			opts := []jsonmask.Option{jsonmask.WithDropMismatched(c.dropMis), jsonmask.WithArrays(c.arrays), jsonmask.WithBufferSize(64)}
			var masks []*jsonmask.Mask
			if c.mask != "" {
				m, err := jsonmask.Compile([]byte(c.mask), append(opts, jsonmask.WithWildcards(!c.plain))...)
				if err != nil {
					t.Fatal(err)
				}
				masks = append(masks, m)
				ref, err := reference.Reference([]byte(c.mask), []byte(c.in), reference.Options{Wildcards: !c.plain, DropMismatched: c.dropMis, Arrays: c.arrays})
				if err != nil || string(ref) != c.out {
					t.Errorf("reference: %s, %v\nwant %s", ref, err, c.out)
				}
			}
			if c.fields != "" {
				m, err := jsonmask.CompileFields(c.fields, opts...)
				if err != nil {
					t.Fatal(err)
				}
				masks = append(masks, m)
			}
			for k, m := range masks {
				for _, mode := range maskModes {
					out, err := mode.mask(m, []byte(c.in))
					if err != nil || string(out) != c.out {
						t.Errorf("mask %d, %s:\n got %s, %v\nwant %s", k, mode.name, out, err, c.out)
					}
					if bytes.Contains(out, []byte(canary)) {
						t.Errorf("mask %d, %s: the canary got out: %s", k, mode.name, out)
					}
				}
			}
			if !c.noCanary && !strings.Contains(c.in, canary) {
				t.Errorf("the input has no canary")
			}
		})
	}
}

// TestWildcardsWith checks that With keeps how a mask was read: it cannot
// turn wildcards on or off, since the mask was compiled already.
func TestWildcardsWith(t *testing.T) {
	m := jsonmask.MustCompile(`{"*":true}`, jsonmask.WithWildcards(true))
	if _, err := m.With(jsonmask.WithWildcards(false)); err == nil {
		t.Error("With(WithWildcards(false)) on a mask read with wildcards: no error")
	}
	m2, err := m.With(jsonmask.WithStrict(true))
	if err != nil {
		t.Fatal(err)
	}
	if out, err := m2.Append(nil, []byte(`{"a":1}`)); err != nil || string(out) != `{"a":1}` {
		t.Errorf("With(WithStrict): %s, %v", out, err)
	}
	f := jsonmask.MustCompileFields("a,*/b")
	if _, err := f.With(jsonmask.WithArrays(true)); err != nil {
		t.Errorf("With on a text mask: %v", err)
	}
}

// TestWildcardErrorPointer checks that an error inside a member that a
// wildcard matched names the member by its key, not by "*" (SPEC V3), at
// every level, in every way of masking.
func TestWildcardErrorPointer(t *testing.T) {
	for _, c := range []struct {
		name, mask, in, pointer string
	}{
		{"KeptWhole", `{"*":true}`, `{"abc":[1,}`, "/abc"},
		{"Scalar", `{"*":true}`, `{"abc":tru}`, "/abc"},
		{"Nested", `{"*":{"x":true}}`, `{"abc":{"x":[1,}}`, "/abc/x"},
		{"NestedDropped", `{"*":{"x":true}}`, `{"abc":{"y":[1,}}`, "/abc/y"},
		{"TwoLevels", `{"*":{"*":{"v":true}}}`, `{"a":{"b":{"v":1}},"c":{"d":{"v":[}}}`, "/c/d/v"},
		{"AfterSiblings", `{"d":{"*":{"v":true}}}`, `{"d":{"a":{"v":1},"b":{"w":2},"c\u0041":{"v":{"x":nul}}}}`, "/d/cA/v"},
		{"InArray", `{"*":{"id":true}}`, `{"list":[{"id":1},{"id":[}]}`, "/list/1/id"},
		{"OwnEntry", `{"a":{"v":true},"*":true}`, `{"a":{"v":[}}`, "/a/v"},
		{"EscapedKey", `{"*":{"v":true}}`, `{"a\/b~":{"v":[}}`, "/a~1b~0/v"},
		// A key too long to keep across windows (it is written as it comes)
		// is named nowhere: the pointer stops at the member around it.
		{"LongKey", `{"d":{"*":{"v":true}}}`, `{"d":{"` + strings.Repeat("k", 300) + `":{"v":[}}}`, "/d"},
		{"LongKeyEscaped", `{"*":{"*":{"v":true}}}`, `{"a":{"` + strings.Repeat(`\u0041`, 60) + `":{"v":[}}}`, "/a"},
	} {
		t.Run(c.name, func(t *testing.T) {
			m, err := jsonmask.Compile([]byte(c.mask), jsonmask.WithWildcards(true), jsonmask.WithBufferSize(8))
			if err != nil {
				t.Fatal(err)
			}
			for _, mode := range maskModes {
				_, err := mode.mask(m, []byte(c.in))
				var se *jsonmask.SyntaxError
				if !errors.As(err, &se) || se.Pointer != c.pointer {
					t.Errorf("%s: %v, want pointer %q", mode.name, err, c.pointer)
				}
			}
		})
	}
}

// TestWildcardLongKeyBeforeWindowEnd checks a key longer than the machine
// keeps of dropped keys, matched by a wildcard, whole in a window that ends
// before its value: the key must be written with the value.
func TestWildcardLongKeyBeforeWindowEnd(t *testing.T) {
	long := strings.Repeat("k", 400)
	in := `{"a":1,"` + long + `":{"v":1,"w":"CANARY"},"b":2}`
	want := `{"a":1,"` + long + `":{"v":1},"b":2}`
	m := jsonmask.MustCompileFields("*/v,a,b", jsonmask.WithBufferSize(1024))
	for cut := len(`{"a":1,"`) + len(long); cut < len(in)-len(`,"b":2}`); cut++ {
		var out bytes.Buffer
		w := m.NewWriter(&out)
		_, err1 := w.Write([]byte(in[:cut]))
		_, err2 := w.Write([]byte(in[cut:]))
		if err := errors.Join(err1, err2, w.Close()); err != nil || out.String() != want {
			t.Errorf("cut at %d: %s, %v", cut, out.String(), err)
		}
	}
}

// wildMask returns a random mask over genKeys, as mask does, in which an
// object also has a "*" member one time in three, written anywhere among its
// members, spelled "*" or "\u002a".
func (g *gen) wildMask(depth int) []byte {
	g.sb.Reset()
	g.wildObject(depth)
	return []byte(g.sb.String())
}

func (g *gen) wildObject(depth int) {
	g.sb.WriteByte('{')
	keys := make([]string, 0, 6)
	for _, k := range g.rng.Perm(len(genKeys))[:g.rng.IntN(5)] {
		sp := genKeySpellings[genKeys[k]]
		keys = append(keys, sp[g.rng.IntN(len(sp))])
	}
	if g.rng.IntN(3) == 0 {
		at := g.rng.IntN(len(keys) + 1)
		keys = slices.Insert(keys, at, []string{`"*"`, `"\u002a"`}[g.rng.IntN(2)])
	}
	for i, k := range keys {
		if i > 0 {
			g.sb.WriteByte(',')
		}
		g.sb.WriteString(k)
		g.sb.WriteByte(':')
		if depth > 0 && g.rng.IntN(2) == 0 {
			g.wildObject(depth - 1)
		} else {
			g.sb.WriteString("true")
		}
	}
	g.sb.WriteByte('}')
}

// TestWildcardLongKeyMemory streams members whose keys are 64 MiB long and
// that a wildcard keeps, through Copy with a 4 KiB window: the right output,
// and a heap that stays flat (SPEC S2), since the key is written as it
// comes. Under WithDropMismatched a nested wildcard's key is held until its
// value shows whether it is kept (see WithWildcards): only the output is
// checked there, on a 1 MiB key.
func TestWildcardLongKeyMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("streams 64 MiB keys")
	}
	const mib = 1 << 20
	for _, c := range []struct {
		name      string
		fields    string
		opts      []jsonmask.Option
		keyUnits  int64 // the key is this many times 1 KiB of "k"
		value     string
		wantValue string
		flat      bool
	}{
		{"Kept", "*", nil, 64 * 1024, `{"a":1,"b":"x"}`, `{"a":1,"b":"x"}`, true},
		{"Nested", "*/a", nil, 64 * 1024, `{"a":1,"b":"CANARY"}`, `{"a":1}`, true},
		{"NestedDropMismatched", "*/a", []jsonmask.Option{jsonmask.WithDropMismatched(true)}, 1024, `{"a":1,"b":"CANARY"}`, `{"a":1}`, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := jsonmask.MustCompileFields(c.fields, append(c.opts, jsonmask.WithBufferSize(4096))...)
			r := newPatternReader(`{"s":{"z":"CANARY"},"`, strings.Repeat("k", 1024), `":`+c.value+`}`, c.keyUnits)
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			w := &markerWriter{marker: []byte(canary)}
			n, err := m.Copy(w, r)
			runtime.ReadMemStats(&after)
			if err != nil {
				t.Fatal(err)
			}
			if want := int64(len(`{"s":{"z":"CANARY"},""`)) + c.keyUnits*1024 + int64(len(":"+c.wantValue+"}")); c.fields == "*" && n != want {
				t.Errorf("wrote %d bytes, want %d", n, want)
			}
			if want := ":" + c.wantValue + "}"; !strings.HasSuffix(string(w.tail), want) {
				t.Errorf("output ends %q, want %q", w.tail, want)
			}
			if c.fields != "*" && w.seen {
				t.Errorf("a dropped value reached the output")
			}
			if grew := after.TotalAlloc - before.TotalAlloc; c.flat && grew > 1*mib {
				t.Errorf("allocated %d bytes while streaming", grew)
			}
		})
	}
}
