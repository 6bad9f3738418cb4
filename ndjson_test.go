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
					wantNDJSON(t, mode.name, out, err, c.want)
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

// TestNDJSONOnePass pins what the machine does where it masks a line in one
// pass over the window, not cut at its '\n' first (stream's wholeLine): a
// '\n' inside the root (whitespace to JSON, in trusted mode inside a string
// too), bytes after the root, whitespace after it up to the '\n' or the end,
// and lines after them, give what cutting first gives, in every mode and
// with every option that changes the root's pass.
func TestNDJSONOnePass(t *testing.T) {
	for _, c := range []struct {
		name, in, want string
		opts           []jsonmask.Option
		errLine        int64
	}{
		{name: "NewlineInRoot", in: "{\"id\":1}\n{\"id\"\n:2}\n", errLine: 2},
		{name: "NewlineInRootValidAcross", in: "{\"id\":1,\n\"x\":2}\n", errLine: 1},
		{name: "NewlineInKeptContainer", in: "{\"id\":[1,\n2]}\n{\"id\":3}\n", errLine: 1},
		{name: "NewlineInDroppedContainer", in: "{\"x\":{\"a\":\n1},\"id\":1}\n", errLine: 1},
		{name: "NewlineInStringTrusted", in: "{\"id\":\"a\nb\"}\n", opts: []jsonmask.Option{jsonmask.WithTrustedInput(true)}, errLine: 1},
		{name: "NewlineInDroppedStringTrusted", in: "{\"id\":1}\n{\"x\":\"a\nb\",\"id\":2}\n", opts: []jsonmask.Option{jsonmask.WithTrustedInput(true)}, errLine: 2},
		{name: "BytesAfterRoot", in: "{\"id\":1}\n{\"id\":2} x\n{\"id\":3}\n", errLine: 2},
		{name: "SecondRootOnLine", in: "{\"id\":1}{\"id\":2}\n", errLine: 1},
		{name: "WhitespaceAfterRoot", in: "{\"id\":1} \t\r \n{\"id\":2}\t\r", want: "{\"id\":1}\n{\"id\":2}\n"},
		{name: "RootThenBlankLines", in: "{\"id\":1}\n\n\n{\"x\":0}", want: "{\"id\":1}\n\n\n{}\n"},
		{name: "LineCutShort", in: "{\"id\":1}\n{\"id\":[1,2", errLine: 2},
		{name: "LeadThenRoot", in: "{\"id\":1}\n \t{\"id\":2}\n", want: "{\"id\":1}\n{\"id\":2}\n"},
		{name: "ArrayLine", in: "[{\"id\":1,\"x\":2},{\"id\":3}]\n{\"id\":4}\n", opts: []jsonmask.Option{jsonmask.WithArrays(true)},
			want: "[{\"id\":1},{\"id\":3}]\n{\"id\":4}\n"},
		{name: "ArrayLinePassed", in: "[{\"id\":1,\"x\":2}]\n{\"id\":4}\n", want: "[{\"id\":1,\"x\":2}]\n{\"id\":4}\n"},
		{name: "ArrayLineNewline", in: "[{\"id\":1},\n{\"id\":3}]\n", opts: []jsonmask.Option{jsonmask.WithArrays(true)}, errLine: 1},
		{name: "StrictAfterRoot", in: "{\"id\":1}\n7\n", opts: []jsonmask.Option{jsonmask.WithStrict(true)}, errLine: 2},
		{name: "TokenLimit", in: "{\"id\":1}\n{\"id\":\"abcdefghijkl\"}\n", opts: []jsonmask.Option{jsonmask.WithMaxTokenSize(8)}, errLine: 2},
		{name: "InputLimit", in: "{\"id\":1}\n{\"id\":2,\"x\":3}\n", opts: []jsonmask.Option{jsonmask.WithMaxInputSize(14)}, want: "{\"id\":1}\n{", errLine: -1},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := jsonmask.MustCompile(`{"id":true}`, append([]jsonmask.Option{jsonmask.WithNDJSON(true)}, c.opts...)...)
			for _, mode := range maskModes {
				out, err := mode.mask(m, []byte(c.in))
				if c.errLine == 0 {
					wantNDJSON(t, mode.name, out, err, c.want)
					continue
				}
				if c.errLine < 0 {
					// The limit: what came before it is masked and written.
					if !errors.Is(err, jsonmask.ErrInputTooLarge) || mode.name != "Writer/Random" && string(out) != c.want {
						t.Errorf("%s: %q, err = %v, want %q and ErrInputTooLarge", mode.name, out, err, c.want)
					}
					continue
				}
				var se *jsonmask.SyntaxError
				if !errors.As(err, &se) || se.Line != c.errLine {
					t.Errorf("%s: %q, err = %v, want a *SyntaxError on line %d", mode.name, out, err, c.errLine)
				}
			}
		})
	}
}

// wantNDJSON reports, for the mode named, an error or output other than want.
func wantNDJSON(t *testing.T, mode string, out []byte, err error, want string) {
	t.Helper()
	if err != nil || string(out) != want {
		t.Errorf("%s: %q, %v; want %q", mode, out, err, want)
	}
}
