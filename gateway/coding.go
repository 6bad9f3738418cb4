package gateway

import (
	"io"
	"net/http"
	"strings"
	"sync"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zlib"
	"github.com/klauspost/compress/zstd"
)

// coding is a Content-Encoding that the gateway decodes and encodes again
// (SPEC G3).
type coding uint8

const (
	identity coding = iota
	codingGzip
	codingDeflate // HTTP's "deflate" is the zlib format (RFC 9110 8.4.1.2)
	codingZstd
)

var codingNames = [...]string{"identity", "gzip", "deflate", "zstd"}

// parseCoding reads the Content-Encoding of h: none or identity, or one
// coding the gateway knows. Stacked codings ("gzip, gzip") and unknown ones
// (br, compress) are refused: they are never passed through (SPEC G3).
func parseCoding(h http.Header) (coding, error) {
	c := identity
	for _, v := range h.Values("Content-Encoding") {
		for name := range strings.SplitSeq(v, ",") {
			var next coding
			switch strings.ToLower(strings.TrimSpace(name)) {
			case "", "identity":
				continue
			case "gzip", "x-gzip":
				next = codingGzip
			case "deflate":
				next = codingDeflate
			case "zstd":
				next = codingZstd
			default:
				return 0, &Error{Offset: -1, msg: "content coding " + quoteHeader(name) + " is not one the gateway decodes", err: ErrCoding}
			}
			if c != identity {
				return 0, &Error{Offset: -1, msg: "stacked content codings", err: ErrCoding}
			}
			c = next
		}
	}
	return c, nil
}

// quoteHeader quotes a header value for a message, cut short: it is the
// upstream's text, not the body's.
func quoteHeader(s string) string {
	s = strings.TrimSpace(s)
	if len(s) > 32 {
		s = s[:32] + "..."
	}
	return "\"" + strings.Map(func(r rune) rune {
		if r < 0x20 || r == '"' || r == '\\' || r >= 0x7f {
			return '?'
		}
		return r
	}, s) + "\""
}

// zstdWindow is the largest window a zstd body may ask for: the 8 MiB that
// RFC 8878 asks every decoder to support. A larger one is refused instead
// of allocated (SPEC G6, G7).
const zstdWindow = 8 << 20

// A decoder turns a coded body into the decoded one, reading from src.
type decoder interface {
	io.Reader
	reset(src io.Reader) error
	release()
}

// An encoder codes the masked body into dst.
type encoder interface {
	io.Writer
	Flush() error
	Close() error
	release()
}

var (
	gzipReaders = sync.Pool{New: func() any { return new(gzipDecoder) }}
	zlibReaders sync.Pool
	zstdReaders sync.Pool
	gzipWriters sync.Pool
	zlibWriters sync.Pool
	zstdWriters sync.Pool
)

func newDecoder(c coding, src io.Reader) (decoder, error) {
	var d decoder
	switch c {
	case codingGzip:
		d = gzipReaders.Get().(*gzipDecoder)
	case codingDeflate:
		if z, ok := zlibReaders.Get().(*zlibDecoder); ok {
			d = z
		} else {
			d = new(zlibDecoder)
		}
	case codingZstd:
		if z, ok := zstdReaders.Get().(*zstdDecoder); ok {
			d = z
		} else {
			zd, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecoderLowmem(true),
				zstd.WithDecoderMaxWindow(zstdWindow))
			if err != nil {
				return nil, err
			}
			d = &zstdDecoder{zd}
		}
	}
	if err := d.reset(src); err != nil {
		d.release()
		return nil, err
	}
	return d, nil
}

type gzipDecoder struct {
	gzip.Reader
	used bool
}

func (g *gzipDecoder) reset(src io.Reader) error {
	g.used = true
	return g.Reader.Reset(src)
}

func (g *gzipDecoder) release() {
	if g.used {
		g.Reader.Reset(eofReader{}) // drop src
	}
	gzipReaders.Put(g)
}

type zlibDecoder struct{ r io.ReadCloser }

func (z *zlibDecoder) Read(p []byte) (int, error) { return z.r.Read(p) }

func (z *zlibDecoder) reset(src io.Reader) error {
	if z.r == nil {
		r, err := zlib.NewReader(src)
		z.r = r
		return err
	}
	return z.r.(zlib.Resetter).Reset(src, nil)
}

func (z *zlibDecoder) release() {
	if z.r != nil {
		zlibReaders.Put(z)
	}
}

type zstdDecoder struct{ *zstd.Decoder }

func (z *zstdDecoder) reset(src io.Reader) error { return z.Decoder.Reset(src) }

func (z *zstdDecoder) release() {
	z.Decoder.Reset(nil)
	zstdReaders.Put(z)
}

type eofReader struct{}

func (eofReader) Read([]byte) (int, error) { return 0, io.EOF }

func newEncoder(c coding, dst io.Writer) encoder {
	switch c {
	case codingGzip:
		if g, ok := gzipWriters.Get().(*gzipEncoder); ok {
			g.Reset(dst)
			return g
		}
		w, _ := gzip.NewWriterLevel(dst, gzip.DefaultCompression)
		return &gzipEncoder{w}
	case codingDeflate:
		if z, ok := zlibWriters.Get().(*zlibEncoder); ok {
			z.Reset(dst)
			return z
		}
		w, _ := zlib.NewWriterLevel(dst, zlib.DefaultCompression)
		return &zlibEncoder{w}
	case codingZstd:
		if z, ok := zstdWriters.Get().(*zstdEncoder); ok {
			z.Reset(dst)
			return z
		}
		w, _ := zstd.NewWriter(dst, zstd.WithEncoderConcurrency(1), zstd.WithWindowSize(1<<20),
			zstd.WithLowerEncoderMem(true))
		return &zstdEncoder{w}
	}
	return nil
}

type gzipEncoder struct{ *gzip.Writer }

func (g *gzipEncoder) release() { g.Reset(io.Discard); gzipWriters.Put(g) }

type zlibEncoder struct{ *zlib.Writer }

func (z *zlibEncoder) release() { z.Reset(io.Discard); zlibWriters.Put(z) }

type zstdEncoder struct{ *zstd.Encoder }

func (z *zstdEncoder) release() { z.Reset(io.Discard); zstdWriters.Put(z) }
