package gateway

import (
	"bytes"
	"io"
	"iter"
	"mime"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/jsonmask/jsonmask"
	"github.com/jsonmask/jsonmask/internal/errs"
)

// Limits bound what one masked response may cost (SPEC G6). A zero field
// takes its default; a negative MaxBodyBytes, MaxRatio or MaxTokenBytes
// turns that limit off. A body that breaks a limit is refused (SPEC G5).
type Limits struct {
	// MaxBodyBytes is the largest decoded body; for an event stream, the
	// largest payload of one event, since a stream has no end. Default
	// 256 MiB.
	MaxBodyBytes int64
	// MaxRatio is the most decoded bytes per coded byte, checked once a
	// body has decoded to 1 MiB: a decompression bomb is stopped there,
	// not at MaxBodyBytes. Default 200 (JSON compresses 5 to 50 times;
	// gzip's ceiling is about 1030).
	MaxRatio int64
	// MaxDepth is the deepest nesting (SPEC V2). Default 10000.
	MaxDepth int
	// MaxTokenBytes is the longest string or number in a masked body.
	// Default 64 MiB.
	MaxTokenBytes int
	// ResponseHeaderTimeout is how long the reverse proxy waits for the
	// upstream's response header. Default 30 s. Handler does not use it.
	ResponseHeaderTimeout time.Duration
	// MaxIdleConnsPerHost is how many idle connections to the upstream the
	// reverse proxy keeps for reuse: as many as the requests it serves at
	// once, or it opens a connection for most requests (net/http's default
	// is 2). Default 256. Handler does not use it.
	MaxIdleConnsPerHost int
}

// The defaults of Limits.
const (
	DefaultMaxBodyBytes          = 256 << 20
	DefaultMaxRatio              = 200
	DefaultMaxTokenBytes         = 64 << 20
	DefaultResponseHeaderTimeout = 30 * time.Second
	DefaultMaxIdleConnsPerHost   = 256
)

// ratioFloor is the decoded size under which MaxRatio is not checked: a
// small body of repeated keys may well compress 300 times.
const ratioFloor = 1 << 20

// resolved returns l with its defaults filled in and limits turned off as 0.
func (l Limits) resolved() Limits {
	def := func(v, d int64) int64 {
		switch {
		case v == 0:
			return d
		case v < 0:
			return 0
		}
		return v
	}
	l.MaxBodyBytes = def(l.MaxBodyBytes, DefaultMaxBodyBytes)
	l.MaxRatio = def(l.MaxRatio, DefaultMaxRatio)
	l.MaxTokenBytes = int(def(int64(l.MaxTokenBytes), DefaultMaxTokenBytes))
	if l.MaxDepth <= 0 {
		l.MaxDepth = jsonmask.DefaultMaxDepth
	}
	if l.ResponseHeaderTimeout <= 0 {
		l.ResponseHeaderTimeout = DefaultResponseHeaderTimeout
	}
	if l.MaxIdleConnsPerHost <= 0 {
		l.MaxIdleConnsPerHost = DefaultMaxIdleConnsPerHost
	}
	return l
}

// Body is one response body being masked, pushed in pieces: the pipeline
// that Handler, the reverse proxy and the plug-ins share. Write each piece
// of the body as received (still coded), Flush where what was masked so
// far must reach the client now, and Close at the end: Close reports a body
// cut short or refused. The masked body, coded again with the body's
// Content-Encoding, goes to dst as it is made:
//
//	upstream bytes -> decode (gzip, deflate, zstd) -> frame (document,
//	NDJSON line, SSE event) -> mask -> encode -> dst
//
// Output is written to dst when a window of it is ready, at once when an
// NDJSON line or an SSE event is complete (SPEC G7), and on Flush. When dst
// has a method Flush() error, it is called each time, so that the bytes go
// out at once. Memory is bounded by the masker's window and the codecs'
// state, whatever the body's size.
//
// After an error every call returns it, and nothing more is written to dst:
// a caller that has sent nothing yet sends a 502 instead, and one that has
// sent bytes aborts the response (SPEC G5). Every Body must end with Close
// or Abort: a coded body's decoder waits for input until then. A Body is
// not safe for concurrent use.
type Body struct {
	out   output
	frame framer
	pipe  *decodePipe // nil for an identity body
	err   error
	ended bool
	in    int64 // bytes of the body pushed so far
}

