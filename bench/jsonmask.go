package bench

import (
	"io"

	"github.com/jsonmask/jsonmask"
)

// compile compiles w's mask with w's options and any extra ones.
func compile(w *Workload, extra ...jsonmask.Option) (*jsonmask.Mask, error) {
	opts := append([]jsonmask.Option{
		jsonmask.WithArrays(w.Options.Arrays),
		jsonmask.WithNDJSON(w.Options.NDJSON),
	}, extra...)
	return jsonmask.Compile(w.Mask, opts...)
}

// appendMasker is jsonmask's in-memory API.
type appendMasker struct{ m *jsonmask.Mask }

func (a appendMasker) Mask(dst, doc []byte) ([]byte, error) { return a.m.Append(dst, doc) }

func newJSONMask(w *Workload) (masker, error) {
	m, err := compile(w)
	return appendMasker{m}, err
}

func newJSONMaskTrusted(w *Workload) (masker, error) {
	m, err := compile(w, jsonmask.WithTrustedInput(true))
	return appendMasker{m}, err
}

// streamMasker is jsonmask's streaming API, fed by a reader that returns at
// most readChunk bytes per Read, as a network body would.
type streamMasker struct {
	m *jsonmask.Mask
	r chunkReader
	w appendWriter
	// discard sends the output to io.Discard instead of dst: benchmarks set it
	// so that they measure masking, as when the output goes to a socket.
	discard bool
}

func newJSONMaskStream(w *Workload) (masker, error) {
	m, err := compile(w)
	return &streamMasker{m: m}, err
}

func (s *streamMasker) Mask(dst, doc []byte) ([]byte, error) {
	s.r.reset(doc)
	if s.discard {
		_, err := s.m.Copy(io.Discard, &s.r)
		return dst, err
	}
	s.w.b = dst
	_, err := s.m.Copy(&s.w, &s.r)
	dst, s.w.b = s.w.b, nil // hold no reference to the caller's buffer
	return dst, err
}

// readChunk is the most a chunkReader returns per Read.
const readChunk = 32 << 10

// chunkReader reads a byte slice at most readChunk bytes at a time. Unlike a
// bytes.Reader it has no WriteTo method, so the masker under test cannot
// bypass its Read calls. reset makes it reusable without allocating.
type chunkReader struct {
	doc []byte
	off int
}

func (r *chunkReader) reset(doc []byte) { r.doc, r.off = doc, 0 }

func (r *chunkReader) Read(p []byte) (int, error) {
	if r.off >= len(r.doc) {
		return 0, io.EOF
	}
	n := copy(p[:min(len(p), readChunk)], r.doc[r.off:])
	r.off += n
	return n, nil
}

// appendWriter appends what is written to it to b.
type appendWriter struct{ b []byte }

func (w *appendWriter) Write(p []byte) (int, error) {
	w.b = append(w.b, p...)
	return len(p), nil
}
