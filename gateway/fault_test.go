package gateway

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/jsonmask/jsonmask"
	"github.com/jsonmask/jsonmask/gateway/codingtest"
)

// bigPrefix is a masked body's first part, long enough that its masked
// output (id and k members, over 32 KiB) goes out before the rest arrives.
func bigPrefix() []byte {
	var b bytes.Buffer
	b.WriteString(`{"id":1,"items":[`)
	for i := range 4000 {
		fmt.Fprintf(&b, `{"k":%d,"v":"%s"},`, i, canary)
	}
	return b.Bytes()
}

// TestFaults: an upstream whose body breaks, before or after the first
// byte reached the client: a 502 problem before, an aborted response
// after (HTTP/1.1: no final chunk; HTTP/2: a reset stream). The client
// never takes a broken body for a complete one, and never sees the canary.
func TestFaults(t *testing.T) {
	prefix := bigPrefix()
	cases := []struct {
		name  string
		write func(w http.ResponseWriter) // the upstream's body
		sent  bool                        // bytes reached the client first: abort
		err   error                       // errors.Is of the report's error
		// either: a 502 or an abort, depending on whether the first flush
		// of the proxy went out before the limit stopped the body.
		either bool
	}{
		{name: "InvalidBeforeFirstByte", write: func(w http.ResponseWriter) {
			w.Write([]byte(`{"id":1,"x":"` + canary + `",]`))
		}},
		{name: "InvalidAfterFlush", sent: true, write: func(w http.ResponseWriter) {
			w.Write(prefix)
			w.(http.Flusher).Flush()
			time.Sleep(50 * time.Millisecond)
			w.Write([]byte(`{"k":1,"v":"` + canary + `",]`))
		}},
		{name: "ClosedBeforeFirstByte", err: ErrUpstream, write: func(w http.ResponseWriter) {
			w.Header().Set("Content-Length", "100000")
			w.Write([]byte(`{"id":1,"x":"` + canary))
			w.(http.Flusher).Flush()
			panic(http.ErrAbortHandler)
		}},
		{name: "ClosedMidBody", sent: true, err: ErrUpstream, write: func(w http.ResponseWriter) {
			w.Write(prefix)
			w.(http.Flusher).Flush()
			time.Sleep(50 * time.Millisecond)
			w.Write([]byte(`{"k":1,"v":"` + canary))
			w.(http.Flusher).Flush()
			panic(http.ErrAbortHandler)
		}},
		{name: "ClosedMidBodyWithLength", sent: true, err: ErrUpstream, write: func(w http.ResponseWriter) {
			w.Header().Set("Content-Length", fmt.Sprint(len(prefix)+1000))
			w.Write(prefix)
			w.(http.Flusher).Flush()
			time.Sleep(50 * time.Millisecond)
			panic(http.ErrAbortHandler)
		}},
		{name: "TruncatedJSON", err: nil, write: func(w http.ResponseWriter) {
			w.Write([]byte(`{"id":1,"x":"` + canary + `"`))
		}},
		{name: "GzipBombZeros", either: true, err: ErrRatio, write: func(w http.ResponseWriter) {
			w.Header().Set("Content-Encoding", "gzip")
			w.Write(gzipFill("", 0, 1<<30))
		}},
		{name: "GzipBombInString", either: true, err: ErrRatio, write: func(w http.ResponseWriter) {
			w.Header().Set("Content-Encoding", "gzip")
			w.Write(gzipFill(`{"x":"`+canary, ' ', 1<<30))
		}},
		{name: "TooDeep", err: jsonmask.ErrMaxDepth, write: func(w http.ResponseWriter) {
			w.Write([]byte(`{"x":` + strings.Repeat("[", 20000)))
		}},
	}
	for _, h2 := range []bool{false, true} {
		for _, c := range cases {
			t.Run(fmt.Sprintf("h2=%v/%s", h2, c.name), func(t *testing.T) {
				up := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					w.Header().Set("Content-Type", "application/json")
					c.write(w)
				})
				e := newEnv(t, up, []Route{{Pattern: "/", Mask: itemsMask}}, envOptions{h2: h2})
				resp, body, err := e.do(t, "GET", "/x", nil)
				if resp != nil {
					noCanary(t, resp.Header, body)
				}
				rep := e.lastReport()
				if c.err != nil && !errors.Is(rep.Err, c.err) {
					t.Errorf("report error %v, want %v", rep.Err, c.err)
				}
				if c.either && err == nil && resp.StatusCode == 502 {
					checkProblem(t, resp, body)
					return
				}
				if c.sent || c.either {
					if err == nil {
						t.Fatalf("a complete response (status %d, %d bytes): want an aborted one", resp.StatusCode, len(body))
					}
					if resp == nil || resp.StatusCode != 200 {
						t.Fatalf("want a 200 whose body breaks; got %v, %v", resp, err)
					}
					if rep.Outcome != OutcomeAborted {
						t.Errorf("outcome %s, want aborted", rep.Outcome)
					}
					t.Logf("client error: %v", err)
					return
				}
				if err != nil {
					t.Fatal(err)
				}
				if resp.StatusCode != 502 {
					t.Fatalf("status %d, want 502", resp.StatusCode)
				}
				checkProblem(t, resp, body)
				if rep.Outcome != OutcomeRefused {
					t.Errorf("outcome %s, want refused", rep.Outcome)
				}
			})
		}
	}
}

