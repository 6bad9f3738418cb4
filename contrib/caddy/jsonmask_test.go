package jsonmaskcaddy

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jsonmask/jsonmask"
	"github.com/jsonmask/jsonmask/corpus"
	"github.com/jsonmask/jsonmask/gateway/codingtest"
)

// upstream is a real HTTP server that the tests' Caddy proxies to.
func upstream(t testing.TB, h http.HandlerFunc) (addr string) {
	t.Helper()
	s := httptest.NewUnstartedServer(h)
	s.Config.ErrorLog = quietLog()
	s.Start()
	t.Cleanup(s.Close)
	return s.Listener.Addr().String()
}

// proxyRoute is a Caddy route (JSON) of jsonmask, configured with
// handler (the JSON members of the handler's config, without "handler"),
// in front of reverse_proxy to addr.
func proxyRoute(handler, addr string) string {
	return fmt.Sprintf(`[{"handle": [{"handler": "jsonmask", %s}, {"handler": "reverse_proxy", "upstreams": [{"dial": %q}]}]}]`, handler, addr)
}

var codings = []string{"identity", "gzip", "deflate", "zstd"}

// TestCorpus: the corpus' documents, proxied by a real Caddy from a real
// upstream, each coded identity, gzip, deflate and zstd by the upstream,
// reach a real client masked byte for byte as Append masks them, coded
// as the upstream coded them, with the header that SPEC G4 asks for. The
// masks are the handler's routes, one per workload.
func TestCorpus(t *testing.T) {
	ws := corpus.Workloads(t)
	docs := map[string][]byte{}
	var routes []string
	for i, w := range ws {
		if _, ok := docs[w.File]; !ok {
			docs[w.File] = corpus.File(t, w.File)
		}
		routes = append(routes, fmt.Sprintf(`{"match": "GET /w/%d/{coding}", "mask": %s, "arrays": %v}`, i, w.Mask, w.Options.Arrays))
	}
	up := upstream(t, func(w http.ResponseWriter, r *http.Request) {
		parts := strings.Split(r.URL.Path, "/") // "", "w", i, coding
		if len(parts) != 4 {
			http.NotFound(w, r)
			return
		}
		i, err := strconv.Atoi(parts[2])
		if err != nil || i >= len(ws) {
			http.NotFound(w, r)
			return
		}
		coding := parts[3]
		body := codingtest.Encode(t, coding, docs[ws[i].File])
		h := w.Header()
		h.Set("Content-Type", "application/json")
		if ws[i].Options.NDJSON {
			h.Set("Content-Type", "application/x-ndjson")
		}
		if coding != "identity" {
			h.Set("Content-Encoding", coding)
		}
		h.Set("Content-Length", strconv.Itoa(len(body)))
		h.Set("ETag", `"v1"`)
		h.Set("Accept-Ranges", "bytes")
		w.Write(body)
	})
	port := freePort(t)
	runCaddy(t, caddyConfig(t, port, proxyRoute(`"routes": [`+strings.Join(routes, ",")+`]`, up)))
	c := newClient(t)
	for i, w := range ws {
		doc := docs[w.File]
		if testing.Short() && len(doc) > 1<<20 {
			continue
		}
		m, err := jsonmask.Compile(w.Mask, jsonmask.WithArrays(w.Options.Arrays), jsonmask.WithNDJSON(w.Options.NDJSON))
		if err != nil {
			t.Fatal(err)
		}
		want, err := m.Append(nil, doc)
		if err != nil {
			t.Fatal(err)
		}
		for _, coding := range codings {
			t.Run(w.Name+"/"+coding, func(t *testing.T) {
				url := fmt.Sprintf("http://127.0.0.1:%d/w/%d/%s", port, i, coding)
				resp, body, err := get(t, c, url, "Accept-Encoding: gzip, deflate, zstd")
				if err != nil {
					t.Fatal(err)
				}
				if resp.StatusCode != 200 {
					t.Fatalf("status %d: %q", resp.StatusCode, body)
				}
				got := body
				if coding != "identity" {
					if ce := resp.Header.Get("Content-Encoding"); ce != coding {
						t.Fatalf("Content-Encoding %q, want %q", ce, coding)
					}
					got = codingtest.Decode(t, coding, body)
				} else if ce := resp.Header.Get("Content-Encoding"); ce != "" {
					t.Fatalf("Content-Encoding %q on an identity body", ce)
				}
				if !bytes.Equal(got, want) {
					t.Fatalf("masked body differs from Append's: %d bytes, want %d", len(got), len(want))
				}
				if et := resp.Header.Get("ETag"); et != `W/"v1"` {
					t.Errorf("ETag %q, want the weak W/\"v1\"", et)
				}
				if ar := resp.Header.Get("Accept-Ranges"); ar != "" {
					t.Errorf("Accept-Ranges %q on a masked body", ar)
				}
			})
		}
	}
}

