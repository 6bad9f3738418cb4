package tokenizer

import (
	"bytes"
	"math/big"
	"strconv"
	"testing"
)

// scalarTok is a scalar or a key that a walk read: its span.
type scalarTok struct {
	start, end int
	key        bool
}

// The batch loops a walk uses (walkScalars' loops).
const (
	useElements = 1 << iota // ScalarElements in arrays
	useMembers              // ScalarMembers in objects
)

// walkScalars reads doc in one window and returns the spans of its scalar
// values and keys and the error that ends it: with Next for every token,
// or, when batch is not 0, with the batch loops of use (ScalarElements
// wherever the innermost container is an array, ScalarMembers wherever it
// is an object) in batches of that many, and Next for the rest. Each
// number the loops read has its parts checked, each string its Escaped.
func walkScalars(t *testing.T, doc []byte, batch, use int) ([]scalarTok, error) {
	var s Scanner
	s.Reset(16)
	var toks []scalarTok
	var stack []Kind
	spans := make([]ElementSpan, batch)
	mspans := make([]MemberElement, batch)
	i := 0
	for {
		if batch > 0 && use&useMembers != 0 && len(stack) > 0 && stack[len(stack)-1] == ObjectStart {
			n, at, stop := s.ScalarMembers(doc, i, mspans)
			for k, sp := range mspans[:n] {
				toks = append(toks, scalarTok{sp.KeyStart, sp.KeyEnd, true})
				checkEscaped(t, doc[sp.KeyStart:sp.KeyEnd], sp.KeyEscaped)
				if k < n-1 || stop != ArrayStart && stop != ObjectStart {
					toks = append(toks, checkElement(t, doc, sp.Value))
				} else if sp.Value.End != 0 {
					t.Fatalf("container value with End %d", sp.Value.End)
				}
			}
			i = at
			switch stop {
			case ObjectEnd:
				stack = stack[:len(stack)-1]
				continue
			case ArrayStart, ObjectStart:
				if doc[i] != byte(stop) {
					t.Fatalf("stopped at %q for %q", doc[i], stop)
				}
				if len(toks)%2 == 0 {
					if _, err := s.Open(doc, i); err != nil {
						_, _, err = s.Next(doc, i)
						return toks, err
					}
					i++
					stack = append(stack, stop)
					continue
				}
			default:
				if n == len(mspans) {
					continue
				}
			}
		}
		if batch > 0 && use&useElements != 0 && len(stack) > 0 && stack[len(stack)-1] == ArrayStart {
			n, at, stop := s.ScalarElements(doc, i, spans)
			for _, sp := range spans[:n] {
				toks = append(toks, checkElement(t, doc, sp))
			}
			i = at
			if stop == ArrayEnd {
				stack = stack[:len(stack)-1]
				continue
			}
			if stop == ArrayStart || stop == ObjectStart {
				if doc[i] != byte(stop) {
					t.Fatalf("stopped at %q for %q", doc[i], stop)
				}
				// Open, or Next, goes on: both here, by turns.
				if len(toks)%2 == 0 {
					if _, err := s.Open(doc, i); err != nil {
						// Too deep: Next says so.
						_, _, err = s.Next(doc, i)
						return toks, err
					}
					i++
					stack = append(stack, stop)
					continue
				}
			} else if n == len(spans) {
				continue
			}
		}
		tok, j, err := s.Next(doc, i)
		if err != nil {
			return toks, err
		}
		i = j
		switch {
		case tok.More:
			toks = append(toks, scalarTok{tok.Start, len(doc), false})
			return toks, s.End(len(doc))
		case tok.Kind == None:
			return toks, s.End(len(doc))
		case tok.Kind == ObjectStart || tok.Kind == ArrayStart:
			stack = append(stack, tok.Kind)
		case tok.Kind == ObjectEnd || tok.Kind == ArrayEnd:
			stack = stack[:len(stack)-1]
		default:
			toks = append(toks, scalarTok{tok.Start, tok.End, tok.Key})
		}
	}
}

// checkElement checks the parts of the number, or the Escaped of the
// string, that a batch loop read into sp, and returns its span.
func checkElement(t *testing.T, doc []byte, sp ElementSpan) scalarTok {
	t.Helper()
	switch c := doc[sp.Start]; {
	case c == '-' || c-'0' < 10:
		checkParts(t, string(doc[sp.Start:sp.End]), sp.Num)
	case c == '"':
		checkEscaped(t, doc[sp.Start:sp.End], sp.Escaped)
	}
	return scalarTok{sp.Start, sp.End, false}
}

// checkEscaped checks that escaped says whether the string tok holds a
// backslash.
func checkEscaped(t *testing.T, tok []byte, escaped bool) {
	t.Helper()
	if escaped != bytes.Contains(tok, []byte{'\\'}) {
		t.Fatalf("%q: Escaped %v", tok, escaped)
	}
}

