package stream

import (
	"encoding/binary"
	"errors"
	"io"
	"math/bits"
	"sync"

	"github.com/jsonmask/jsonmask/compile"
	"github.com/jsonmask/jsonmask/internal/jsonwire"
)

// Stream is a Machine with the two buffers it needs to mask from an
// io.Reader or into an io.Writer in memory bounded by the window size
// (SPEC S2): an input buffer for Reads, at most the window and at most
// readMax, with room before it for the bytes that cut holds back from the
// last Read, and the output of one window, which is at most the window plus
// the bytes of one key that may match plus a few.
// The zero value is ready for Reset. A Stream is not safe for concurrent use.
type Stream struct {
	m    Machine
	in   []byte // lead bytes of room, then the buffer that a Read fills: min(size, readMax)
	lead int    // the room: the most that cut holds back, min(holdMax, size/4)
	size int    // the window: the most that Write masks at once, and the output held before a flush
	out  []byte
}

// Reset prepares s to mask with prog and cfg through windows of size bytes;
// a size below 1 is 1 (a window of none would never move). Reset(nil,
// Config{}, 0) lets go of the program and keeps the buffers: for a Stream
// kept in a pool.
func (s *Stream) Reset(prog *compile.Program, cfg Config, size int) {
	s.m.Reset(prog, cfg)
	size = max(size, 1)
	s.size = size
	s.lead = min(holdMax, size/4)
	n := s.lead + min(size, readMax)
	if cap(s.in) < n {
		s.in = make([]byte, n)
	}
	s.in = s.in[:n]
	if cap(s.out) < size {
		s.out = make([]byte, 0, size+size/8+512)
	}
	s.out = s.out[:0]
}

// streams keeps Streams between bodies, for Get and Put.
var streams = sync.Pool{New: func() any { return new(Stream) }}

// Get returns a Stream from the package's pool, Reset to mask with prog and
// cfg through windows of size bytes (at least 1). Put gives it back.
func Get(prog *compile.Program, cfg Config, size int) *Stream {
	s := streams.Get().(*Stream)
	s.Reset(prog, cfg, size)
	return s
}

// Put gives s back to the pool when it is Small, without its program; the
// caller must not use s after. A Reader and a Writer Put their Stream
// themselves.
func Put(s *Stream) {
	if s.Small() {
		s.Reset(nil, Config{}, 0)
		streams.Put(s)
	}
}

// Small reports whether s is small enough to keep in a pool.
func (s *Stream) Small() bool {
	return cap(s.in) <= pooledCap+holdMax && cap(s.out) <= 2*pooledCap && s.m.Small()
}

// Copy masks what r yields into w until r reports io.EOF, and returns the
// number of bytes written. An error of r or w is returned as it is; after a
// read error nothing more is written. An r that gives 0 bytes and no error
// 100 times in a row fails with io.ErrNoProgress (as bufio.Reader does).
func (s *Stream) Copy(w io.Writer, r io.Reader) (int64, error) {
	var (
		written int64
		held    []byte // read but not yet masked (cut)
	)
	for empty := 0; ; {
		now, rest, rerr := s.read(r, held, &empty)
		if len(now) > 0 {
			var err error
			if written, err = s.feed(w, now, written); err != nil {
				return written, err
			}
		}
		held = rest
		if rerr == io.EOF {
			return s.close(w, written)
		}
		if rerr != nil {
			return written, rerr
		}
	}
}

// read reads r into s.in, after held, the bytes that cut held back from
// the last Read, which it moves just in front: the Read's buffer starts at
// the same place each time, lead bytes into s.in (on Zen 3 a copy into a
// buffer that moves with the bytes held costs up to a quarter more). The
// buffer is the window, but at most readMax bytes. It returns what to mask
// now, and the bytes to hold for the next read: none unless the Read filled
// its buffer and cut found a comma.
func (s *Stream) read(r io.Reader, held []byte, empty *int) (now, rest []byte, err error) {
	start := s.lead - len(held)
	copy(s.in[start:], held)
	n, err := r.Read(s.in[s.lead:])
	*empty, err = jsonwire.Progress(n, err, *empty)
	p := s.in[start : s.lead+n]
	k := len(p)
	if err == nil && n == len(s.in)-s.lead {
		k = cut(p, s.lead)
	}
	return p[:k], p[k:], err
}