// TestMaskOptions: the handler's own mask (not a route), given inline,
// as a file or as fields, with its options and limits, on every request
// that reaches it; statuses not listed pass; HEAD and 204 have no body.
func TestMaskOptions(t *testing.T) {
	body := `{"id":7,"owner":{"name":"Ana","ssn":"` + canary + `"},"debug":"` + canary + `","items":[{"k":1,"v":"` + canary + `"},{"k":2,"v":{"n":"` + canary + `"}},"` + canary + `"]}`
	arrayBody := `[{"id":1,"x":"` + canary + `"},{"id":2}]`
	maskFile := filepath.Join(t.TempDir(), "mask.json")
	if err := os.WriteFile(maskFile, []byte("\uFEFF{\"id\": true, \"owner\": {\"name\": true}, \"items\": {\"k\": true}}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	up := upstream(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Path {
		case "/array":
			w.Write([]byte(arrayBody))
		case "/html":
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte("<html>" + canary + "</html>"))
		case "/404":
			w.WriteHeader(404)
			w.Write([]byte(`{"error":"not found"}`))
		case "/204":
			w.WriteHeader(204)
		default:
			w.Write([]byte(body))
		}
	})
	const masked = `{"id":7,"owner":{"name":"Ana"},"items":[{"k":1},{"k":2},"` + canary + `"]}`
	const dropped = `{"id":7,"owner":{"name":"Ana"},"items":[{"k":1},{"k":2}]}`
	cases := []struct {
		name    string
		handler string
		path    string
		method  string
		status  int
		want    string // "" with a 502: a problem document
	}{
		{"Inline", `"mask": {"id": true, "owner": {"name": true}, "items": {"k": true}}, "drop_mismatched": true`, "/", "", 200, dropped},
		{"File", `"mask_file": ` + strconv.Quote(maskFile) + `, "drop_mismatched": true`, "/", "", 200, dropped},
		{"Fields", `"fields": "id,owner(name),items/k", "drop_mismatched": true`, "/", "", 200, dropped},
		{"Mismatched/Kept", `"fields": "id,owner(name),items/k"`, "/", "", 200, masked},
		{"Array/Passes", `"fields": "id"`, "/array", "", 200, arrayBody},
		{"Array/Masked", `"fields": "id", "arrays": true`, "/array", "", 200, `[{"id":1},{"id":2}]`},
		{"HTML/Passes", `"fields": "id"`, "/html", "", 200, "<html>" + canary + "</html>"},
		{"HTML/Strict", `"fields": "id", "strict": true`, "/html", "", 502, ""},
		{"404/NotListed", `"fields": "id"`, "/404", "", 404, `{"error":"not found"}`},
		{"404/Listed", `"fields": "id", "statuses": [200, 404]`, "/404", "", 404, `{}`},
		{"Limits/Body", `"fields": "id", "limits": {"max_body_bytes": 100}`, "/", "", 502, ""},
		{"Limits/Depth", `"fields": "id", "limits": {"max_depth": 2}`, "/", "", 502, ""},
		{"Limits/Token", `"fields": "id", "limits": {"max_token_bytes": 8}`, "/", "", 502, ""},
		{"Limits/Within", `"fields": "id", "limits": {"max_body_bytes": 1000, "max_depth": 4, "max_token_bytes": 20}`, "/", "", 200, `{"id":7}`},
		{"204", `"fields": "id"`, "/204", "", 204, ""},
		{"HEAD", `"fields": "id"`, "/", "HEAD", 200, ""},
		{"Wildcards", `"mask": {"*": {"name": true}, "id": true}, "wildcards": true`, "/", "", 200, `{"id":7,"owner":{"name":"Ana"},"debug":"` + canary + `","items":[{},{},"` + canary + `"]}`},
	}
	c := newClient(t)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			port := freePort(t)
			runCaddy(t, caddyConfig(t, port, proxyRoute(tc.handler, up)))
			method := tc.method
			if method == "" {
				method = "GET"
			}
			req, _ := http.NewRequest(method, fmt.Sprintf("http://127.0.0.1:%d%s", port, tc.path), nil)
			resp, err := c.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			got, err := io.ReadAll(resp.Body)
			resp.Body.Close()
			if err != nil {
				t.Fatal(err)
			}
			if resp.StatusCode != tc.status {
				t.Fatalf("status %d, want %d: %q", resp.StatusCode, tc.status, got)
			}
			if tc.status == 502 {
				checkProblem(t, resp, got)
				return
			}
			if string(got) != tc.want {
				t.Fatalf("body\n%s\nwant\n%s", got, tc.want)
			}
			if method == "HEAD" && resp.Header.Get("Content-Length") != "" {
				t.Errorf("HEAD on a masked route keeps Content-Length %q", resp.Header.Get("Content-Length"))
			}
		})
	}
}

