package gateway

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jsonmask/jsonmask"
	"github.com/jsonmask/jsonmask/corpus"
	"github.com/jsonmask/jsonmask/gateway/codingtest"
)

// testEnv is a real upstream, the gateway's reverse proxy in front of it,
// and a client that leaves codings alone, so that the bytes on the wire
// are what the tests check.
type testEnv struct {
	upstream *httptest.Server
	proxy    *httptest.Server
	client   *http.Client
	mu       sync.Mutex
	reports  []Report
	sent     int // requests sent by do
}

type envOptions struct {
	connState func(net.Conn, http.ConnState) // the upstream server's
	h2        bool                           // the proxy speaks HTTP/2 over TLS
	routes    []RoutesOption
	opts      []Option
}

func newEnv(t *testing.T, upstream http.Handler, routes []Route, eo envOptions) *testEnv {
	t.Helper()
	e := &testEnv{upstream: httptest.NewUnstartedServer(upstream)}
	e.upstream.Config.ConnState = eo.connState
	e.upstream.Start()
	t.Cleanup(e.upstream.Close)
	rs, err := NewRoutes(routes, eo.routes...)
	if err != nil {
		t.Fatal(err)
	}
	u, _ := url.Parse(e.upstream.URL)
	opts := append([]Option{WithObserver(func(r Report) {
		e.mu.Lock()
		e.reports = append(e.reports, r)
		e.mu.Unlock()
	})}, eo.opts...)
	gw := NewReverseProxy(u, rs, opts...)
	e.proxy = httptest.NewUnstartedServer(gw)
	e.proxy.Config.ErrorLog = quietLog()
	if eo.h2 {
		e.proxy.EnableHTTP2 = true
		e.proxy.StartTLS()
		e.client = e.proxy.Client()
		e.client.Transport.(*http.Transport).DisableCompression = true
	} else {
		e.proxy.Start()
		e.client = &http.Client{Transport: &http.Transport{DisableCompression: true}}
	}
	t.Cleanup(func() {
		e.client.CloseIdleConnections()
		e.proxy.Close()
	})
	return e
}

