package gateway

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/jsonmask/jsonmask"
	"github.com/klauspost/compress/gzip"
)

// serveHandler serves Handler(next) on a real server and returns its URL
// and a client that leaves codings alone.
func serveHandler(t *testing.T, next http.Handler, routes []Route, opts ...Option) (string, *http.Client) {
	t.Helper()
	rs, err := NewRoutes(routes)
	if err != nil {
		t.Fatal(err)
	}
	s := httptest.NewUnstartedServer(Handler(next, rs, opts...))
	s.Config.ErrorLog = quietLog()
	s.Start()
	c := &http.Client{Transport: &http.Transport{DisableCompression: true}}
	t.Cleanup(func() { c.CloseIdleConnections(); s.Close() })
	return s.URL, c
}

func getBody(t *testing.T, c *http.Client, url string) (*http.Response, string, error) {
	t.Helper()
	resp, err := c.Get(url)
	if err != nil {
		return nil, "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp, string(b), err
}

// TestHandlerWrites: a handler that writes its body in small pieces,
// without WriteHeader, as fmt.Fprintf and encoders do.
func TestHandlerWrites(t *testing.T) {
	next := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		for _, s := range []string{`{"id":`, `7,"owner":{"ssn":"`, canary, `"},"items":[{"k":1,"v":"`, canary, `"},{"k":2}]}`} {
			fmt.Fprint(w, s)
		}
	})
	url, c := serveHandler(t, next, []Route{{Pattern: "/", Mask: itemsMask}})
	resp, body, err := getBody(t, c, url+"/x")
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != 200 || body != itemsMasked {
		t.Fatalf("%d %q", resp.StatusCode, body)
	}
	if resp.Header.Get("Content-Type") != "application/json" {
		t.Errorf("Content-Type %q", resp.Header.Get("Content-Type"))
	}
}

// TestHandlerResponseController: Flush through http.ResponseController
// sends what was masked so far; deadlines reach the server through Unwrap;
// Hijack is refused on a masked route and works on others.
func TestHandlerResponseController(t *testing.T) {
	seen := make(chan struct{})
	var hijackErr, deadlineErr error
	next := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rc := http.NewResponseController(w)
		if r.URL.Path == "/free" {
			conn, brw, err := rc.Hijack()
			if err != nil {
				http.Error(w, err.Error(), 500)
				return
			}
			brw.WriteString("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok")
			brw.Flush()
			conn.Close()
			return
		}
		_, _, hijackErr = rc.Hijack()
		deadlineErr = rc.SetWriteDeadline(time.Now().Add(time.Minute))
		w.Write([]byte(`{"id":1,"x":"` + canary + `","items":[`))
		if err := rc.Flush(); err != nil {
			t.Errorf("Flush: %v", err)
		}
		select {
		case <-seen:
		case <-time.After(5 * time.Second):
		}
		w.Write([]byte(`]}`))
	})
	url, c := serveHandler(t, next, []Route{{Pattern: "/masked", Mask: itemsMask}})
	resp, err := c.Get(url + "/masked")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	buf := make([]byte, 64)
	n, err := io.ReadAtLeast(resp.Body, buf, len(`{"id":1,"items":[`))
	if err != nil || string(buf[:n]) != `{"id":1,"items":[` {
		t.Fatalf("before the handler goes on: %q, %v", buf[:n], err)
	}
	close(seen)
	rest, _ := io.ReadAll(resp.Body)
	if got := string(buf[:n]) + string(rest); got != `{"id":1,"items":[]}` {
		t.Fatalf("body %q", got)
	}
	if !errors.Is(hijackErr, errHijack) {
		t.Errorf("Hijack on a masked route: %v", hijackErr)
	}
	if deadlineErr != nil {
		t.Errorf("SetWriteDeadline: %v", deadlineErr)
	}
	resp, body, err := getBody(t, c, url+"/free")
	if err != nil || body != "ok" {
		t.Fatalf("hijacked unmasked route: %v %q %v", resp, body, err)
	}
}

