package toolresult

import (
	"math"
	"strconv"
	"testing"

	"github.com/jsonmask/jsonmask/internal/corpus"
	"github.com/jsonmask/jsonmask/tokenizer"
)

// checkFloat compares parseFloat with strconv.ParseFloat on the JSON
// number s, bit for bit where parseFloat decides.
func checkFloat(t *testing.T, s string) {
	t.Helper()
	got, ok := parseFloat(s)
	want, err := strconv.ParseFloat(s, 64)
	if !ok {
		return
	}
	if err != nil || math.Float64bits(got) != math.Float64bits(want) {
		t.Fatalf("parseFloat(%q) = %v (%#x), strconv.ParseFloat %v (%#x), %v", s, got, math.Float64bits(got), want, math.Float64bits(want), err)
	}
}

func TestParseFloat(t *testing.T) {
	for _, s := range []string{
		"0.0", "-0.0", "0e5", "-0E-5", "1.5", "-65.613616999999977", "1e22", "1e23", "9007199254740993.0",
		"9007199254740992.5", "0.1", "0.3", "123456789012345678.9", "1234567890123456789.0",
		"2.2250738585072014e-308", "1.7976931348623157e308", "4.9e-324", "1e-400", "1e400",
		"5e-324", "2.4703282292062328e-324", "1.00000000000000011102230246251565404236316680908203125",
		"9.007199254740993e15", "0.000000000000000000000000000000000000000000001",
		"1.448997445238699", "7.2057594037927933e16", "-1.2365485222325816", "1E+2", "1e-22", "1e-23",
	} {
		t.Run(s, func(t *testing.T) {
			checkFloat(t, s)
			if v := float(s); v.(float64) != func() float64 { f, _ := strconv.ParseFloat(s, 64); return f }() {
				t.Fatalf("float(%q) = %v", s, v)
			}
		})
	}
}

// TestParseFloatDecides: the fast paths decide the numbers documents
// hold (the corpus's floats), so that strconv.ParseFloat is the exception.
func TestParseFloatDecides(t *testing.T) {
	for _, name := range []string{"canada.json", "conversation_items.json", "citm_catalog.json"} {
		doc := corpus.File(t, name)
		var sc tokenizer.Scanner
		sc.Reset(0)
		var n, undecided int
		for i := 0; ; {
			tok, j, err := sc.Next(doc, i)
			if err != nil {
				t.Fatal(err)
			}
			if tok.Kind == tokenizer.None {
				break
			}
			i = j
			if tok.Kind != tokenizer.Number {
				continue
			}
			s := string(doc[tok.Start:tok.End])
			if _, isInt := number(s).(int); isInt {
				continue
			}
			n++
			if _, ok := parseFloat(s); !ok {
				undecided++
			}
			checkFloat(t, s)
		}
		t.Logf("%s: %d floats, %d left to strconv", name, n, undecided)
		if undecided*100 > n {
			t.Errorf("%s: %d of %d floats left to strconv", name, undecided, n)
		}
	}
}

func FuzzParseFloat(f *testing.F) {
	f.Add(uint64(65613616999999977), int16(-15), true)
	f.Add(uint64(1), int16(23), false)
	f.Add(uint64(9007199254740993), int16(0), false)
	f.Add(uint64(18446744073709551615), int16(-340), false)
	f.Fuzz(func(t *testing.T, man uint64, exp int16, neg bool) {
		s := strconv.FormatUint(man, 10)
		if neg {
			s = "-" + s
		}
		checkFloat(t, s+"e"+strconv.Itoa(int(exp)))
		checkFloat(t, s+".0e"+strconv.Itoa(int(exp)))
		if len(s) > 2 {
			checkFloat(t, s[:2]+"."+s[2:])
		}
		if e := int(exp % 30); e < 0 {
			checkFloat(t, "0."+zeros(-e)+strconv.FormatUint(man, 10))
		}
	})
}

func zeros(n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = '0'
	}
	return string(b)
}