// get sends a request through the proxy and reads the whole response.
func (e *testEnv) do(t *testing.T, method, path string, h http.Header) (*http.Response, []byte, error) {
	t.Helper()
	req, err := http.NewRequest(method, e.proxy.URL+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	for k, vv := range h {
		req.Header[k] = vv
	}
	e.mu.Lock()
	e.sent++
	e.mu.Unlock()
	resp, err := e.client.Do(req)
	if err != nil {
		return nil, nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	return resp, body, err
}

// get starts a GET through the proxy, for a test that reads the body
// itself.
func (e *testEnv) get(path string) (*http.Response, error) {
	e.mu.Lock()
	e.sent++
	e.mu.Unlock()
	return e.client.Get(e.proxy.URL + path)
}

// lastReport is the report of the last request sent by do. The observer
// runs as the handler returns, which may be after the client has read the
// response: wait for it, a little.
func (e *testEnv) lastReport() Report {
	for i := 0; ; i++ {
		e.mu.Lock()
		n, sent := len(e.reports), e.sent
		var r Report
		if n > 0 {
			r = e.reports[n-1]
		}
		e.mu.Unlock()
		if n >= sent || i == 200 {
			return r
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// noCanary fails the test if b, decoded where it can be, holds the canary.
func noCanary(t *testing.T, h http.Header, b []byte) {
	t.Helper()
	if codingtest.Holds(h.Get("Content-Encoding"), b, canary) {
		t.Fatalf("the canary reached the client: %.200q", b)
	}
}

// TestProxyWorkloads: every workload of the corpus, served identity, gzip,
// deflate and zstd by a real upstream: the client's decoded body is what
// Append gives, the coding is the upstream's, and the header follows G4.
// With -short (CI's race run), only the documents under 1 MB.
func TestProxyWorkloads(t *testing.T) {
	type served struct {
		body  []byte
		ctype string
	}
	bodies := map[string]served{} // "/w/name/coding"
	var names []string
	var routes []Route
	want := map[string][]byte{}
	for _, w := range corpus.Workloads(t) {
		in := corpus.File(t, w.File)
		if testing.Short() && len(in) >= 1<<20 {
			continue
		}
		m, err := jsonmask.Compile(w.Mask, jsonmask.WithArrays(w.Options.Arrays))
		if err != nil {
			t.Fatal(err)
		}
		name := w.SubName()
		names = append(names, name)
		routes = append(routes, Route{Pattern: "GET /w/" + name + "/{coding}", Mask: m})
		ctype := "application/json"
		var out bytes.Buffer
		if w.Options.NDJSON {
			ctype = "application/x-ndjson"
			if _, err := must(m.With(jsonmask.WithNDJSON(true))).Copy(&out, bytes.NewReader(in)); err != nil {
				t.Fatal(err)
			}
		} else if _, err := m.Copy(&out, bytes.NewReader(in)); err != nil {
			t.Fatal(err)
		}
		want[name] = out.Bytes()
		for _, cod := range []string{"identity", "gzip", "deflate", "zstd"} {
			bodies["/w/"+name+"/"+cod] = served{codingtest.Encode(t, cod, in), ctype}
		}
	}
	upstream := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s, ok := bodies[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		h := w.Header()
		h.Set("Content-Type", s.ctype)
		if cod := filepath.Base(r.URL.Path); cod != "identity" {
			h.Set("Content-Encoding", cod)
		}
		h.Set("ETag", `"v1"`)
		h.Set("Accept-Ranges", "bytes")
		h.Set("Content-Digest", "sha-256=:AAAA:")
		h.Set("Content-Md5", "AAAA")
		h.Set("Vary", "Accept-Encoding")
		h.Set("Content-Length", fmt.Sprint(len(s.body)))
		w.Write(s.body)
	})
	e := newEnv(t, upstream, routes, envOptions{})
	for _, name := range names {
		for _, cod := range []string{"identity", "gzip", "deflate", "zstd"} {
			t.Run(name+"/"+cod, func(t *testing.T) {
				ae := http.Header{"Accept-Encoding": {"gzip, deflate, zstd"}}
				resp, body, err := e.do(t, "GET", "/w/"+name+"/"+cod, ae)
				if err != nil {
					t.Fatal(err)
				}
				if resp.StatusCode != 200 {
					t.Fatalf("status %d: %.300s", resp.StatusCode, body)
				}
				if got := resp.Header.Get("Content-Encoding"); got != strings.TrimPrefix(cod, "identity") {
					t.Errorf("Content-Encoding %q, want %q", got, cod)
				}
				if got := codingtest.Decode(t, cod, body); !bytes.Equal(got, want[name]) {
					t.Fatalf("body differs from Append's: got %d bytes, want %d", len(got), len(want[name]))
				}
				checkG4(t, resp, body)
				if rep := e.lastReport(); rep.Outcome != OutcomeMasked || rep.BytesOut != int64(len(body)) {
					t.Errorf("report %+v", rep)
				}
			})
		}
	}
}

// checkG4: the header of a masked response (SPEC G4), whose body is body.
// A Content-Length is the upstream's only if it is not the masked body's:
// net/http sets the right one itself when the whole masked body fits in its
// buffer when the handler ends.
func checkG4(t *testing.T, resp *http.Response, body []byte) {
	t.Helper()
	for _, k := range []string{"Content-Md5", "Digest", "Repr-Digest", "Content-Digest", "Accept-Ranges"} {
		if v := resp.Header.Get(k); v != "" {
			t.Errorf("%s: %q kept on a masked response", k, v)
		}
	}
	if resp.Request.Method == "HEAD" || resp.StatusCode == 304 {
		if v := resp.Header.Get("Content-Length"); v != "" {
			t.Errorf("Content-Length %q kept on a masked route's HEAD or 304", v)
		}
	} else if resp.ContentLength != -1 && resp.ContentLength != int64(len(body)) {
		t.Errorf("ContentLength %d, want unknown (chunked) or the masked body's, %d", resp.ContentLength, len(body))
	}
	if et := resp.Header.Get("Etag"); et != "" && !strings.HasPrefix(et, "W/") {
		t.Errorf("ETag %q not weakened", et)
	}
	if v := resp.Header.Get("Vary"); v == "" && resp.Request.Header.Get("X-Want-Vary") != "" {
		t.Error("Vary dropped")
	}
}

// itemsBody is what the upstream's /v1/items holds: the mask keeps id and
// items[].k; every other value is the canary.
var itemsBody = []byte(`{"id":7,"owner":{"ssn":"` + canary + `"},"items":[{"k":1,"v":"` + canary + `"},{"k":2,"v":"` + canary + `"}]}`)

const itemsMasked = `{"id":7,"items":[{"k":1},{"k":2}]}`

var itemsMask = jsonmask.MustCompile(`{"id":true,"items":{"k":true}}`)

// itemsUpstream serves /v1/items with http.ServeContent, which honours
// Range, If-Range, If-None-Match and HEAD, as real upstreams do, and
// other paths for the status tests.
func itemsUpstream() http.Handler {
	mod := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	mux := http.NewServeMux()
	mux.HandleFunc("/v1/items", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("ETag", `"items-v1"`)
		w.Header().Set("Vary", "Accept-Encoding")
		http.ServeContent(w, r, "", mod, bytes.NewReader(itemsBody))
	})
	mux.HandleFunc("/v1/partial", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Range", fmt.Sprintf("bytes 0-9/%d", len(itemsBody)))
		w.WriteHeader(http.StatusPartialContent)
		w.Write(itemsBody[:10])
	})
	mux.HandleFunc("/v1/nocontent", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("ETag", `"x"`)
		w.WriteHeader(http.StatusNoContent)
	})
	mux.HandleFunc("/v1/created", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", fmt.Sprint(len(itemsBody)))
		w.WriteHeader(http.StatusCreated)
		w.Write(itemsBody)
	})
	mux.HandleFunc("/v1/missing", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", fmt.Sprint(len(itemsBody)))
		w.WriteHeader(http.StatusNotFound)
		w.Write(itemsBody)
	})
	mux.HandleFunc("/v1/hints", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Link", "</style.css>; rel=preload")
		w.WriteHeader(http.StatusEarlyHints)
		w.Header().Del("Link")
		w.Write(itemsBody)
	})
	mux.HandleFunc("/v2/other", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("ETag", `"other"`)
		http.ServeContent(w, r, "", mod, bytes.NewReader(itemsBody))
	})
	mux.HandleFunc("/v1/trailers", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Trailer", "X-Checksum, Content-Digest")
		w.Write(itemsBody)
		w.Header().Set("X-Checksum", "42")
		w.Header().Set("Content-Digest", "sha-256=:AAAA:")
	})
	return mux
}

