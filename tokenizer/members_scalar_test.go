package tokenizer

import (
	"slices"
	"strings"
	"testing"
)

// memberScalars are the values that Members reads itself, a plain string or
// a number of digits alone, and those around them that it leaves to
// scalarEnd: strings of 0 to 20 bytes with an escape, a quote escaped,
// non-ASCII text, a control byte or invalid UTF-8 at every place; numbers of
// every form; and literals.
func memberScalars() []string {
	var vs []string
	for n := range 21 {
		plain := strings.Repeat("a", n)
		vs = append(vs, `"`+plain+`"`, `"`+plain)
		for p := 0; p < n; p++ {
			for _, special := range []string{`\n`, `\"`, `\\`, `\u00e9`, `\u00`, "é", "😋", "\x01", "\x1f", "\x7f", "\xff", "\xc3", "\t", `"`} {
				vs = append(vs, `"`+plain[:p]+special+plain[p:]+`"`)
			}
		}
	}
	vs = append(vs,
		"0", "-0", "1", "9", "10", "1234567", "12345678", "123456789", "1234567890123456789",
		"0.5", "1.5", "-1", "-12", "1e5", "1E+5", "1e-5", "12345678e1", "0e0", "-0.0", "5.", "7e",
		"01", "00", "1.", "1e", "-", "1.e5", ".5", "+1", "1x", "0x1", "1 2", "tru", "true", "false", "null", "nul", "fals", "falsee", "truex", "true1", "nulll",
	)
	return vs
}

// TestMembersScalars: Members takes a member's scalar value exactly where
// scalarEnd would, at the same end, whatever follows it and wherever the
// window ends, in both modes and with a limit on tokens at the value's length
// and one byte shorter: the fast reading of short strings and numbers in its
// loop must agree with scalarEnd, which Scalar and value share.
func TestMembersScalars(t *testing.T) {
	var s, ref Scanner // reused: the heads they learn are kept
	for _, v := range memberScalars() {
		checkMemberScalar(t, &s, &ref, v, memberAfters)
	}
}

// memberAfters are what follows the value in checkMemberScalar's documents.
var memberAfters = []string{`,"b":1}`, `}`, ` }`, "\n}", `]`, `:`, `x`, `"`, `,` + strings.Repeat(" ", 20) + `"b":1}`}

// memberLongStrings are string values of 15 to 100 bytes, which Members reads
// a word at a time for their first 16 bytes and then by plainRun, 32 bytes a
// step: plain, and with what ends plain text (an escape, an escaped quote,
// non-ASCII text, a control byte, invalid UTF-8, the quote) at every place.
func memberLongStrings() []string {
	var vs []string
	for _, n := range []int{15, 16, 17, 23, 24, 31, 32, 33, 47, 48, 49, 63, 64, 65, 80, 100} {
		plain := strings.Repeat("https://builds.apache.org/job/", 4)[:n]
		vs = append(vs, `"`+plain+`"`, `"`+plain)
		vs = withSpecials(vs, plain, 1, n-1, []string{`\n`, `\"`, `\u00e9`, "é", "\x01", "\x1f", "\x7f", "\xff", "\xc3", `"`})
	}
	return vs
}

// TestMembersLongStrings is TestMembersScalars for memberLongStrings, with
// each kernel set (plainRun's kernel and its twin) and more room after the
// value, so that the window holds the 48 bytes past the string's start that
// the kernel's path asks for, or not, at every cut.
func TestMembersLongStrings(t *testing.T) {
	eachKernelSet(t, func(t *testing.T) {
		var s, ref Scanner
		for _, v := range memberLongStrings() {
			checkMemberScalar(t, &s, &ref, v, []string{`,"b":1}`, `}`, "\n}", `,` + strings.Repeat(" ", 60) + `"b":1}`})
		}
	})
}

// checkMemberScalar checks, for the document {"a":v followed by each of
// afters, cut at every length, in both modes and with a limit on tokens at
// the value's length and one byte shorter, that Members ends the value
// where scalarEnd does.
func checkMemberScalar(t *testing.T, s, ref *Scanner, v string, afters []string) {
	t.Helper()
	for _, after := range afters {
		doc := []byte(`{"a":` + v + after)
		for _, trusted := range []bool{false, true} {
			for _, limit := range []int{0, len(v), len(v) - 1} {
				if limit > 0 && limit < 3 {
					continue // shorter than the key, "a"
				}
				for cut := 6; cut <= len(doc); cut++ {
					src := doc[:cut]
					s.Reset(0)
					s.SetMaxToken(limit)
					ref.Reset(0)
					ref.SetMaxToken(limit)
					if _, err := s.Open(src, 0); err != nil {
						t.Fatal(err)
					}
					var spans [4]MemberSpan
					n, _, _ := s.Members(src, 1, spans[:], trusted, ^uint64(0), nil)
					want := ref.scalarEnd(src, 5, trusted)
					if n == 0 {
						t.Fatalf("%q (trusted %v, limit %d): no span", src, trusted, limit)
					}
					if got := spans[0].ValueEnd; got != want {
						t.Fatalf("%q (trusted %v, limit %d): Members ends the value at %d, scalarEnd at %d", src, trusted, limit, got, want)
					}
				}
			}
		}
	}
}

