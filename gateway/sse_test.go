package gateway

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/jsonmask/jsonmask"
	"github.com/jsonmask/jsonmask/gateway/codingtest"
)

var sseMask = jsonmask.MustCompile(`{"id":true,"delta":{"text":true}}`)

var sseCases = []struct {
	name, in, want string
	err            error // errors.Is, or errSyntax for a *jsonmask.SyntaxError
}{
	{name: "OneEvent",
		in:   "data: {\"id\":1,\"secret\":\"" + canary + "\"}\n\n",
		want: "data: {\"id\":1}\n\n"},
	{name: "FieldsKept",
		in:   "event: delta\nid: 42\nretry: 1000\n: a comment\ndata: {\"id\":1,\"delta\":{\"text\":\"hi\",\"logprobs\":\"" + canary + "\"}}\n\n",
		want: "event: delta\nid: 42\nretry: 1000\n: a comment\ndata: {\"id\":1,\"delta\":{\"text\":\"hi\"}}\n\n"},
	{name: "MultiLineData",
		in:   "data: {\"id\":1,\ndata:  \"x\":\"" + canary + "\"}\n\n",
		want: "data: {\"id\":1}\n\n"},
	{name: "NotJSONPasses",
		in:   "data: [DONE]\n\ndata: hello\ndata:  world\n\n",
		want: "data: [DONE]\n\ndata: hello\ndata:  world\n\n"},
	{name: "NoSpaceAfterColon",
		in:   "data:{\"id\":2,\"x\":\"" + canary + "\"}\n\n",
		want: "data: {\"id\":2}\n\n"},
	{name: "DataAlone",
		in:   "data\ndata: {\"id\":3,\"x\":\"" + canary + "\"}\n\n",
		want: "data: {\"id\":3}\n\n"},
	{name: "CRLF",
		in:   "id: 1\r\ndata: {\"id\":1,\"x\":\"" + canary + "\"}\r\n\r\n: ping\r\n\r\n",
		want: "id: 1\r\ndata: {\"id\":1}\n\r\n: ping\r\n\r\n"},
	{name: "CR",
		in:   "id: 1\rdata: {\"id\":1,\"x\":\"" + canary + "\"}\r\r",
		want: "id: 1\rdata: {\"id\":1}\n\r"},
	{name: "FieldBetweenDataLines",
		in:   "data: {\"id\":1,\nid: 7\ndata: \"x\":\"" + canary + "\"}\n\n",
		want: "data: {\"id\":1}\nid: 7\n\n"},
	{name: "BOM",
		in:   "\xEF\xBB\xBFdata: {\"id\":1,\"x\":\"" + canary + "\"}\n\n",
		want: "\xEF\xBB\xBFdata: {\"id\":1}\n\n"},
	{name: "NotABOM",
		in:   "\xEFx: 1\ndata: {\"id\":1}\n\n",
		want: "data: {\"id\":1}\n\n"},
	{name: "LenientDataDropped",
		in:   "Data: {\"secret\":\"" + canary + "\"}\n data: " + canary + "\nDATA\ndata: {\"id\":1}\n\n",
		want: "data: {\"id\":1}\n\n"},
	{name: "LongFieldName",
		in:   strings.Repeat("x", 40) + ": " + canary + "\ndata: {}\n\n",
		want: "data: {}\n\n"},
	// G2: only data, event, id, retry and comments are kept; a body that
	// is not an event stream but says it is loses every line.
	{name: "JSONLabelledSSE",
		in:   "{\"id\":1,\"secret\":\"" + canary + "\"}\n",
		want: ""},
	{name: "JSONLabelledSSENoNewline",
		in:   "{\"id\":1,\"secret\":\"" + canary + "\"}",
		want: ""},
	{name: "PrettyJSONLabelledSSE",
		in:   "{\n  \"id\": 1,\n  \"secret\": \"" + canary + "\"\n}\n",
		want: ""},
	{name: "SpacesBeforeData",
		in:   strings.Repeat(" ", 20) + "data: {\"secret\":\"" + canary + "\"}\n\n",
		want: "\n"},
	{name: "UnknownFieldDropped",
		in:   "foo: " + canary + "\nevent: x\ndata: {\"id\":1}\n\n",
		want: "event: x\ndata: {\"id\":1}\n\n"},
	{name: "UnknownFieldAloneDropped",
		in:   canary + "\ndata: {\"id\":1}\n\n",
		want: "data: {\"id\":1}\n\n"},
	{name: "UnknownBetweenDataLines",
		in:   "data: {\"id\":1,\nx" + canary + ": 1\ndata: \"x\":\"" + canary + "\"}\n\n",
		want: "data: {\"id\":1}\n\n"},
	{name: "CutInUnknownName",
		in:   "data: {}\n\n" + canary,
		want: "data: {}\n\n"},
	{name: "CutShort",
		in:   "data: {\"id\":1,\"x\":\"" + canary + "\"}\n",
		want: "data: {\"id\":1}\n"},
	{name: "CutInName",
		in:   "data: {}\n\nid",
		want: "data: {}\n\nid"},
	{name: "KeepAlive",
		in:   ":\n\n:\n\n",
		want: ":\n\n:\n\n"},
	{name: "Empty", in: "", want: ""},
	{name: "InvalidPayload",
		in:  "data: {\"id\":1}\n\ndata: {\"id\":2,\"x\":\"" + canary + "\",}\n\n",
		err: errSyntax},
	{name: "PayloadCutShort",
		in:  "data: {\"id\":1,\"x\":\"" + canary + "\n\n",
		err: errSyntax},
	{name: "TooMuchHeld",
		in:  "data: {\"id\":1,\n: " + strings.Repeat("c", maxHeld) + "\ndata: \"x\":\"" + canary + "\"}\n\n",
		err: ErrSSE},
}

