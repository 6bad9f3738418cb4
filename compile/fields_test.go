package compile

import (
	"errors"
	"strings"
	"testing"

	"github.com/jsonmask/jsonmask/tokenizer"
)

// TestCompileFields checks what text masks compile to (SPEC T1, T2) through
// the JSON mask the Program prints, which TestAppendJSON checks in turn.
func TestCompileFields(t *testing.T) {
	for _, c := range []struct{ name, text, json string }{
		{"One", "a", `{"a":true}`},
		{"Fields", "a,b,c", `{"a":true,"b":true,"c":true}`},
		{"Path", "a/b/c", `{"a":{"b":{"c":true}}}`},
		{"Selection", "a(b,c)", `{"a":{"b":true,"c":true}}`},
		{"PathThenSelection", "a/b(c,d/e)", `{"a":{"b":{"c":true,"d":{"e":true}}}}`},
		{"SelectionsNested", "ob,a(k,z(f,g/d)),d", `{"ob":true,"a":{"k":true,"z":{"f":true,"g":{"d":true}}},"d":true}`},
		{"Google", "items(id,status),next", `{"items":{"id":true,"status":true},"next":true}`},
		{"Blanks", " a , b ( c ,\td ) ,\ne / f ", `{"a":true,"b":{"c":true,"d":true},"e":{"f":true}}`},
		{"BlanksInside", "first name,a b/c", `{"first name":true,"a b":{"c":true}}`},
		{"PathsMerge", "a/b,a/c", `{"a":{"b":true,"c":true}}`},
		{"SelectionsMerge", "a(b),x,a(c/d),a/c/e", `{"a":{"b":true,"c":{"d":true,"e":true}},"x":true}`},
		{"WholeWinsAfter", "a/b,a", `{"a":true}`},
		{"WholeWinsBefore", "a,a/b,a(c)", `{"a":true}`},
		{"WholeWinsDeep", "a/b/c,a/b,a/b/d", `{"a":{"b":true}}`},
		{"Twice", "a,a,b(c,c)", `{"a":true,"b":{"c":true}}`},
		{"Wildcard", "*", `{"*":true}`},
		{"WildcardNested", "items/*/id", `{"items":{"*":{"id":true}}}`},
		{"WildcardAndKeys", "*(id),meta", `{"*":{"id":true},"meta":true}`},
		{"WildcardWholeWins", "*(id),*", `{"*":true}`},
		{"Escapes", `a\,b,c\/d,e\(f\),g\*,h\\i`, `{"a,b":true,"c/d":true,"e(f)":true,"g*":true,"h\\i":true}`},
		{"EscapedStar", `\*`, `{"*":true}`},
		{"EscapedBlanks", `\ a\ ,\	b`, `{" a ":true,"\tb":true}`},
		{"Quote", `a"b,{c}`, `{"a\"b":true,"{c}":true}`},
		{"Unicode", "été,😋/名前", `{"été":true,"😋":{"名前":true}}`},
		{"Control", "a\x01b", `{"a\u0001b":true}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			p, err := CompileFields(c.text, Options{})
			if err != nil {
				t.Fatalf("CompileFields(%q): %v", c.text, err)
			}
			got, err := p.AppendJSON(nil)
			if err != nil || string(got) != c.json {
				t.Errorf("CompileFields(%q) prints %s, %v; want %s", c.text, got, err, c.json)
			}
		})
	}
}

// TestCompileFieldsErrors checks that text masks that do not parse fail
// with the offset of the byte at fault (SPEC T3), and the pointer of the
// object they were in.
func TestCompileFieldsErrors(t *testing.T) {
	for _, c := range []struct {
		name, text string
		offset     int64
		pointer    string
		msg        string // a part of the message
	}{
		{"Empty", "", 0, "", "empty mask"},
		{"Blank", "  \t", 3, "", "empty mask"},
		{"TrailingComma", "a,b,", 3, "", "trailing comma"},
		{"TrailingCommaBlank", "a, ", 1, "", "trailing comma"},
		{"TrailingCommaNested", "a(b,)", 4, "/a", "empty name before ')'"},
		{"LeadingComma", ",a", 0, "", "empty name before ','"},
		{"TwoCommas", "a,,b", 2, "", "empty name before ','"},
		{"EmptySelection", "a()", 2, "/a", "empty name before ')'"},
		{"EmptyNameSlash", "a//b", 2, "/a", "empty name before '/'"},
		{"LeadingSlash", "/a", 0, "", "empty name before '/'"},
		{"TrailingSlash", "a/b/", 4, "/a/b", "empty name at the end, after '/'"},
		{"OnlyParens", "()", 0, "", "empty name before '('"},
		{"Unclosed", "a(b", 1, "", "'(' is not closed"},
		{"UnclosedInner", "a(b(c),d(e", 8, "/a", "'(' is not closed"},
		{"UnclosedEmpty", "x,a(", 3, "", "'(' is not closed"},
		{"ExtraClose", "a)", 1, "", "')' closes nothing"},
		{"ExtraCloseAfterPath", "a(b/c))", 6, "", "')' closes nothing"},
		{"NameAfterGroup", "a(b)c", 4, "", `expected ',' or ')' after ')', got name "c"`},
		{"SlashAfterGroup", "a(b)/c", 4, "", `expected ',' or ')' after ')', got '/'`},
		{"GroupAfterGroup", "a(b)(c)", 4, "", `got '('`},
		{"StarInName", "user_*", 5, "", "'*' inside a name"},
		{"StarTwice", "**", 0, "", "'*' inside a name"},
		{"StarInNested", "a(b*c)", 3, "/a", "'*' inside a name"},
		{"BadEscape", `a\b`, 1, "", `invalid escape "\\b"`},
		{"EscapeAtEnd", `a\`, 1, "", "unfinished escape"},
		{"InvalidUTF8", "a,b\xffc", 3, "", `invalid UTF-8 byte '\xff'`},
		{"LoneSurrogateBytes", "\xed\xa0\x80", 0, "", "invalid UTF-8"},
		{"PointerEscaped", "a~b/c\\/d/e\n(", 11, "/a~0b/c~1d", `(/a~0b/c~1d)`},
		{"PointerOneLine", "a\nb/", 4, "/a\nb", `(/a\nb)`},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := CompileFields(c.text, Options{})
			var ce *Error
			if !errors.As(err, &ce) {
				t.Fatalf("CompileFields(%q) = %v, want an *Error", c.text, err)
			}
			if ce.Offset != c.offset || ce.Pointer != c.pointer || !strings.Contains(ce.Msg, c.msg) {
				t.Errorf("CompileFields(%q) = %q at %d (%q), want %q at %d (%q)", c.text, ce.Msg, ce.Offset, ce.Pointer, c.msg, c.offset, c.pointer)
			}
			if strings.ContainsAny(ce.Msg, "\n\r") {
				t.Errorf("message on more than one line: %q", ce.Msg)
			}
		})
	}
}

// TestCompileFieldsDepth checks that a text mask nests no deeper than its
// JSON form may, without recursion however deep it is written.
func TestCompileFieldsDepth(t *testing.T) {
	deep := strings.Repeat("a/", tokenizer.DefaultMaxDepth-1)
	for _, c := range []struct {
		name, text, json string
		max              int
		ok               bool
	}{
		{"PathAtLimit", "a/b/c/d", `{"a":{"b":{"c":{"d":true}}}}`, 4, true},
		{"PathOver", "a/b/c/d/e", `{"a":{"b":{"c":{"d":{"e":true}}}}}`, 4, false},
		{"GroupsAtLimit", "a(b(c(d)))", `{"a":{"b":{"c":{"d":true}}}}`, 4, true},
		{"GroupsOver", "a(b(c(d(e))))", `{"a":{"b":{"c":{"d":{"e":true}}}}}`, 4, false},
		{"DefaultAtLimit", deep + "a", "", 0, true},
		{"DefaultOver", deep + "a/a", "", 0, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := CompileFields(c.text, Options{MaxDepth: c.max})
			if c.ok != (err == nil) || !c.ok && !errors.Is(err, tokenizer.ErrMaxDepth) {
				t.Errorf("CompileFields(%.40q, max %d) = %v", c.text, c.max, err)
			}
			if c.json == "" {
				return
			}
			if _, err := Compile([]byte(c.json), Options{MaxDepth: c.max}); c.ok != (err == nil) {
				t.Errorf("its JSON form: Compile(%s, max %d) = %v", c.json, c.max, err)
			}
		})
	}
}

// TestWildcardLookup checks that a node's wildcard answers every key that
// has no entry of its own, and only those (SPEC T2), at every length and
// through the hash, the trie and the empty key.
func TestWildcardLookup(t *testing.T) {
	// "axb" and "ayb" hash alike (length, first and last byte): their slot
	// sends the lookup to the trie, which "azb" and "ax" then miss.
	keys := []string{"id", "ib", "name", "", "x", strings.Repeat("L", 70), "axb", "ayb", "azb", "ax", "axbb"}
	for _, c := range []struct {
		name string
		mask string
		wild bool
	}{
		{"Wildcards", `{"id":true,"ib":{"a":true},"name":true,"":true,"*":{"k":true}}`, true},
		{"WildcardAndTrie", `{"axb":true,"ayb":{"a":true},"*":true}`, true},
		{"WildcardNoEmptyKey", `{"id":true,"*":true}`, true},
		{"StarIsAKey", `{"id":true,"*":{"k":true}}`, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			p, err := Compile([]byte(c.mask), Options{Wildcards: c.wild})
			if err != nil {
				t.Fatal(err)
			}
			own := map[string]bool{}
			for e := range p.Members(0) {
				if !p.Entry(e).Wildcard {
					own[p.Entry(e).Key] = true
				}
			}
			for _, k := range append(keys, "*", "i", "idd", "names") {
				e := p.Lookup(0, []byte(k))
				switch {
				case own[k]:
					if e == NoEntry || p.Entry(e).Key != k || p.Entry(e).Wildcard {
						t.Errorf("Lookup(%q) = %d, want its own entry", k, e)
					}
				case c.wild:
					if e != p.Other(0) || e == NoEntry || !p.Entry(e).Wildcard {
						t.Errorf("Lookup(%q) = %d, want the wildcard %d", k, e, p.Other(0))
					}
					if !p.KeyLengths(0).Has(len(k)) {
						t.Errorf("KeyLengths filters out %q under a wildcard", k)
					}
				default:
					if e != NoEntry {
						t.Errorf("Lookup(%q) = %d (%q), want none", k, e, p.Entry(e).Key)
					}
				}
			}
		})
	}
}

// TestWildcardCompileErrors checks the duplicate rule (SPEC M4) for wildcards:
// two at one level are ambiguous, escaped or not; "*" twice without
// wildcards is a duplicate key as before.
func TestWildcardCompileErrors(t *testing.T) {
	for _, c := range []struct {
		name, mask string
		wild       bool
		offset     int64
	}{
		{"TwoWildcards", `{"*":true,"a":true,"*":{"b":true}}`, true, 19},
		{"EscapedWildcard", `{"*":true,"\u002a":true}`, true, 10},
		{"TwoStarKeys", `{"*":true,"*":true}`, false, 10},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Compile([]byte(c.mask), Options{Wildcards: c.wild})
			var ce *Error
			if !errors.As(err, &ce) || ce.Offset != c.offset || ce.Pointer != "/*" {
				t.Errorf("Compile(%s) = %#v, want a duplicate at %d", c.mask, err, c.offset)
			}
		})
	}
}

// TestAppendJSON checks that the printed JSON mask compiles back to the same
// mask: keys escaped as JSON needs (M5, lone surrogates included), in the
// order written, and a mask with a wildcard and a "*" key refused.
func TestAppendJSON(t *testing.T) {
	for _, c := range []struct {
		name, mask string
		wild       bool
		want       string
	}{
		{"Order", `{"b":true,"a":{"d":true,"c":true},"0":{}}`, false, `{"b":true,"a":{"d":true,"c":true},"0":{}}`},
		{"Empty", `{}`, false, `{}`},
		{"Escapes", `{"\u005fid":true,"a\"b\\c\/d":true,"\u0000\u001f\n":true}`, false, `{"_id":true,"a\"b\\c/d":true,"\u0000\u001f\n":true}`},
		{"Surrogates", `{"\ud800":true,"\uDFFF":true,"\ud83d\ude0b":true}`, false, `{"\ud800":true,"\udfff":true,"😋":true}`},
		{"StarKey", `{"*":true}`, false, `{"*":true}`},
		{"Wildcard", `{"a":{"*":true,"b":{}}}`, true, `{"a":{"*":true,"b":{}}}`},
		{"WildcardFirstNode", `{"*":{"x":true},"y":{"z":true}}`, true, `{"*":{"x":true},"y":{"z":true}}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			p, err := Compile([]byte(c.mask), Options{Wildcards: c.wild})
			if err != nil {
				t.Fatal(err)
			}
			got, err := p.AppendJSON([]byte("prefix"))
			if err != nil || string(got) != "prefix"+c.want {
				t.Fatalf("AppendJSON = %s, %v; want %s", got, err, c.want)
			}
			again, err := Compile(got[len("prefix"):], Options{Wildcards: c.wild})
			if err != nil {
				t.Fatal(err)
			}
			if b, _ := again.AppendJSON(nil); string(b) != c.want {
				t.Errorf("printed again: %s", b)
			}
		})
	}
	p, err := CompileFields(`*,a(\*)`, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if b, err := p.AppendJSON(nil); !errors.Is(err, errWildcardAndStar) {
		t.Errorf("AppendJSON of *,a(\\*) = %s, %v; want errWildcardAndStar", b, err)
	}
}
