package jsonmask

import (
	"io"
	"sync"

	"github.com/jsonmask/jsonmask/stream"
)

var streams = sync.Pool{New: func() any { return new(stream.Stream) }}

func (m *Mask) stream() *stream.Stream {
	s := streams.Get().(*stream.Stream)
	s.Reset(m.prog, m.cfg, m.buf)
	return s
}

func releaseStream(s *stream.Stream) {
	if s.Small() {
		s.M.Reset(nil, stream.Config{})
		streams.Put(s)
	}
}

// Copy masks the body that r yields into w, like io.Copy, and returns the
// number of bytes written. It reads a window at a time (WithBufferSize) and
// holds memory bounded by the window, whatever the size of the body or of any
// one value in it (SPEC S2); it allocates nothing in steady state.
//
// For every way the body may be split into reads, Copy writes exactly what
// Append returns and fails on exactly the same bodies (SPEC S1). On a
// *SyntaxError, what Copy wrote before is a prefix of what a valid body would
// have given, and holds no byte of a dropped member (SPEC V5). Errors from r
// and w are returned as they are.
func (m *Mask) Copy(w io.Writer, r io.Reader) (int64, error) {
	s := m.stream()
	n, err := s.Copy(w, r)
	releaseStream(s)
	return n, convert(err)
}

// NewReader returns a reader of r's body, masked: pull style, to wrap an
// http.Response.Body. Its Read returns io.EOF once the masked body is
// complete, a *SyntaxError if the body is rejected, or r's own error as it is.
// Like Copy, it holds memory bounded by the window size. It is not safe for
// concurrent use.
func (m *Mask) NewReader(r io.Reader) io.Reader {
	return &reader{r: stream.NewReader(m.stream(), r, releaseStream)}
}

type reader struct{ r *stream.Reader }

func (r *reader) Read(p []byte) (int, error) {
	n, err := r.r.Read(p)
	return n, convert(err)
}

// NewWriter returns a writer that masks what is written to it into w: push
// style, to wrap an http.ResponseWriter. Output is held up to the window size;
// the writer's Flush() error method writes it at once. Close must be called:
// it writes the rest and returns a *SyntaxError if the body was cut short
// (SPEC S1). Close does not close w. It is not safe for concurrent use.
func (m *Mask) NewWriter(w io.Writer) io.WriteCloser {
	return &writer{w: stream.NewWriter(m.stream(), w, releaseStream)}
}

type writer struct{ w *stream.Writer }

func (w *writer) Write(p []byte) (int, error) {
	n, err := w.w.Write(p)
	return n, convert(err)
}

// Flush writes the output held so far.
func (w *writer) Flush() error { return convert(w.w.Flush()) }

// Close ends the body: see Mask.NewWriter.
func (w *writer) Close() error { return convert(w.w.Close()) }