// TestFailClosed: upstream bodies that the gateway refuses, or that break,
// never reach the client unmasked: a 502 problem document before the
// first byte, an aborted response after it (Caddy flushes what it has
// before it aborts, so a body that breaks midway is mostly an abort). An
// upstream that cannot be reached is Caddy's error, answered by its
// handle_errors routes, since there is no body to mask.
func TestFailClosed(t *testing.T) {
	prefix := bigPrefix()
	cases := []struct {
		name  string
		path  string
		write func(w http.ResponseWriter)
		want  string // "problem": a 502 problem document; "abort": a broken 200; "either"; "caddy": Caddy's error page
		// whole is a valid body of which the upstream sent a prefix: what
		// an aborted response got must be a prefix of its masked form
		// (SPEC V5).
		whole string
	}{
		{"InvalidJSON", "/", func(w http.ResponseWriter) {
			w.Write([]byte(`{"id":1,"x":"` + canary + `","items":[{"k":1}],}`))
		}, "problem", ""},
		{"TruncatedJSON", "/", func(w http.ResponseWriter) {
			w.Write([]byte(`{"id":1,"x":"` + canary + `","items":[{"k":1}`))
		}, "problem", ""},
		// SPEC G2: an SSE label lets nothing through a strict route that
		// is not an object, with or without encode.
		{"Strict/SSELabel", "/strict/", func(w http.ResponseWriter) {
			w.Header().Set("Content-Type", "text/event-stream")
			w.Write([]byte("data: " + canary + "\n\n"))
		}, "problem", ""},
		{"Strict/SSEGzip", "/strict/", func(w http.ResponseWriter) {
			w.Header().Set("Content-Type", "text/event-stream")
			w.Header().Set("Content-Encoding", "gzip")
			w.Write(codingtest.Encode(t, "gzip", []byte("data: [\""+canary+"\"]\n\n")))
		}, "problem", ""},
		{"Strict/HTML", "/strict/", func(w http.ResponseWriter) {
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte("<html>" + canary))
		}, "problem", ""},
		{"UnknownCoding", "/", func(w http.ResponseWriter) {
			w.Header().Set("Content-Encoding", "br")
			w.Write([]byte(`{"id":1,"x":"` + canary + `"}`))
		}, "problem", ""},
		{"StackedCodings", "/", func(w http.ResponseWriter) {
			w.Header().Set("Content-Encoding", "gzip, gzip")
			w.Write([]byte(`{"id":1,"x":"` + canary + `"}`))
		}, "problem", ""},
		{"BrokenGzip", "/", func(w http.ResponseWriter) {
			w.Header().Set("Content-Encoding", "gzip")
			gz := codingtest.Encode(t, "gzip", []byte(`{"id":1,"x":"`+canary+`","items":[{"k":1}]}`))
			w.Write(gz[:len(gz)-12])
		}, "problem", ""},
		{"Partial", "/", func(w http.ResponseWriter) {
			w.Header().Set("Content-Range", "bytes 0-9/100")
			w.WriteHeader(http.StatusPartialContent)
			w.Write([]byte(`{"id":1,"x":"` + canary))
		}, "problem", ""},
		{"ClosedBeforeEnd", "/", func(w http.ResponseWriter) {
			w.Header().Set("Content-Length", "100000")
			w.Write([]byte(`{"id":1,"x":"` + canary + `","items":[{"k":1},`))
			w.(http.Flusher).Flush()
			panic(http.ErrAbortHandler)
		}, "either", `{"id":1,"x":"` + canary + `","items":[{"k":1},{"k":2}]}`},
		{"ClosedMidBody", "/", func(w http.ResponseWriter) {
			w.Write(prefix)
			w.(http.Flusher).Flush()
			time.Sleep(20 * time.Millisecond)
			w.Write([]byte(`{"k":1,"v":"` + canary))
			w.(http.Flusher).Flush()
			panic(http.ErrAbortHandler)
		}, "abort", string(prefix) + `{"k":1,"v":"` + canary + `"}]}`},
		{"InvalidMidBody", "/", func(w http.ResponseWriter) {
			w.Write(prefix)
			w.(http.Flusher).Flush()
			time.Sleep(20 * time.Millisecond)
			w.Write([]byte(`{"k":1,"v":"` + canary + `",]`))
		}, "abort", string(prefix) + `{"k":1,"v":"` + canary + `"}]}`},
		{"GzipClosedMidBody", "/", func(w http.ResponseWriter) {
			w.Header().Set("Content-Encoding", "gzip")
			gz := codingtest.Encode(t, "gzip", append(prefix, `{"k":1,"v":"`+canary+`"}]}`...))
			w.Write(gz[:len(gz)*3/4])
			w.(http.Flusher).Flush()
			panic(http.ErrAbortHandler)
		}, "either", string(prefix) + `{"k":1,"v":"` + canary + `"}]}`},
		{"Unreachable", "/down/", nil, "caddy", ""},
	}
	up := upstream(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		for _, c := range cases {
			if r.URL.Query().Get("case") == c.name {
				c.write(w)
				return
			}
		}
		http.NotFound(w, r)
	})
	down := freePort(t) // nothing listens there
	port := freePort(t)
	routes := fmt.Sprintf(`[
		{"match": [{"path": ["/down/*"]}], "handle": [{"handler": "jsonmask", "fields": "id,items/k"},
			{"handler": "reverse_proxy", "upstreams": [{"dial": "127.0.0.1:%d"}]}]},
		{"handle": [{"handler": "jsonmask", "fields": "id,items/k", "routes": [{"match": "/strict/", "fields": "id,items/k", "strict": true}]},
			{"handler": "reverse_proxy", "upstreams": [{"dial": %q}]}]}]`, down, up)
	errRoutes := `[{"handle": [{"handler": "static_response", "status_code": "{http.error.status_code}", "body": "caddy's error page"}]}]`
	runCaddy(t, caddyConfig(t, port, routes, handleErrors(errRoutes), h2c))
	clients := map[string]*http.Client{"h1": newClient(t), "h2c": newH2CClient(t)}
	m := jsonmask.MustCompile(`{"id":true,"items":{"k":true}}`)
	for _, tc := range cases {
		for _, proto := range []string{"h1", "h2c"} {
			t.Run(tc.name+"/"+proto, func(t *testing.T) {
				testFailClosed(t, clients[proto], proto, port, tc.path, tc.name, tc.want, tc.whole, m)
			})
		}
	}
}