// checkParts checks the parts ScalarElements read from the number literal
// lit: where Digits allows, ±Mantissa·10^Exp is its exact value.
func checkParts(t *testing.T, lit string, p NumberParts) {
	t.Helper()
	if p.Neg != (lit[0] == '-') {
		t.Fatalf("%s: Neg %v", lit, p.Neg)
	}
	isInt := true
	for _, c := range lit {
		if c == '.' || c == 'e' || c == 'E' {
			isInt = false
		}
	}
	if p.Int != isInt {
		t.Fatalf("%s: Int %v", lit, p.Int)
	}
	if p.Digits > 19 {
		return
	}
	if p.Exp > 1<<16 || p.Exp < -1<<16 {
		return // 0 or Inf as a float64, and past what big.Rat takes
	}
	want, ok := new(big.Rat).SetString(lit)
	if !ok {
		t.Fatalf("%s: not a number for big.Rat", lit)
	}
	got := new(big.Rat).SetInt(new(big.Int).SetUint64(p.Mantissa))
	pow := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(max(p.Exp, -p.Exp))), nil)
	if p.Exp >= 0 {
		got.Mul(got, new(big.Rat).SetInt(pow))
	} else {
		got.Quo(got, new(big.Rat).SetInt(pow))
	}
	if p.Neg {
		got.Neg(got)
	}
	if got.Cmp(want) != 0 {
		t.Fatalf("%s: parts %+v make %s", lit, p, got.RatString())
	}
}

// checkScalarElements compares the walks of doc with the batch loops of
// use and with Next alone: the same scalars and keys, the same error
// (message and offset), at every batch size.
func checkScalarElements(t *testing.T, doc []byte, use int) {
	t.Helper()
	want, wantErr := walkScalars(t, doc, 0, 0)
	for _, batch := range []int{1, 2, 3, 32} {
		got, err := walkScalars(t, doc, batch, use)
		if (err == nil) != (wantErr == nil) || err != nil && err.Error() != wantErr.Error() {
			t.Fatalf("batch %d: error %v, Next alone %v", batch, err, wantErr)
		}
		if len(got) != len(want) {
			t.Fatalf("batch %d: %d scalars, Next alone %d", batch, len(got), len(want))
		}
		for k := range got {
			if got[k] != want[k] {
				t.Fatalf("batch %d: scalar %d at %v, Next alone %v", batch, k, got[k], want[k])
			}
		}
	}
}

var scalarElementsDocs = []struct{ name, doc string }{
	{"Scalars", `[1,-2.5e3,"x\n",true,null,false,0,-0,"",12345678901234567890123]`},
	{"Spaces", "[ 1 ,\n\t2 , \"a\" ]"},
	{"Empty", `[]`},
	{"EmptySpaces", `[ ]`},
	{"Nested", `[[1,[2,[]]],{"a":[3,{"b":[4]}]},[5]]`},
	{"TooDeep", `[1,[2,[3,[4,[5,[6,[7,[8,[9,[10,[11,[12,[13,[14,[15,[16,[17,[18]]]]]]]]]]]]]]]]]]`},
	{"ContainerFirst", `[[],{},[[]],{"a":[]}]`},
	{"Fractions", `[0.1,1.25,-65.613616999999977,43.420273000000009,1.7976931348623157e308,5e-324,0.000001,123456789.123456789]`},
	{"Exponents", `[1e2,1E+2,1e-2,-0e0,0.5E-0,1e99999999999,1e-99999999999]`},
	{"LeadingZero", `[01]`},
	{"TrailingComma", `[1,]`},
	{"LeadingComma", `[,1]`},
	{"NoComma", `[1 2]`},
	{"Minus", `[-]`},
	{"MinusSpace", `[- 1]`},
	{"DotNoDigits", `[1.]`},
	{"DotThenE", `[1.e5]`},
	{"ENoDigits", `[1e]`},
	{"ESignNoDigits", `[1e+]`},
	{"OpenString", `["a]`},
	{"BadLiteral", `[tru]`},
	{"BadEscape", `["\x"]`},
	{"ObjectInArray", `[1,{"a":1},2]`},
	{"Unclosed", `[1,2`},
	{"UnclosedNumber", `[1,2.5`},
	{"Many", `[` + func() string {
		s := "0"
		for k := 1; k < 100; k++ {
			s += "," + strconv.Itoa(k*k*k) + ".5"
		}
		return s
	}() + `]`},
}

func TestScalarElements(t *testing.T) {
	for _, tc := range scalarElementsDocs {
		t.Run(tc.name, func(t *testing.T) {
			checkScalarElements(t, []byte(tc.doc), useElements)
			// Every window of the document: what ScalarElements reads
			// in a window is what it reads in the whole document.
			for k := range len(tc.doc) {
				var whole, cut Scanner
				whole.Reset(0)
				cut.Reset(0)
				doc := []byte(tc.doc)
				if doc[0] != '[' {
					continue
				}
				_, _, _ = whole.Next(doc, 0)
				_, _, _ = cut.Next(doc[:k+1], 0)
				var a, b [64]ElementSpan
				na, _, _ := whole.ScalarElements(doc, 1, a[:])
				nb, atb, stop := cut.ScalarElements(doc[:k+1], 1, b[:])
				if nb > na || atb > k+1 || stop == ArrayEnd && nb < na {
					t.Fatalf("window %d: %d spans, whole document %d", k+1, nb, na)
				}
				for m := range b[:nb] {
					if b[m].Start != a[m].Start || b[m].End != a[m].End || b[m].Num != a[m].Num {
						t.Fatalf("window %d: span %d %+v, whole document %+v", k+1, m, b[m], a[m])
					}
				}
			}
		})
	}
}

func FuzzScalarElements(f *testing.F) {
	for _, tc := range scalarElementsDocs {
		f.Add([]byte(tc.doc))
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		checkScalarElements(t, doc, useElements)
	})
}
