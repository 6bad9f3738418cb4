package extproc

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	procmode "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/http/ext_proc/v3"
	extprocv3 "github.com/envoyproxy/go-control-plane/envoy/service/ext_proc/v3"
	"github.com/jsonmask/jsonmask"
	"github.com/jsonmask/jsonmask/gateway"
	"github.com/jsonmask/jsonmask/gateway/codingtest"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// canary is in every value that a test's mask drops: it must never reach
// the client, on success or failure.
const canary = "CANARY-5e0c"

var (
	itemsMask  = jsonmask.MustCompile(`{"id":true,"user":{"name":true},"items":{"k":true}}`)
	strictMask = must(itemsMask.With(jsonmask.WithStrict(true)))
)

const (
	streamed = procmode.ProcessingMode_STREAMED
	duplexed = procmode.ProcessingMode_FULL_DUPLEX_STREAMED
)

var modes = []procmode.ProcessingMode_BodySendMode{streamed, duplexed}

// testRoutes: /v1/items masks every 2xx, /v1/strict refuses what is not an
// object, /v1/listed masks only 200 and 201; everything else is unmatched.
func testRoutes(t testing.TB) *gateway.Routes {
	t.Helper()
	rs, err := gateway.NewRoutes([]gateway.Route{
		{Pattern: "/v1/items", Mask: itemsMask},
		{Pattern: "/v1/strict", Mask: strictMask},
		{Pattern: "/v1/listed", Mask: itemsMask, Statuses: []int{200, 201}},
	})
	if err != nil {
		t.Fatal(err)
	}
	return rs
}

