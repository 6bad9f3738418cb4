package gateway

import (
	"bytes"
	"errors"
	"io"
	"testing"

	"github.com/jsonmask/jsonmask/gateway/codingtest"
)

// testStream codes a stream piece by piece, flushing after each, as a
// streaming upstream does.
type testStream struct {
	buf bytes.Buffer
	w   codingtest.Writer
}

func newTestStream(t testing.TB, cod string) *testStream {
	s := &testStream{}
	w, err := codingtest.NewWriter(cod, &s.buf)
	if err != nil {
		t.Fatal(err)
	}
	s.w = w
	return s
}

// chunk returns the coded bytes of piece, flushed.
func (s *testStream) chunk(piece string) []byte {
	s.buf.Reset()
	s.w.Write([]byte(piece))
	s.w.Flush()
	return append([]byte(nil), s.buf.Bytes()...)
}

// end returns the coded stream's last bytes.
func (s *testStream) end() []byte {
	s.buf.Reset()
	s.w.Close()
	return append([]byte(nil), s.buf.Bytes()...)
}

// decodePrefix decodes what a coded stream not yet ended has flushed.
func decodePrefix(t testing.TB, cod string, data []byte) []byte {
	t.Helper()
	out, err := codingtest.DecodePrefix(cod, data)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("decoding %s: %v", cod, err)
	}
	return out
}
