package fallback

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"testing"
	"unicode/utf8"
)

// stringSeeds are strings that take every path of appendString: plain ASCII
// runs of every length around a word, the escapes, HTML, every length of
// UTF-8 sequence and the bounds of each (overlong forms, surrogates, past
// U+10FFFF), U+2028 and U+2029, and sequences cut short at the end.
var stringSeeds = []string{
	"", "a", "abcdefg", "abcdefgh", "abcdefghi", strings.Repeat("x", 33),
	`"`, `\`, "\b\f\n\r\t", "\x00\x01\x1f\x7f", "<", ">", "&", "a<b>&c", "<script>",
	"é", "日本語", "😀", "\u2028", "\u2029", "\u2027\u202a", "a\u2028b\u2029c",
	"\xe2\x80", "\xe2", "\xff", "\xc3", "\xc3(", "\xc0\x80", "\xc1\xbf", "\xe0\x80\x80", "\xe0\x9f\xbf", "\xe0\xa0\x80",
	"\xed\x9f\xbf", "\xed\xa0\x80", "\xed\xbf\xbf", "\xee\x80\x80", "\xef\xbf\xbf", "\xf0\x8f\xbf\xbf", "\xf0\x90\x80\x80",
	"\xf4\x8f\xbf\xbf", "\xf4\x90\x80\x80", "\xf5\x80\x80\x80", "\xf0\x9f\x98", "日本\xe8", "\x80\x80\x80",
	"あいうえおかきくけこ" + "abcdefghij" + "さしすせそ", "line1\nline2 <b>\u2028</b> é \xff end",
}

// TestAppendString: strings are written exactly as encoding/json writes them.
func TestAppendString(t *testing.T) {
	for _, s := range stringSeeds {
		checkString(t, s)
		checkString(t, s+strings.Repeat("z", 9)) // each again followed by a word of plain bytes
		checkString(t, strings.Repeat("y", 7)+s)
	}
}

func FuzzAppendString(f *testing.F) {
	for _, s := range stringSeeds {
		f.Add(s)
	}
	f.Fuzz(checkString)
}

func checkString(t *testing.T, s string) {
	want, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	if got := appendString([]byte("x"), s); !bytes.Equal(got[1:], want) {
		t.Errorf("appendString(%q)\n got %s\nwant %s", s, got[1:], want)
	}
	// The key Append sees is the string, unescaped.
	var back string
	if err := json.Unmarshal(want, &back); err != nil {
		t.Fatal(err)
	}
	if got := keyOf(s); got != back {
		t.Errorf("keyOf(%q) = %q, want %q", s, got, back)
	}
}

// TestSeqLen: seqLen accepts exactly the sequences utf8.DecodeRune accepts,
// for every first byte and enough of what may follow.
func TestSeqLen(t *testing.T) {
	tails := []string{"", "\x80", "\xbf", "\x7f", "\xc0", "\x80\x80", "\x8f\xbf", "\x90\x80", "\x9f\xbf", "\xa0\x80",
		"\xbf\xbf", "\x80\x80\x80", "\x90\x80\x80", "\x8f\xbf\xbf", "\xbf\xbf\xbf", "\x80\x7f", "\x80\x80\x7f"}
	for c := 0x80; c < 0x100; c++ {
		for _, tail := range tails {
			s := string(rune(0)) + string([]byte{byte(c)}) + tail
			r, size := utf8.DecodeRuneInString(s[1:])
			want := size
			if r == utf8.RuneError && size == 1 {
				want = 0
			}
			if got := seqLen(s, 1); got != want {
				t.Errorf("seqLen(%q) = %d, want %d", s[1:], got, want)
			}
		}
	}
}

// TestStops: stops flags a word exactly when one of its bytes is not plain.
func TestStops(t *testing.T) {
	for c := range 256 {
		for pos := range 8 {
			w := []byte("abcdefgh")
			w[pos] = byte(c)
			x := uint64(0)
			for i := 7; i >= 0; i-- {
				x = x<<8 | uint64(w[i])
			}
			want := c >= utf8.RuneSelf || !plain[c]
			if got := stops(x) != 0; got != want {
				t.Errorf("stops(%q) = %t, want %t", w, got, want)
			}
		}
	}
}

// floatSeeds are floats around encoding/json's switches between notations.
var floatSeeds = []float64{0, math.Copysign(0, -1), 1, -1, 0.1, 1e-6, 9.99999e-7, 1e-7, 1e20, 1e21, 9.99999e20, 123456789,
	1.5e300, -2.5e-300, math.MaxFloat64, math.SmallestNonzeroFloat64, math.MaxFloat32, 16777217, 1e-45, 3.4e38}

// TestAppendFloat: floats are written as encoding/json writes them, in both
// sizes.
func TestAppendFloat(t *testing.T) {
	for _, f := range floatSeeds {
		checkFloat(t, f)
	}
}

func FuzzAppendFloat(f *testing.F) {
	for _, x := range floatSeeds {
		f.Add(x)
	}
	f.Fuzz(checkFloat)
}

func checkFloat(t *testing.T, f float64) {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return
	}
	want64, _ := json.Marshal(f)
	if got := appendFloat(nil, f, 64); !bytes.Equal(got, want64) {
		t.Errorf("appendFloat(%v, 64) = %s, want %s", f, got, want64)
	}
	f32 := float32(f)
	if math.IsInf(float64(f32), 0) {
		return
	}
	want32, _ := json.Marshal(f32)
	if got := appendFloat(nil, float64(f32), 32); !bytes.Equal(got, want32) {
		t.Errorf("appendFloat(%v, 32) = %s, want %s", f32, got, want32)
	}
}

// TestValidNumber: validNumber agrees with encoding/json on what a
// json.Number may hold.
func TestValidNumber(t *testing.T) {
	for _, n := range []string{"0", "-0", "1", "-", "01", "1.", ".5", "1.5", "1e5", "1E+5", "1e-5", "1e", "1e+", "-1.5e-10", "+1",
		"1x", "0x10", "1.5.5", "Infinity", "NaN", " 1", "1 ", "10000000000000000999", "1e400", "-0.0e-0"} {
		_, err := json.Marshal(json.Number(n))
		if got := validNumber(n); got != (err == nil) {
			t.Errorf("validNumber(%q) = %t; encoding/json: %v", n, got, err)
		}
	}
}