// bigBody is an object of about 300 KiB, a canary in every dropped value,
// so that masked output fills several windows and 64 KiB chunks.
func bigBody() []byte {
	var b bytes.Buffer
	b.WriteString(`{"id":"big","user":{"name":"Ana","ssn":"` + canary + `"},"items":[`)
	for i := range 3000 {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"k":%d,"v":"%s %d","tags":["%s"]}`, i, canary, i, canary)
	}
	b.WriteString(`],"debug":{"trace":"` + canary + `"}}`)
	return b.Bytes()
}

type bodyCase struct {
	name          string
	contentType   string
	body          []byte
	contentLength bool // the upstream sends a Content-Length (else the body is streamed)
	big           bool
}

var bodyCases = []bodyCase{
	{name: "Object", contentType: "application/json", contentLength: true,
		body: []byte(`{"id":7,"user":{"name":"Ana","ssn":"` + canary + `"},"debug":"` + canary + `","items":[{"k":1,"v":"` + canary + `"},{"k":2}]}`)},
	{name: "Object/Streamed", contentType: "application/json",
		body: []byte(`{"id":7,"user":{"name":"Ana","ssn":"` + canary + `"},"debug":"` + canary + `","items":[{"k":1,"v":"` + canary + `"},{"k":2}]}`)},
	{name: "Pretty", contentType: "application/json", contentLength: true,
		body: []byte("\ufeff{\n  \"id\": 7,\n  \"secret\": {\"a\": [\"" + canary + "\", 1, {}]},\n  \"user\": {\"name\": \"B\\u00e9\"}\n}\n")},
	{name: "Array", contentType: "application/json", contentLength: true,
		body: []byte(`[{"id":1,"x":"arrays pass: this mask has no WithArrays"}]`)},
	{name: "Text", contentType: "text/html", contentLength: true, body: []byte("<html>an error page</html>\n")},
	{name: "NDJSON", contentType: "application/x-ndjson",
		body: []byte("{\"id\":1,\"x\":\"" + canary + "\"}\n\n[1,2]\n{\"user\":{\"name\":\"a\",\"pw\":\"" + canary + "\"}}\r\n{\"id\":2}")},
	{name: "SSE", contentType: "text/event-stream",
		body: []byte("event: delta\ndata: {\"id\":1,\"x\":\"" + canary + "\"}\n\n: comment\ndata: {\"user\":\ndata: {\"name\":\"b\",\"pw\":\"" + canary + "\"}}\n\ndata: [DONE]\n\n")},
	{name: "Big", contentType: "application/json", contentLength: true, body: bigBody(), big: true},
	{name: "Big/Streamed", contentType: "application/json", body: bigBody(), big: true},
}

var codings = []string{"identity", "gzip", "deflate", "zstd"}

// want is what the client must get for a body: the gateway's masking of
// the whole body at once (identity), which is Append's output for a JSON
// document (checked here too).
func (c bodyCase) want(t testing.TB) []byte {
	t.Helper()
	var out bytes.Buffer
	b, err := gateway.NewBody(&out, itemsMask, http.Header{"Content-Type": {c.contentType}}, gateway.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.Write(c.body); err != nil {
		t.Fatal(err)
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	if c.contentType == "application/json" {
		app, err := itemsMask.Append(nil, c.body)
		if err != nil || !bytes.Equal(app, out.Bytes()) {
			t.Fatalf("the reference is not Append's output: %q, %v", app, err)
		}
	}
	return out.Bytes()
}

// responseHeader is the upstream's header for a body, coded.
func (c bodyCase) responseHeader(coding string, coded []byte) http.Header {
	h := http.Header{
		"Content-Type": {c.contentType},
		"Etag":         {`"v1"`},
		"Vary":         {"Accept-Encoding"},
		"Digest":       {"sha-256=abc"},
		"Set-Cookie":   {"a=1", "b=2"},
	}
	if coding != "identity" {
		h.Set("Content-Encoding", coding)
	}
	if c.contentLength {
		h.Set("Content-Length", strconv.Itoa(len(coded)))
	}
	return h
}

// TestMaskedBodies: for every kind of body, coding, body mode and chunk
// size from 1 byte to 64 KiB, the client gets exactly the gateway's
// masking of the body (Append's output for a document), coded again as it
// came, with the header of a masked response (SPEC G2, G3, G4), and the
// report says so.
func TestMaskedBodies(t *testing.T) {
	h := newHarness(t, testRoutes(t))
	for _, c := range bodyCases {
		want := c.want(t)
		for _, coding := range codings {
			coded := codingtest.Encode(t, coding, c.body)
			sizes := []int{1, 5, 64, 4096}
			if c.big {
				sizes = []int{1000, 16 << 10, 64 << 10}
			}
			for _, mode := range modes {
				for _, size := range sizes {
					t.Run(fmt.Sprintf("%s/%s/%s/chunk=%d", c.name, coding, mode, size), func(t *testing.T) {
						out := h.run(t, exchange{mode: mode, path: "/v1/items", header: c.responseHeader(coding, coded), body: coded, chunk: size})
						if !out.complete || out.local || out.reset || out.passedRest {
							t.Fatalf("not a complete response: %+v", out)
						}
						got := codingtest.Decode(t, coding, out.body)
						if !bytes.Equal(got, want) {
							t.Fatalf("body\n got %q\nwant %q", got, want)
						}
						noCanary(t, out)
						checkMaskedHeader(t, out.header, coding)
						r := out.report
						if r.Outcome != gateway.OutcomeMasked || r.Route != "/v1/items" || r.Status != 200 || r.Err != nil ||
							r.BytesIn != int64(len(coded)) || r.BytesOut != int64(len(out.body)) {
							t.Errorf("report %+v (body in %d, out %d)", r, len(coded), len(out.body))
						}
					})
				}
			}
		}
	}
}

// checkMaskedHeader: the header of a masked response (SPEC G4).
func checkMaskedHeader(t *testing.T, h http.Header, coding string) {
	t.Helper()
	for _, k := range []string{"Content-Length", "Digest", "Accept-Ranges"} {
		if v, ok := h[k]; ok {
			t.Errorf("%s kept: %q", k, v)
		}
	}
	if got := h.Get("Etag"); got != `W/"v1"` {
		t.Errorf("ETag %q, want W/\"v1\"", got)
	}
	if got := h.Get("Vary"); got != "Accept-Encoding" {
		t.Errorf("Vary %q", got)
	}
	if got := h["Set-Cookie"]; len(got) != 2 {
		t.Errorf("Set-Cookie %q", got)
	}
	if got, want := h.Get("Content-Encoding"), coding; got != want && !(coding == "identity" && got == "") {
		t.Errorf("Content-Encoding %q, want %q", got, coding)
	}
}

// TestRequestHeaders: the request headers choose the route on the clean
// path (SPEC G1, G8); the upstream gets the clean path, query kept, and
// the request's header fixed (G3, G4, G8); a path that must be refused is
// a 400 problem document.
func TestRequestHeaders(t *testing.T) {
	h := newHarness(t, testRoutes(t))
	obj := []byte(`{"id":1,"x":"` + canary + `"}`)
	reqHeader := func() http.Header {
		return http.Header{
			"Accept-Encoding":        {"gzip, deflate, br"},
			"Range":                  {"bytes=0-10"},
			"If-Range":               {`"v1"`},
			"X-Http-Method-Override": {"DELETE"},
			"X-Method-Override":      {"DELETE"},
			"X-Original-Url":         {"/v1/items"},
			"X-Rewrite-Url":          {"/v1/items"},
			"Authorization":          {"Bearer t"},
		}
	}
	cases := []struct {
		name, path string
		upPath     string // "" for a refused request
		route      string
		masked     bool
		method     string
	}{
		{name: "Clean", path: "/v1/items", upPath: "/v1/items", route: "/v1/items", masked: true},
		{name: "Query", path: "/v1/items?a=1&b=%2F", upPath: "/v1/items?a=1&b=%2F", route: "/v1/items", masked: true},
		{name: "DotSegments", path: "//v1/./x/../items?a=1", upPath: "/v1/items?a=1", route: "/v1/items", masked: true},
		{name: "EncodedUnreserved", path: "/v1/%69tems", upPath: "/v1/items", route: "/v1/items", masked: true},
		{name: "Case", path: "/V1/Items", upPath: "/V1/Items", route: "/v1/items", masked: true},
		{name: "TrailingSlash", path: "/v1/items/", upPath: "/v1/items/", route: "/v1/items", masked: true},
		{name: "AbsoluteForm", path: "http://api.test//v1/items?a=1", upPath: "/v1/items?a=1", route: "/v1/items", masked: true},
		{name: "AbsoluteForm/Clean", path: "https://api.test/v1/items", upPath: "/v1/items", route: "/v1/items", masked: true},
		{name: "Unmatched", path: "/v2/items", upPath: "/v2/items"},
		{name: "EncodedSlash", path: "/v1%2Fitems"},
		{name: "BadEscape", path: "/v1/it%zzems"},
		{name: "Backslash", path: "/v1\\items"},
		// SPEC G8, round 2: what common frameworks route to a masked path.
		{name: "JSONSuffix", path: "/v1/items.json", upPath: "/v1/items.json", route: "/v1/items", masked: true},
		{name: "EncodedSemicolon", path: "/v1/items%3b?a=1", upPath: "/v1/items%3B?a=1", route: "/v1/items", masked: true},
		{name: "EncodedSpace", path: "/v1/items%20", upPath: "/v1/items%20", route: "/v1/items", masked: true},
		{name: "DoubleEncoding", path: "/v1/%2569tems"},
		{name: "NonASCII", path: "/v1/item%C5%BF"},
		{name: "Connect", path: "/v1/items", method: "CONNECT"},
		{name: "AuthorityForm", path: "api.test:443"},
	}
	for _, c := range cases {
		for _, mode := range modes {
			t.Run(c.name+"/"+mode.String(), func(t *testing.T) {
				out := h.run(t, exchange{mode: mode, method: c.method, path: c.path, reqHeader: reqHeader(),
					header: http.Header{"Content-Type": {"application/json"}}, body: obj})
				if c.upPath == "" {
					if !out.local || out.status != 400 {
						t.Fatalf("not refused with 400: %+v", out)
					}
					checkProblem(t, out, 400)
					if out.report.Outcome != gateway.OutcomeBadRequest {
						t.Errorf("report %+v", out.report)
					}
					return
				}
				if out.upPath != c.upPath {
					t.Errorf(":path %q upstream, want %q", out.upPath, c.upPath)
				}
				up := out.upHeader
				if up.Get("X-Http-Method-Override") != "" || up.Get("X-Method-Override") != "" {
					t.Errorf("method overrides reach the upstream: %v", up)
				}
				if up.Get("X-Original-Url") != "" || up.Get("X-Rewrite-Url") != "" {
					t.Errorf("URL overrides reach the upstream: %v", up)
				}
				if up.Get("Authorization") != "Bearer t" {
					t.Errorf("Authorization lost: %v", up)
				}
				if c.masked {
					if up.Get("Range") != "" || up.Get("If-Range") != "" || up.Get("Accept-Encoding") != "gzip, deflate" {
						t.Errorf("request header on a masked route: %v", up)
					}
				} else if up.Get("Range") == "" || up.Get("Accept-Encoding") != "gzip, deflate, br" {
					t.Errorf("request header changed on an unmatched route: %v", up)
				}
				if !out.complete {
					t.Fatalf("incomplete: %+v", out)
				}
				wantBody := obj
				if c.masked {
					wantBody = []byte(`{"id":1}`)
				}
				if !bytes.Equal(out.body, wantBody) {
					t.Errorf("body %q, want %q", out.body, wantBody)
				}
				if out.report.Route != c.route {
					t.Errorf("report's route %q, want %q", out.report.Route, c.route)
				}
			})
		}
	}
}

// TestResponseHeaders: what a masked route does with each kind of response
// (gateway.Route.Treat): bodies with other statuses pass untouched, HEAD
// and 304 get a masked response's header, a 206, a 101 or a coding the
// gateway cannot decode are refused with a 502 before anything is sent,
// in either mode.
func TestResponseHeaders(t *testing.T) {
	h := newHarness(t, testRoutes(t))
	obj := []byte(`{"id":1,"x":"` + canary + `"}`)
	etag := http.Header{"Etag": {`"v1"`}, "Content-Length": {"25"}, "Accept-Ranges": {"bytes"}}
	cases := []struct {
		name, method, path string
		status             int
		header             http.Header
		body               []byte
		want               string // the body the client gets
		wantStatus         int
		fixed              bool // the header of a masked response
		outcome            gateway.Outcome
	}{
		{name: "Masked", path: "/v1/items", status: 200, header: etag, body: obj, want: `{"id":1}`, wantStatus: 200, fixed: true, outcome: gateway.OutcomeMasked},
		{name: "NotListed/500", path: "/v1/items", status: 500, body: []byte("upstream error"), want: "upstream error", wantStatus: 500, outcome: gateway.OutcomeUnmasked},
		{name: "NotListed/202", path: "/v1/listed", status: 202, body: []byte(`{"id":1,"x":"y"}`), want: `{"id":1,"x":"y"}`, wantStatus: 202, outcome: gateway.OutcomeUnmasked},
		{name: "Listed/201", path: "/v1/listed", status: 201, body: obj, want: `{"id":1}`, wantStatus: 201, outcome: gateway.OutcomeMasked},
		{name: "NoContent", path: "/v1/items", status: 204, wantStatus: 204, outcome: gateway.OutcomeUnmasked},
		{name: "NotModified", path: "/v1/items", status: 304, header: etag, wantStatus: 304, fixed: true, outcome: gateway.OutcomeUnmasked},
		{name: "Head", method: "HEAD", path: "/v1/items", status: 200, header: etag, wantStatus: 200, fixed: true, outcome: gateway.OutcomeUnmasked},
		{name: "EmptyBody", path: "/v1/items", status: 200, wantStatus: 200, outcome: gateway.OutcomeMasked},
		{name: "EmptyBody/Strict", path: "/v1/strict", status: 200, wantStatus: 502, outcome: gateway.OutcomeRefused},
		{name: "Partial", path: "/v1/items", status: 206, body: obj, wantStatus: 502, outcome: gateway.OutcomeRefused},
		{name: "SwitchingProtocols", path: "/v1/items", status: 101, wantStatus: 502, outcome: gateway.OutcomeRefused},
		{name: "Coding/br", path: "/v1/items", status: 200, header: http.Header{"Content-Encoding": {"br"}}, body: obj, wantStatus: 502, outcome: gateway.OutcomeRefused},
		{name: "Coding/Stacked", path: "/v1/items", status: 200, header: http.Header{"Content-Encoding": {"gzip, gzip"}}, body: obj, wantStatus: 502, outcome: gateway.OutcomeRefused},
		{name: "Unmatched", path: "/other", status: 200, header: etag, body: obj, want: string(obj), wantStatus: 200, outcome: gateway.OutcomeUnmatched},
	}
	for _, c := range cases {
		for _, mode := range modes {
			t.Run(c.name+"/"+mode.String(), func(t *testing.T) {
				out := h.run(t, exchange{mode: mode, method: c.method, path: c.path, status: c.status, header: c.header.Clone(), body: c.body})
				if out.status != c.wantStatus {
					t.Fatalf("status %d, want %d: %+v", out.status, c.wantStatus, out)
				}
				if out.report.Outcome != c.outcome {
					t.Errorf("outcome %q, want %q (%v)", out.report.Outcome, c.outcome, out.report.Err)
				}
				if c.wantStatus == 502 {
					if !out.local {
						t.Fatalf("a refusal that is not a local reply: %+v", out)
					}
					checkProblem(t, out, 502)
					return
				}
				if !out.complete || out.local || out.reset {
					t.Fatalf("incomplete: %+v", out)
				}
				if string(out.body) != c.want {
					t.Errorf("body %q, want %q", out.body, c.want)
				}
				_, cl := out.header["Content-Length"]
				if c.fixed && (cl || out.header.Get("Etag") != `W/"v1"` || out.header.Get("Accept-Ranges") != "") {
					t.Errorf("header not fixed: %v", out.header)
				}
				if !c.fixed && c.header != nil && (!cl || out.header.Get("Etag") != `"v1"`) {
					t.Errorf("header changed: %v", out.header)
				}
			})
		}
	}
}

// TestFailClosed: bodies refused while they are masked (invalid JSON, cut
// short, a corrupt coding, a strict route, a limit) never complete, and no
// dropped byte reaches the client: in FULL_DUPLEX_STREAMED mode a body
// refused before any of it was sent becomes a 502 problem document (its
// header was held back); after bytes were sent, or in STREAMED mode where
// the header answer goes first, the response is reset (SPEC G5).
func TestFailClosed(t *testing.T) {
	h := newHarness(t, testRoutes(t), WithLimits(gateway.Limits{MaxBodyBytes: 400 << 10, MaxDepth: 64}))
	big := bigBody()
	lateInvalid := append(big[:len(big)-1:len(big)-1], `,"x":"`+canary+`",}`...)
	deep := []byte(`{"id":1,"x":` + strings.Repeat("[", 100) + `"` + canary + `"` + strings.Repeat("]", 100) + `}`)
	tooBig := append(append([]byte(nil), big[:len(big)-1]...), `,"pad":"`+strings.Repeat("p", 300<<10)+`"}`...)
	gz := codingtest.Encode(t, "gzip", big)
	cases := []struct {
		name, path string
		coding     string
		body       []byte
		early      bool   // refused before any masked byte could be sent, if the body is not streamed
		valid      []byte // a valid body that this one starts like: what was sent is a prefix of its masking (SPEC V5)
		sse        bool   // labelled text/event-stream
	}{
		// SPEC G2: an SSE label lets no payload through a strict route
		// that is not an object, "[DONE]" aside.
		{name: "StrictSSE", path: "/v1/strict", sse: true, body: []byte("data: [DONE]\n\ndata: " + canary + "\n\n")},
		{name: "StrictSSEJSONArray", path: "/v1/strict", sse: true, body: []byte("data: [\"" + canary + "\"]\n\n"), early: true},
		{name: "Invalid", path: "/v1/items", body: []byte(`{"id":1,"x":"` + canary + `",}`), early: true},
		{name: "InvalidLate", path: "/v1/items", body: lateInvalid, valid: big},
		{name: "Truncated", path: "/v1/items", body: []byte(`{"id":1,"x":"` + canary), early: true},
		{name: "TruncatedLate", path: "/v1/items", body: big[:len(big)-100], valid: big},
		{name: "Strict", path: "/v1/strict", body: []byte("<html>" + canary + "</html>"), early: true},
		{name: "Depth", path: "/v1/items", body: deep, early: true},
		{name: "MaxBody", path: "/v1/items", body: tooBig, valid: tooBig},
		{name: "Gzip/Corrupt", path: "/v1/items", coding: "gzip", body: append(gz[:100:100], bytes.Repeat([]byte{0xff}, 200)...), early: true},
		{name: "Gzip/CutShort", path: "/v1/items", coding: "gzip", body: gz[:len(gz)/2], valid: big},
		{name: "Gzip/TrailingGarbage", path: "/v1/items", coding: "gzip", body: append(codingtest.Encode(t, "gzip", []byte(`{"id":1}`)), "garbage"...), early: true},
	}
	for _, c := range cases {
		coding := c.coding
		if coding == "" {
			coding = "identity"
		}
		for _, mode := range modes {
			for _, size := range []int{1, 64, 4096, 64 << 10} {
				if size == 1 && len(c.body) > 64<<10 {
					continue
				}
				for _, cl := range []bool{true, false} {
					t.Run(fmt.Sprintf("%s/%s/chunk=%d/length=%v", c.name, mode, size, cl), func(t *testing.T) {
						bc := bodyCase{contentType: "application/json", contentLength: cl}
						if c.sse {
							bc.contentType = "text/event-stream"
						}
						out := h.run(t, exchange{mode: mode, path: c.path, header: bc.responseHeader(coding, c.body), body: c.body, chunk: size})
						if out.complete || out.passedRest {
							t.Fatalf("a refused body completed: %+v", out.report)
						}
						noCanary(t, out)
						if out.report.Err == nil {
							t.Errorf("no error in the report: %+v", out.report)
						}
						switch {
						case out.local:
							checkProblem(t, out, 502)
							if out.report.Outcome != gateway.OutcomeRefused || out.report.BytesOut != 0 {
								t.Errorf("report %+v", out.report)
							}
						case out.reset:
							if out.report.Outcome != gateway.OutcomeAborted && mode == duplexed {
								t.Errorf("report %+v", out.report)
							}
						default:
							t.Fatalf("neither refused nor reset: %+v", out)
						}
						if mode == duplexed && c.early && cl && !out.local {
							t.Errorf("refused before a byte was sent, yet not a 502: %+v", out.report)
						}
						if c.valid != nil && out.reset {
							sent, _ := codingtest.DecodePrefix(coding, out.body)
							if want := must(itemsMask.Append(nil, c.valid)); !bytes.HasPrefix(want, sent) {
								t.Errorf("what was sent (%d bytes) is not a prefix of the masked body", len(sent))
							}
						}
					})
				}
			}
		}
	}
}