func itemsRoutes() []Route {
	return []Route{
		{Pattern: "GET /v1/items", Mask: itemsMask},
		{Pattern: "/v1/partial", Mask: itemsMask},
		{Pattern: "/v1/nocontent", Mask: itemsMask},
		{Pattern: "/v1/created", Mask: itemsMask, Statuses: []int{200}},
		{Pattern: "/v1/missing", Mask: itemsMask},
		{Pattern: "/v1/hints", Mask: itemsMask},
		{Pattern: "/v1/trailers", Mask: itemsMask},
	}
}

// TestProxyStatuses: the responses that have no body to mask, those not
// listed, the refused ones, and requests that try to get a range.
func TestProxyStatuses(t *testing.T) {
	for _, h2 := range []bool{false, true} {
		e := newEnv(t, itemsUpstream(), itemsRoutes(), envOptions{h2: h2})
		cases := []struct {
			name, method, path string
			h                  http.Header
			status             int
			body               string // "" with masked: the masked items
			passthrough        bool   // byte-identical, Content-Length kept
			g4                 bool
			outcome            Outcome
		}{
			{name: "GET", method: "GET", path: "/v1/items", status: 200, body: itemsMasked, g4: true, outcome: OutcomeMasked},
			{name: "HEAD", method: "HEAD", path: "/v1/items", status: 200, g4: true, outcome: OutcomeUnmasked},
			{name: "NotModified", method: "GET", path: "/v1/items", h: http.Header{"If-None-Match": {`"items-v1"`}}, status: 304, g4: true, outcome: OutcomeUnmasked},
			{name: "NotModified/Weak", method: "GET", path: "/v1/items", h: http.Header{"If-None-Match": {`W/"items-v1"`}}, status: 304, g4: true, outcome: OutcomeUnmasked},
			{name: "Range", method: "GET", path: "/v1/items", h: http.Header{"Range": {"bytes=0-40"}}, status: 200, body: itemsMasked, g4: true, outcome: OutcomeMasked},
			{name: "IfRange", method: "GET", path: "/v1/items", h: http.Header{"Range": {"bytes=20-"}, "If-Range": {`"items-v1"`}}, status: 200, body: itemsMasked, g4: true, outcome: OutcomeMasked},
			{name: "206Refused", method: "GET", path: "/v1/partial", status: 502, outcome: OutcomeRefused},
			{name: "204", method: "GET", path: "/v1/nocontent", status: 204, outcome: OutcomeUnmasked},
			{name: "NotListed", method: "GET", path: "/v1/created", status: 201, body: string(itemsBody), passthrough: true, outcome: OutcomeUnmasked},
			{name: "404NotMasked", method: "GET", path: "/v1/missing", status: 404, body: string(itemsBody), passthrough: true, outcome: OutcomeUnmasked},
			{name: "EarlyHints", method: "GET", path: "/v1/hints", status: 200, body: itemsMasked, g4: true, outcome: OutcomeMasked},
			{name: "Unmatched", method: "GET", path: "/v2/other", status: 200, body: string(itemsBody), passthrough: true, outcome: OutcomeUnmatched},
			{name: "Unmatched/Range", method: "GET", path: "/v2/other", h: http.Header{"Range": {"bytes=0-9"}}, status: 206, body: string(itemsBody[:10]), passthrough: true, outcome: OutcomeUnmatched},
			// G8: a path that the GET route covers is masked under every method.
			{name: "PostOnGetRoute", method: "POST", path: "/v1/items", status: 200, body: itemsMasked, g4: true, outcome: OutcomeMasked},
		}
		for _, c := range cases {
			t.Run(fmt.Sprintf("h2=%v/%s", h2, c.name), func(t *testing.T) {
				resp, body, err := e.do(t, c.method, c.path, c.h)
				if err != nil {
					t.Fatal(err)
				}
				if resp.StatusCode != c.status {
					t.Fatalf("status %d, want %d: %.300s", resp.StatusCode, c.status, body)
				}
				if !c.passthrough { // passthrough is unmasked by design: no route, or a status not listed
					noCanary(t, resp.Header, body)
				}
				if c.body != "" && string(body) != c.body {
					t.Fatalf("body %q, want %q", body, c.body)
				}
				if c.passthrough && resp.ContentLength != int64(len(c.body)) {
					t.Errorf("Content-Length %d, want %d kept", resp.ContentLength, len(c.body))
				}
				if c.g4 {
					checkG4(t, resp, body)
					if c.path == "/v1/items" && resp.Header.Get("Etag") != `W/"items-v1"` {
						t.Errorf("ETag %q", resp.Header.Get("Etag"))
					}
					if c.path == "/v1/items" && resp.Header.Get("Vary") != "Accept-Encoding" {
						t.Errorf("Vary %q, want kept", resp.Header.Get("Vary"))
					}
				}
				if c.status == 502 {
					checkProblem(t, resp, body)
				}
				if rep := e.lastReport(); rep.Outcome != c.outcome || rep.Status != c.status {
					t.Errorf("report %+v, want outcome %s", rep, c.outcome)
				}
			})
		}
	}
}

