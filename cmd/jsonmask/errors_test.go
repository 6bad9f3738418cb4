package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jsonmask/jsonmask"
	"github.com/jsonmask/jsonmask/toolresult"
)

// onePrefix fails the test unless every line of stderr that says
// "jsonmask: " says it once, at its start (SPEC L3).
func onePrefix(t *testing.T, stderr string) {
	t.Helper()
	for line := range strings.Lines(stderr) {
		if n := strings.Count(line, prefix); n > 0 && (n != 1 || !strings.HasPrefix(line, prefix)) {
			t.Errorf("line %q says %q %d times, want once at its start", line, prefix, n)
		}
	}
}

// TestErrorLine: the line for each kind of error the CLI meets, through the
// layers it goes through; errors.As and errors.Is still find the library's
// types and sentinels in what the CLI wraps.
func TestErrorLine(t *testing.T) {
	_, maskErr := jsonmask.Compile([]byte(`{"a":false}`))
	_, deepErr := jsonmask.Compile([]byte(`{"a":{"b":{}}}`), jsonmask.WithMaxDepth(2))
	_, syntaxErr := jsonmask.MustCompile(`{"a":true}`).Append(nil, []byte(`{"a":1 x}`))
	_, lineErr := jsonmask.MustCompile(`{"a":true}`, jsonmask.WithNDJSON(true)).Append(nil, []byte("{}\n{\"b\":x}\n"))
	_, pathErr := os.Open(filepath.Join(t.TempDir(), "nope.json"))
	_, storeErr := toolresult.OpenStore(t.Context(), "nope://x")
	asMask := func(err error) bool { var e *jsonmask.MaskError; return errors.As(err, &e) }
	asSyntax := func(err error) bool { var e *jsonmask.SyntaxError; return errors.As(err, &e) }
	asPath := func(err error) bool { var e *fs.PathError; return errors.As(err, &e) }
	for _, c := range []struct {
		name  string
		where string
		err   error
		want  string
		as    func(error) bool
		is    error
	}{
		{"Own", "", errors.New("give -config FILE"), "jsonmask: give -config FILE", nil, nil},
		{"OwnAt", "write", errors.New("short write"), "jsonmask: write: short write", nil, nil},
		{"Mask", "", maskErr, `jsonmask: mask member "/a" must be true or an object, got false`, asMask, nil},
		// A library error names what it concerns: the CLI's place is left out.
		{"MaskAtFlag", "", &located{"-mask-file", maskErr}, `jsonmask: mask member "/a" must be true or an object, got false`, asMask, nil},
		{"MaskTooDeep", "", &located{"-mask-file", deepErr}, deepErr.Error(), asMask, jsonmask.ErrMaxDepth},
		{"Syntax", "in.json", syntaxErr, "jsonmask: in.json: invalid character 'x' after object key:value pair at offset 7 (/a)", asSyntax, nil},
		{"SyntaxLine", "-", lineErr, "jsonmask: -: line 2: invalid character 'x' looking for beginning of value at offset 8 (/b)", asSyntax, nil},
		{"SyntaxNested", "", &located{"mcp: srv", &located{"in.json", syntaxErr}}, "jsonmask: mcp: srv: in.json: invalid character 'x' after object key:value pair at offset 7 (/a)", asSyntax, nil},
		{"Path", "in.json", pathErr, "jsonmask: in.json: no such file or directory", asPath, fs.ErrNotExist},
		{"PathAtFlag", "", &located{"-config c.json", pathErr}, "jsonmask: -config c.json: no such file or directory", asPath, fs.ErrNotExist},
		{"PathAlone", "", pathErr, "jsonmask: " + pathErr.Error(), asPath, fs.ErrNotExist},
		{"Store", "-store", storeErr, storeErr.Error(), nil, nil},
		{"Sentinel", "in.json", jsonmask.ErrClosed, "jsonmask: use of a closed masked stream", nil, jsonmask.ErrClosed},
		{"OwnWrap", "", fmt.Errorf("listen: %w", errors.New("address in use")), "jsonmask: listen: address in use", nil, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := errorLine(c.where, c.err); got != c.want {
				t.Errorf("errorLine(%q, %q) = %q, want %q", c.where, c.err, got, c.want)
			}
			onePrefix(t, errorLine(c.where, c.err))
			if c.as != nil && !c.as(c.err) {
				t.Errorf("errors.As(%q) finds no library type", c.err)
			}
			if c.is != nil && !errors.Is(c.err, c.is) {
				t.Errorf("errors.Is(%q, %q) = false", c.err, c.is)
			}
		})
	}
}

// TestRedactedLine: what jsonmask context says of a rejected input names
// the input as the main command does (SPEC L3), and quotes neither the
// input's bytes nor a key past what the mask keeps (SPEC G5), also when a
// layer wrapped the error (such a layer says "jsonmask: " again unless it
// writes the Detail itself, as studio does: only the redaction is checked).
func TestRedactedLine(t *testing.T) {
	m := jsonmask.MustCompile(`{"a":true}`)
	_, err := m.Append(nil, []byte(`{"a":1,"CANARY":{"x":CANARY}}`))
	var se *jsonmask.SyntaxError
	if !errors.As(err, &se) {
		t.Fatalf("not a SyntaxError: %v", err)
	}
	for _, c := range []struct {
		name string
		err  error
		want string
	}{
		{"Bare", err, "jsonmask: stdin: " + se.RedactedDetail()},
		{"NotSyntax", errors.New("read failed"), "jsonmask: stdin: read failed"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := redactedLine("stdin", c.err)
			if got != c.want || strings.Contains(got, "CANARY") {
				t.Errorf("redactedLine = %q, want %q, without the canary", got, c.want)
			}
			onePrefix(t, got)
		})
	}
	t.Run("Wrapped", func(t *testing.T) {
		got := redactedLine("stdin", fmt.Errorf("jsonmask: tool result: %w", err))
		if !strings.HasPrefix(got, "jsonmask: tool result: ") || !strings.HasSuffix(got, se.RedactedDetail()) || strings.Contains(got, "CANARY") {
			t.Errorf("redactedLine = %q, want the wrapper's words and the redacted detail, without the canary", got)
		}
	})
}