// TestBomb: a coded body that decodes to more than Limits.MaxRatio times
// its size is refused once it has decoded to 1 MiB (SPEC G6), long before
// the body limit.
func TestBomb(t *testing.T) {
	h := newHarness(t, testRoutes(t))
	bomb := codingtest.Encode(t, "gzip", []byte(`{"id":1,"x":"`+strings.Repeat("a", 64<<20)+canary+`"}`))
	for _, mode := range modes {
		t.Run(mode.String(), func(t *testing.T) {
			bc := bodyCase{contentType: "application/json", contentLength: true}
			out := h.run(t, exchange{mode: mode, path: "/v1/items", header: bc.responseHeader("gzip", bomb), body: bomb, chunk: 4096})
			noCanary(t, out)
			if out.complete || !errors.Is(out.report.Err, gateway.ErrRatio) {
				t.Fatalf("not refused for its ratio: %+v", out.report)
			}
			if mode == duplexed && !out.local {
				t.Errorf("not a 502: %+v", out)
			}
		})
	}
}

// TestTrailers: in FULL_DUPLEX_STREAMED mode the end of a masked body is
// sent after the trailers arrive, and the trailers that describe the
// upstream's bytes are dropped (SPEC G4); in STREAMED mode a body that the
// masker has fully written passes, and a coded one, whose end cannot follow
// the trailers, is reset rather than truncated.
func TestTrailers(t *testing.T) {
	h := newHarness(t, testRoutes(t))
	c := bodyCases[1] // streamed: no Content-Length, as with trailers
	want := c.want(t)
	trailers := http.Header{"X-Checksum": {"42"}, "Content-Md5": {"abc"}, "Digest": {"sha-256=x"}}
	cases := []struct {
		mode     procmode.ProcessingMode_BodySendMode
		coding   string
		complete bool
	}{
		{duplexed, "identity", true},
		{duplexed, "gzip", true},
		{duplexed, "zstd", true},
		{streamed, "identity", true},
		{streamed, "gzip", false},
	}
	for _, tc := range cases {
		for _, size := range []int{1, 16, 4096} {
			t.Run(fmt.Sprintf("%s/%s/chunk=%d", tc.mode, tc.coding, size), func(t *testing.T) {
				coded := codingtest.Encode(t, tc.coding, c.body)
				out := h.run(t, exchange{mode: tc.mode, path: "/v1/items", header: c.responseHeader(tc.coding, coded),
					body: coded, chunk: size, trailers: trailers.Clone()})
				noCanary(t, out)
				if !tc.complete {
					if out.complete || !out.reset {
						t.Fatalf("want a reset: %+v", out)
					}
					return
				}
				if !out.complete {
					t.Fatalf("incomplete: %+v", out)
				}
				if got := codingtest.Decode(t, tc.coding, out.body); !bytes.Equal(got, want) {
					t.Fatalf("body %q, want %q", got, want)
				}
				if out.trailers.Get("X-Checksum") != "42" || out.trailers.Get("Content-Md5") != "" || out.trailers.Get("Digest") != "" {
					t.Errorf("trailers %v", out.trailers)
				}
			})
		}
	}
	t.Run("Unmatched", func(t *testing.T) {
		out := h.run(t, exchange{mode: duplexed, path: "/free", body: []byte("abc"), trailers: trailers.Clone()})
		if !out.complete || string(out.body) != "abc" || out.trailers.Get("Content-Md5") != "abc" {
			t.Fatalf("%+v", out)
		}
	})
}

