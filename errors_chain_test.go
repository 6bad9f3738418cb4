package jsonmask_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/jsonmask/jsonmask"
)

var errCause = errors.New("the cause")

// failingKey is a map key whose MarshalText fails.
type failingKey int

func (failingKey) MarshalText() ([]byte, error) { return nil, errCause }

// failingValue is a value whose MarshalJSON fails.
type failingValue struct{}

func (failingValue) MarshalJSON() ([]byte, error) { return nil, errCause }

// TestErrorsChain: every error of the front door can be taken apart with
// errors.As and errors.Is, also once a caller has wrapped it with %w, as the
// gateway and the MCP proxy do; the "jsonmask: " prefix is there once, or not
// at all for an error that is not ours (I/O, a method's), which passes
// through.
func TestErrorsChain(t *testing.T) {
	type check struct {
		as     func(error) bool // errors.As into the type expected, if any
		is     error            // errors.Is target, if any
		prefix int              // times "jsonmask: " appears
	}
	asSyntax := func(err error) bool { var e *jsonmask.SyntaxError; return errors.As(err, &e) }
	asMask := func(err error) bool { var e *jsonmask.MaskError; return errors.As(err, &e) }
	asMarshaler := func(err error) bool { var e *json.MarshalerError; return errors.As(err, &e) }
	m := jsonmask.MustCompile(`{"a":true}`)
	for _, c := range []struct {
		name string
		err  func() error
		want check
	}{
		{"Compile/Invalid", func() error { _, err := jsonmask.Compile([]byte(`{"a":`)); return err }, check{as: asMask, prefix: 1}},
		{"Compile/Member", func() error { _, err := jsonmask.Compile([]byte(`{"a":false}`)); return err }, check{as: asMask, prefix: 1}},
		{"Compile/TooDeep", func() error {
			_, err := jsonmask.Compile([]byte(`{"a":{"b":{}}}`), jsonmask.WithMaxDepth(2))
			return err
		}, check{as: asMask, is: jsonmask.ErrMaxDepth, prefix: 1}},
		{"CompileFields/Invalid", func() error { _, err := jsonmask.CompileFields("a(b"); return err }, check{as: asMask, prefix: 1}},
		{"MarshalJSON/WildcardAndStar", func() error {
			_, err := jsonmask.MustCompileFields(`*,\*`).MarshalJSON()
			return err
		}, check{as: asMask, prefix: 1}},
		{"Append/Invalid", func() error { _, err := m.Append(nil, []byte(`{"a":]`)); return err }, check{as: asSyntax, prefix: 1}},
		{"Append/TooDeep", func() error {
			_, err := jsonmask.MustCompile(`{"a":true}`, jsonmask.WithMaxDepth(1)).Append(nil, []byte(`{"a":[1]}`))
			return err
		}, check{as: asSyntax, is: jsonmask.ErrMaxDepth, prefix: 1}},
		{"Copy/ReaderFails", func() error {
			_, err := m.Copy(io.Discard, &failingReader{data: []byte(`{"a":1`), err: errCause})
			return err
		}, check{is: errCause}},
		{"AppendValue/TooDeep", func() error {
			_, err := jsonmask.MustCompile(`{"a":true}`, jsonmask.WithMaxDepth(1)).AppendValue(nil, map[string]any{"a": []any{[]any{1}}})
			return err
		}, check{is: jsonmask.ErrMaxDepth, prefix: 1}},
		{"AppendValue/NotObject", func() error {
			_, err := jsonmask.MustCompile(`{"a":true}`, jsonmask.WithStrict(true)).AppendValue(nil, 5)
			return err
		}, check{as: asSyntax, is: jsonmask.ErrNotObject, prefix: 1}},
		{"AppendValue/MethodFails", func() error {
			_, err := m.AppendValue(nil, map[string]any{"a": failingValue{}})
			return err
		}, check{as: asMarshaler, is: errCause}},
		{"AppendValue/KeyMethodFails", func() error {
			_, err := m.AppendValue(nil, map[string]any{"a": map[failingKey]int{1: 1}})
			return err
		}, check{is: errCause}},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := c.err()
			if err == nil {
				t.Fatal("no error")
			}
			for _, e := range []error{err, fmt.Errorf("gateway: route /x: %w", err)} {
				if c.want.as != nil && !c.want.as(e) {
					t.Errorf("errors.As(%q) fails, want the type", e)
				}
				if c.want.is != nil && !errors.Is(e, c.want.is) {
					t.Errorf("errors.Is(%q, %q) = false", e, c.want.is)
				}
			}
			if n := strings.Count(err.Error(), "jsonmask: "); n != c.want.prefix {
				t.Errorf("%q holds the prefix %d times, want %d", err, n, c.want.prefix)
			}
			// Detail is the message a program puts its own prefix and
			// context before (SPEC L3): the same words, without the prefix.
			var se *jsonmask.SyntaxError
			if errors.As(err, &se) {
				if d := se.Detail(); "jsonmask: "+d != se.Error() || strings.Contains(d, "jsonmask: ") {
					t.Errorf("Detail() = %q; Error() = %q", d, se.Error())
				}
				if d := se.RedactedDetail(); "jsonmask: "+d != se.Redacted() || strings.Contains(d, "jsonmask: ") {
					t.Errorf("RedactedDetail() = %q; Redacted() = %q", d, se.Redacted())
				}
			}
		})
	}
}
