package tokenizer

import (
	"errors"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestUTF8ErrorOffsets checks that an invalid UTF-8 sequence is reported at
// its first byte, and with that byte, whatever follows it, wherever it lies
// in the kernels' 64-byte blocks, under every kernel set, in values and in
// keys, whole and split in two windows at every byte, and one byte a window.
func TestUTF8ErrorOffsets(t *testing.T) { eachKernelSet(t, testUTF8ErrorOffsets) }

func testUTF8ErrorOffsets(t *testing.T) {
	for _, c := range []struct {
		name string
		bad  string // the invalid sequence and what follows it in the string
		at   int    // index in bad of the byte the error names
	}{
		{"CutBeforeASCII", "\xc3(", 0},
		{"CutBeforeQuote", "\xc3\"", 0},
		{"CutBeforeBackslash", `\xc3\n`, 0},
		{"CutThreeByteAfterOne", "\xe3\x81(", 0},
		{"CutThreeByteAfterLead", "\xe3(", 0},
		{"CutFourByteAfterTwo", "\xf0\x9f\x98(", 0},
		{"LeadThenLead", "\xc3\xc3\xa9", 0},
		{"ThreeByteLeadThenLead", "\xe3\x81\xc1", 0},
		{"Overlong2", "\xc0\xaf", 0},
		{"Overlong3", "\xe0\x80\x80", 0},
		{"Overlong4", "\xf0\x8f\xbf\xbf", 0},
		{"Surrogate", "\xed\xa0\x80", 0},
		{"AboveMax", "\xf4\x90\x80\x80", 0},
		{"NoLeadF5", "\xf5\x80\x80\x80", 0},
		{"StrayContinuation", "\x80", 0},
		{"StrayFF", "\xff", 0},
		{"AfterValidTwoByte", "é\xc3(", 2},
		{"AfterValidFourByte", "😋\xe3\x81(", 4},
		{"ValidThenStrayContinuation", "é\x80", 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			bad := strings.ReplaceAll(c.bad, `\xc3`, "\xc3")
			// Text before the sequence: nothing, and enough of each kind to
			// put it at every place in a block, and past one.
			for _, fill := range []string{"a", "é", "日", `\n`} {
				for n := 0; n*len(fill) <= 140; n++ {
					if m := n * len(fill) % 64; fill != "a" && m > 8 && m < 56 {
						continue // far from a block's edge: the ASCII fill has these
					}
					pad := strings.Repeat(fill, n)
					for _, doc := range []struct{ pre, post string }{
						{`["`, `"]`}, {`{"`, `":1}`}, {`{"k":"`, `"}`},
					} {
						body := pad + bad + strings.Repeat("x", 70)
						d := []byte(doc.pre + body + doc.post)
						want := int64(len(doc.pre) + len(pad) + c.at)
						checkUTF8Error(t, d, want, n == 0)
					}
				}
			}
		})
	}
}

// checkUTF8Error scans doc whole, split in two at every byte, and a byte at a
// time (when bytewise: no kernel runs then, so where the sequence lies does
// not matter), with SkipValue, AppendValue and Next, and wants the same
// error each time: invalid UTF-8 at offset want, naming the byte there.
func checkUTF8Error(t *testing.T, doc []byte, want int64, bytewise bool) {
	t.Helper()
	msg := "invalid UTF-8 byte " + QuoteChar(doc[want]) + " in string"
	if r, _ := utf8.DecodeRune(doc[want:]); r != utf8.RuneError {
		t.Fatalf("%q: the test's offset %d starts a valid sequence", doc, want)
	}
	check := func(how string, err error) {
		t.Helper()
		var te *Error
		if !errors.As(err, &te) || te.Offset != want || te.Msg != msg {
			t.Fatalf("%q %s: %v, want %q at offset %d", doc, how, err, msg, want)
		}
	}
	for cut := 0; cut <= len(doc); cut++ {
		if cut != 0 && cut != len(doc) && (cut < int(want)-2 || cut > int(want)+5) && cut%32 != 0 {
			continue // the cuts far from the sequence are alike
		}
		ends := []int{cut, len(doc)}
		_, err := byValueAt(doc, ends, false)
		check("SkipValue cut at "+strconv.Itoa(cut), err)
		_, err = byValueAt(doc, ends, true)
		check("AppendValue cut at "+strconv.Itoa(cut), err)
		_, err = byTokenAt(doc, ends)
		check("Next cut at "+strconv.Itoa(cut), err)
	}
	if bytewise {
		_, err := byValue(doc, 1, true)
		check("AppendValue at window 1", err)
		_, err = byToken(doc, 1)
		check("Next at window 1", err)
	}
}

// FuzzUTF8Error scans any bytes inside a string, in a value or a key, whole,
// split in two at cut, and a byte a window, and checks the error against
// the standard library: no error before it (bar the end of the input) lets
// invalid UTF-8 through, an invalid UTF-8 error lies where utf8 finds the
// first invalid sequence, and every way of scanning gives the same error.
func FuzzUTF8Error(f *testing.F) {
	for _, seed := range []string{"\xc3(", "é\xc3(", "\xe3\x81(", "\xf0\x9f\x98(", "\xe0\x80\x80", "\xed\xa0\x80",
		"\xf4\x90\x80\x80", "\x80", "日本\xff", strings.Repeat("é", 40) + "\xe3\x81\xc1"} {
		f.Add([]byte(seed), uint16(3), false)
		f.Add([]byte(strings.Repeat("a", 61)+seed), uint16(64), true)
	}
	f.Fuzz(func(t *testing.T, text []byte, cut uint16, key bool) {
		doc := []byte(`["` + string(text) + `"]`)
		if key {
			doc = []byte(`{"` + string(text) + `":1}`)
		}
		_, err := byValue(doc, len(doc)+1, true)
		var te *Error
		if err == nil || !errors.As(err, &te) || te.Msg == "unexpected end of JSON input" {
			return
		}
		p := int(te.Offset)
		if !utf8.Valid(doc[:p]) {
			t.Fatalf("%q: %v, after invalid UTF-8", doc, err)
		}
		if strings.HasPrefix(te.Msg, "invalid UTF-8") {
			if r, _ := utf8.DecodeRune(doc[p:]); r != utf8.RuneError {
				t.Fatalf("%q: %v, where a valid sequence starts", doc, err)
			}
		}
		c := int(cut) % (len(doc) + 1)
		for how, f := range map[string]func() ([]byte, error){
			"SkipValue cut":   func() ([]byte, error) { return byValueAt(doc, []int{c, len(doc)}, false) },
			"AppendValue cut": func() ([]byte, error) { return byValueAt(doc, []int{c, len(doc)}, true) },
			"Next cut":        func() ([]byte, error) { return byTokenAt(doc, []int{c, len(doc)}) },
			"AppendValue 1":   func() ([]byte, error) { return byValue(doc, 1, true) },
		} {
			if _, e := f(); e == nil || e.Error() != err.Error() {
				t.Fatalf("%q %s at %d: %v, whole: %v", doc, how, c, e, err)
			}
		}
	})
}
