package stream

import (
	"fmt"
	"strings"
	"testing"

	"github.com/jsonmask/jsonmask/compile"
	"github.com/jsonmask/jsonmask/internal/reference"
)

// shortMask keeps text and status of the rows' objects, and text of their
// masked child d: a member of each kind that Scanner.Members reads in its
// batch (kept, dropped by its key's length, dropped by a lookup, inside a
// child object it goes down into).
const shortMask = `{"rows":{"text":true,"status":true,"d":{"text":true}},"keep":true}`

// shortDoc is an array of alike objects, so that Members has learned their
// heads and layout when it meets the fifth, which holds v in each place, in
// the layout that sep (after ',') and colon give, and its keys text and
// tex_, which differ in their last byte, swapped. It returns the document
// and where the fifth object starts.
func shortDoc(v, sep, colon string) (string, int) {
	el := func(v, a, b string) string {
		return `{` + sep + a + colon + v + `,` + sep + `"value"` + colon + v + `,` + sep + b + colon + v + `,` + sep +
			`"d"` + colon + `{` + sep + `"text"` + colon + v + `,` + sep + `"value"` + colon + v + `}` + `,` + sep + `"status"` + colon + `"OK"}`
	}
	plain := el(`"1 m"`, `"text"`, `"tex_"`)
	head := `{"rows":[` + strings.Repeat(plain+`,`+sep, 4)
	return head + el(v, `"tex_"`, `"text"`) + `,` + sep + plain + `],"keep":` + v + `}`, len(head)
}

// shortValues returns the scalars that Members' own reading of short strings
// and numbers meets, valid and not: strings of 0 to 20 bytes with an escape,
// a quote escaped, non-ASCII text, a control byte or invalid UTF-8 at every
// place; numbers of every form, and what may follow them.
func shortValues() []string {
	var vs []string
	for n := range 21 {
		plain := strings.Repeat("a", n)
		vs = append(vs, `"`+plain+`"`)
		for p := 0; p < n; p++ {
			if n > 17 && p > 1 && p < n-2 && p != n/2 {
				continue // every place up to two words and a quote; the ends past them
			}
			for _, special := range []string{`\n`, `\"`, `\\`, `\u00e9`, "é", "😋", "\x01", "\x1f", "\x7f", "\xff", "\xc3", "\t"} {
				vs = append(vs, `"`+plain[:p]+special+plain[p:]+`"`)
			}
		}
	}
	vs = append(vs,
		"0", "-0", "1", "9", "10", "1234567", "12345678", "123456789", "1234567890123456789",
		"0.5", "1.5", "-1", "-12", "1e5", "1E+5", "1e-5", "12345678e1", "0e0", "-0.0",
		"01", "00", "1.", "1e", "-", "1.e5", ".5", "+1", "1x", "0x1", "1 2", "tru", "true", "false", "null", "nul", "fals", "falsee", "truex", "true1", "nulll",
	)
	return vs
}

// TestShortScalars masks documents whose members hold short strings and
// numbers, valid and not, pretty-printed and not, whole, split in two at
// every byte and a byte at a time: the output must be the reference
// masker's, or an error for the same inputs, and the same every way
// (error, offset and pointer included, SPEC S1). Trusted mode must give the
// same output for valid input (SPEC V4); a limit on tokens must take the
// value at its length and refuse it one byte shorter.
func TestShortScalars(t *testing.T) {
	prog, err := compile.Compile([]byte(shortMask), compile.Options{Wildcards: true})
	if err != nil {
		t.Fatal(err)
	}
	wild, err := compile.Compile([]byte(`{"rows":{"*":{"text":true}},"keep":true}`), compile.Options{Wildcards: true})
	if err != nil {
		t.Fatal(err)
	}
	layouts := []struct{ name, sep, colon string }{{"Minified", "", ":"}, {"Pretty", "\n    ", " : "}}
	values := shortValues()
	if testing.Short() { // every 8th, so that each kind still comes
		for k := range len(values) / 8 {
			values[k] = values[8*k+k%8]
		}
		values = values[:len(values)/8]
	}
	for _, l := range layouts {
		for k, v := range values {
			doc, from := shortDoc(v, l.sep, l.colon)
			t.Run(fmt.Sprintf("%s/%d", l.name, k), func(t *testing.T) {
				want, werr := reference.Reference([]byte(shortMask), []byte(doc), reference.Options{})
				got := checkEveryWay(t, prog, Config{}, doc, from)
				if (werr != nil) != strings.HasPrefix(got, "error: ") || werr == nil && got != string(want) {
					t.Fatalf("value %q: got\n%s\nreference\n%s, %v", v, got, want, werr)
				}
				if werr != nil {
					return
				}
				if trusted := checkEveryWay(t, prog, Config{Trusted: true}, doc, from); trusted != got {
					t.Fatalf("value %q: trusted\n%s\ndefault\n%s", v, trusted, got)
				}
				dm, _ := reference.Reference([]byte(shortMask), []byte(doc), reference.Options{DropMismatched: true})
				if got := checkEveryWay(t, prog, Config{DropMismatched: true}, doc, from); got != string(dm) {
					t.Fatalf("value %q: DropMismatched\n%s\nreference\n%s", v, got, dm)
				}
				checkEveryWay(t, wild, Config{}, doc, from)
				if n := len(v); n > 9 { // longer than every other token
					if got := checkEveryWay(t, prog, Config{MaxToken: n}, doc, from); got != string(want) {
						t.Fatalf("value %q, MaxToken %d: got\n%s\nwant\n%s", v, n, got, want)
					}
					if got := checkEveryWay(t, prog, Config{MaxToken: n - 1}, doc, from); !strings.Contains(got, "longer than") {
						t.Fatalf("value %q, MaxToken %d: got\n%s\nwant an error", v, n-1, got)
					}
				}
			})
		}
	}
}

