package gateway

import (
	"bytes"
	"errors"
	"io"
	"testing"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zlib"
	"github.com/klauspost/compress/zstd"
)

// testStream codes a stream piece by piece, flushing after each, as a
// streaming upstream does.
type testStream struct {
	buf bytes.Buffer
	w   interface {
		io.Writer
		Flush() error
	}
}

func newTestStream(t testing.TB, cod string) *testStream {
	s := &testStream{}
	switch cod {
	case "gzip", "x-gzip":
		s.w = gzip.NewWriter(&s.buf)
	case "deflate":
		s.w = zlib.NewWriter(&s.buf)
	case "zstd":
		w, err := zstd.NewWriter(&s.buf)
		if err != nil {
			t.Fatal(err)
		}
		s.w = w
	}
	return s
}

// chunk returns the coded bytes of piece, flushed.
func (s *testStream) chunk(piece string) []byte {
	if s.w == nil {
		return []byte(piece)
	}
	s.buf.Reset()
	s.w.Write([]byte(piece))
	s.w.Flush()
	return append([]byte(nil), s.buf.Bytes()...)
}

// end returns the coded stream's last bytes.
func (s *testStream) end() []byte {
	if s.w == nil {
		return nil
	}
	s.buf.Reset()
	s.w.(io.Closer).Close()
	return append([]byte(nil), s.buf.Bytes()...)
}

// decodePrefix decodes what can be decoded of a coded stream not yet ended.
func decodePrefix(t testing.TB, cod string, data []byte) []byte {
	t.Helper()
	var r io.Reader
	var err error
	switch cod {
	case "identity", "":
		return data
	case "gzip", "x-gzip":
		r, err = gzip.NewReader(bytes.NewReader(data))
	case "deflate":
		r, err = zlib.NewReader(bytes.NewReader(data))
	case "zstd":
		d, derr := zstd.NewReader(bytes.NewReader(data))
		if derr == nil {
			defer d.Close()
		}
		r, err = d, derr
	}
	if err != nil {
		t.Fatalf("decoding %s: %v", cod, err)
	}
	var out bytes.Buffer
	_, err = io.Copy(&out, r)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && err != io.EOF {
		t.Fatalf("decoding %s: %v", cod, err)
	}
	return out.Bytes()
}

// openDecoder opens a client's decoder on a coded stream.
func openDecoder(cod string, r io.Reader) (io.Reader, error) {
	switch cod {
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
	return r, nil
}