// checkProblem: a 502 is an RFC 9457 problem document that says why.
func checkProblem(t *testing.T, resp *http.Response, body []byte) {
	t.Helper()
	if ct := resp.Header.Get("Content-Type"); ct != "application/problem+json" {
		t.Errorf("Content-Type %q, want application/problem+json", ct)
	}
	var p struct {
		Type, Title, Detail string
		Status              int
	}
	if err := json.Unmarshal(body, &p); err != nil {
		t.Fatalf("problem %q: %v", body, err)
	}
	if p.Status != resp.StatusCode || p.Detail == "" || p.Title == "" {
		t.Errorf("problem %+v", p)
	}
	noCanary(t, resp.Header, body)
}

// TestProxyTrailers: trailers are forwarded, without those that describe
// the upstream's bytes.
func TestProxyTrailers(t *testing.T) {
	e := newEnv(t, itemsUpstream(), itemsRoutes(), envOptions{})
	resp, body, err := e.do(t, "GET", "/v1/trailers", nil)
	if err != nil {
		t.Fatal(err)
	}
	if string(body) != itemsMasked {
		t.Fatalf("body %q", body)
	}
	if got := resp.Trailer.Get("X-Checksum"); got != "42" {
		t.Errorf("trailer X-Checksum %q, want 42 (trailers %v)", got, resp.Trailer)
	}
	if got := resp.Trailer.Get("Content-Digest"); got != "" {
		t.Errorf("trailer Content-Digest %q kept", got)
	}
}

// TestProxyEarlyHints: a 103 reaches the client before the masked body.
func TestProxyEarlyHints(t *testing.T) {
	e := newEnv(t, itemsUpstream(), itemsRoutes(), envOptions{})
	conn, br := rawDial(t, e.proxy)
	defer conn.Close()
	fmt.Fprintf(conn, "GET /v1/hints HTTP/1.1\r\nHost: x\r\n\r\n")
	line, _ := br.ReadString('\n')
	if !strings.HasPrefix(line, "HTTP/1.1 103") {
		t.Fatalf("first line %q, want a 103", line)
	}
}

