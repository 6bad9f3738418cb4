// Package codingtest codes and decodes bodies with the Content-Encodings
// that the gateway serves (SPEC G3), as an upstream and a client would, for
// the tests of programs that embed the gateway: the gateway's own, and those
// of the plug-ins built on it (contrib/caddy, contrib/extproc, which are
// modules of their own and import it as any user would), so that they code
// alike and look for a canary alike. Like net/http/httptest, it is for
// tests: its functions take a testing.TB and fail the test on an error.
//
// Codings are named as in a Content-Encoding header, without case:
// identity (or ""), gzip, x-gzip, deflate (zlib) and zstd. The zstd coders
// run on the caller's goroutine, so that goleak has nothing to report.
package codingtest

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zlib"
	"github.com/klauspost/compress/zstd"
)

// Codings are the codings that the gateway decodes and codes again, and
// identity: the codings a test runs each case in.
var Codings = []string{"identity", "gzip", "x-gzip", "deflate", "zstd"}

// A Writer codes what is written to it. Flush makes what was written so
// far decodable by a client, as a streaming upstream does after each
// piece; Close ends the coded stream.
type Writer interface {
	io.WriteCloser
	Flush() error
}

// NewWriter returns a Writer that writes data coded with coding to w.
func NewWriter(coding string, w io.Writer) (Writer, error) {
	switch strings.ToLower(coding) {
	case "identity", "":
		return identity{w}, nil
	case "gzip", "x-gzip":
		return gzip.NewWriter(w), nil
	case "deflate":
		return zlib.NewWriter(w), nil
	case "zstd":
		return zstd.NewWriter(w, zstd.WithEncoderConcurrency(1))
	}
	return nil, fmt.Errorf("codingtest: no coding %q", coding)
}

type identity struct{ io.Writer }

func (identity) Flush() error { return nil }
func (identity) Close() error { return nil }

// NewReader returns a client's decoder of coding that reads from r. Close
// releases it (it does not close r).
func NewReader(coding string, r io.Reader) (io.ReadCloser, error) {
	switch strings.ToLower(coding) {
	case "identity", "":
		return io.NopCloser(r), nil
	case "gzip", "x-gzip":
		return gzip.NewReader(r)
	case "deflate":
		return zlib.NewReader(r)
	case "zstd":
		d, err := zstd.NewReader(r, zstd.WithDecoderConcurrency(1))
		if err != nil {
			return nil, err
		}
		return d.IOReadCloser(), nil
	}
	return nil, fmt.Errorf("codingtest: no coding %q", coding)
}

// Encode returns data coded with coding, as an upstream sends it; for
// identity, a copy of data. The test fails on a coding it does not know.
func Encode(t testing.TB, coding string, data []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := NewWriter(coding, &buf)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// Decode undoes Encode, as a client does; the test fails unless data
// decodes to its end.
func Decode(t testing.TB, coding string, data []byte) []byte {
	t.Helper()
	out, err := DecodePrefix(coding, data)
	if err != nil {
		t.Fatalf("decoding %s: %v", coding, err)
	}
	return out
}

// DecodePrefix decodes what it can of data, a coded body that may be cut
// short (an aborted response, a stream not yet ended): what a client could
// read of it, and what stopped the decoder (io.ErrUnexpectedEOF where the
// body is cut short; nil where it ended well).
func DecodePrefix(coding string, data []byte) ([]byte, error) {
	r, err := NewReader(coding, bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return io.ReadAll(r)
}

// Holds reports whether s is in body as it came (coded with coding), or in
// what a client can decode of it: the check that a canary, put in every
// value a mask drops, never reached a client.
func Holds(coding string, body []byte, s string) bool {
	if bytes.Contains(body, []byte(s)) {
		return true
	}
	decoded, _ := DecodePrefix(coding, body)
	return bytes.Contains(decoded, []byte(s))
}