// cut returns how many bytes of the window p to mask now, when the source
// has more to give at once (a Read that filled its buffer, a Write longer
// than the window): up to and including the last comma or newline among
// p's last limit bytes, or all of p when there is none. The rest, fewer
// than limit bytes, goes in front of what follows.
//
// A window that ends just after a comma costs the Machine less than one cut
// in the middle of a token: on citm, 32 KiB windows cut at any byte cost
// 9 % more CPU time than the whole document in one window, cut after their
// last comma 1 % (AMD EPYC Zen 3; bench/REPORT.md, round 9). The output
// held back is at most that of limit bytes, and only while the source has
// more ready: a Read that leaves room in the window is masked whole. What
// is held never holds a newline, so an NDJSON line whose end was read is
// masked and written before the next Read, however long that Read waits.
func cut(p []byte, limit int) int {
	limit = min(limit, len(p))
	if i := lastStop(p[len(p)-limit:]); i >= 0 {
		return len(p) - limit + i + 1
	}
	return len(p)
}

// lastStop returns the index of the last comma or newline in p, or -1. It
// reads p backwards 8 bytes at a time, and tests each word for both bytes at
// once: a third of the time of two byte loops (bytes.LastIndexByte, a byte
// at a time on amd64), for a comma and then a newline after it (Intel Xeon,
// 32 KiB windows of every workload; bench/REPORT.md, round 11).
func lastStop(p []byte) int {
	const (
		ones  = 0x0101010101010101
		low7  = 0x7f7f7f7f7f7f7f7f
		highs = 0x8080808080808080
	)
	i := len(p)
	for ; i >= 8; i -= 8 {
		x := binary.LittleEndian.Uint64(p[i-8:])
		c, n := x^(ones*','), x^(ones*'\n')
		// The high bit of each byte of c or n that is zero, exactly (no
		// carry runs from one byte into the next).
		z := ^((c&low7 + low7) | c) | ^((n&low7 + low7) | n)
		if z &= highs; z != 0 {
			return i - 1 - bits.LeadingZeros64(z)/8
		}
	}
	for i--; i >= 0; i-- {
		if p[i] == ',' || p[i] == '\n' {
			return i
		}
	}
	return -1
}

// holdMax bounds the bytes that cut holds back from a window.
const holdMax = 512

// readMax bounds the buffer that Copy and the Reader give a Read, whatever
// the window. A Read copies into it, and on a CPU whose L1d holds the
// buffer and the source it copies from (48 KiB on Intel Xeon), the buffer's
// lines stay there, where, into 32 KiB, the source's lines evict them
// before they are written: the copy of a document in 16 KiB Reads takes
// 40 % of the time it takes in 32 KiB ones (update-center, 4.7 against
// 11.7 µs), more than the twice as many windows cost (bench/REPORT.md,
// round 11).
const readMax = 16 << 10

// feed masks p and writes the output, window by window.
func (s *Stream) feed(w io.Writer, p []byte, written int64) (int64, error) {
	for len(p) > 0 {
		out, n, err := s.m.Write(s.out[:0], s.window(p))
		s.out = out[:0]
		if len(out) > 0 {
			k, werr := write(w, out)
			if written += int64(k); werr != nil {
				return written, werr
			}
		}
		if err != nil {
			return written, err
		}
		p = p[n:]
	}
	return written, nil
}

// window returns the next window of p to mask: at most a window's size,
// and, when more of p follows, ending after a comma where cut finds one.
func (s *Stream) window(p []byte) []byte {
	if len(p) <= s.size {
		return p
	}
	w := p[:s.size]
	return w[:cut(w, s.lead)]
}

// close ends the input and writes the rest of the output.
func (s *Stream) close(w io.Writer, written int64) (int64, error) {
	for {
		out, done, err := s.m.Close(s.out[:0])
		s.out = out[:0]
		if len(out) > 0 {
			k, werr := write(w, out)
			if written += int64(k); werr != nil {
				return written, werr
			}
		}
		if done || err != nil {
			return written, err
		}
	}
}

// write writes p to w, and reports a write that took fewer bytes than p
// without saying why as io.ErrShortWrite, as io.Copy does (SPEC S4).
func write(w io.Writer, p []byte) (int, error) {
	n, err := w.Write(p)
	if err == nil && n < len(p) {
		err = io.ErrShortWrite
	}
	return n, err
}

// Reader masks what an io.Reader yields as it is read (pull style).
type Reader struct {
	s     *Stream
	r     io.Reader
	buf   []byte // output not yet read
	pos   int
	pend  []byte // input read but not yet masked
	tail  []byte // input read after pend, held for the next Read (cut)
	rerr  error  // the input's error, reported once pend is masked
	err   error  // what Read returns once buf is drained
	empty int    // reads in a row that gave nothing (jsonwire.Progress)
}

// NewReader returns a Reader that masks r through s. The Reader takes s
// over: once it has reached the end or an error, or is stopped, it Puts s
// back and holds none of its memory.
func NewReader(s *Stream, r io.Reader) *Reader {
	return &Reader{s: s, r: r}
}

