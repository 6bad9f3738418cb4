package toolresult

import (
	"math"
	"math/big"
	"strconv"
	"testing"

	"github.com/jsonmask/jsonmask/corpus"
	"github.com/jsonmask/jsonmask/tokenizer"
)

// parseFloatString reads the integer part of s as number does, and hands
// the rest to parseFloat.
func parseFloatString(s string) (float64, bool) {
	b := []byte(s)
	i, neg := 0, b[0] == '-'
	if neg {
		i = 1
	}
	man, j := readDigits(b, i, len(b), 0)
	if j == len(b) {
		return 0, false // an integer: not parseFloat's
	}
	return parseFloat(b, len(b), man, i, j, neg)
}

// TestPow10Table computes the table again, exactly, with math/big.
func TestPow10Table(t *testing.T) {
	ten := big.NewInt(10)
	for q := minPow10; q <= maxPow10; q++ {
		x := new(big.Int).Exp(ten, big.NewInt(int64(max(q, -q))), nil)
		n := x.BitLen()
		var p *big.Int
		var e2 int
		switch {
		case q >= 0 && n <= 128:
			p, e2 = x.Lsh(x, uint(128-n)), n-1
		case q >= 0:
			p, e2 = x.Rsh(x, uint(n-128)), n-1
		default:
			// 10^-|q| = 2^(127+n)/10^|q| · 2^(-n-127); 10^|q| is not a
			// power of two, so ⌊log2 10^q⌋ = -n.
			p = new(big.Int).Lsh(big.NewInt(1), uint(127+n))
			p, e2 = p.Quo(p, x), -n
		}
		want := pow128{hi: new(big.Int).Rsh(p, 64).Uint64(), lo: new(big.Int).And(p, new(big.Int).SetUint64(math.MaxUint64)).Uint64(), e2: e2}
		if got := pow10Table[q-minPow10]; got != want {
			t.Fatalf("1e%d: %+v, want %+v", q, got, want)
		}
	}
}

// checkFloat compares parseFloat with strconv.ParseFloat on the JSON
// number s, bit for bit where parseFloat decides.
func checkFloat(t *testing.T, s string) {
	t.Helper()
	got, ok := parseFloatString(s)
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
			want, _ := strconv.ParseFloat(s, 64) // ±Inf past the range
			if v := number([]byte(s), 0, len(s), new(boxes)); math.Float64bits(v.(float64)) != math.Float64bits(want) {
				t.Fatalf("number(%q) = %v, want %v", s, v, want)
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
			if _, isInt := number([]byte(s), 0, len(s), new(boxes)).(int); isInt {
				continue
			}
			n++
			if _, ok := parseFloatString(s); !ok {
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
