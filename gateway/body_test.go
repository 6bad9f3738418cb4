package gateway

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"
	"testing"

	"github.com/jsonmask/jsonmask"
	"github.com/jsonmask/jsonmask/gateway/codingtest"
	"github.com/klauspost/compress/gzip"
)

// canary is in every value that a test's mask drops: it must never appear
// in any output, on success or failure.
const canary = "CANARY-d7f1"

func header(coding, contentType string) http.Header {
	h := http.Header{}
	if coding != "identity" {
		h.Set("Content-Encoding", coding)
	}
	if contentType != "" {
		h.Set("Content-Type", contentType)
	}
	return h
}

// pushBody masks in through a Body in chunks of size bytes (all at once
// when size is 0), flushing after every chunk when flush is set.
func pushBody(m *jsonmask.Mask, h http.Header, lim Limits, in []byte, size int, flush bool) ([]byte, error) {
	var out bytes.Buffer
	b, err := NewBody(&out, m, h, lim)
	if err != nil {
		return out.Bytes(), err
	}
	if size <= 0 {
		size = len(in) + 1
	}
	for len(in) > 0 {
		k := min(size, len(in))
		if _, err := b.Write(in[:k]); err != nil {
			return out.Bytes(), err
		}
		in = in[k:]
		if flush {
			if err := b.Flush(); err != nil {
				return out.Bytes(), err
			}
		}
	}
	err = b.Close()
	return out.Bytes(), err
}

var bodyMask = jsonmask.MustCompile(`{"id":true,"user":{"name":true},"items":{"k":true}}`)

var bodyCases = []struct {
	name, in string
	ndjson   bool
}{
	{name: "Object", in: `{"id":7,"user":{"name":"Ana","ssn":"` + canary + `"},"debug":"` + canary + `","items":[{"k":1,"v":"` + canary + `"},{"k":2}]}`},
	{name: "Pretty", in: "{\n  \"id\": 7,\n  \"secret\": {\"a\": [\"" + canary + "\", 1, {}]},\n  \"user\": {\"name\": \"B\\u00e9\"}\n}\n"},
	{name: "Array", in: `[{"id":1,"x":"kept: arrays pass unless the mask has WithArrays"}]`},
	{name: "Empty", in: ``},
	{name: "Text", in: `<html>error</html>`},
	{name: "NDJSON", ndjson: true, in: "{\"id\":1,\"x\":\"" + canary + "\"}\n\n[1,2]\n{\"user\":{\"name\":\"a\",\"pw\":\"" + canary + "\"}}\r\n{\"id\":2}"},
}