// Read reads masked output. It returns io.EOF after the masked document is
// complete, or the error that stopped it: a masking error, or r's own error
// unchanged (io.ErrNoProgress when r gives 0 bytes and no error 100 times
// in a row); every later call returns the same (SPEC S4).
func (rd *Reader) Read(p []byte) (int, error) {
	for rd.pos == len(rd.buf) {
		if rd.err != nil {
			rd.release()
			return 0, rd.err
		}
		rd.fill()
	}
	n := copy(p, rd.buf[rd.pos:])
	rd.pos += n
	return n, nil
}

// WriteTo writes the masked output to w until the document is complete or an
// error stops it, without the copy that Read makes: io.Copy calls it. It
// returns nil at the end of a complete document.
func (rd *Reader) WriteTo(w io.Writer) (int64, error) {
	var written int64
	for {
		if rd.pos < len(rd.buf) {
			k, err := write(w, rd.buf[rd.pos:])
			rd.pos += k
			if written += int64(k); err != nil {
				return written, err
			}
		}
		if rd.err != nil {
			rd.release()
			if rd.err == io.EOF {
				return written, nil
			}
			return written, rd.err
		}
		rd.fill()
	}
}

// Stop ends the Reader early: it lets the Stream go, and every later Read
// returns err.
func (rd *Reader) Stop(err error) {
	if rd.err == nil || rd.err == io.EOF {
		rd.err = err
	}
	rd.buf, rd.pos = nil, 0
	rd.release()
}

// release Puts the Stream back once the Reader needs it no more: buf, which
// aliases the Stream's memory, is dropped with it.
func (rd *Reader) release() {
	if rd.s != nil {
		rd.buf, rd.pos, rd.pend, rd.tail = nil, 0, nil, nil
		Put(rd.s)
		rd.s = nil
	}
}

func (rd *Reader) fill() {
	s := rd.s
	rd.buf, rd.pos = s.out[:0], 0
	switch {
	case len(rd.pend) > 0:
		out, n, err := s.m.Write(rd.buf, rd.pend)
		rd.buf, rd.pend = out, rd.pend[n:]
		if err != nil {
			rd.finish(err)
		}
	case rd.rerr == io.EOF:
		out, done, err := s.m.Close(rd.buf)
		if rd.buf = out; done || err != nil {
			rd.finish(err)
		}
	case rd.rerr != nil:
		rd.finish(rd.rerr)
	default:
		rd.pend, rd.tail, rd.rerr = s.read(rd.r, rd.tail, &rd.empty)
	}
	s.out = rd.buf[:0]
}

// finish records the error that ends the stream, io.EOF for a clean end.
// Read returns it, and lets the Stream go, once buf is drained.
func (rd *Reader) finish(err error) {
	if err == nil {
		err = io.EOF
	}
	rd.err = err
}

// Writer masks what is written to it into an io.Writer (push style).
type Writer struct {
	s   *Stream
	w   io.Writer
	err error
}

// NewWriter returns a Writer that masks into w through s. The Writer takes
// s over: once it is closed or has failed, it Puts s back.
func NewWriter(s *Stream, w io.Writer) *Writer {
	return &Writer{s: s, w: w}
}

// Write masks p. Output is held up to the window size and then written to
// the underlying writer; Flush writes it at once.
func (wr *Writer) Write(p []byte) (int, error) {
	if wr.err != nil {
		return 0, wr.err
	}
	s, total := wr.s, 0
	for len(p) > 0 {
		out, n, err := s.m.Write(s.out, s.window(p))
		s.out = out
		if err != nil {
			wr.fail(err)
			return total, err
		}
		total += n
		p = p[n:]
		if len(s.out) >= s.size {
			if err := wr.Flush(); err != nil {
				return total, err
			}
		}
	}
	return total, nil
}

// Flush writes the output held so far to the underlying writer.
func (wr *Writer) Flush() error {
	if wr.err != nil {
		return wr.err
	}
	if len(wr.s.out) == 0 {
		return nil
	}
	_, err := write(wr.w, wr.s.out)
	wr.s.out = wr.s.out[:0]
	if err != nil {
		wr.fail(err)
	}
	return err
}

// Close ends the input, writes the rest of the output and reports a document
// cut short (SPEC S1: the same error as for the whole input in memory). It
// does not close the underlying writer.
func (wr *Writer) Close() error {
	if wr.err != nil {
		return wr.err
	}
	s := wr.s
	for {
		out, done, err := s.m.Close(s.out)
		s.out = out
		if err != nil {
			wr.fail(err)
			return err
		}
		if done {
			break
		}
		if err := wr.Flush(); err != nil {
			return err
		}
	}
	if err := wr.Flush(); err != nil {
		return err
	}
	wr.fail(ErrClosed)
	return nil
}

// ErrClosed is what a Writer returns after Close, and a Reader after Stop
// with it.
var ErrClosed = errors.New("use of a closed masked stream")

func (wr *Writer) fail(err error) {
	wr.err = err
	if wr.s != nil {
		Put(wr.s)
		wr.s = nil
	}
}