// TestHandlerEnds: handlers that end without a body, or panic.
func TestHandlerEnds(t *testing.T) {
	strict := must(itemsMask.With(jsonmask.WithStrict(true)))
	cases := []struct {
		name   string
		mask   *jsonmask.Mask
		next   http.HandlerFunc
		status int
		body   string
		err    bool // the client sees a broken response
	}{
		{"NoWrite", itemsMask, func(w http.ResponseWriter, r *http.Request) {}, 200, "", false},
		{"NoWrite/Strict", strict, func(w http.ResponseWriter, r *http.Request) {}, 502, "", false},
		{"HTML/Strict", strict, func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("<html>" + canary)) }, 502, "", false},
		{"PanicBeforeWrite", itemsMask, func(w http.ResponseWriter, r *http.Request) { panic("boom") }, 502, "", false},
		{"PanicAfterWrite", itemsMask, func(w http.ResponseWriter, r *http.Request) {
			w.Write([]byte(`{"id":1,"x":"` + canary + `"`))
			panic("boom")
		}, 502, "", false},
		{"PanicAfterFlush", itemsMask, func(w http.ResponseWriter, r *http.Request) {
			w.Write([]byte(`{"id":1,"x":"` + canary + `"`))
			w.(http.Flusher).Flush()
			panic("boom")
		}, 200, "", true},
		{"Status418NotListed", itemsMask, func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(418)
			w.Write([]byte("teapot"))
		}, 418, "teapot", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			url, cl := serveHandler(t, c.next, []Route{{Pattern: "/", Mask: c.mask}})
			resp, body, err := getBody(t, cl, url+"/x")
			if strings.Contains(body, canary) {
				t.Fatalf("canary in %q", body)
			}
			if c.err {
				if err == nil {
					t.Fatalf("a complete response: %d %q", resp.StatusCode, body)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if resp.StatusCode != c.status {
				t.Fatalf("status %d, want %d: %q", resp.StatusCode, c.status, body)
			}
			if c.body != "" && body != c.body {
				t.Fatalf("body %q, want %q", body, c.body)
			}
		})
	}
}

// TestHandlerBadPath: a refused path gets a 400 problem document, and
// never reaches the handler.
func TestHandlerBadPath(t *testing.T) {
	reached := false
	var rep Report
	next := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { reached = true })
	url, _ := serveHandler(t, next, []Route{{Pattern: "/", Mask: itemsMask}}, WithObserver(func(r Report) { rep = r }))
	conn, br := dialURL(t, url)
	defer conn.Close()
	fmt.Fprintf(conn, "GET /a%%2Fb HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 400 || reached {
		t.Fatalf("status %d, handler reached %v", resp.StatusCode, reached)
	}
	checkProblem(t, resp, body)
	if rep.Outcome != OutcomeBadRequest || !errors.Is(rep.Err, ErrBadPath) {
		t.Errorf("report %+v", rep)
	}
}

