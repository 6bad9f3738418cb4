package gateway

import (
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// hangBound is how long a test below waits for what must end well before:
// a deadline for a hang, not a speed test.
const hangBound = 10 * time.Second

// within runs f and fails the test if it has not returned within hangBound.
func within(t *testing.T, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	select {
	case <-done:
	case <-time.After(hangBound):
		t.Fatalf("%s: still waiting after %v", what, hangBound)
	}
}

// reported waits for the observer's report of the request that do or get
// sent last: the handler has returned.
func (e *testEnv) reported(t *testing.T) Report {
	t.Helper()
	var r Report
	within(t, "the handler's report", func() {
		for {
			e.mu.Lock()
			n, sent := len(e.reports), e.sent
			if n >= sent {
				r = e.reports[n-1]
			}
			e.mu.Unlock()
			if n >= sent {
				return
			}
			time.Sleep(10 * time.Millisecond)
		}
	})
	return r
}

// TestUpstreamNeverAnswers: an upstream that takes the request and never
// sends a header costs the client Limits.ResponseHeaderTimeout, then a 502.
func TestUpstreamNeverAnswers(t *testing.T) {
	release := make(chan struct{})
	upstream := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	})
	e := newEnv(t, upstream, itemsRoutes(), envOptions{opts: []Option{WithLimits(Limits{ResponseHeaderTimeout: 200 * time.Millisecond})}})
	defer close(release)
	var resp *http.Response
	var err error
	within(t, "the client's answer", func() { resp, _, err = e.do(t, "GET", "/v1/items", nil) })
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusBadGateway {
		t.Fatalf("status %d, want 502", resp.StatusCode)
	}
	if r := e.reported(t); r.Outcome != OutcomeUpstreamError {
		t.Fatalf("outcome %q, want %q", r.Outcome, OutcomeUpstreamError)
	}
}

// TestStalledPeers: an upstream that stops in the middle of a masked body,
// and a client that stops reading one, hold the gateway only until the
// client goes away: then the handler returns, and lets the upstream go.
func TestStalledPeers(t *testing.T) {
	const head = `{"id":1,"items":[`
	item := `{"k":"v","drop":"` + canary + `"},`
	release := make(chan struct{})
	upstream := http.NewServeMux()
	upstream.HandleFunc("/v1/items", func(w http.ResponseWriter, r *http.Request) {
		// Half a body, then nothing more until the request ends.
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, head+item)
		w.(http.Flusher).Flush()
		select {
		case <-release:
		case <-r.Context().Done():
		}
	})
	upstream.HandleFunc("/v1/created", func(w http.ResponseWriter, r *http.Request) {
		// A body without end, for a client that never reads.
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, head)
		chunk := strings.Repeat(item, 1000)
		for r.Context().Err() == nil {
			if _, err := io.WriteString(w, chunk); err != nil {
				return
			}
		}
	})
	for _, h2 := range []bool{false, true} {
		name := "HTTP1"
		if h2 {
			name = "HTTP2"
		}
		t.Run(name+"/UpstreamStalls", func(t *testing.T) {
			e := newEnv(t, upstream, itemsRoutes(), envOptions{h2: h2})
			e.client.Timeout = 300 * time.Millisecond
			var err error
			within(t, "the client's read", func() { _, _, err = e.do(t, "GET", "/v1/items", nil) })
			if err == nil {
				t.Fatal("a stalled body read to its end")
			}
			e.client.CloseIdleConnections()
			e.reported(t)
		})
		t.Run(name+"/ClientNeverReads", func(t *testing.T) {
			e := newEnv(t, upstream, itemsRoutes(), envOptions{h2: h2})
			if h2 {
				// The HTTP/2 client reads frames into its buffers for
				// the stream: a response left unread, then closed.
				resp, err := e.get("/v1/created")
				if err != nil {
					t.Fatal(err)
				}
				time.Sleep(300 * time.Millisecond)
				resp.Body.Close()
			} else {
				e.mu.Lock()
				e.sent++
				e.mu.Unlock()
				c, err := net.Dial("tcp", e.proxy.Listener.Addr().String())
				if err != nil {
					t.Fatal(err)
				}
				io.WriteString(c, "GET /v1/created HTTP/1.1\r\nHost: x\r\n\r\n")
				time.Sleep(300 * time.Millisecond) // the socket's buffers fill
				c.Close()
			}
			e.client.CloseIdleConnections()
			e.reported(t)
		})
	}
	close(release)
}
