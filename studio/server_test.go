package studio

import (
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
)

// TestListenLoopbackOnly: every address that is not loopback is refused,
// before anything listens (SPEC W5).
func TestListenLoopbackOnly(t *testing.T) {
	for _, addr := range []string{":0", "0.0.0.0:0", "[::]:0", "192.0.2.1:0", "10.0.0.1:8080", "example.com:0", "localhost.example.com:0", "nonsense"} {
		t.Run(addr, func(t *testing.T) {
			ln, err := Listen(addr)
			if err == nil {
				ln.Close()
				t.Fatalf("Listen(%q) listened on %s", addr, ln.Addr())
			}
		})
	}
	for _, addr := range []string{"", "127.0.0.1:0", "localhost:0", "127.0.0.2:0"} {
		t.Run("ok "+addr, func(t *testing.T) {
			ln, err := Listen(addr)
			if err != nil {
				t.Fatal(err)
			}
			defer ln.Close()
			if ip := ln.Addr().(*net.TCPAddr).IP; !ip.IsLoopback() {
				t.Fatalf("listens on %s", ip)
			}
		})
	}
}

// TestRefused: requests that do not come from the studio's own page to its
// own address are refused with 403 and nothing else: a DNS-rebinding Host,
// a cross-site Origin, a cross-site fetch.
func TestRefused(t *testing.T) {
	ts := smallServer(t)
	addr := ts.Listener.Addr().String()
	_, port, _ := net.SplitHostPort(addr)
	cases := []struct {
		name, method, path, host string
		header                   map[string]string
		want                     int
	}{
		{"own page", "GET", "/", "", nil, 200},
		{"localhost", "GET", "/", "localhost:" + port, nil, 200},
		{"own origin", "POST", "/api/view", "", map[string]string{"Origin": "http://" + addr}, 200},
		{"same-origin fetch", "POST", "/api/view", "", map[string]string{"Sec-Fetch-Site": "same-origin"}, 200},
		{"rebinding host", "GET", "/", "evil.example:" + port, nil, 403},
		{"rebinding host, view", "POST", "/api/view", "evil.example:" + port, nil, 403},
		{"host without port", "GET", "/", "127.0.0.1", nil, 403},
		{"other port", "GET", "/", "127.0.0.1:1", nil, 403},
		{"cross-site origin", "POST", "/api/view", "", map[string]string{"Origin": "http://evil.example"}, 403},
		{"origin of another port", "POST", "/api/view", "", map[string]string{"Origin": "http://127.0.0.1:1"}, 403},
		{"https origin", "POST", "/api/view", "", map[string]string{"Origin": "https://" + addr}, 403},
		{"null origin", "POST", "/api/view", "", map[string]string{"Origin": "null"}, 403},
		{"cross-site fetch", "POST", "/api/view", "", map[string]string{"Sec-Fetch-Site": "cross-site"}, 403},
		{"same-site fetch", "POST", "/api/view", "", map[string]string{"Sec-Fetch-Site": "same-site"}, 403},
		{"not json", "POST", "/api/view", "", map[string]string{"Content-Type": "text/plain"}, 415},
		{"a form", "POST", "/api/view", "", map[string]string{"Content-Type": "application/x-www-form-urlencoded"}, 415},
		{"view by GET", "GET", "/api/view", "", nil, 405},
		{"preflight", "OPTIONS", "/api/view", "", map[string]string{"Origin": "http://evil.example"}, 403},
		{"a file", "GET", "/../../../etc/passwd", "", nil, 404},
		{"a sample by name", "GET", "/small.json", "", nil, 404},
		{"the assets folder", "GET", "/assets/index.html", "", nil, 404},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var body io.Reader
			if c.method == "POST" {
				body = strings.NewReader(`{}`)
			}
			req, err := http.NewRequest(c.method, ts.URL+c.path, body)
			if err != nil {
				t.Fatal(err)
			}
			if c.host != "" {
				req.Host = c.host
			}
			if c.method == "POST" {
				req.Header.Set("Content-Type", "application/json")
			}
			for k, v := range c.header {
				req.Header.Set(k, v)
			}
			resp, err := ts.Client().Do(req)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != c.want {
				t.Fatalf("status %d, want %d: %s", resp.StatusCode, c.want, b)
			}
			if c.want == 403 && strings.Contains(string(b), `"rows"`) {
				t.Fatal("a refused request got a view")
			}
			if csp := resp.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'none'") {
				t.Errorf("Content-Security-Policy %q", csp)
			}
		})
	}
}

// TestAssets: the page and its script and style are served from the
// binary, with their types, and name no other site (SPEC W4).
func TestAssets(t *testing.T) {
	ts := smallServer(t)
	for path, ctype := range map[string]string{"/": "text/html", "/app.js": "text/javascript", "/app.css": "text/css"} {
		resp, err := ts.Client().Get(ts.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), ctype) || len(b) == 0 {
			t.Errorf("GET %s: %d %s, %d bytes", path, resp.StatusCode, resp.Header.Get("Content-Type"), len(b))
		}
		for _, remote := range []string{"https://", "//cdn", "http://"} {
			if path != "/app.js" && strings.Contains(string(b), remote) {
				t.Errorf("GET %s names %q: every asset is embedded", path, remote)
			}
		}
	}
}