// TestSlowDrip: an upstream that sends its body in pieces, waiting for
// the client to have seen each masked piece before it sends the next: the
// gateway streams, it does not wait for the end.
func TestSlowDrip(t *testing.T) {
	pieces := []struct{ send, see string }{
		{`{"id":1,"secret":"` + canary + `","items":[{"k":1,"v":"` + canary + `"},`, `{"id":1,"items":[{"k":1}`},
		{`{"k":2,"v":"` + canary + `"}`, `,{"k":2}`},
		{`,{"v":"` + canary + `","k":3}]}`, `,{"k":3}]}`},
	}
	for _, cod := range []string{"identity", "gzip", "zstd"} {
		for _, h2 := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/h2=%v", cod, h2), func(t *testing.T) {
				seen := make(chan struct{})
				var sends []string
				for _, p := range pieces {
					sends = append(sends, p.send)
				}
				up := dripUpstream(t, http.Header{"Content-Type": {"application/json"}}, cod, sends, seen)
				e := newEnv(t, up, []Route{{Pattern: "/", Mask: itemsMask}}, envOptions{h2: h2})
				resp, err := e.get("/x")
				if err != nil {
					t.Fatal(err)
				}
				defer resp.Body.Close()
				dec := clientDecoder(t, cod, resp.Body)
				got := ""
				for i, p := range pieces {
					want := got + p.see
					deadline := time.Now().Add(5 * time.Second)
					buf := make([]byte, 1024)
					for len(got) < len(want) && time.Now().Before(deadline) {
						n, err := dec.Read(buf)
						got += string(buf[:n])
						if err != nil {
							break
						}
					}
					if got != want {
						t.Fatalf("piece %d: the client has %q, want %q before the upstream sends more", i, got, want)
					}
					seen <- struct{}{}
				}
				rest, err := io.ReadAll(dec)
				if err != nil || len(rest) > 0 {
					t.Fatalf("after the last piece: %q, %v", rest, err)
				}
			})
		}
	}
}

// dripUpstream is an upstream that sends pieces of a body, coded with cod,
// each flushed, and waits for the client to have seen what each masks to
// (a value on seen) before it sends the next: a gateway that waited for
// more would fail the test.
func dripUpstream(t *testing.T, h http.Header, cod string, pieces []string, seen <-chan struct{}) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		copyHeader(w.Header(), h)
		if cod != "identity" {
			w.Header().Set("Content-Encoding", cod)
		}
		enc := newTestStream(t, cod)
		for _, p := range pieces {
			w.Write(enc.chunk(p))
			w.(http.Flusher).Flush()
			select {
			case <-seen:
			case <-time.After(5 * time.Second):
				return // the test fails on the client's side
			case <-r.Context().Done():
				return
			}
		}
		w.Write(enc.end())
	}
}

// clientDecoder reads a coded body as it streams.
func clientDecoder(t *testing.T, cod string, r io.Reader) io.Reader {
	pr, pw := io.Pipe()
	// Decoders read ahead; feed them through a pipe of what has arrived.
	go func() {
		buf := make([]byte, 4096)
		for {
			n, err := r.Read(buf)
			if n > 0 {
				if _, werr := pw.Write(buf[:n]); werr != nil {
					return
				}
			}
			if err != nil {
				pw.CloseWithError(err)
				return
			}
		}
	}()
	switch cod {
	case "identity":
		return pr
	default:
		d := &lazyDecoder{t: t, cod: cod, src: pr}
		t.Cleanup(func() { pr.Close() })
		return d
	}
}