var errSyntax = errors.New("a *jsonmask.SyntaxError")

// TestSSE: every case at every chunk size; no output holds the canary.
func TestSSE(t *testing.T) {
	for _, c := range sseCases {
		for _, cod := range []string{"identity", "gzip"} {
			for _, size := range []int{0, 1, 2, 3, 5, 8, 13} {
				t.Run(fmt.Sprintf("%s/%s/chunk=%d", c.name, cod, size), func(t *testing.T) {
					out, err := pushBody(sseMask, header(cod, "text/event-stream; charset=utf-8"), Limits{}, codingtest.Encode(t, cod, []byte(c.in)), size, false)
					if codingtest.Holds(cod, out, canary) {
						t.Fatalf("canary in the output %q", out)
					}
					switch {
					case c.err == errSyntax:
						var se *jsonmask.SyntaxError
						if !errors.As(err, &se) {
							t.Fatalf("error %v, want a *jsonmask.SyntaxError", err)
						}
						return
					case c.err != nil:
						if !errors.Is(err, c.err) {
							t.Fatalf("error %v, want %v", err, c.err)
						}
						return
					case err != nil:
						t.Fatal(err)
					}
					if got := codingtest.Decode(t, cod, out); string(got) != c.want {
						t.Fatalf("got  %q\nwant %q", got, c.want)
					}
				})
			}
		}
	}
}

// TestSSEFlushPerEvent: each event reaches dst, flushed, by the time the
// Write that completed it returns, before the next event is written.
func TestSSEFlushPerEvent(t *testing.T) {
	events := []string{
		"event: a\ndata: {\"id\":1,\"x\":\"" + canary + "\"}\n\n",
		": keep-alive\n\n",
		"data: [DONE]\n\n",
		"id: 9\ndata: {\"id\":2,\n",
		"data: \"delta\":{\"text\":\"t\"}}\n\n",
	}
	for _, cod := range []string{"identity", "gzip", "zstd"} {
		t.Run(cod, func(t *testing.T) {
			fw := &flushWriter{}
			b, err := NewBody(fw, sseMask, header(cod, "text/event-stream"), Limits{})
			if err != nil {
				t.Fatal(err)
			}
			// The upstream flushes each event, as a streaming server does.
			enc := newTestStream(t, cod)
			want := ""
			wants := []string{"event: a\ndata: {\"id\":1}\n\n", ": keep-alive\n\n", "data: [DONE]\n\n", "", "id: 9\ndata: {\"id\":2,\"delta\":{\"text\":\"t\"}}\n\n"}
			for i, ev := range events {
				if _, err := b.Write(enc.chunk(ev)); err != nil {
					t.Fatal(err)
				}
				want += wants[i]
				if wants[i] == "" {
					continue
				}
				got := decodePrefix(t, cod, fw.flushed.Bytes())
				if string(got) != want {
					t.Fatalf("after event %d, flushed %q, want %q", i, got, want)
				}
			}
			if _, err := b.Write(enc.end()); err != nil {
				t.Fatal(err)
			}
			if err := b.Close(); err != nil {
				t.Fatal(err)
			}
			if got := codingtest.Decode(t, cod, fw.buf.Bytes()); string(got) != want {
				t.Fatalf("whole output %q, want %q", got, want)
			}
		})
	}
}