func dialURL(t *testing.T, url string) (net.Conn, *bufio.Reader) {
	conn, err := net.Dial("tcp", strings.TrimPrefix(url, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	conn.SetDeadline(time.Now().Add(10 * time.Second))
	return conn, bufio.NewReader(conn)
}

// errNext is the error of a next handler in TestMiddlewareErrors.
var errNext = errors.New("next failed")

// TestMiddlewareErrors: a next handler that returns an error. The server
// answers an error when nothing of a masked body was written (here with a
// 418 "server"); after the status of a masked body the gateway ends the
// response (502, or an abort after bytes were sent), and the server is
// told nothing.
func TestMiddlewareErrors(t *testing.T) {
	cases := []struct {
		name    string
		path    string
		next    NextFunc
		status  int
		body    string
		broken  bool // the client sees a broken response
		errBack bool // ServeNext returned errNext
		outcome Outcome
	}{
		{name: "FailBeforeWrite", path: "/m", next: func(w http.ResponseWriter, r *http.Request) error {
			w.Header().Set("X-Up", canary) // a header alone was not written
			return errNext
		}, status: 418, body: "server", errBack: true, outcome: OutcomeUnmasked},
		{name: "FailAfterEarlyHints", path: "/m", next: func(w http.ResponseWriter, r *http.Request) error {
			w.WriteHeader(http.StatusEarlyHints)
			return errNext
		}, status: 418, body: "server", errBack: true, outcome: OutcomeUnmasked},
		{name: "FailAfterStatus", path: "/m", next: func(w http.ResponseWriter, r *http.Request) error {
			w.WriteHeader(200)
			return errNext
		}, status: 502, outcome: OutcomeRefused},
		{name: "FailAfterWrite", path: "/m", next: func(w http.ResponseWriter, r *http.Request) error {
			w.Write([]byte(`{"id":1,"x":"` + canary + `","items":[{"k":1}`))
			return errNext
		}, status: 502, outcome: OutcomeRefused},
		{name: "FailAfterFlush", path: "/m", next: func(w http.ResponseWriter, r *http.Request) error {
			w.Write([]byte(`{"id":1,"x":"` + canary + `","items":[{"k":1}`))
			w.(http.Flusher).Flush()
			return errNext
		}, broken: true, outcome: OutcomeAborted},
		{name: "FailAfterRefusedStatus", path: "/m", next: func(w http.ResponseWriter, r *http.Request) error {
			w.WriteHeader(http.StatusPartialContent)
			return errNext
		}, status: 502, outcome: OutcomeRefused},
		{name: "FailOnStatusNotListed", path: "/m", next: func(w http.ResponseWriter, r *http.Request) error {
			w.WriteHeader(500)
			w.Write([]byte("upstream error page"))
			return errNext
		}, status: 500, body: "upstream error pageserver", errBack: true, outcome: OutcomeUnmasked}, // as without the gateway
		{name: "FailUnmatched", path: "/free", next: func(w http.ResponseWriter, r *http.Request) error {
			return errNext
		}, status: 418, body: "server", errBack: true, outcome: OutcomeUnmatched},
		{name: "Success", path: "/m", next: func(w http.ResponseWriter, r *http.Request) error {
			w.Write([]byte(`{"id":1,"x":"` + canary + `","items":[{"k":1,"v":"` + canary + `"}]}`))
			return nil
		}, status: 200, body: `{"id":1,"items":[{"k":1}]}`, outcome: OutcomeMasked},
	}
	rs, err := NewRoutes([]Route{{Pattern: "/m", Mask: itemsMask}})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			type result struct {
				rep  Report
				back error // what ServeNext returned
			}
			results := make(chan result, 1)
			s := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				var res result
				mw := NewMiddleware(rs, WithObserver(func(r Report) { res.rep = r }))
				defer func() { results <- res }() // also when ServeNext aborts
				res.back = mw.ServeNext(w, r, c.next)
				if res.back != nil {
					w.WriteHeader(418) // the server's own error handling
					w.Write([]byte("server"))
				}
			}))
			s.Config.ErrorLog = quietLog()
			s.Start()
			cl := &http.Client{Transport: &http.Transport{DisableCompression: true}}
			defer func() { cl.CloseIdleConnections(); s.Close() }()
			resp, body, err := getBody(t, cl, s.URL+c.path)
			if strings.Contains(body, canary) || (resp != nil && strings.Contains(fmt.Sprint(resp.Header), canary)) {
				t.Fatalf("canary in %v %q", resp.Header, body)
			}
			switch {
			case c.broken:
				if err == nil {
					t.Fatalf("a complete response: %d %q", resp.StatusCode, body)
				}
			case err != nil:
				t.Fatal(err)
			case resp.StatusCode != c.status:
				t.Fatalf("status %d, want %d: %q", resp.StatusCode, c.status, body)
			case c.body != "" && body != c.body:
				t.Fatalf("body %q, want %q", body, c.body)
			case c.status == 502:
				checkProblem(t, resp, []byte(body))
			}
			var res result
			select {
			case res = <-results:
			case <-time.After(5 * time.Second):
				t.Fatal("the handler did not return")
			}
			rep, back := res.rep, res.back
			if (back != nil) != c.errBack || (back != nil && back != errNext) {
				t.Errorf("ServeNext returned %v", back)
			}
			if rep.Outcome != c.outcome {
				t.Errorf("outcome %q, want %q (%+v)", rep.Outcome, c.outcome, rep)
			}
			if c.errBack && !errors.Is(rep.Err, errNext) {
				t.Errorf("report's error %v", rep.Err)
			}
		})
	}
}

// TestHandlerLimitsOff: a limit that WithLimits turns off (-1) stays off:
// a gzip body that decodes to 4 MiB at a ratio of about 1000, over the
// default MaxRatio, is masked when MaxRatio is -1 (it was refused: the
// handler resolved the limits twice, and the second time took 0, "off",
// for "default").
func TestHandlerLimitsOff(t *testing.T) {
	body := gzipFill(`{"id":1,"pad":"`, ' ', 4<<20)
	var end bytes.Buffer
	zw := gzip.NewWriter(&end)
	zw.Write([]byte(`","secret":"` + canary + `"}`))
	zw.Close()
	body = append(body, end.Bytes()...)
	next := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Encoding", "gzip")
		w.Write(body)
	})
	mask := jsonmask.MustCompile(`{"id":true}`)
	for _, c := range []struct {
		name   string
		limits Limits
		status int
	}{{"Default", Limits{}, http.StatusBadGateway}, {"RatioOff", Limits{MaxRatio: -1}, http.StatusOK}} {
		t.Run(c.name, func(t *testing.T) {
			url, cl := serveHandler(t, next, []Route{{Pattern: "/", Mask: mask}}, WithLimits(c.limits))
			req, _ := http.NewRequest("GET", url+"/x", nil)
			req.Header.Set("Accept-Encoding", "gzip")
			resp, err := cl.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			coded, err := io.ReadAll(resp.Body)
			if err != nil {
				t.Fatal(err)
			}
			if resp.StatusCode != c.status {
				t.Fatalf("status %d, want %d", resp.StatusCode, c.status)
			}
			if c.status != http.StatusOK {
				return
			}
			zr, err := gzip.NewReader(bytes.NewReader(coded))
			if err != nil {
				t.Fatal(err)
			}
			got, err := io.ReadAll(zr)
			if err != nil || string(got) != `{"id":1}` {
				t.Fatalf("%q %v", got, err)
			}
		})
	}
}
