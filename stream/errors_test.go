package stream

import (
	"errors"
	"strconv"
	"testing"

	"github.com/jsonmask/jsonmask/compile"
)

// TestErrorPointerAndOffset checks the error a Machine returns: its offset,
// message, and the pointer it names, whose tokens are escaped (RFC 6901:
// "~" as "~0", "/" as "~1") on each of the paths that build one (a mask's
// entry, a key a wildcard kept, the member being read, escaped or not).
// Each input is given whole and split in two at every byte: the error must
// not depend on where windows end (SPEC V3).
func TestErrorPointerAndOffset(t *testing.T) {
	for _, c := range []struct {
		name, mask, doc string
		offset          int64
		msg, pointer    string
	}{
		{"EntryKey", `{"a/b~c":{"d":true}}`, `{"a/b~c":{"d":[}}`, 15, "invalid character '}' looking for beginning of value", "/a~1b~0c/d"},
		{"WildcardKey", `{"*":{"v":true}}`, `{"a\/b~":{"v":[}}`, 15, "invalid character '}' looking for beginning of value", "/a~1b~0/v"},
		// After the object that a wildcard's member holds closed, that
		// member is named, not the object's last member, whose span a
		// window's end may or may not have made (found by FuzzWildcards).
		{"WildcardClosed", `{"*":{"id":true}}`, `{"s":{"theme":"dark","font":"Inter"}"2`, 36, `invalid character '"' after object key:value pair`, "/s"},
		{"WildcardClosedKept", `{"*":{"id":true}}`, `{"s":{"theme":"dark","id":1}x`, 28, "invalid character 'x' after object key:value pair", "/s"},
		{"WildcardClosedNested", `{"*":{"*":{"v":true}}}`, `{"a":{"b":{"x":1,"yy":2}]}`, 24, "invalid character ']' after object key:value pair", "/a/b"},
		{"DroppedKeyEscaped", `{"k":true}`, `{"x\u002fy":[1,}`, 15, "invalid character '}' looking for beginning of value", "/x~1y"},
		{"DroppedKeyPlain", `{"k":true}`, `{"x~y":[1,}`, 10, "invalid character '}' looking for beginning of value", "/x~0y"},
		{"UTF8Kept", `{"k":true}`, "{\"k\":\"ab\xc3(\"}", 8, `invalid UTF-8 byte '\xc3' in string`, "/k"},
		{"UTF8Dropped", `{"k":true}`, "{\"x\":\"\xe3\x81(\"}", 6, `invalid UTF-8 byte '\xe3' in string`, "/x"},
		{"UTF8Key", `{"k":true}`, "{\"k\":1,\"\xf0\x9f\x98(\":1}", 8, `invalid UTF-8 byte '\xf0' in string`, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			prog, err := compile.Compile([]byte(c.mask), compile.Options{Wildcards: true})
			if err != nil {
				t.Fatal(err)
			}
			var m Machine
			doc := []byte(c.doc)
			for cut := 0; cut <= len(doc); cut++ {
				m.Reset(prog, Config{})
				_, n, err := m.Write(nil, doc[:cut])
				if err == nil && n == cut {
					_, _, err = m.Write(nil, doc[cut:])
				}
				if err == nil {
					_, _, err = m.Close(nil)
				}
				var e *Error
				if !errors.As(err, &e) || e.Offset != c.offset || e.Msg != c.msg || e.Pointer != c.pointer {
					t.Fatalf("cut at %d: %v (Pointer %q), want %q at offset %d (Pointer %q)",
						cut, err, ptrOf(e), c.msg, c.offset, c.pointer)
				}
			}
			want := c.msg + " at offset " + strconv.FormatInt(c.offset, 10)
			if c.pointer != "" {
				want += " (" + c.pointer + ")"
			}
			m.Reset(prog, Config{})
			if _, err := m.Append(nil, doc); err == nil || err.Error() != want {
				t.Fatalf("Append: %v, want %s", err, want)
			}
		})
	}
}

func ptrOf(e *Error) string {
	if e == nil {
		return ""
	}
	return e.Pointer
}