func rawDial(t *testing.T, s *httptest.Server) (net.Conn, *bufio.Reader) {
	t.Helper()
	conn, err := net.Dial("tcp", s.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	conn.SetDeadline(time.Now().Add(10 * time.Second))
	return conn, bufio.NewReader(conn)
}

// rawGet sends a request line and header as written, with no client
// between that would clean the path, and reads the response.
func rawGet(t *testing.T, s *httptest.Server, target string, header string) (*http.Response, []byte) {
	t.Helper()
	conn, br := rawDial(t, s)
	defer conn.Close()
	fmt.Fprintf(conn, "GET %s HTTP/1.1\r\nHost: gw.test\r\nConnection: close\r\n%s\r\n", target, header)
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatalf("%s: %v", target, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("%s: reading the body: %v", target, err)
	}
	return resp, body
}

// lenientUpstream serves the canary body for every spelling of /v1/items
// that a lenient server accepts: any case, percent-encoding, dot segments,
// repeated or trailing slashes, ";params", and method overrides. It sends
// the coding the client asked for, even one the gateway cannot decode.
func lenientUpstream() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p := r.URL.EscapedPath()
		for _, k := range []string{"X-Original-Url", "X-Rewrite-Url"} { // IIS, Symfony
			if v := r.Header.Get(k); v != "" {
				p = v
			}
		}
		p, _ = url.PathUnescape(p)
		if q, err := url.PathUnescape(p); err == nil { // decodes twice
			p = q
		}
		// Folds case as Unicode does: "ſ" is "s", "K" (Kelvin) is "k".
		p = strings.NewReplacer("ſ", "s", "\u212a", "k").Replace(p)
		p = strings.ToLower(strings.ReplaceAll(p, "\\", "/"))
		var segs []string
		for _, s := range strings.Split(p, "/") {
			s, _, _ = strings.Cut(s, ";")
			s = strings.TrimSpace(s)           // Spring trims segments
			s = strings.TrimSuffix(s, ".json") // Rails' and Spring's format suffix
			switch s {
			case "", ".":
			case "..":
				if len(segs) > 0 {
					segs = segs[:len(segs)-1]
				}
			default:
				segs = append(segs, s)
			}
		}
		method := strings.ToUpper(r.Method) // Werkzeug, Flask
		for _, k := range methodOverrides {
			if v := r.Header.Get(k); v != "" {
				method = v
			}
		}
		if v := r.URL.Query().Get("_method"); v != "" { // Rack, Laravel
			method = strings.ToUpper(v)
		}
		if method == "POST" && r.Header.Get("Content-Type") == "application/x-www-form-urlencoded" {
			if v := r.PostFormValue("_method"); v != "" {
				method = strings.ToUpper(v)
			}
		}
		if strings.Join(segs, "/") != "v1/items" {
			http.NotFound(w, r)
			return
		}
		if method != "GET" && method != "HEAD" {
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		if strings.Contains(r.Header.Get("Accept-Encoding"), "br") {
			w.Header().Set("Content-Encoding", "br")
		}
		http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(itemsBody))
	})
}

// TestBypass: nothing a client sends gets the masked route's body out
// unmasked (SPEC G8): the response is masked, refused, or not the body.
func TestBypass(t *testing.T) {
	routes := []Route{{Pattern: "GET /v1/items", Mask: itemsMask}}
	e := newEnv(t, lenientUpstream(), routes, envOptions{})
	cases := []struct {
		name, target, header string
		want                 int // status; 200 means masked
	}{
		{"Plain", "/v1/items", "", 200},
		{"DoubleSlash", "//v1/items", "", 200},
		{"SlashesInside", "/v1///items", "", 200},
		{"EncodedLetter", "/v1/%69tems", "", 200},
		{"EncodedLower", "/%76%31/items", "", 200},
		{"TrailingSlash", "/v1/items/", "", 200},
		{"UpperCase", "/V1/ITEMS", "", 200},
		{"Dot", "/v1/./items", "", 200},
		{"EncodedDot", "/v1/%2e/items", "", 200},
		{"DotDot", "/v1/x/../items", "", 200},
		{"EncodedDotDot", "/v1/x/%2E%2E/items", "", 200},
		{"DotDotParams", "/v1/x/..;/items", "", 200},
		{"Params", "/v1/items;jsessionid=1", "", 200},
		{"Query", "/v1/items?x=1", "", 200},
		{"AbsoluteForm", "http://gw.test/v1/items", "", 200},
		{"EncodedSlash", "/v1%2Fitems", "", 400},
		{"EncodedSlashLower", "/v1%2fitems", "", 400},
		{"EncodedBackslash", "/v1%5Citems", "", 400},
		{"Backslash", "/v1\\items", "", 400},
		{"NUL", "/v1/items%00", "", 400},
		{"BadEscape", "/v1/it%zzems", "", 400},
		{"AcceptBr", "/v1/items", "Accept-Encoding: br\r\n", 200},
		{"IdentityRefused", "/v1/items", "Accept-Encoding: identity;q=0, br\r\n", 200},
		{"AcceptStar", "/v1/items", "Accept-Encoding: *\r\n", 200},
		{"Range", "/v1/items", "Range: bytes=0-20\r\n", 200},
		{"RangeIfRange", "/v1/items", "Range: bytes=0-20\r\nIf-Range: \"x\"\r\n", 200},
		{"AcceptHTML", "/v1/items", "Accept: text/html\r\n", 200},
		{"TE", "/v1/items", "TE: gzip, trailers\r\n", 200},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			resp, body := rawGet(t, e.proxy, c.target, c.header)
			noCanary(t, resp.Header, body)
			if resp.StatusCode != c.want {
				t.Fatalf("status %d, want %d: %.200q", resp.StatusCode, c.want, body)
			}
			if c.want == 200 && string(codingtest.Decode(t, resp.Header.Get("Content-Encoding"), body)) != itemsMasked {
				t.Fatalf("body %q, want the masked items", body)
			}
		})
	}
	for _, k := range methodOverrides {
		t.Run("Override/"+k, func(t *testing.T) {
			conn, br := rawDial(t, e.proxy)
			defer conn.Close()
			fmt.Fprintf(conn, "POST /v1/items HTTP/1.1\r\nHost: gw.test\r\n%s: GET\r\nContent-Length: 0\r\nConnection: close\r\n\r\n", k)
			resp, err := http.ReadResponse(br, nil)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			noCanary(t, resp.Header, body)
			if resp.StatusCode != http.StatusMethodNotAllowed {
				t.Fatalf("status %d: the upstream saw the override", resp.StatusCode)
			}
		})
	}
}