// TestBodyEqualsAppend: for every coding and every way of splitting the
// coded body, the decoded output is what Append (or NDJSON Copy) gives.
func TestBodyEqualsAppend(t *testing.T) {
	for _, c := range bodyCases {
		m, ct := bodyMask, "application/json"
		if c.ndjson {
			m, ct = must(bodyMask.With(jsonmask.WithNDJSON(true))), "application/x-ndjson"
		}
		var want bytes.Buffer
		if _, err := m.Copy(&want, strings.NewReader(c.in)); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		for _, cod := range codingtest.Codings {
			coded := codingtest.Encode(t, cod, []byte(c.in))
			sizes := []int{0, 1, 2, 3, 7, 64, 4096}
			for _, size := range sizes {
				for _, flush := range []bool{false, true} {
					t.Run(fmt.Sprintf("%s/%s/chunk=%d/flush=%v", c.name, cod, size, flush), func(t *testing.T) {
						out, err := pushBody(bodyMask, header(cod, ct), Limits{}, coded, size, flush)
						if err != nil {
							t.Fatal(err)
						}
						got := codingtest.Decode(t, cod, out)
						if !bytes.Equal(got, want.Bytes()) {
							t.Fatalf("got  %q\nwant %q", got, want.Bytes())
						}
						if bytes.Contains(got, []byte(canary)) {
							t.Fatal("canary in the output")
						}
					})
				}
			}
		}
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// TestBodyRefused: bodies the gateway refuses, for what reason, and that
// nothing of a dropped member was written before the error.
func TestBodyRefused(t *testing.T) {
	strict := must(bodyMask.With(jsonmask.WithStrict(true)))
	gz := codingtest.Encode(t, "gzip", []byte(`{"id":1,"x":"`+canary+`"}`))
	cases := []struct {
		name   string
		m      *jsonmask.Mask
		h      http.Header
		lim    Limits
		in     []byte
		target error // errors.Is
	}{
		{"InvalidJSON", bodyMask, header("identity", ""), Limits{}, []byte(`{"id":1,"x":"` + canary + `",}`), nil},
		{"Truncated", bodyMask, header("identity", ""), Limits{}, []byte(`{"id":1,"x":"` + canary), nil},
		{"Strict/Text", strict, header("identity", ""), Limits{}, []byte(`<html>` + canary), jsonmask.ErrNotObject},
		{"Strict/Empty", strict, header("identity", ""), Limits{}, nil, jsonmask.ErrNotObject},
		{"MaxBody", bodyMask, header("identity", ""), Limits{MaxBodyBytes: 10}, []byte(`{"x":"` + canary + `","id":1}`), jsonmask.ErrInputTooLarge},
		{"MaxDepth", bodyMask, header("identity", ""), Limits{MaxDepth: 3}, []byte(`{"x":[[[["` + canary + `"]]]]}`), jsonmask.ErrMaxDepth},
		{"MaxToken", bodyMask, header("identity", ""), Limits{MaxTokenBytes: 8}, []byte(`{"x":"` + canary + `"}`), jsonmask.ErrTokenTooLarge},
		{"Coding/br", bodyMask, header("br", ""), Limits{}, []byte("x"), ErrCoding},
		{"Coding/stacked", bodyMask, header("gzip, gzip", ""), Limits{}, gz, ErrCoding},
		{"Coding/compress", bodyMask, header("compress", ""), Limits{}, gz, ErrCoding},
		{"Coding/corrupt", bodyMask, header("gzip", ""), Limits{}, append(gz[:10:10], bytes.Repeat([]byte{0xff}, 50)...), ErrCoding},
		{"Coding/cut", bodyMask, header("gzip", ""), Limits{}, gz[:len(gz)-6], ErrCoding},
		{"Coding/trailing", bodyMask, header("deflate", ""), Limits{}, append(codingtest.Encode(t, "deflate", []byte(`{"id":1}`)), "junk"...), ErrCoding},
		{"Coding/notzlib", bodyMask, header("deflate", ""), Limits{}, []byte(`{"id":1}`), ErrCoding},
		{"Coding/gzip-as-zstd", bodyMask, header("zstd", ""), Limits{}, gz, ErrCoding},
	}
	for _, c := range cases {
		for _, size := range []int{0, 1, 5} {
			t.Run(fmt.Sprintf("%s/chunk=%d", c.name, size), func(t *testing.T) {
				out, err := pushBody(c.m, c.h, c.lim, c.in, size, true)
				if err == nil {
					t.Fatalf("no error; output %q", out)
				}
				if c.target != nil && !errors.Is(err, c.target) {
					t.Fatalf("error %v does not wrap %v", err, c.target)
				}
				if c.target == nil {
					var se *jsonmask.SyntaxError
					if !errors.As(err, &se) {
						t.Fatalf("error %T %v, want a *jsonmask.SyntaxError", err, err)
					}
				}
				if !strings.HasPrefix(err.Error(), "jsonmask: ") || strings.Contains(err.Error(), "\n") {
					t.Errorf("message %q: want one line starting with jsonmask:", err)
				}
				if codingtest.Holds(c.h.Get("Content-Encoding"), out, canary) {
					t.Fatalf("canary in the output %q", out)
				}
			})
		}
	}
}

// TestBodyBomb: 1 GiB of zeros in about 1 MB of gzip (and of spaces in a
// string of an object, which is masked) is stopped by the ratio limit after
// a few MiB, not decoded to its end.
func TestBodyBomb(t *testing.T) {
	for _, c := range []struct {
		name   string
		prefix string
		fill   byte
	}{{"Zeros", "", 0}, {"SpacesInString", `{"a":"`, ' '}} {
		t.Run(c.name, func(t *testing.T) {
			bomb := gzipFill(c.prefix, c.fill, 1<<30)
			var out countWriter
			b, err := NewBody(&out, bodyMask, header("gzip", ""), Limits{})
			if err != nil {
				t.Fatal(err)
			}
			var werr error
			pushed := 0
			for len(bomb) > 0 && werr == nil {
				k := min(32<<10, len(bomb))
				_, werr = b.Write(bomb[:k])
				bomb, pushed = bomb[k:], pushed+k
			}
			if werr == nil {
				werr = b.Close()
			}
			if !errors.Is(werr, ErrRatio) {
				t.Fatalf("error %v, want ErrRatio", werr)
			}
			if pushed > 64<<10 {
				t.Errorf("pushed %d coded bytes before the limit, want it stopped at about 1 MiB decoded", pushed)
			}
			t.Logf("stopped after %d coded bytes: %v", pushed, werr)
		})
	}
}

// gzipFill is prefix then about n bytes of fill, gzipped: a decompression
// bomb. It is built of gzip members of 1 MiB each, which a gzip reader
// joins: a valid body of n bytes, cheap to make.
func gzipFill(prefix string, fill byte, n int) []byte {
	member := func(data []byte) []byte {
		var buf bytes.Buffer
		w, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
		w.Write(data)
		w.Close()
		return buf.Bytes()
	}
	block := bytes.Repeat([]byte{fill}, 1<<20)
	out := member(append([]byte(prefix), block...))
	one := member(block)
	for i := 1 << 20; i < n; i += len(block) {
		out = append(out, one...)
	}
	return out
}

type countWriter struct{ n int64 }

func (c *countWriter) Write(p []byte) (int, error) { c.n += int64(len(p)); return len(p), nil }

// TestBodyAfterError: every call after an error returns it, and writes
// nothing more.
func TestBodyAfterError(t *testing.T) {
	for _, cod := range codingtest.Codings {
		t.Run(cod, func(t *testing.T) {
			var out bytes.Buffer
			b, err := NewBody(&out, bodyMask, header(cod, ""), Limits{})
			if err != nil {
				t.Fatal(err)
			}
			bad := codingtest.Encode(t, cod, []byte(`{"id":1,]`))
			_, err1 := b.Write(bad)
			if err1 == nil {
				err1 = b.Close()
			}
			if err1 == nil {
				t.Fatal("no error")
			}
			n := out.Len()
			if _, err := b.Write([]byte(`{}`)); err != err1 {
				t.Errorf("Write after error: %v, want %v", err, err1)
			}
			if err := b.Flush(); err != err1 {
				t.Errorf("Flush after error: %v, want %v", err, err1)
			}
			if err := b.Close(); err != err1 {
				t.Errorf("Close after error: %v, want %v", err, err1)
			}
			if out.Len() != n {
				t.Errorf("wrote %d bytes after the error", out.Len()-n)
			}
		})
	}
}

// TestBodyAbortEndsCoroutine: a coded body abandoned midway leaves no
// goroutine behind (goleak checks it in TestMain).
func TestBodyAbortEndsCoroutine(t *testing.T) {
	for _, cod := range []string{"gzip", "deflate", "zstd"} {
		t.Run(cod, func(t *testing.T) {
			coded := codingtest.Encode(t, cod, bytes.Repeat([]byte(`{"id":1}`), 1))
			b, err := NewBody(io.Discard, bodyMask, header(cod, ""), Limits{})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := b.Write(coded[:len(coded)/2]); err != nil {
				t.Fatal(err)
			}
			b.Abort(nil)
			if _, err := b.Write(coded[len(coded)/2:]); !errors.Is(err, ErrUpstream) {
				t.Fatalf("Write after Abort: %v, want ErrUpstream", err)
			}
		})
	}
}

// TestNDJSONFlushPerLine: each NDJSON line reaches dst, flushed, by the
// time the Write that completed it returns (SPEC G7).
func TestNDJSONFlushPerLine(t *testing.T) {
	lines := []string{
		`{"id":1,"x":"` + canary + `"}` + "\n",
		`{"id":2,`,
		`"x":"` + canary + `"}` + "\n" + `{"id":3}` + "\n",
	}
	wants := []string{"{\"id\":1}\n", "", "{\"id\":1}\n{\"id\":2}\n{\"id\":3}\n"}
	for _, cod := range []string{"identity", "gzip", "deflate", "zstd"} {
		t.Run(cod, func(t *testing.T) {
			fw := &flushWriter{}
			b, err := NewBody(fw, bodyMask, header(cod, "application/x-ndjson"), Limits{})
			if err != nil {
				t.Fatal(err)
			}
			enc := newTestStream(t, cod)
			for i, l := range lines {
				if _, err := b.Write(enc.chunk(l)); err != nil {
					t.Fatal(err)
				}
				if wants[i] == "" {
					continue
				}
				if got := decodePrefix(t, cod, fw.flushed.Bytes()); string(got) != wants[i] {
					t.Fatalf("after piece %d, flushed %q, want %q", i, got, wants[i])
				}
			}
			if _, err := b.Write(enc.end()); err != nil {
				t.Fatal(err)
			}
			if err := b.Close(); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestCodedSizeOfSmallOutput: a large body masked to a few bytes is a few
// bytes coded too: the encoder is flushed only when it has output, not
// once per window or chunk (SPEC G7's flushes cost nothing when there is
// nothing to send).
func TestCodedSizeOfSmallOutput(t *testing.T) {
	var in bytes.Buffer
	in.WriteString(`{"id":1,"x":[`)
	for i := 0; i < 100000; i++ {
		fmt.Fprintf(&in, `"%s %d",`, canary, i)
	}
	in.WriteString(`0]}`)
	for _, cod := range []string{"gzip", "deflate", "zstd"} {
		for _, flush := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/flush=%v", cod, flush), func(t *testing.T) {
				out, err := pushBody(bodyMask, header(cod, "application/json"), Limits{}, codingtest.Encode(t, cod, in.Bytes()), 16<<10, flush)
				if err != nil {
					t.Fatal(err)
				}
				if got := codingtest.Decode(t, cod, out); string(got) != `{"id":1}` {
					t.Fatalf("decoded %q", got)
				}
				if len(out) > 64 {
					t.Errorf("%d coded bytes for 8 bytes of output (%d in)", len(out), in.Len())
				}
			})
		}
	}
}

// FuzzMediaType: the media type that chooses a body's framing (SPEC G2)
// is what mime.ParseMediaType reads, fast path or not.
func FuzzMediaType(f *testing.F) {
	for _, ct := range []string{"", "application/json", "application/json; charset=utf-8", "application/json;charset=utf-8",
		"Text/Event-Stream", "text/event-stream ", " text/event-stream", "text/event-stream; charset=UTF-8",
		"application/x-ndjson", "application/jsonl;", "text/event-stream;x", "a/b/c", "/json", "text/"} {
		f.Add(ct)
	}
	f.Fuzz(func(t *testing.T, ct string) {
		want, _, _ := mime.ParseMediaType(ct)
		if got := mediaType(ct); got != want {
			t.Fatalf("%q: mediaType %q, mime.ParseMediaType %q", ct, got, want)
		}
	})
}