// lazyDecoder opens its decoder on the first Read, since opening reads the
// stream's header.
type lazyDecoder struct {
	t   *testing.T
	cod string
	src io.Reader
	r   io.Reader
}

func (d *lazyDecoder) Read(p []byte) (int, error) {
	if d.r == nil {
		r, err := codingtest.NewReader(d.cod, d.src)
		if err != nil {
			return 0, err
		}
		d.r = r
	}
	return d.r.Read(p)
}

// TestSSEThroughProxy: a stream of events, some JSON objects, some not,
// comments and ids: each event reaches the client masked before the
// upstream sends the next.
func TestSSEThroughProxy(t *testing.T) {
	events := []struct{ send, see string }{
		{"retry: 100\n\n", "retry: 100\n\n"},
		{"id: 1\nevent: delta\ndata: {\"id\":1,\"delta\":{\"text\":\"He\",\"raw\":\"" + canary + "\"}}\n\n", "id: 1\nevent: delta\ndata: {\"id\":1,\"delta\":{\"text\":\"He\"}}\n\n"},
		{": keep-alive\n\n", ": keep-alive\n\n"},
		{"data: {\"id\":2,\ndata: \"secret\":\"" + canary + "\"}\n\n", "data: {\"id\":2}\n\n"},
		{"data: [DONE]\n\n", "data: [DONE]\n\n"},
	}
	for _, cod := range []string{"identity", "gzip"} {
		for _, h2 := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/h2=%v", cod, h2), func(t *testing.T) {
				seen := make(chan struct{})
				var sends []string
				for _, ev := range events {
					sends = append(sends, ev.send)
				}
				up := dripUpstream(t, http.Header{"Content-Type": {"text/event-stream"}, "Cache-Control": {"no-cache"}}, cod, sends, seen)
				e := newEnv(t, up, []Route{{Pattern: "/events", Mask: sseMask}}, envOptions{h2: h2})
				resp, err := e.get("/events")
				if err != nil {
					t.Fatal(err)
				}
				defer resp.Body.Close()
				if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
					t.Errorf("Content-Type %q", ct)
				}
				br := bufio.NewReader(clientDecoder(t, cod, resp.Body))
				for i, ev := range events {
					got := ""
					for !strings.HasSuffix(got, "\n\n") {
						line, err := br.ReadString('\n')
						got += line
						if err != nil {
							t.Fatalf("event %d: %q, %v", i, got, err)
						}
					}
					if got != ev.see {
						t.Fatalf("event %d: %q, want %q", i, got, ev.see)
					}
					seen <- struct{}{}
				}
			})
		}
	}
}

// TestClientGoesAway: a client that disconnects in the middle of a coded,
// endless stream: the upstream request is cancelled and nothing is left
// running (goleak checks it in TestMain).
func TestClientGoesAway(t *testing.T) {
	for _, h2 := range []bool{false, true} {
		t.Run(fmt.Sprintf("h2=%v", h2), func(t *testing.T) {
			done := make(chan struct{})
			up := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				defer close(done)
				w.Header().Set("Content-Type", "text/event-stream")
				w.Header().Set("Content-Encoding", "gzip")
				enc := newTestStream(t, "gzip")
				for i := 0; ; i++ {
					if _, err := w.Write(enc.chunk(fmt.Sprintf("data: {\"id\":%d,\"x\":\"%s\"}\n\n", i, canary))); err != nil {
						return
					}
					w.(http.Flusher).Flush()
					select {
					case <-r.Context().Done():
						return
					case <-time.After(5 * time.Millisecond):
					}
				}
			})
			e := newEnv(t, up, []Route{{Pattern: "/", Mask: sseMask}}, envOptions{h2: h2})
			resp, err := e.get("/x")
			if err != nil {
				t.Fatal(err)
			}
			buf := make([]byte, 256)
			if _, err := io.ReadAtLeast(resp.Body, buf, 64); err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			e.client.CloseIdleConnections()
			select {
			case <-done:
			case <-time.After(10 * time.Second):
				t.Fatal("the upstream handler is still running")
			}
			if rep := e.lastReport(); rep.Outcome != OutcomeAborted {
				t.Errorf("outcome %s, want aborted", rep.Outcome)
			}
		})
	}
}