// testFailClosed requests a case of TestFailClosed, the client accepting
// identity and then gzip, and checks the responses: want and whole are
// the case's.
func testFailClosed(t *testing.T, c *http.Client, proto string, port int, path, name, want, whole string, m *jsonmask.Mask) {
	for _, ae := range []string{"identity", "gzip"} {
		resp, body, err := get(t, c, fmt.Sprintf("http://127.0.0.1:%d%s?case=%s", port, path, name), "Accept-Encoding: "+ae)
		if resp != nil && resp.ProtoMajor != map[string]int{"h1": 1, "h2c": 2}[proto] {
			t.Fatalf("%s, want %s", resp.Proto, proto)
		}
		noCanary(t, resp, body)
		expect := want
		if expect == "either" {
			expect = "abort"
			if err == nil && resp.StatusCode == 502 {
				expect = "problem"
			}
		}
		switch expect {
		case "problem":
			if err != nil {
				t.Fatal(err)
			}
			if resp.StatusCode != 502 {
				t.Fatalf("status %d, want 502: %q", resp.StatusCode, body)
			}
			checkProblem(t, resp, body)
		case "abort":
			if err == nil {
				t.Fatalf("a complete response (status %d, %d bytes): want an aborted one", resp.StatusCode, len(body))
			}
			if resp == nil || resp.StatusCode != 200 {
				t.Fatalf("want a 200 whose body breaks; got %v, %v", resp, err)
			}
			t.Logf("%s, Accept-Encoding %s: %d bytes, then %v", proto, ae, len(body), err)
			// What the client got is a prefix of the masked body that a
			// valid continuation would give (SPEC V5).
			masked, err := m.Append(nil, []byte(whole))
			if err != nil {
				t.Fatal(err)
			}
			got := body
			if ce := resp.Header.Get("Content-Encoding"); ce != "" {
				got, _ = codingtest.DecodePrefix(ce, body)
			}
			if !bytes.HasPrefix(masked, got) {
				t.Fatalf("the client got %d bytes that are not a prefix of the masked body", len(got))
			}
		case "caddy":
			if err != nil {
				t.Fatal(err)
			}
			if resp.StatusCode != 502 || string(body) != "caddy's error page" {
				t.Fatalf("status %d %q, want Caddy's 502 error page", resp.StatusCode, body)
			}
		}
	}
}