// flushWriter records what was written up to the last Flush.
type flushWriter struct {
	buf, flushed bytes.Buffer
}

func (f *flushWriter) Write(p []byte) (int, error) { return f.buf.Write(p) }
func (f *flushWriter) Flush() error {
	f.flushed.Reset()
	f.flushed.Write(f.buf.Bytes())
	return nil
}

var sseStrictMask = jsonmask.MustCompile(`{"id":true}`, jsonmask.WithStrict(true))

// TestSSEStrict: on a strict route a data payload that is not a JSON
// object is refused (SPEC G2, G5), unless the route lists it in
// sse_passthrough (default "[DONE]").
func TestSSEStrict(t *testing.T) {
	cases := []struct {
		name, in, want string
		pass           []string // nil: the default
		refused        bool
	}{
		{name: "Object", in: "data: {\"id\":1,\"x\":\"" + canary + "\"}\n\n", want: "data: {\"id\":1}\n\n"},
		{name: "Done", in: "data: {\"id\":1}\n\ndata: [DONE]\n\n", want: "data: {\"id\":1}\n\ndata: [DONE]\n\n"},
		{name: "DoneCRLF", in: "data: [DONE]\r\n\r\n", want: "data: [DONE]\n\r\n"},
		{name: "DoneCutShort", in: "data: [DONE]", want: "data: [DONE]\n"},
		{name: "Text", in: "data: " + canary + "\n\n", refused: true},
		{name: "Array", in: "data: [\"" + canary + "\"]\n\n", refused: true},
		{name: "DonePrefix", in: "data: [DO\n\n", refused: true},
		{name: "DoneAndMore", in: "data: [DONE]" + canary + "\n\n", refused: true},
		{name: "DoneTwoLines", in: "data: [DONE]\ndata: " + canary + "\n\n", refused: true},
		{name: "DoneNotListed", in: "data: [DONE]\n\n", pass: []string{}, refused: true},
		{name: "OtherListed", in: "data: ping\n\ndata: [DONE]\n\n", pass: []string{"ping"}, want: "data: ping\n\n", refused: true},
		{name: "JSONLabelledSSE", in: "{\"id\":1,\"secret\":\"" + canary + "\"}\n", want: ""},
	}
	for _, c := range cases {
		for _, size := range []int{0, 1, 2, 5} {
			t.Run(fmt.Sprintf("%s/chunk=%d", c.name, size), func(t *testing.T) {
				var out bytes.Buffer
				b, err := NewBody(&out, sseStrictMask, header("identity", "text/event-stream"), Limits{}, SSEPassthrough(c.pass))
				if err != nil {
					t.Fatal(err)
				}
				in := []byte(c.in)
				n := size
				if n == 0 {
					n = len(in)
				}
				for len(in) > 0 && err == nil {
					k := min(n, len(in))
					_, err = b.Write(in[:k])
					in = in[k:]
				}
				if err == nil {
					err = b.Close()
				}
				if bytes.Contains(out.Bytes(), []byte(canary)) {
					t.Fatalf("canary in the output %q", out.Bytes())
				}
				if c.refused {
					if !errors.Is(err, jsonmask.ErrNotObject) {
						t.Fatalf("error %v, want ErrNotObject; output %q", err, out.Bytes())
					}
					if out.String() != c.want {
						t.Fatalf("output %q before the refusal, want %q", out.Bytes(), c.want)
					}
					return
				}
				if err != nil {
					t.Fatal(err)
				}
				if out.String() != c.want {
					t.Fatalf("got  %q\nwant %q", out.Bytes(), c.want)
				}
			})
		}
	}
}