// NewBody returns a Body that masks, with m and limits, a response body
// whose header is h into dst. h is the header as received: its
// Content-Encoding chooses the decoder and encoder (SPEC G3) and its
// Content-Type the framing (SPEC G2: NDJSON for application/x-ndjson and
// application/jsonl, events for text/event-stream, else one document whose
// kind its bytes tell). NewBody does not change h: call FixResponseHeader
// on the header sent to the client. A coding the gateway does not decode is
// an error wrapping ErrCoding; send a 502.
//
// On a strict mask, the data payloads of an event stream that are not
// objects are refused, except those of SSEPassthrough (SPEC G2).
func NewBody(dst io.Writer, m *jsonmask.Mask, h http.Header, limits Limits, opts ...BodyOption) (*Body, error) {
	bo := bodyOptions{pass: DefaultSSEPassthrough}
	for _, o := range opts {
		o(&bo)
	}
	bm, err := newBodyMasks(m, limits.resolved(), bo.pass)
	if err != nil {
		return nil, err
	}
	return bm.newBody(dst, h)
}

// bodyMasks are a mask with a body's limits, one for each framing, and
// what else a Body of a route needs: made once per route by Handler
// (Mask.With on every response cost six allocations), or per body by
// NewBody.
type bodyMasks struct {
	doc, lines, events *jsonmask.Mask
	lim                Limits // resolved
	pass               []string
}

// newBodyMasks makes the masks of m for lim, which is resolved: resolving
// it again would read a limit turned off (0) as "the default".
func newBodyMasks(m *jsonmask.Mask, lim Limits, pass []string) (*bodyMasks, error) {
	bm := &bodyMasks{lim: lim, pass: pass}
	var err error
	if bm.doc, err = m.With(maskLimits(bm.lim, false)...); err != nil {
		return nil, err
	}
	if bm.lines, err = m.With(maskLimits(bm.lim, true)...); err != nil {
		return nil, err
	}
	bm.events = bm.doc // the same options: an event's payload is one document
	return bm, nil
}

// newBody is NewBody with the masks made.
func (bm *bodyMasks) newBody(dst io.Writer, h http.Header) (*Body, error) {
	c, err := parseCoding(h)
	if err != nil {
		return nil, err
	}
	b := &Body{}
	b.out.init(dst, c)
	switch mediaType(h.Get("Content-Type")) {
	case "text/event-stream":
		b.frame = newEventFramer(bm.events, &b.out, bm.lim, bm.pass)
	case "application/x-ndjson", "application/jsonl":
		b.frame = &docFramer{w: bm.lines.NewWriter(windowWriter{&b.out}), lines: true}
	default:
		b.frame = &docFramer{w: bm.doc.NewWriter(windowWriter{&b.out})}
	}
	if c != identity {
		b.pipe = newDecodePipe(c, b, bm.lim)
	}
	return b, nil
}

// mediaType is the media type of a Content-Type, as mime.ParseMediaType
// reads it: without its allocations for the common values that are
// already in its form ("application/json", with or without
// "; charset=utf-8").
func mediaType(ct string) string {
	t, params, cut := strings.Cut(ct, ";")
	if isLowerMediaType(t) && (!cut || params == " charset=utf-8" || params == "charset=utf-8") {
		return t
	}
	mt, _, _ := mime.ParseMediaType(ct)
	return mt
}

// isLowerMediaType reports whether t is type "/" subtype, both tokens of
// lower-case letters, digits and "-.+_", which mime.ParseMediaType returns
// as they are.
func isLowerMediaType(t string) bool {
	slash := strings.IndexByte(t, '/')
	if slash <= 0 || slash == len(t)-1 {
		return false
	}
	for i := 0; i < len(t); i++ {
		c := t[i]
		switch {
		case i == slash:
		case 'a' <= c && c <= 'z', '0' <= c && c <= '9', c == '-', c == '.', c == '+', c == '_':
		default:
			return false
		}
	}
	return true
}

// A BodyOption changes what NewBody does.
type BodyOption func(*bodyOptions)

type bodyOptions struct {
	pass []string
}

// DefaultSSEPassthrough is the data payload that a strict route lets
// through an event stream by default: the end sentinel of common LLM
// streaming APIs (SPEC G2).
var DefaultSSEPassthrough = []string{"[DONE]"}