// bigPrefix is a masked body's first part, long enough that its masked
// output goes out before the rest arrives.
func bigPrefix() []byte {
	var b bytes.Buffer
	b.WriteString(`{"id":1,"items":[`)
	for i := range 4000 {
		fmt.Fprintf(&b, `{"k":%d,"v":"%s"},`, i, canary)
	}
	return b.Bytes()
}

// checkProblem checks a 502's problem document (RFC 9457).
func checkProblem(t *testing.T, resp *http.Response, body []byte) {
	t.Helper()
	if ct := resp.Header.Get("Content-Type"); ct != "application/problem+json" {
		t.Errorf("Content-Type %q, want application/problem+json", ct)
	}
	if ce := resp.Header.Get("Content-Encoding"); ce != "" {
		body = codingtest.Decode(t, ce, body)
	}
	var p struct {
		Title, Detail string
		Status        int
	}
	if err := json.Unmarshal(body, &p); err != nil {
		t.Fatalf("problem %q: %v", body, err)
	}
	if p.Status != resp.StatusCode || p.Detail == "" || p.Title == "" {
		t.Errorf("problem %+v", p)
	}
	t.Logf("problem: %s", p.Detail)
}

// TestStreaming: an event stream reaches the client event by event
// through Caddy: the upstream sends its second event only after the
// client read the first, masked.
func TestStreaming(t *testing.T) {
	read := make(chan struct{})
	up := upstream(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprintf(w, "event: delta\ndata: {\"text\":\"Hel\",\"secret\":\"%s\"}\n\n", canary)
		w.(http.Flusher).Flush()
		select {
		case <-read:
		case <-time.After(10 * time.Second):
			return
		}
		fmt.Fprintf(w, "event: delta\ndata: {\"text\":\"lo\",\"secret\":\"%s\"}\n\n", canary)
	})
	port := freePort(t)
	runCaddy(t, caddyConfig(t, port, proxyRoute(`"fields": "text"`, up)))
	c := newClient(t)
	resp, err := c.Get(fmt.Sprintf("http://127.0.0.1:%d/events", port))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	br := bufio.NewReader(resp.Body)
	var first strings.Builder
	for !strings.HasSuffix(first.String(), "\n\n") {
		line, err := br.ReadString('\n')
		if err != nil {
			t.Fatalf("first event: %q, %v", first.String()+line, err)
		}
		first.WriteString(line)
	}
	close(read)
	rest, err := io.ReadAll(br)
	if err != nil {
		t.Fatal(err)
	}
	const want1, want2 = "event: delta\ndata: {\"text\":\"Hel\"}\n\n", "event: delta\ndata: {\"text\":\"lo\"}\n\n"
	if first.String() != want1 || string(rest) != want2 {
		t.Fatalf("events %q %q", first.String(), rest)
	}
}