// checkEveryWay masks doc with prog and cfg whole, split in two at every
// byte from from on (where what is being tested starts) and a byte at a
// time, fails unless each way gives the same result (dropResult), and
// returns it.
func checkEveryWay(t *testing.T, prog *compile.Program, cfg Config, doc string, from int) string {
	t.Helper()
	var m Machine
	src := []byte(doc)
	m.Reset(prog, cfg)
	out, err := m.Append(nil, src)
	want := dropResult(out, err)
	for cut := from; cut <= len(src); cut++ {
		m.Reset(prog, cfg)
		if got := dropResult(writeAll(&m, src[:cut], src[cut:])); got != want {
			t.Fatalf("doc %q: split at %d: got\n%s\nwhole\n%s", doc, cut, got, want)
		}
	}
	bytes := make([][]byte, len(src))
	for k := range src {
		bytes[k] = src[k : k+1]
	}
	m.Reset(prog, cfg)
	if got := dropResult(writeAll(&m, bytes...)); got != want {
		t.Fatalf("doc %q: a byte at a time: got\n%s\nwhole\n%s", doc, got, want)
	}
	return want
}

// TestShortMovesLeaveNoDroppedBytes: members and descended write a short
// kept member with 16-byte moves into the room of the caller's buffer, which
// carry the bytes that follow its key and value in the input, a dropped
// member's among them. Nothing of a dropped value may be left in the buffer,
// not even past the output's end: masked whole (Append) and streamed, into a
// buffer with room to spare, the whole capacity must hold no canary.
func TestShortMovesLeaveNoDroppedBytes(t *testing.T) {
	const canary = "CANARY"
	el := `{"text":"1","value":"` + canary + `","d":{"text":2,"value":"` + canary + `"},"status":3,"x":"` + canary + `"}`
	opened := `{"d":{"v":"` + canary + `","text":2},"text":"1","d":{"text_":"` + canary + `"},"x":"` + canary + `"}`
	for _, doc := range []string{
		`{"rows":[` + strings.Repeat(el+`,`, 5) + el + `]}`,
		"{\"rows\" : [ " + strings.Repeat(strings.NewReplacer(`":`, `" : `, `,`, ",\n  ").Replace(el)+", ", 5) + "{}]}",
		`{"rows":[` + el + `],"keep":1,"zz":"` + canary + `"}`,
		// The key of an opened child object (moveOpen) moves the child's
		// first member with it: a dropped one, and one dropped by its
		// key's length.
		`{"rows":[` + strings.Repeat(opened+`,`, 5) + opened + `]}`,
		"{\"rows\" : [ " + strings.Repeat(strings.NewReplacer(`":`, `" : `, `,`, ",\n  ").Replace(opened)+", ", 5) + "{}]}",
		`{"rows":[` + strings.Repeat(`{"d":{"zzz":"`+canary+`","padding_dropped_too":1}},`, 6) + `{}]}`,
	} {
		prog, err := compile.Compile([]byte(shortMask), compile.Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, cfg := range []Config{{}, {Trusted: true}} {
			var m Machine
			m.Reset(prog, cfg)
			out, err := m.Append(make([]byte, 0, 4096), []byte(doc))
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(string(out[:cap(out)]), canary[:4]) {
				t.Fatalf("Append: the buffer holds a dropped value past the output's end:\n%q", out[len(out):min(len(out)+32, cap(out))])
			}
			for cut := range len(doc) {
				m.Reset(prog, cfg)
				out := make([]byte, 0, 4096)
				out, _, err := m.Write(out, []byte(doc[:cut]))
				if strings.Contains(string(out[:cap(out)]), canary[:4]) {
					t.Fatalf("split at %d, first window: the buffer holds a dropped value past the output's end:\n%q", cut, out[len(out):min(len(out)+32, cap(out))])
				}
				if err == nil {
					out, _, err = m.Write(out, []byte(doc[cut:]))
				}
				if err != nil {
					t.Fatal(err)
				}
				if strings.Contains(string(out[:cap(out)]), canary[:4]) {
					t.Fatalf("split at %d: the buffer holds a dropped value past the output's end:\n%q", cut, out[len(out):min(len(out)+32, cap(out))])
				}
			}
		}
	}
}