// SSEPassthrough sets the data payloads of an event stream that a strict
// mask lets through as they are, though they are not JSON objects (SPEC
// G2): each is compared with the whole payload, its data lines joined by
// "\n". nil means DefaultSSEPassthrough; an empty list lets none through.
// It does nothing for a mask that is not strict, which passes every
// payload that is not an object (SPEC B3).
func SSEPassthrough(payloads []string) BodyOption {
	return func(o *bodyOptions) {
		if payloads != nil {
			o.pass = payloads
		}
	}
}

func maskLimits(l Limits, ndjson bool) []jsonmask.Option {
	return []jsonmask.Option{
		jsonmask.WithMaxDepth(l.MaxDepth), jsonmask.WithMaxInputSize(l.MaxBodyBytes),
		jsonmask.WithMaxTokenSize(l.MaxTokenBytes), jsonmask.WithNDJSON(ndjson),
	}
}

// Write masks p, a piece of the body as received. It returns len(p) when
// all of it was taken; the masked output may be held until a window is
// full, a line or event ends, or Flush.
func (b *Body) Write(p []byte) (int, error) {
	if b.err != nil {
		return 0, b.err
	}
	if b.ended {
		return 0, b.fail(jsonmask.ErrClosed)
	}
	b.in += int64(len(p))
	if b.pipe != nil {
		if err := b.pipe.push(p); err != nil {
			return 0, b.fail(err)
		}
		return len(p), nil
	}
	if _, err := b.frame.Write(p); err != nil {
		return 0, b.fail(err)
	}
	if err := b.idle(); err != nil {
		return 0, b.fail(err)
	}
	return len(p), nil
}

// idle is called when the input pushed so far is all taken: lines and
// events that it completed go out now.
func (b *Body) idle() error {
	if !b.frame.unitDone() {
		return nil
	}
	if err := b.frame.Flush(); err != nil {
		return err
	}
	return b.out.flush()
}

// Flush writes out what was masked so far, coded, and flushes dst. Bytes
// that a decoder still holds (inside a gzip block) come later.
func (b *Body) Flush() error {
	if b.err != nil {
		return b.err
	}
	if b.ended {
		return nil
	}
	if err := b.frame.Flush(); err != nil {
		return b.fail(err)
	}
	if err := b.out.flush(); err != nil {
		return b.fail(err)
	}
	return nil
}

// Close ends the body: it writes the rest of the masked output and the
// coding's end, and returns an error if the body was cut short or refused.
// Close does not close dst.
func (b *Body) Close() error {
	if b.err != nil {
		return b.err
	}
	if b.ended {
		return nil
	}
	if b.pipe != nil {
		if err := b.pipe.endInput(); err != nil {
			return b.fail(err)
		}
	}
	// The rest goes out with the response's end, in one write, not
	// flushed apart: for a small body, one packet instead of two.
	b.out.closing = true
	if err := b.frame.Close(); err != nil {
		return b.fail(err)
	}
	if err := b.out.close(); err != nil {
		return b.fail(err)
	}
	b.ended = true
	b.release()
	return nil
}

// Abort ends the body without writing anything more, and lets go of what
// it holds: for a caller whose client went away or who gave up. Later
// calls return err (ErrUpstream when nil).
func (b *Body) Abort(err error) {
	if err == nil {
		err = &Error{Offset: b.in, msg: "body aborted", err: ErrUpstream}
	}
	if b.err == nil && !b.ended {
		b.fail(err)
	}
}

// Written returns the number of bytes written to dst so far.
func (b *Body) Written() int64 { return b.out.n }

func (b *Body) fail(err error) error {
	b.err = err
	b.out.dead = true // what the pipeline writes while it unwinds is dropped
	if b.pipe != nil {
		b.pipe.abort()
	}
	b.frame.abort()
	b.release()
	return err
}

func (b *Body) release() {
	if b.out.enc != nil {
		b.out.enc.release()
		b.out.enc = nil
	}
	if b.pipe != nil {
		b.pipe.release()
	}
}

// output is where masked bytes go: through the encoder, if any, into dst.
type output struct {
	dst     io.Writer
	flusher interface{ Flush() error }
	enc     encoder
	pending bool  // bytes went into enc since its last flush
	closing bool  // Close is writing the rest: no flush, the caller ends the response
	n       int64 // bytes written to dst
	dead    bool  // the body failed: writes are dropped
}