// TestPaths: the handler's routes match the canonical path (SPEC G8)
// through Caddy, a path the gateway refuses is a 400, a request that
// matches no route is proxied untouched (the canary shows that the test
// can see an unmasked body), and masked requests lose Range and
// method-override headers, and codings the gateway cannot decode.
func TestPaths(t *testing.T) {
	body := `{"id":1,"x":"` + canary + `"}`
	var mu sync.Mutex
	var seen []http.Header
	up := upstream(t, func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, r.Header.Clone())
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("X-Path", r.URL.EscapedPath())
		w.Write([]byte(body))
	})
	port := freePort(t)
	runCaddy(t, caddyConfig(t, port, proxyRoute(`"routes": [{"match": "GET /v1/items", "fields": "id"}]`, up)))
	cases := []struct {
		path   string
		status int
		body   string
		upPath string // the path the upstream got
		method string // GET if ""
	}{
		{"/v1/items", 200, `{"id":1}`, "/v1/items", ""},
		// Issue 26 (SPEC G8): methods in upper case, every method masked on
		// a masked path, format suffixes, encoded ';' and spaces, double
		// encoding and non-ASCII refused.
		{"/v1/items", 200, `{"id":1}`, "/v1/items", "get"},
		{"/v1/items", 200, `{"id":1}`, "/v1/items", "POST"},
		{"/v1/items.json", 200, `{"id":1}`, "/v1/items.json", ""},
		{"/v1/items%3B", 200, `{"id":1}`, "/v1/items%3B", ""},
		{"/v1/items%20", 200, `{"id":1}`, "/v1/items%20", ""},
		{"/v1/%2569tems", 400, "", "", ""},
		{"/v1/item%C5%BF", 400, "", "", ""},
		{"/V1/ITEMS", 200, `{"id":1}`, "/V1/ITEMS", ""},
		{"//v1/./items/", 200, `{"id":1}`, "/v1/items/", ""},
		{"/v1/%69tems", 200, `{"id":1}`, "/v1/items", ""},
		{"/v1/x/..;/items", 200, `{"id":1}`, "/v1/items", ""},
		{"/v1%2Fitems", 400, "", "", ""},
		{"/other", 200, body, "/other", ""},
	}
	for _, tc := range cases {
		method := cmp.Or(tc.method, "GET")
		t.Run(method+strings.ReplaceAll(tc.path, "/", "_"), func(t *testing.T) {
			mu.Lock()
			seen = nil
			mu.Unlock()
			conn, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", port))
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			conn.SetDeadline(time.Now().Add(10 * time.Second))
			// A raw request: net/http's client would clean the path.
			fmt.Fprintf(conn, "%s %s HTTP/1.1\r\nHost: x\r\nRange: bytes=0-3\r\nX-HTTP-Method-Override: DELETE\r\nX-Original-URL: /v1/items\r\nAccept-Encoding: br, gzip\r\nConnection: close\r\n\r\n", method, tc.path)
			resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
			if err != nil {
				t.Fatal(err)
			}
			got, err := io.ReadAll(resp.Body)
			if err != nil {
				t.Fatal(err)
			}
			if resp.StatusCode != tc.status {
				t.Fatalf("status %d, want %d: %q", resp.StatusCode, tc.status, got)
			}
			if tc.status == 400 {
				checkProblem(t, resp, got)
				return
			}
			if ce := resp.Header.Get("Content-Encoding"); ce != "" {
				t.Fatalf("Content-Encoding %q", ce)
			}
			if string(got) != tc.body {
				t.Fatalf("body %q, want %q", got, tc.body)
			}
			if p := resp.Header.Get("X-Path"); p != tc.upPath {
				t.Errorf("upstream path %q, want %q", p, tc.upPath)
			}
			mu.Lock()
			defer mu.Unlock()
			if len(seen) != 1 {
				t.Fatalf("%d upstream requests", len(seen))
			}
			h := seen[0]
			if h.Get("X-Http-Method-Override") != "" || h.Get("X-Original-Url") != "" {
				t.Errorf("a method or URL override reached the upstream")
			}
			masked := tc.body != body
			if masked && (h.Get("Range") != "" || strings.Contains(h.Get("Accept-Encoding"), "br")) {
				t.Errorf("masked request's header upstream: Range %q, Accept-Encoding %q", h.Get("Range"), h.Get("Accept-Encoding"))
			}
		})
	}
}

// quietLog is an upstream's error log that tests do not print: aborted
// responses are what some tests are about.
func quietLog() *log.Logger { return log.New(io.Discard, "", 0) }