// TestAbandoned: a stream that Envoy abandons mid-body (the client went
// away: it cancels the stream, or closes its side) ends the server's
// Process, lets go of the body's decoder, and is reported as aborted.
// TestMain checks that no goroutine is left behind.
func TestAbandoned(t *testing.T) {
	h := newHarness(t, testRoutes(t))
	body := bigBody()
	for _, mode := range modes {
		for _, coding := range []string{"identity", "gzip", "zstd"} {
			for _, how := range []string{"cancel", "close"} {
				t.Run(fmt.Sprintf("%s/%s/%s", mode, coding, how), func(t *testing.T) {
					coded := codingtest.Encode(t, coding, body)
					ex := exchange{mode: mode, path: "/v1/items", header: bodyCases[0].responseHeader(coding, coded), body: coded, chunk: 1024}
					if how == "cancel" {
						ex.abandonAt = 3
					} else {
						ex.halfCloseAt = 3
					}
					out := h.run(t, ex)
					if out.complete {
						t.Fatal("complete")
					}
					noCanary(t, out)
					if out.report.Outcome != gateway.OutcomeAborted || out.report.Err == nil {
						t.Errorf("report %+v", out.report)
					}
				})
			}
		}
	}
}

// TestEnvoyConfig: what the server does with each way Envoy may be set up.
// Modes that cannot mask a whole body, a response without its request
// (request_header_mode SKIP) and observability_mode are refused rather
// than passed; BUFFERED and an Envoy without protocol_config (STREAMED
// assumed) mask.
func TestEnvoyConfig(t *testing.T) {
	h := newHarness(t, testRoutes(t))
	obj := []byte(`{"id":1,"x":"` + canary + `"}`)
	cases := []struct {
		name   string
		ex     exchange
		masked bool // else refused with a 502
	}{
		{name: "Buffered", ex: exchange{mode: procmode.ProcessingMode_BUFFERED}, masked: true},
		{name: "NoProtocolConfig", ex: exchange{mode: streamed, noConfig: true, chunk: 3}, masked: true},
		{name: "None", ex: exchange{mode: procmode.ProcessingMode_NONE}},
		{name: "BufferedPartial", ex: exchange{mode: procmode.ProcessingMode_BUFFERED_PARTIAL}},
		{name: "GRPC", ex: exchange{mode: procmode.ProcessingMode_GRPC}},
		{name: "SkipRequest/Streamed", ex: exchange{mode: streamed, skipRequest: true}},
		{name: "SkipRequest/Duplex", ex: exchange{mode: duplexed, skipRequest: true}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ex := c.ex
			ex.path, ex.header, ex.body = "/v1/items", http.Header{"Content-Type": {"application/json"}}, obj
			out := h.run(t, ex)
			noCanary(t, out)
			if c.masked {
				if !out.complete || string(out.body) != `{"id":1}` {
					t.Fatalf("%+v", out)
				}
				return
			}
			if !out.local || out.status != 502 {
				t.Fatalf("not refused: %+v", out)
			}
			checkProblem(t, out, 502)
		})
	}
}