// memberTextStrings are string values that are not plain from their first
// stops on: text in most scripts, escaped text, and each with what ends a
// string early (an escaped quote, a control byte, invalid UTF-8, a cut
// sequence or escape, the quote) at every place of a 2- to 70-byte text.
func memberTextStrings() []string {
	var vs []string
	for _, text := range []string{"über in", "日本語のテキストです。日本語", `\u3042\u3044\u3046\u3048\u304a\u304b`, "a\\nb\\tc \\\"q\\\" é"} {
		for len(text) < 70 {
			text += text
		}
		for _, n := range []int{2, 7, 15, 16, 17, 33, 63, 64, 65, 70} {
			t := text[:n]
			vs = append(vs, `"`+t+`"`, `"é`+t+`"`, `"\\`+t+`"`)
			vs = withSpecials(vs, t, 3, n, []string{`\"`, "\x01", "\xff", "\xc3", "\xe6\x97", `\u00`, `\x`, `"`})
		}
	}
	return vs
}

// withSpecials appends to vs the string values of text with each of specials
// put at every step-th place from 0 to last.
func withSpecials(vs []string, text string, step, last int, specials []string) []string {
	for p := 0; p <= last; p += step {
		for _, special := range specials {
			vs = append(vs, `"`+text[:p]+special+text[p:]+`"`)
		}
	}
	return vs
}

// TestMembersTextStrings is TestMembersScalars for memberTextStrings, with
// each kernel set and a block of room after the value, so that Members
// hands them to the string kernel at once (stringValueEnd) at most cuts.
func TestMembersTextStrings(t *testing.T) {
	eachKernelSet(t, func(t *testing.T) {
		var s, ref Scanner
		for _, v := range memberTextStrings() {
			checkMemberScalar(t, &s, &ref, v, []string{`,` + strings.Repeat(" ", 70) + `"b":1}`, `}`})
		}
	})
}

// TestMembersTextKeys: Members ends a key that is not plain (memberTextStrings
// as keys, with a block of room after it, so that keyRest hands it to
// stringShort) where the byte loops do, with the same Escaped, under each
// kernel set, wherever the window ends; and, whole, where Next ends it.
func TestMembersTextKeys(t *testing.T) {
	type result struct {
		n, at      int
		start, end int
		escaped    bool
	}
	var scanners [4]Scanner // one a set, reused: the heads they learn are kept
	members := func(src []byte, k kernelSet) (r result) {
		withKernels(k, func() {
			s := &scanners[slices.Index(kernelSets, k)]
			s.Reset(0)
			if _, err := s.Open(src, 0); err != nil {
				t.Fatal(err)
			}
			var spans [4]MemberSpan
			r.n, r.at, _ = s.Members(src, 1, spans[:], false, ^uint64(0), nil)
			if r.n > 0 {
				r.start, r.end, r.escaped = spans[0].KeyStart, spans[0].KeyEnd, spans[0].Escaped
			}
		})
		return r
	}
	for _, v := range memberTextStrings() {
		doc := []byte(`{` + v + `:1,` + strings.Repeat(" ", 70) + `"b":1}`)
		var s Scanner
		s.Reset(0)
		if _, i, err := s.Next(doc, 0); err == nil {
			if tok, _, err := s.Next(doc, i); err == nil && doc[tok.End] == ':' {
				if r := members(doc, kernelsAVX2); r.n == 0 || r.end != tok.End || r.escaped != tok.Escaped {
					t.Fatalf("%q: Members %+v, Next ends the key at %d, escaped %v", doc, r, tok.End, tok.Escaped)
				}
			}
		}
		for cut := 2; cut <= len(doc); cut++ {
			want := members(doc[:cut], kernelsNone)
			for _, k := range kernelSets[1:] {
				if !k.available() {
					continue
				}
				if got := members(doc[:cut], k); got != want {
					t.Fatalf("%s: %q cut at %d: Members %+v, byte loops %+v", k.name, doc, cut, got, want)
				}
			}
		}
	}
}