func (o *output) init(dst io.Writer, c coding) {
	o.dst = dst
	o.flusher, _ = dst.(interface{ Flush() error })
	if c != identity {
		o.enc = newEncoder(c, rawOutput{o})
	}
}

// Write writes masked bytes.
func (o *output) Write(p []byte) (int, error) {
	if o.dead {
		return 0, errDead
	}
	if o.enc != nil {
		if len(p) > 0 {
			o.pending = true
		}
		return o.enc.Write(p)
	}
	return rawOutput{o}.Write(p)
}

// flush pushes what the encoder holds into dst, and flushes dst. The
// encoder is flushed only when it was given bytes since its last flush: an
// empty flush would write an empty block (gzip and deflate's sync flush is
// 5 bytes), which padded a body masked to a few bytes with thousands, and
// would send the coding's header before a refusal could still be a 502.
func (o *output) flush() error {
	if o.dead {
		return errDead
	}
	if o.enc != nil && o.pending {
		o.pending = false
		if err := o.enc.Flush(); err != nil {
			return err
		}
	}
	if o.flusher != nil {
		return o.flusher.Flush()
	}
	return nil
}

// close writes the coding's end.
func (o *output) close() error {
	if o.enc != nil {
		return o.enc.Close()
	}
	return nil
}

var errDead = errs.New("gateway: write after the body failed")

// rawOutput writes coded bytes to dst, counting them.
type rawOutput struct{ o *output }

func (r rawOutput) Write(p []byte) (int, error) {
	if r.o.dead {
		return 0, errDead
	}
	n, err := r.o.dst.Write(p)
	r.o.n += int64(n)
	if err == nil && n < len(p) {
		err = io.ErrShortWrite
	}
	return n, err
}

// windowWriter is what a masker writes to: each write is a window, or the
// end of a line, an event or the body, and goes out at once (SPEC G7).
type windowWriter struct{ o *output }

func (w windowWriter) Write(p []byte) (int, error) {
	n, err := w.o.Write(p)
	if err != nil || w.o.closing {
		return n, err
	}
	return n, w.o.flush()
}

// A framer masks a decoded body, as one document, NDJSON lines or events.
type framer interface {
	io.Writer
	Flush() error
	Close() error
	// unitDone reports whether a line or event was completed since it was
	// last asked.
	unitDone() bool
	abort()
}

// docFramer masks one document, or NDJSON lines, with a jsonmask.Writer.
type docFramer struct {
	w     *jsonmask.Writer
	lines bool // NDJSON: a '\n' completes a unit
	unit  bool
}

func (f *docFramer) Write(p []byte) (int, error) {
	n, err := f.w.Write(p)
	if f.lines && !f.unit && bytes.IndexByte(p[:n], '\n') >= 0 {
		f.unit = true
	}
	return n, err
}

func (f *docFramer) Flush() error { return f.w.Flush() }
func (f *docFramer) Close() error { return f.w.Close() }
func (f *docFramer) abort()       {}

func (f *docFramer) unitDone() bool {
	u := f.unit
	f.unit = false
	return u
}

// decodePipe decodes a coded body that arrives pushed, piece by piece.
// The decoders read (pull), so the decoding runs as a coroutine
// (iter.Pull): push hands it a piece and resumes it; it decodes and masks
// all it can, and when it needs more input it yields back. Everything runs
// in turn, never at the same time as the caller, so dst is written only
// during a call to Write, Flush or Close. No goroutine is left behind:
// endInput and abort end the coroutine.
type decodePipe struct {
	c     coding
	b     *Body
	lim   Limits
	next  func() (struct{}, bool)
	stop  func()
	yield func(struct{}) bool
	chunk []byte
	eof   bool  // Close: no more input
	in    int64 // coded bytes handed to the decoder
	out   int64 // decoded bytes
	err   error // how the decoding ended, once done
	werr  error // the error of the masking side, to tell it from the decoder's
	done  bool
	dec   decoder
	buf   *[]byte
}

var errStopped = errs.New("gateway: decoding stopped")

var copyBufs = sync.Pool{New: func() any { b := make([]byte, 32<<10); return &b }}

func newDecodePipe(c coding, b *Body, lim Limits) *decodePipe {
	p := &decodePipe{c: c, b: b, lim: lim}
	p.next, p.stop = iter.Pull(p.run)
	return p
}