// checkProblem: a local reply with an application/problem+json body that
// says why, for the status.
func checkProblem(t *testing.T, out outcome, status int) {
	t.Helper()
	if ct := out.header.Get("Content-Type"); ct != "application/problem+json" {
		t.Errorf("Content-Type %q", ct)
	}
	var p struct {
		Title, Detail string
		Status        int
	}
	if err := json.Unmarshal(out.body, &p); err != nil {
		t.Fatalf("problem %q: %v", out.body, err)
	}
	if p.Status != status || p.Title == "" || p.Detail == "" {
		t.Errorf("problem %+v", p)
	}
}

// noCanary: nothing the mask drops reached the client: not in the body
// (decoded as far as it goes), the header or the trailers.
func noCanary(t *testing.T, out outcome) {
	t.Helper()
	if codingtest.Holds(out.header.Get("Content-Encoding"), out.body, canary) || strings.Contains(fmt.Sprint(out.header, out.trailers), canary) {
		t.Fatalf("canary reached the client: %q %v %v", out.body, out.header, out.trailers)
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// TestValueHeaders: an Envoy that sends header values in value rather than
// raw_value (before 1.27, or with send_header_raw_value off) reads
// mutations from value too: the server answers in the field it was sent.
func TestValueHeaders(t *testing.T) {
	h := newHarness(t, testRoutes(t))
	c := bodyCases[0]
	for _, mode := range modes {
		t.Run(mode.String(), func(t *testing.T) {
			out := h.run(t, exchange{mode: mode, valueHeaders: true, path: "//v1/items",
				reqHeader: http.Header{"Range": {"bytes=1-2"}}, header: c.responseHeader("identity", c.body), body: c.body, chunk: 16})
			if !out.complete || !bytes.Equal(out.body, c.want(t)) {
				t.Fatalf("%+v", out)
			}
			checkMaskedHeader(t, out.header, "identity")
			if out.upPath != "/v1/items" || out.upHeader.Get("Range") != "" {
				t.Errorf("request %q %v", out.upPath, out.upHeader)
			}
		})
	}
}

// TestObservabilityMode: Envoy ignores every answer in observability_mode,
// so the server cannot mask: it ends the stream with FailedPrecondition
// at once rather than pretend to.
func TestObservabilityMode(t *testing.T) {
	h := newHarness(t, testRoutes(t))
	out := h.run(t, exchange{mode: duplexed, observe: true, path: "/v1/items", body: []byte(`{}`)})
	if status.Code(out.streamErr) != codes.FailedPrecondition || out.report.Err == nil {
		t.Fatalf("stream error %v, report %+v", out.streamErr, out.report)
	}
}

// TestPassedChunks: on a response that is not masked, every chunk comes
// back as it went: unchanged in STREAMED mode (no mutation), echoed in
// FULL_DUPLEX_STREAMED mode, end_of_stream where Envoy put it.
func TestPassedChunks(t *testing.T) {
	h := newHarness(t, testRoutes(t))
	body := bigBody()
	for _, mode := range modes {
		for _, path := range []string{"/free", "/v1/listed"} { // unmatched; a status not listed
			t.Run(mode.String()+path, func(t *testing.T) {
				out := h.run(t, exchange{mode: mode, path: path, status: 202, header: http.Header{"Content-Length": {strconv.Itoa(len(body))}}, body: body, chunk: 5000})
				if !out.complete || !bytes.Equal(out.body, body) || out.header.Get("Content-Length") == "" {
					t.Fatalf("body of %d bytes, complete %v, header %v", len(out.body), out.complete, out.header)
				}
				if out.report.BytesIn != int64(len(body)) || out.report.BytesOut != int64(len(body)) {
					t.Errorf("report %+v", out.report)
				}
			})
		}
	}
}

// TestRequestBody: a request body, when Envoy is set to send one, passes
// unchanged in every mode, and does not disturb the response's masking.
func TestRequestBody(t *testing.T) {
	h := newHarness(t, testRoutes(t))
	for _, mode := range modes {
		t.Run(mode.String(), func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			s, err := h.client.Process(ctx)
			if err != nil {
				t.Fatal(err)
			}
			send := func(r *extprocv3.ProcessingRequest) *extprocv3.ProcessingResponse {
				t.Helper()
				if err := s.Send(r); err != nil {
					t.Fatal(err)
				}
				a, err := s.Recv()
				if err != nil {
					t.Fatal(err)
				}
				return a
			}
			a := send(&extprocv3.ProcessingRequest{
				ProtocolConfig: &extprocv3.ProtocolConfiguration{RequestBodyMode: mode, ResponseBodyMode: mode},
				Request: &extprocv3.ProcessingRequest_RequestHeaders{RequestHeaders: &extprocv3.HttpHeaders{
					Headers: headerMap(nil, ":method", "POST", ":path", "/v1/items", ":authority", "a")}}})
			if a.GetRequestHeaders() == nil {
				t.Fatalf("answer %v", a)
			}
			for i, chunk := range []string{`{"q":"`, canary + `"}`} {
				eos := i == 1
				a = send(&extprocv3.ProcessingRequest{Request: &extprocv3.ProcessingRequest_RequestBody{
					RequestBody: &extprocv3.HttpBody{Body: []byte(chunk), EndOfStream: eos}}})
				mut := a.GetRequestBody().GetResponse().GetBodyMutation()
				if a.GetRequestBody() == nil {
					t.Fatalf("answer %v", a)
				}
				if mode == duplexed {
					sr := mut.GetStreamedResponse()
					if string(sr.GetBody()) != chunk || sr.GetEndOfStream() != eos {
						t.Fatalf("chunk %q answered %v", chunk, sr)
					}
				} else if mut != nil {
					t.Fatalf("chunk %q mutated: %v", chunk, mut)
				}
			}
			a = send(&extprocv3.ProcessingRequest{Request: &extprocv3.ProcessingRequest_RequestTrailers{
				RequestTrailers: &extprocv3.HttpTrailers{}}})
			if a.GetRequestTrailers() == nil {
				t.Fatalf("answer %v", a)
			}
			s.CloseSend()
			if _, err := s.Recv(); err != io.EOF {
				t.Fatalf("the stream ended with %v", err)
			}
			<-h.reports
		})
	}
}

// TestConcurrentStreams: one server serves many streams at once, each with
// its own state (run with -race).
func TestConcurrentStreams(t *testing.T) {
	h := newHarness(t, testRoutes(t))
	h.reports = make(chan gateway.Report, 64)
	c := bodyCases[7] // Big
	want := c.want(t)
	t.Run("Group", func(t *testing.T) {
		for i := range 16 {
			coding, mode := codings[i%len(codings)], modes[i%2]
			t.Run(fmt.Sprintf("%d/%s/%s", i, coding, mode), func(t *testing.T) {
				t.Parallel()
				coded := codingtest.Encode(t, coding, c.body)
				out := h.run(t, exchange{mode: mode, path: "/v1/items", header: c.responseHeader(coding, coded), body: coded, chunk: 8192})
				if !out.complete || !bytes.Equal(codingtest.Decode(t, coding, out.body), want) {
					t.Errorf("%+v", out.report)
				}
			})
		}
	})
}

func TestAbsoluteForm(t *testing.T) {
	cases := []struct{ in, authority, rest string }{
		{"http://a.test/v1/x?q=1", "a.test", "/v1/x?q=1"},
		{"https://a.test:8443", "a.test:8443", "/"},
		{"http://a.test?q", "a.test", "/?q"},
		{"/v1/x://y", "", ""},
		{"/v1/items", "", ""},
		{"*", "", ""},
		{"://a.test/x", "", ""},
	}
	for _, c := range cases {
		a, r, ok := absoluteForm(c.in)
		if ok != (c.authority != "") || a != c.authority || r != c.rest {
			t.Errorf("absoluteForm(%q) = %q, %q, %v", c.in, a, r, ok)
		}
	}
}