// rawDo sends a request as written, with no client between that would
// clean it, and reads the response.
func rawDo(t *testing.T, s *httptest.Server, request string) (*http.Response, []byte) {
	t.Helper()
	conn, br := rawDial(t, s)
	defer conn.Close()
	io.WriteString(conn, request)
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatalf("%.40q: %v", request, err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp, body
}

// rawStatus is rawDo that fails the test if a dropped value came back or
// the status is not want.
func rawStatus(t *testing.T, s *httptest.Server, request string, want int) (*http.Response, []byte) {
	t.Helper()
	resp, body := rawDo(t, s, request)
	noCanary(t, resp.Header, body)
	if resp.StatusCode != want {
		t.Fatalf("status %d, want %d: %.200q", resp.StatusCode, want, body)
	}
	return resp, body
}

// TestBypassRound2: the methods, paths, hosts and headers with which a new
// user got the unmasked body of a masked route from a lenient upstream
// (SPEC G8): each is masked or refused, and no canary gets through.
func TestBypassRound2(t *testing.T) {
	routes := []Route{{Pattern: "GET gw.test/v1/items", Mask: itemsMask}}
	e := newEnv(t, lenientUpstream(), routes, envOptions{})
	const form = "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 11\r\n\r\n_method=GET"
	cases := []struct {
		name, request string
		want          int // 200: masked
	}{
		{"LowerMethod", "get /v1/items HTTP/1.1\r\nHost: gw.test\r\n\r\n", 200},
		{"MixedMethod", "Get /v1/items HTTP/1.1\r\nHost: gw.test\r\n\r\n", 200},
		{"OtherMethod", "PATCH /v1/items HTTP/1.1\r\nHost: gw.test\r\nContent-Length: 0\r\n\r\n", 405}, // masked route; 405 not listed
		{"MethodQuery", "POST /v1/items?_method=GET HTTP/1.1\r\nHost: gw.test\r\nContent-Length: 0\r\n\r\n", 200},
		{"MethodForm", "POST /v1/items HTTP/1.1\r\nHost: gw.test\r\n" + form, 200},
		{"Connect", "CONNECT gw.test:80 HTTP/1.1\r\nHost: gw.test\r\n\r\n", 400},
		{"ConnectPath", "CONNECT /v1/items HTTP/1.1\r\nHost: gw.test\r\n\r\n", 400},
		{"AbsoluteForm", "GET http://GW.test./v1/items HTTP/1.1\r\nHost: other\r\n\r\n", 200},
		{"JSONSuffix", "GET /v1/items.json HTTP/1.1\r\nHost: gw.test\r\n\r\n", 200},
		{"EncodedSemicolon", "GET /v1/items%3B HTTP/1.1\r\nHost: gw.test\r\n\r\n", 200},
		{"EncodedSpace", "GET /v1/items%20 HTTP/1.1\r\nHost: gw.test\r\n\r\n", 200},
		{"EncodedTab", "GET /v1/%09items HTTP/1.1\r\nHost: gw.test\r\n\r\n", 200},
		{"DoubleEncoding", "GET /v1/%2569tems HTTP/1.1\r\nHost: gw.test\r\n\r\n", 400},
		{"LongS", "GET /v1/item%C5%BF HTTP/1.1\r\nHost: gw.test\r\n\r\n", 400},
		{"Kelvin", "GET /v1/items/../\xE2\x84\xAAx HTTP/1.1\r\nHost: gw.test\r\n\r\n", 400},
		{"HostDot", "GET /v1/items HTTP/1.1\r\nHost: gw.test.\r\n\r\n", 200},
		{"HostCase", "GET /v1/items HTTP/1.1\r\nHost: GW.Test\r\n\r\n", 200},
		{"HostDotPort", "GET /v1/items HTTP/1.1\r\nHost: gw.test.:80\r\n\r\n", 200},
		{"OriginalURL", "GET /elsewhere HTTP/1.1\r\nHost: gw.test\r\nX-Original-URL: /v1/items\r\n\r\n", 404},
		{"RewriteURL", "GET /elsewhere HTTP/1.1\r\nHost: gw.test\r\nX-Rewrite-URL: /v1/items\r\n\r\n", 404},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			resp, body := rawStatus(t, e.proxy, c.request, c.want)
			if c.want == 200 && string(codingtest.Decode(t, resp.Header.Get("Content-Encoding"), body)) != itemsMasked {
				t.Fatalf("body %q, want the masked items", body)
			}
		})
	}
}

