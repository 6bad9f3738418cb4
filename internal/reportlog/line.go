package reportlog

import (
	"io"
	"math"
	"strconv"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/jsonmask/jsonmask/gateway"
)

// Lines writes the request lines of reports to w exactly as a logger of
// slog.NewJSONHandler(w, nil) does with Log, byte for byte (TestLines and
// FuzzLines compare them), at a fraction of its cost: slog formats every
// float through encoding/json ("floats are rare", its comment says; a
// request line has two) and walks its attributes through interfaces.
// serve writes one per request, on its hot path. It is safe for
// concurrent use; each line is one Write.
type Lines struct {
	mu  sync.Mutex
	w   io.Writer
	buf []byte
}

// NewLines returns a Lines that writes to w.
func NewLines(w io.Writer) *Lines { return &Lines{w: w} }

// Log writes the line of r, with the message msg, stamped now.
func (l *Lines) Log(msg string, r gateway.Report) { l.logAt(time.Now(), msg, r) }

func (l *Lines) logAt(t time.Time, msg string, r gateway.Report) {
	l.mu.Lock()
	defer l.mu.Unlock()
	b := l.buf[:0]
	b = append(b, `{"time":"`...)
	b = t.Round(0).AppendFormat(b, time.RFC3339Nano)
	b = append(b, `","level":"`...)
	b = append(b, r.Level().String()...)
	b = append(b, `","msg":`...)
	b = appendString(b, msg)
	b = append(b, `,"route":`...)
	b = appendString(b, r.Route)
	b = append(b, `,"method":`...)
	b = appendString(b, r.Method)
	b = append(b, `,"path":`...)
	b = appendString(b, r.Path)
	b = append(b, `,"status":`...)
	b = strconv.AppendInt(b, int64(r.Status), 10)
	b = append(b, `,"outcome":`...)
	b = appendString(b, string(r.Outcome))
	b = append(b, `,"bytes_in":`...)
	b = strconv.AppendInt(b, r.BytesIn, 10)
	b = append(b, `,"bytes_out":`...)
	b = strconv.AppendInt(b, r.BytesOut, 10)
	b = append(b, `,"mask_ms":`...)
	b = appendFloat(b, float64(r.MaskTime.Microseconds())/1000)
	b = append(b, `,"duration_ms":`...)
	b = appendFloat(b, float64(r.Duration.Microseconds())/1000)
	if r.Err != nil {
		// The error as LogAttrs redacts it, its last attribute: the one
		// place that says what of an error a log line may show.
		attrs := r.LogAttrs()
		b = append(b, `,"error":`...)
		b = appendString(b, attrs[len(attrs)-1].Value.String())
	}
	b = append(b, "}\n"...)
	l.w.Write(b) // as slog: a failed write is not the request's
	if cap(b) <= 16<<10 {
		l.buf = b
	}
}

// appendString appends s quoted as slog's JSON handler quotes it: '"',
// '\\' and control bytes escaped (\n, \r, \t, else \u00XX), invalid UTF-8
// as \ufffd, U+2028 and U+2029 escaped, the rest as it is.
func appendString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, `\n`...)
			case '\r':
				b = append(b, `\r`...)
			case '\t':
				b = append(b, `\t`...)
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// appendFloat appends f as encoding/json writes a float64, which slog's
// JSON handler calls: the shortest form, in exponent form below 1e-6 and
// from 1e21, with a one-digit negative exponent unpadded. f is finite (a
// duration's milliseconds).
func appendFloat(b []byte, f float64) []byte {
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		// clean up e-09 to e-9
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b
}
