package jsonmask_test

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/jsonmask/jsonmask"
)

// TestReaderAfterError: once a masked Reader has failed, every later Read and
// WriteTo returns the same error and nothing panics (SPEC S4). bufio.Reader
// reads again after an error; this used to panic with "slice bounds out of
// range" in stream/front.go.
func TestReaderAfterError(t *testing.T) {
	m := jsonmask.MustCompile(`{"a":true}`)
	for _, tc := range []struct{ name, body string }{
		{"Syntax", `{"a":1,}`},
		{"Truncated", `{"a":1`},
		{"AfterOutput", `{"a":"` + strings.Repeat("x", 100000) + `",}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := m.NewReader(strings.NewReader(tc.body))
			_, first := io.ReadAll(r)
			var se *jsonmask.SyntaxError
			if !errors.As(first, &se) {
				t.Fatalf("ReadAll err = %v, want a *SyntaxError", first)
			}
			buf := make([]byte, 16)
			for range 3 {
				if n, err := r.Read(buf); n != 0 || err != first {
					t.Fatalf("Read after error = %d, %v; want 0, %v (the same error)", n, err, first)
				}
			}
			if n, err := r.WriteTo(io.Discard); n != 0 || err != first {
				t.Fatalf("WriteTo after error = %d, %v; want 0, %v", n, err, first)
			}
		})
	}
	t.Run("SourceError", func(t *testing.T) {
		errRead := errors.New("connection reset")
		r := m.NewReader(&failingReader{data: []byte(`{"a":1`), err: errRead})
		if _, err := io.ReadAll(r); err != errRead {
			t.Fatalf("ReadAll err = %v, want the source's error", err)
		}
		if _, err := r.Read(make([]byte, 4)); err != errRead {
			t.Fatalf("Read after error = %v, want the source's error again", err)
		}
	})
	t.Run("EOF", func(t *testing.T) {
		r := m.NewReader(strings.NewReader(`{"a":1}`))
		if b, err := io.ReadAll(r); err != nil || string(b) != `{"a":1}` {
			t.Fatalf("ReadAll = %q, %v", b, err)
		}
		for range 2 {
			if n, err := r.Read(make([]byte, 4)); n != 0 || err != io.EOF {
				t.Fatalf("Read after the end = %d, %v; want 0, EOF", n, err)
			}
		}
	})
}

// TestWriterAfterError: a Writer that failed returns the same error from every
// later Write, Flush and Close (SPEC S4).
func TestWriterAfterError(t *testing.T) {
	m := jsonmask.MustCompile(`{"a":true}`)
	t.Run("Syntax", func(t *testing.T) {
		var out bytes.Buffer
		w := m.NewWriter(&out)
		_, first := w.Write([]byte(`{"a":1,}`))
		if first == nil {
			first = w.Close()
		}
		var se *jsonmask.SyntaxError
		if !errors.As(first, &se) {
			t.Fatalf("err = %v, want a *SyntaxError", first)
		}
		if _, err := w.Write([]byte(`{}`)); err != first {
			t.Fatalf("Write after error = %v, want %v", err, first)
		}
		if err := w.Flush(); err != first {
			t.Fatalf("Flush after error = %v, want %v", err, first)
		}
		if err := w.Close(); err != first {
			t.Fatalf("Close after error = %v, want %v", err, first)
		}
	})
	t.Run("Truncated", func(t *testing.T) {
		w := m.NewWriter(io.Discard)
		w.Write([]byte(`{"a":`))
		first := w.Close()
		if first == nil {
			t.Fatal("Close of a truncated body = nil")
		}
		if _, err := w.Write([]byte(`1}`)); err != first {
			t.Fatalf("Write after error = %v, want %v", err, first)
		}
	})
	t.Run("Closed", func(t *testing.T) {
		w := m.NewWriter(io.Discard)
		w.Write([]byte(`{"a":1}`))
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write([]byte(`{}`)); !errors.Is(err, jsonmask.ErrClosed) {
			t.Fatalf("Write after Close = %v, want ErrClosed", err)
		}
	})
}

// shortWriter accepts at most max bytes per Write, without an error.
type shortWriter struct {
	buf bytes.Buffer
	max int
}

func (w *shortWriter) Write(p []byte) (int, error) {
	return w.buf.Write(p[:min(len(p), w.max)])
}

// TestShortWrite: a writer that takes fewer bytes than it is given, saying
// nothing, makes every streaming call fail with io.ErrShortWrite (SPEC S4),
// as io.Copy does; it used to make Copy report success.
func TestShortWrite(t *testing.T) {
	m := jsonmask.MustCompile(`{"a":true}`)
	body := `{"a":"kept","b":"dropped"}`
	t.Run("Copy", func(t *testing.T) {
		if _, err := m.Copy(&shortWriter{max: 3}, strings.NewReader(body)); err != io.ErrShortWrite {
			t.Fatalf("Copy err = %v, want io.ErrShortWrite", err)
		}
	})
	t.Run("WriteTo", func(t *testing.T) {
		if _, err := m.NewReader(strings.NewReader(body)).WriteTo(&shortWriter{max: 3}); err != io.ErrShortWrite {
			t.Fatalf("WriteTo err = %v, want io.ErrShortWrite", err)
		}
	})
	t.Run("Writer", func(t *testing.T) {
		w := m.NewWriter(&shortWriter{max: 3})
		w.Write([]byte(body))
		if err := w.Close(); err != io.ErrShortWrite {
			t.Fatalf("Close err = %v, want io.ErrShortWrite", err)
		}
	})
}

// closeRecorder is a source that records Close.
type closeRecorder struct {
	io.Reader
	closed int
}

func (c *closeRecorder) Close() error { c.closed++; return nil }

// TestReaderClose: Close closes the source, and a Read after it fails.
func TestReaderClose(t *testing.T) {
	m := jsonmask.MustCompile(`{"a":true}`)
	src := &closeRecorder{Reader: strings.NewReader(`{"a":1,"b":2}`)}
	r := m.NewReader(src)
	if _, err := r.Read(make([]byte, 2)); err != nil {
		t.Fatal(err)
	}
	if err := r.Close(); err != nil || src.closed != 1 {
		t.Fatalf("Close = %v, source closed %d times; want nil, 1", err, src.closed)
	}
	if _, err := r.Read(make([]byte, 2)); !errors.Is(err, jsonmask.ErrClosed) {
		t.Fatalf("Read after Close = %v, want ErrClosed", err)
	}
	var _ io.ReadCloser = r // it stands in for an http.Response.Body
	var _ io.WriterTo = r
}

// TestStrict: WithStrict rejects every body that would pass through (SPEC
// B5), naming its first byte at its offset, and masks the rest as before.
func TestStrict(t *testing.T) {
	type tc struct {
		name, body string
		arrays     bool
		ndjson     bool
		want       string // output, when accepted
		offset     int64  // -1 when accepted
		msg        string // in the error
	}
	cases := []tc{
		{name: "Object", body: ` {"a":1,"b":2} `, want: `{"a":1}`, offset: -1},
		{name: "HTML", body: "<!doctype html><p>oops", offset: 0, msg: `first byte '<'`},
		{name: "XSSI", body: ")]}'\n{\"a\":1}", offset: 0, msg: `first byte ')'`},
		{name: "BrokenBOM", body: "\xEF\xBB{\"a\":1}", offset: 2, msg: `first byte '{'`},
		{name: "BOMThenText", body: "\xEF\xBB\xBF  nope", offset: 5, msg: `first byte 'n'`},
		{name: "Array", body: `[{"a":1}]`, offset: 0, msg: `first byte '['`},
		{name: "ArrayMasked", body: `[{"a":1,"b":2}]`, arrays: true, want: `[{"a":1}]`, offset: -1},
		{name: "ArraysString", body: ` "s"`, arrays: true, offset: 1, msg: `not a JSON object or array: first byte '"'`},
		{name: "Number", body: "\t\n 42", offset: 3, msg: `first byte '4'`},
		{name: "Null", body: "null", offset: 0, msg: `first byte 'n'`},
		{name: "Empty", body: "", offset: 0, msg: "empty body"},
		{name: "Whitespace", body: " \r\n\t ", offset: 5, msg: "no JSON value"},
		{name: "NDJSON", body: "{\"a\":1}\n\n  \n{\"b\":2}\n", ndjson: true, want: "{\"a\":1}\n\n  \n{}\n", offset: -1},
		{name: "NDJSONText", body: "{\"a\":1}\nnope\n{\"a\":3}\n", ndjson: true, offset: 8, msg: "line 2: body is not a JSON object: first byte 'n'"},
	}
	for _, c := range cases {
		m := jsonmask.MustCompile(`{"a":true}`, jsonmask.WithStrict(true), jsonmask.WithArrays(c.arrays), jsonmask.WithNDJSON(c.ndjson))
		for _, mode := range maskModes {
			t.Run(c.name+"/"+mode.name, func(t *testing.T) {
				out, err := mode.mask(m, []byte(c.body))
				if c.offset < 0 {
					if err != nil || string(out) != c.want {
						t.Fatalf("= %q, %v; want %q", out, err, c.want)
					}
					return
				}
				var se *jsonmask.SyntaxError
				if !errors.As(err, &se) || !errors.Is(err, jsonmask.ErrNotObject) {
					t.Fatalf("err = %v, want a *SyntaxError wrapping ErrNotObject", err)
				}
				if se.Offset != c.offset || !strings.Contains(err.Error(), c.msg) {
					t.Fatalf("err = %q (offset %d), want offset %d and %q", err, se.Offset, c.offset, c.msg)
				}
				if !c.ndjson && len(out) > 0 {
					t.Fatalf("wrote %q before rejecting the body", out)
				}
			})
		}
	}
}

// TestWith: With shares the compiled mask, changes only the options it is
// given, and leaves the original as it was.
func TestWith(t *testing.T) {
	base := jsonmask.MustCompile(`{"a":true}`, jsonmask.WithArrays(true))
	strict, err := base.With(jsonmask.WithStrict(true))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		m    *jsonmask.Mask
		body string
		want string
		fail bool
	}{
		{"Base/Array", base, `[{"a":1,"b":2}]`, `[{"a":1}]`, false},
		{"Base/Text", base, `oops`, `oops`, false},
		{"Strict/Array", strict, `[{"a":1,"b":2}]`, `[{"a":1}]`, false},
		{"Strict/Text", strict, `oops`, ``, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, err := tc.m.Append(nil, []byte(tc.body))
			if (err != nil) != tc.fail || !tc.fail && string(out) != tc.want {
				t.Fatalf("= %q, %v; want %q (fail %v)", out, err, tc.want, tc.fail)
			}
		})
	}
	t.Run("BadOption", func(t *testing.T) {
		if _, err := base.With(jsonmask.WithMaxDepth(0)); err == nil {
			t.Fatal("With(WithMaxDepth(0)) = nil error")
		}
	})
}