// TestMethodOverrideRoutes: where a path's routes differ by method, a
// request that the upstream could route under another method is refused
// (SPEC G8), and one with its own method's route gets that route's mask.
func TestMethodOverrideRoutes(t *testing.T) {
	routes := []Route{
		{Pattern: "GET /v1/items", Mask: itemsMask},
		{Pattern: "POST /v1/items", Mask: jsonmask.MustCompile(`{"id":true,"owner":true,"items":true}`)},
	}
	e := newEnv(t, lenientUpstream(), routes, envOptions{})
	cases := []struct {
		name, request string
		want          int
	}{
		{"Get", "GET /v1/items HTTP/1.1\r\nHost: gw.test\r\n\r\n", 200},
		{"MethodQuery", "POST /v1/items?_method=GET HTTP/1.1\r\nHost: gw.test\r\nContent-Length: 0\r\n\r\n", 400},
		{"MethodQueryEncoded", "POST /v1/items?%5Fmethod=get HTTP/1.1\r\nHost: gw.test\r\nContent-Length: 0\r\n\r\n", 400},
		{"MethodForm", "POST /v1/items HTTP/1.1\r\nHost: gw.test\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 11\r\n\r\n_method=GET", 400},
		{"BadQuery", "POST /v1/items?_method=%zz HTTP/1.1\r\nHost: gw.test\r\nContent-Length: 0\r\n\r\n", 400},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rawStatus(t, e.proxy, c.request, c.want)
		})
	}
}

// TestProxyUpstreamCoding: a coding the gateway cannot decode, sent by an
// upstream that ignores Accept-Encoding, is refused with a 502.
func TestProxyUpstreamCoding(t *testing.T) {
	for _, cod := range []string{"br", "compress", "gzip, gzip", "exotic"} {
		t.Run(cod, func(t *testing.T) {
			up := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Encoding", cod)
				w.Write(itemsBody)
			})
			e := newEnv(t, up, []Route{{Pattern: "/", Mask: itemsMask}}, envOptions{})
			resp, body, err := e.do(t, "GET", "/x", nil)
			if err != nil {
				t.Fatal(err)
			}
			if resp.StatusCode != 502 {
				t.Fatalf("status %d: %q", resp.StatusCode, body)
			}
			checkProblem(t, resp, body)
			if !errors.Is(e.lastReport().Err, ErrCoding) {
				t.Errorf("report error %v", e.lastReport().Err)
			}
		})
	}
}

