package jsonmask_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/jsonmask/jsonmask"
)

// hostileCase is an input built to hurt: its expected outcome, checked in
// every mode.
type hostileCase struct {
	name string
	mask string
	opts []jsonmask.Option
	in   []byte
	want string // the output, when err is nil
	err  error  // jsonmask.ErrMaxDepth, errSyntax for any *SyntaxError, or nil
}

var errSyntax = errors.New("any *SyntaxError")

func hostileCases() []hostileCase {
	deep := func(prefix string, open string, n int) []byte {
		return []byte(prefix + strings.Repeat(open, n))
	}
	backslashes := func(n int) string { return strings.Repeat(`\\`, n) } // n escaped backslashes
	return []hostileCase{
		{name: "Deep/ArraysInDropped", mask: `{"a":true}`, in: deep(`{"b":`, "[", 1_000_000), err: jsonmask.ErrMaxDepth},
		{name: "Deep/ArraysInKept", mask: `{"a":true}`, in: deep(`{"a":`, "[", 1_000_000), err: jsonmask.ErrMaxDepth},
		{name: "Deep/ArraysInMasked", mask: `{"a":{"x":true}}`, in: deep(`{"a":`, "[", 1_000_000), err: jsonmask.ErrMaxDepth},
		{name: "Deep/ArraysTrusted", mask: `{"a":true}`, opts: []jsonmask.Option{jsonmask.WithTrustedInput(true)}, in: deep(`{"b":`, "[", 1_000_000), err: jsonmask.ErrMaxDepth},
		{name: "Deep/ObjectsInDropped", mask: `{"a":true}`, in: deep(`{"b":`, `{"a":`, 100_000), err: jsonmask.ErrMaxDepth},
		{name: "Deep/AtLimit", mask: `{"a":true}`, in: []byte(`{"a":` + strings.Repeat("[", 9999) + strings.Repeat("]", 9999) + `}`),
			want: `{"a":` + strings.Repeat("[", 9999) + strings.Repeat("]", 9999) + `}`},
		{name: "Deep/OverLimit", mask: `{"a":true}`, in: []byte(`{"b":` + strings.Repeat("[", 10000) + strings.Repeat("]", 10000) + `}`), err: jsonmask.ErrMaxDepth},
		{name: "Deep/CustomLimit", mask: `{"a":true}`, opts: []jsonmask.Option{jsonmask.WithMaxDepth(3)}, in: []byte(`{"b":[[[1]]]}`), err: jsonmask.ErrMaxDepth},
		{name: "Deep/CustomLimitOK", mask: `{"a":true}`, opts: []jsonmask.Option{jsonmask.WithMaxDepth(3)}, in: []byte(`{"a":[[1]]}`), want: `{"a":[[1]]}`},
		// One past the limit, and at it: objects and arrays, dropped and kept.
		{name: "Deep/LimitObjectsDropped", mask: `{"a":true}`, opts: []jsonmask.Option{jsonmask.WithMaxDepth(3)}, in: []byte(`{"b":{"c":{"d":{}}}}`), err: jsonmask.ErrMaxDepth},
		{name: "Deep/LimitObjectsDroppedOK", mask: `{"a":true}`, opts: []jsonmask.Option{jsonmask.WithMaxDepth(3)}, in: []byte(`{"b":{"c":{"d":1}}}`), want: `{}`},
		{name: "Deep/LimitObjectsKept", mask: `{"a":true}`, opts: []jsonmask.Option{jsonmask.WithMaxDepth(3)}, in: []byte(`{"a":{"c":{"d":{}}}}`), err: jsonmask.ErrMaxDepth},
		{name: "Deep/LimitObjectsKeptOK", mask: `{"a":true}`, opts: []jsonmask.Option{jsonmask.WithMaxDepth(3)}, in: []byte(`{"a":{"c":{"d":1}}}`), want: `{"a":{"c":{"d":1}}}`},
		{name: "Deep/LimitArraysDropped", mask: `{"a":true}`, opts: []jsonmask.Option{jsonmask.WithMaxDepth(3)}, in: []byte(`{"b":[[[]]]}`), err: jsonmask.ErrMaxDepth},
		{name: "Deep/LimitArraysDroppedOK", mask: `{"a":true}`, opts: []jsonmask.Option{jsonmask.WithMaxDepth(3)}, in: []byte(`{"b":[[1]]}`), want: `{}`},
		{name: "Backslashes/EvenBeforeQuote", mask: `{"a":true}`,
			in:   []byte(`{"a":"` + backslashes(50_000) + `","b":"` + backslashes(50_001) + `"}`),
			want: `{"a":"` + backslashes(50_000) + `"}`},
		{name: "Backslashes/OddBeforeQuote", mask: `{"a":true}`, in: []byte(`{"b":"` + backslashes(5000) + `\"}`), err: errSyntax},
		{name: "Backslashes/OddTrusted", mask: `{"a":true}`, opts: []jsonmask.Option{jsonmask.WithTrustedInput(true)},
			in: []byte(`{"b":"` + backslashes(5001) + `\"","a":1}`), want: `{"a":1}`},
		{name: "Keys/Escaped", mask: `{"name":true,"é":true}`,
			in:   []byte(`{"\u006eame":1,"n\u0061me":2,"\u00e9":3,"\u00c9":4,"nam\u0065x":5}`),
			want: `{"\u006eame":1,"n\u0061me":2,"\u00e9":3}`},
		{name: "Keys/EscapedLong", mask: `{"a":true}`, in: []byte(`{"` + strings.Repeat(`\u0061`, 100_000) + `":1,"a":2}`), want: `{"a":2}`},
		{name: "Keys/Duplicates", mask: `{"a":{"x":true}}`, in: []byte(`{"a":{"x":1,"y":2},"a":5,"a":{"y":3},"b":0}`), want: `{"a":{"x":1},"a":5,"a":{}}`},
		{name: "Keys/ManyDuplicates", mask: `{"a":true}`, in: []byte("{" + strings.Repeat(`"a":1,`, 100_000) + `"a":2}`), want: "{" + strings.Repeat(`"a":1,`, 100_000) + `"a":2}`},
		{name: "Deep/ObjectsInKept1e6", mask: `{"a":true}`, in: deep(`{"a":`, `{"a":`, 1_000_000), err: jsonmask.ErrMaxDepth},
		{name: "Deep/ArrayObjectKey", mask: `{"a":true}`, in: deep(`{"b":`, `[{"":`, 50_000), err: jsonmask.ErrMaxDepth},
		{name: "Deep/ArrayObjectKeyKept", mask: `{"a":true}`, in: deep(`{"a":`, `[{"":`, 50_000), err: jsonmask.ErrMaxDepth},
		{name: "Deep/ArrayObjectKeyMasked", mask: `{"a":{"":true}}`, in: deep(`{"a":`, `[{"":`, 50_000), err: jsonmask.ErrMaxDepth},
		// Masked levels: containers the mask recurses into, up to the limit
		// and one past it, as a member's value and as an element, and deeper
		// than a word of the scanner's depth bits (which then grow).
		{name: "Deep/LimitMaskedObjects", mask: `{"a":{"a":{"x":true}}}`, opts: []jsonmask.Option{jsonmask.WithMaxDepth(3)}, in: []byte(`{"a":[{"a":{"x":1}}]}`), err: jsonmask.ErrMaxDepth},
		{name: "Deep/LimitMaskedObjectsOK", mask: `{"a":{"a":{"x":true}}}`, opts: []jsonmask.Option{jsonmask.WithMaxDepth(3)}, in: []byte(`{"a":{"a":{"x":1,"y":2}}}`), want: `{"a":{"a":{"x":1}}}`},
		{name: "Deep/LimitMaskedArrays", mask: `{"a":{"x":true}}`, opts: []jsonmask.Option{jsonmask.WithMaxDepth(3)}, in: []byte(`{"a":[[{"x":1}]]}`), err: jsonmask.ErrMaxDepth},
		{name: "Deep/LimitMaskedArraysOK", mask: `{"a":{"x":true}}`, opts: []jsonmask.Option{jsonmask.WithMaxDepth(3)}, in: []byte(`{"a":[[]],"b":2}`), want: `{"a":[[]]}`},
		{name: "Deep/MaskedObjects70", mask: strings.Repeat(`{"a":`, 70) + `true` + strings.Repeat(`}`, 70), in: []byte(strings.Repeat(`{"b":0,"a":`, 70) + `1` + strings.Repeat(`}`, 70)), want: strings.Repeat(`{"a":`, 70) + `1` + strings.Repeat(`}`, 70)},
		{name: "Deep/MaskedArrays70", mask: `{"a":{"x":true}}`, in: []byte(`{"a":` + strings.Repeat(`[`, 70) + `{"x":1,"y":2}` + strings.Repeat(`]`, 70) + `}`), want: `{"a":` + strings.Repeat(`[`, 70) + `{"x":1}` + strings.Repeat(`]`, 70) + `}`},
		{name: "UTF8/FF", mask: `{"a":true}`, in: []byte("{\"b\":\"\xff\"}"), err: errSyntax},
		{name: "UTF8/OverlongC0AF", mask: `{"a":true}`, in: []byte("{\"a\":\"\xc0\xaf\"}"), err: errSyntax},
		{name: "UTF8/SurrogateBytes", mask: `{"a":true}`, in: []byte("{\"b\":\"\xed\xa0\x80\"}"), err: errSyntax},
		{name: "UTF8/InKey", mask: `{"a":true}`, in: []byte("{\"\xff\":1}"), err: errSyntax},
		{name: "UTF8/Truncated", mask: `{"a":true}`, in: []byte("{\"a\":\"\xe6\x97\"}"), err: errSyntax},
		{name: "UTF8/EscapedLoneSurrogateOK", mask: `{"a":true}`, in: []byte(`{"a":"\ud800","b":"\udfff"}`), want: `{"a":"\ud800"}`},
		{name: "Control/NUL", mask: `{"a":true}`, in: []byte("{\"b\":\"a\x00b\",\"a\":1}"), err: errSyntax},
		{name: "Control/Tab", mask: `{"a":true}`, in: []byte("{\"a\":\"a\tb\"}"), err: errSyntax},
		{name: "Control/DEL", mask: `{"a":true}`, in: []byte("{\"a\":\"a\x7fb\"}"), want: "{\"a\":\"a\x7fb\"}"},
		{name: "Grammar/LineComment", mask: `{"a":true}`, in: []byte("{\"a\":1 // secret\n}"), err: errSyntax},
		{name: "Grammar/BlockComment", mask: `{"a":true}`, in: []byte(`{/* x */"a":1}`), err: errSyntax},
		{name: "Grammar/TrailingCommaArray", mask: `{"a":true}`, in: []byte(`{"a":[1,2,]}`), err: errSyntax},
		{name: "Grammar/TrailingCommaDropped", mask: `{"a":true}`, in: []byte(`{"b":{"c":1,},"a":1}`), err: errSyntax},
		{name: "Grammar/SecondDocument", mask: `{"a":true}`, in: []byte(`{"a":1}{"secret":2}`), err: errSyntax},
		{name: "Grammar/SecondDocumentAfterSpace", mask: `{"a":true}`, in: []byte("{\"a\":1}\n[2]"), err: errSyntax},
		{name: "Grammar/LoneBackslashAtEnd", mask: `{"a":true}`, in: []byte(`{"a":"\`), err: errSyntax},
		{name: "Grammar/LoneBackslashKey", mask: `{"a":true}`, in: []byte(`{"\`), err: errSyntax},
		{name: "UTF16/LE", mask: `{"a":true}`, in: []byte("{\x00\"\x00a\x00\"\x00:\x001\x00}\x00"), err: errSyntax},
		{name: "UTF16/LEWithBOM", mask: `{"a":true}`, in: []byte("\xff\xfe{\x00}\x00"), want: "\xff\xfe{\x00}\x00"},
		{name: "UTF16/BE", mask: `{"a":true}`, in: []byte("\x00{\x00}"), want: "\x00{\x00}"},
	}
}

// TestTruncatedEverywhere cuts a document that holds every kind of token, in
// kept, dropped and masked places, at every byte: every prefix is rejected, in
// every mode, and no output holds a byte of a dropped member.
func TestTruncatedEverywhere(t *testing.T) {
	doc := `{"keep":{"s":"a\"\u00e9\\z","n":-12.5e+3,"t":true,"f":false,"z":null,"é":[1,{}]},` +
		`"drop":{"s":"SECRET\"\u00e9","n":-12.5e+3,"t":true,"f":false,"z":null,"x":[1,{}]},` +
		`"m":[{"k":"v","SECRET":"SECRET"},"s",7,[{"k":1e2}]]}`
	m := jsonmask.MustCompile(`{"keep":true,"m":{"k":true}}`)
	if _, err := m.Append(nil, []byte(doc)); err != nil {
		t.Fatal(err)
	}
	for cut := 1; cut < len(doc); cut++ {
		in := []byte(doc[:cut])
		for _, mode := range maskModes {
			out, err := mode.mask(m, in)
			var se *jsonmask.SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("cut at %d (%q) %s: err = %v, want a *SyntaxError", cut, in, mode.name, err)
			}
			if bytes.Contains(out, []byte("SECRET")) {
				t.Fatalf("cut at %d %s: output %q holds a dropped byte", cut, mode.name, out)
			}
		}
	}
}

func TestHostile(t *testing.T) {
	for _, c := range hostileCases() {
		t.Run(c.name, func(t *testing.T) {
			m, err := jsonmask.Compile([]byte(c.mask), c.opts...)
			if err != nil {
				t.Fatal(err)
			}
			modes := maskModes
			if len(c.in) > 100_000 {
				modes = hostileModes // a byte at a time would take long under -race
			}
			for _, mode := range modes {
				out, err := mode.mask(m, c.in)
				switch {
				case c.err == nil && err != nil:
					t.Errorf("%s: %v", mode.name, err)
				case c.err == nil && string(out) != c.want:
					t.Errorf("%s: output %.200q, want %.200q", mode.name, out, c.want)
				case c.err == errSyntax:
					var se *jsonmask.SyntaxError
					if !errors.As(err, &se) {
						t.Errorf("%s: err = %v, want a *SyntaxError", mode.name, err)
					}
				case c.err != nil && !errors.Is(err, c.err):
					t.Errorf("%s: err = %v, want %v", mode.name, err, c.err)
				}
			}
		})
	}
}

// hostileModes are the modes for large inputs: in memory, and streamed in
// small and odd windows.
var hostileModes = func() []maskMode {
	var ms []maskMode
	for _, md := range maskModes {
		switch md.name {
		case "Append", "Copy/chunk=7", "Copy/chunk=16", "Writer/Random":
			ms = append(ms, md)
		}
	}
	return ms
}()

// TestErrorMessages pins the form of errors (SPEC V3): what, where, in which member.
func TestErrorMessages(t *testing.T) {
	m := jsonmask.MustCompile(`{"user":{"name":true},"id":true}`)
	for _, c := range []struct{ in, want string }{
		{`{"user":{"name":"a","ssn" 1}}`, `jsonmask: invalid character '1' after object key at offset 26 (/user/ssn)`},
		{`{"id":1,"user":[{"name":1},{"x":tru}]}`, `jsonmask: invalid character '}' in literal true (expecting 'e') at offset 35 (/user/1/x)`},
		{"{\"id\":\"\xff\"}", `jsonmask: invalid UTF-8 byte '\xff' in string at offset 7 (/id)`},
		{`{"id":[1,2`, `jsonmask: unexpected end of JSON input at offset 10 (/id)`},
		{`{"id":1} {`, `jsonmask: invalid character '{' after top-level value at offset 9`},
		{`{"id":01}`, `jsonmask: invalid character '1' after object key:value pair at offset 7 (/id)`},
		{`{"a\u0062":[1,]}`, `jsonmask: invalid character ']' looking for beginning of value at offset 14 (/ab)`},
	} {
		t.Run(c.in, func(t *testing.T) {
			_, err := m.Append(nil, []byte(c.in))
			if err == nil || err.Error() != c.want {
				t.Errorf("%s:\n got %v\nwant %s", c.in, err, c.want)
			}
			var buf bytes.Buffer
			if _, serr := m.Copy(&buf, &chunkReader{data: []byte(c.in), size: 1}); serr == nil || err == nil || serr.Error() != err.Error() {
				t.Errorf("%s: streamed error %v, in memory %v", c.in, serr, err)
			}
		})
	}
}
