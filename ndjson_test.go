package jsonmask_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/jsonmask/jsonmask"
)

// TestNDJSON pins SPEC S3 in every mode: lines masked on their own, empty and
// passthrough lines kept, every output line ended by "\n", and an error that
// names its line and stops the stream; a line's trailing "\r" dropped from
// masked lines and kept in passthrough ones, a byte-order mark honoured per
// line, a last line without "\n" given one, and no empty line after a final
// "\n".
func TestNDJSON(t *testing.T) {
	m := jsonmask.MustCompile(`{"id":true}`, jsonmask.WithNDJSON(true))
	for _, c := range []struct {
		name, in, want string
		errLine        int64
	}{
		{name: "Empty", in: "", want: ""},
		{name: "OneLineNoNewline", in: `{"id":1,"x":2}`, want: "{\"id\":1}\n"},
		{name: "Lines", in: "{\"id\":1,\"x\":2}\n{\"x\":3,\"id\":4}\n", want: "{\"id\":1}\n{\"id\":4}\n"},
		{name: "EmptyLines", in: "\n\n{\"id\":1}\n\n", want: "\n\n{\"id\":1}\n\n"},
		{name: "Passthrough", in: "[1, 2]\n  \ttext\n{\"id\":5}", want: "[1, 2]\n  \ttext\n{\"id\":5}\n"},
		{name: "CRLF", in: "{\"id\":1}\r\nplain\r\n", want: "{\"id\":1}\nplain\r\n"},
		{name: "BOMPerLine", in: "\xEF\xBB\xBF{\"id\":1}\n\xEF\xBB\xBFx", want: "{\"id\":1}\n\xEF\xBB\xBFx\n"},
		{name: "CRLFMaskedLastLine", in: "{\"id\":1}\r", want: "{\"id\":1}\n"},
		{name: "CRLFPassthroughLastLine", in: "[1]\r", want: "[1]\r\n"},
		{name: "CRLFInsideObject", in: "{\"id\":\r1,\r\"x\":2}\r\n", want: "{\"id\":1}\n"},
		{name: "BlankCRLFLine", in: "\r\n{\"id\":1}\r\n\r\n", want: "\r\n{\"id\":1}\n\r\n"},
		{name: "BOMOnlyLine", in: "\xEF\xBB\xBF\n{\"id\":1}\n", want: "\xEF\xBB\xBF\n{\"id\":1}\n"},
		{name: "BOMOnEveryLine", in: "\xEF\xBB\xBF{\"id\":1}\r\n\xEF\xBB\xBF {\"id\":2}", want: "{\"id\":1}\n{\"id\":2}\n"},
		{name: "TrailingNewlineNoEmptyLine", in: "{\"id\":1}\n", want: "{\"id\":1}\n"},
		{name: "TwoTrailingNewlines", in: "{\"id\":1}\n\n", want: "{\"id\":1}\n\n"},
		{name: "ObjectCutByNewline", in: "{\"id\":1}\n{\"id\":\n2}\n{\"id\":3}\n", errLine: 2},
		{name: "BadThirdLine", in: "{\"id\":1}\n{}\n{\"id\":[1,]}\n{\"id\":4}\n", errLine: 3},
	} {
		t.Run(c.name, func(t *testing.T) {
			for _, mode := range maskModes {
				out, err := mode.mask(m, []byte(c.in))
				if c.errLine == 0 {
					if err != nil || string(out) != c.want {
						t.Errorf("%s: %q, %v; want %q", mode.name, out, err, c.want)
					}
					continue
				}
				var se *jsonmask.SyntaxError
				if !errors.As(err, &se) || se.Line != c.errLine || !strings.Contains(err.Error(), "line ") {
					t.Errorf("%s: err = %v, want a *SyntaxError on line %d", mode.name, err, c.errLine)
				}
				// Nothing of the lines after the bad one is written.
				if bytes.Contains(out, []byte(`"id":4`)) || bytes.Contains(out, []byte(`"id":3`)) {
					t.Errorf("%s: output after the error: %q", mode.name, out)
				}
			}
		})
	}
}