// run is the coroutine: decode everything into the framer.
func (p *decodePipe) run(yield func(struct{}) bool) {
	p.yield = yield
	var src io.Reader = p
	if p.c == codingDeflate {
		// zlib stops at its stream's end: it must not read ahead into a
		// buffer of its own, so that bytes after the end are seen.
		src = bytePipe{p}
	}
	dec, err := newDecoder(p.c, src)
	if err != nil {
		if err == io.EOF && p.in == 0 { // an empty body: nothing to decode
			return
		}
		p.err = p.decodeError(err)
		return
	}
	p.dec = dec
	if wt, ok := dec.(io.WriterTo); ok {
		_, err = wt.WriteTo(decodedWriter{p})
	} else {
		p.buf = copyBufs.Get().(*[]byte)
		_, err = io.CopyBuffer(decodedWriter{p}, onlyReader{dec}, *p.buf)
	}
	switch {
	case err == nil:
	case p.werr != nil: // the masking side failed first, whatever the decoder made of it
		p.err = p.werr
	default:
		p.err = p.decodeError(err)
	}
}

func (p *decodePipe) decodeError(err error) error {
	if err == errStopped {
		return err
	}
	what := "corrupt " + codingNames[p.c] + " body"
	if err == io.ErrUnexpectedEOF {
		what = codingNames[p.c] + " body cut short"
	}
	return &Error{Offset: p.in, msg: what, err: ErrCoding}
}

// Read gives the decoder the input pushed, and yields when there is none.
func (p *decodePipe) Read(buf []byte) (int, error) {
	for len(p.chunk) == 0 {
		if p.eof {
			return 0, io.EOF
		}
		if err := p.b.idle(); err != nil {
			p.werr = err
			return 0, err
		}
		if !p.yield(struct{}{}) {
			return 0, errStopped
		}
	}
	n := copy(buf, p.chunk)
	p.chunk = p.chunk[n:]
	p.in += int64(n)
	return n, nil
}

// bytePipe is decodePipe as a flate.Reader, read a byte at a time.
type bytePipe struct{ *decodePipe }

func (p bytePipe) ReadByte() (byte, error) {
	var b [1]byte
	if _, err := p.Read(b[:]); err != nil {
		return 0, err
	}
	return b[0], nil
}

// push hands p to the decoder and runs it until it needs more.
func (p *decodePipe) push(chunk []byte) error {
	if p.done {
		if p.err != nil {
			return p.err
		}
		return &Error{Offset: p.in, msg: "data after the end of the " + codingNames[p.c] + " body", err: ErrCoding}
	}
	p.chunk = chunk
	_, ok := p.next()
	rest := len(p.chunk)
	p.chunk = nil // the caller's bytes are not kept
	if !ok {
		p.done = true
		if p.err != nil {
			return p.err
		}
		if rest > 0 {
			return &Error{Offset: p.in, msg: "data after the end of the " + codingNames[p.c] + " body", err: ErrCoding}
		}
	}
	return nil
}

// endInput tells the decoder that the body ended, and waits for it to end.
func (p *decodePipe) endInput() error {
	if !p.done {
		p.eof = true
		if _, ok := p.next(); ok {
			p.stop()
			p.done = true
			return &Error{Offset: p.in, msg: "decoder did not end", err: ErrCoding}
		}
		p.done = true
	}
	return p.err
}

func (p *decodePipe) abort() {
	if !p.done {
		p.stop()
		p.done = true
	}
}

func (p *decodePipe) release() {
	if p.dec != nil {
		p.dec.release()
		p.dec = nil
	}
	if p.buf != nil {
		copyBufs.Put(p.buf)
		p.buf = nil
	}
}

// decodedWriter takes decoded bytes into the framer, checking the ratio of
// decoded to coded bytes on the way (SPEC G6).
type decodedWriter struct{ p *decodePipe }

func (w decodedWriter) Write(b []byte) (int, error) {
	p := w.p
	p.out += int64(len(b))
	if p.lim.MaxRatio > 0 && p.out > ratioFloor && p.out > p.lim.MaxRatio*p.in {
		p.werr = &Error{Offset: p.in, msg: "body decodes to more than " + itoa(p.lim.MaxRatio) + " times its size", err: ErrRatio}
		return 0, p.werr
	}
	n, err := p.b.frame.Write(b)
	if err != nil {
		p.werr = err
	}
	return n, err
}

// onlyReader hides a decoder's other methods from io.CopyBuffer.
type onlyReader struct{ io.Reader }
