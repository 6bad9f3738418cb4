package jsonmask

import (
	"io"

	"github.com/jsonmask/jsonmask/compile"
	"github.com/jsonmask/jsonmask/stream"
)

// stream returns a Stream of the stream package's pool, set to mask with m.
func (m *Mask) stream() *stream.Stream {
	return stream.Get(m.prog, m.cfg.Config, m.cfg.bufferSize)
}

// Copy masks the body that r yields into w, like io.Copy, and returns the
// number of bytes written. It reads a window at a time (WithBufferSize), at
// most 16 KiB, and holds memory bounded by the window, whatever the size of
// the body or of any one value in it (SPEC S2); it allocates nothing in steady
// state.
//
// For every way the body may be split into reads, Copy writes exactly what
// Append returns and fails on exactly the same bodies (SPEC S1). A Read that
// fills its buffer is masked up to its last comma or newline: the
// bytes after that, at most 512 and never a line's end, go in front of the
// next Read's (a window cut between members costs less than one cut inside a
// token). On a
// *SyntaxError, what Copy wrote before is a prefix of what a valid body would
// have given, and holds no byte of a dropped member (SPEC V5). Errors from r
// and w are returned as they are.
func (m *Mask) Copy(w io.Writer, r io.Reader) (int64, error) {
	s := m.stream()
	n, err := s.Copy(w, r)
	stream.Put(s)
	return n, convert(m.prog, err)
}

// NewReader returns a reader of r's body, masked: pull style, to wrap an
// http.Response.Body. Its Read returns io.EOF once the masked body is
// complete, a *SyntaxError if the body is rejected, or r's own error as it
// is; every later Read returns the same. Like Copy, it holds memory bounded by
// the window size, reads at most 16 KiB at a time, and holds back at most
// 512 bytes of a Read that filled its buffer, never a line's end, until the
// next. It is not safe for concurrent use.
func (m *Mask) NewReader(r io.Reader) *Reader {
	return &Reader{r: stream.NewReader(m.stream(), r), src: r, prog: m.prog}
}

// Reader is a masked body being read: see Mask.NewReader. It is an
// io.ReadCloser, so it can stand in for an http.Response.Body, and an
// io.WriterTo, so that io.Copy writes the masked output straight from its
// window.
type Reader struct {
	r    *stream.Reader
	src  io.Reader
	prog *compile.Program // for the errors' KeptPointer
	err  error            // the error returned, converted once so that every call returns the same
}

// Read reads masked output: see Mask.NewReader.
func (r *Reader) Read(p []byte) (int, error) {
	n, err := r.r.Read(p)
	return n, r.sticky(err)
}

// WriteTo writes the rest of the masked body to w and returns the number of
// bytes written; it returns nil, not io.EOF, when the body is complete.
func (r *Reader) WriteTo(w io.Writer) (int64, error) {
	n, err := r.r.WriteTo(w)
	return n, r.sticky(err)
}

// Close closes the source when it is an io.Closer and returns its error;
// later reads return ErrClosed unless the body had already ended in an error.
// A Reader that is not read to its end should be closed, so that its window
// goes back to the pool.
func (r *Reader) Close() error {
	r.r.Stop(ErrClosed)
	if c, ok := r.src.(io.Closer); ok {
		return c.Close()
	}
	return nil
}

func (r *Reader) sticky(err error) error {
	if err == nil || err == io.EOF {
		return err
	}
	if r.err == nil {
		r.err = convert(r.prog, err)
	}
	return r.err
}

// NewWriter returns a writer that masks what is written to it into w: push
// style, to wrap an http.ResponseWriter. Output is held up to the window
// size; Flush writes it at once. Close must be called: it writes the rest and
// returns a *SyntaxError if the body was cut short (SPEC S1). Close does not
// close w. After an error every later call returns it (SPEC S4). It is not
// safe for concurrent use.
func (m *Mask) NewWriter(w io.Writer) *Writer {
	return &Writer{w: stream.NewWriter(m.stream(), w), prog: m.prog}
}

// Writer is a masked body being written: see Mask.NewWriter.
type Writer struct {
	w    *stream.Writer
	prog *compile.Program // for the errors' KeptPointer
	err  error
}

// Write masks p. It returns the number of bytes of p consumed; the masked
// output is held up to the window size, then written to the underlying
// writer.
func (w *Writer) Write(p []byte) (int, error) {
	n, err := w.w.Write(p)
	return n, w.sticky(err)
}

// Flush writes the output held so far to the underlying writer.
func (w *Writer) Flush() error { return w.sticky(w.w.Flush()) }

// Close ends the body: it writes the rest of the output and reports a body cut
// short. See Mask.NewWriter.
func (w *Writer) Close() error { return w.sticky(w.w.Close()) }

func (w *Writer) sticky(err error) error {
	if err == nil {
		return nil
	}
	if w.err == nil {
		w.err = convert(w.prog, err)
	}
	return w.err
}