// TestPointerRule: an invalid body under a dropped member gives a 502
// whose pointer stops at the last kept member, escapes bidi and control
// characters, and quotes no body byte; the report's error, as logged,
// holds neither the dropped key nor a body byte (SPEC G5, G9).
func TestPointerRule(t *testing.T) {
	const key = canary + "\u202e\x01"
	bodies := map[string]string{
		"DroppedKey":   `{"id":1,"` + key + `":{"x":01}}`,
		"DroppedDeep":  `{"id":1,"items":[{"k":1,"` + key + `":[01]}]}`,
		"StrictScalar": `"` + key + `"`,
	}
	up := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, bodies[strings.TrimPrefix(r.URL.Path, "/")])
	})
	strict := jsonmask.MustCompile(`{"id":true,"items":{"k":true}}`, jsonmask.WithStrict(true))
	e := newEnv(t, up, []Route{{Pattern: "/", Mask: strict}}, envOptions{})
	for name := range bodies {
		t.Run(name, func(t *testing.T) {
			resp, body, err := e.do(t, "GET", "/"+name, nil)
			if err != nil {
				t.Fatal(err)
			}
			if resp.StatusCode != 502 {
				t.Fatalf("status %d: %q", resp.StatusCode, body)
			}
			checkProblem(t, resp, body)
			var p struct{ Detail, Pointer string }
			json.Unmarshal(body, &p)
			for _, s := range []string{string(body), p.Detail, p.Pointer, jsonmask.Redact(e.lastReport().Err)} {
				if strings.Contains(s, canary) || strings.ContainsAny(s, "\u202e\x01'") || strings.Contains(s, `\u0001`) {
					t.Errorf("the dropped key or a body byte in %q", s)
				}
			}
			if p.Pointer != "" && !strings.HasSuffix(p.Pointer, "/…") {
				t.Errorf("pointer %q, want it cut at the last kept member: %s", p.Pointer, body)
			}
		})
	}
}

// TestReportOutcomes: each outcome its name and level, the error of an
// upstream that failed, and bytes counted where they were read (SPEC G9).
func TestReportOutcomes(t *testing.T) {
	t.Run("UpstreamDown", func(t *testing.T) {
		for _, routes := range [][]Route{{{Pattern: "/", Mask: itemsMask}}, nil} {
			e := newEnv(t, http.NotFoundHandler(), routes, envOptions{})
			e.upstream.Close()
			resp, body, err := e.do(t, "GET", "/v1/items", nil)
			if err != nil {
				t.Fatal(err)
			}
			if resp.StatusCode != 502 {
				t.Fatalf("status %d", resp.StatusCode)
			}
			checkProblem(t, resp, body)
			rep := e.lastReport()
			if rep.Outcome != OutcomeUpstreamError || !errors.Is(rep.Err, ErrUpstream) || rep.BytesIn != 0 ||
				rep.BytesOut != int64(len(body)) || rep.Level() != slog.LevelError || rep.Status != 502 {
				t.Errorf("report %+v, level %v", rep, rep.Level())
			}
			if !strings.Contains(rep.Err.Error(), "connect") || strings.Contains(string(body), "127.0.0.1") {
				t.Errorf("the reason %q is not in the report, or the address reached the client: %s", rep.Err, body)
			}
		}
	})
	t.Run("RefusedCountsRead", func(t *testing.T) {
		up := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Range", "bytes 0-9/100")
			w.WriteHeader(http.StatusPartialContent)
			w.Write(itemsBody)
		})
		e := newEnv(t, up, []Route{{Pattern: "/", Mask: itemsMask}}, envOptions{})
		if _, _, err := e.do(t, "GET", "/x", nil); err != nil {
			t.Fatal(err)
		}
		if rep := e.lastReport(); rep.Outcome != OutcomeRefused || rep.BytesIn == 0 || rep.Level() != slog.LevelWarn {
			t.Errorf("report %+v", rep)
		}
	})
	t.Run("InvalidCountsRead", func(t *testing.T) {
		up := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			io.WriteString(w, `{"id":1,"x":"`+canary+`",}`)
		})
		e := newEnv(t, up, []Route{{Pattern: "/", Mask: itemsMask}}, envOptions{})
		if _, _, err := e.do(t, "GET", "/x", nil); err != nil {
			t.Fatal(err)
		}
		if rep := e.lastReport(); rep.Outcome != OutcomeRefused || rep.BytesIn != int64(len(`{"id":1,"x":"`+canary+`",}`)) {
			t.Errorf("report %+v", rep)
		}
	})
}

// TestUpstreamConnections: at 16 requests at once the proxy reuses its
// upstream connections: it opens about one per client, not one per
// request (net/http's default pool of 2 idle connections opened 1,852 for
// 3,231 requests).
func TestUpstreamConnections(t *testing.T) {
	var conns atomic.Int64
	e := newEnv(t, itemsUpstream(), itemsRoutes(), envOptions{connState: func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			conns.Add(1)
		}
	}})
	const clients, each = 16, 40
	e.client.Transport.(*http.Transport).MaxIdleConnsPerHost = clients
	var wg sync.WaitGroup
	for range clients {
		wg.Go(func() {
			for range each {
				resp, err := e.get("/v1/items")
				if err != nil {
					t.Error(err)
					return
				}
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
			}
		})
	}
	wg.Wait()
	if n := conns.Load(); n > 2*clients {
		t.Errorf("%d upstream connections for %d requests from %d clients at once", n, clients*each, clients)
	}
}
