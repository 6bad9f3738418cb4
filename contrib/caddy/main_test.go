package jsonmaskcaddy

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/caddyserver/caddy/v2"
	"github.com/caddyserver/caddy/v2/caddyconfig/caddyfile"
	"github.com/caddyserver/caddy/v2/caddyconfig/httpcaddyfile"
	"go.uber.org/goleak"

	"github.com/jsonmask/jsonmask/gateway/codingtest"

	_ "github.com/caddyserver/caddy/v2/modules/standard"
)

// canary is in every value that a test's mask drops: it must never reach
// a client of a masked route.
const canary = "CANARY-c4dd"

// TestMain keeps Caddy's files in a directory of its own, and fails the
// tests if one leaves a goroutine behind once Caddy is stopped (a coded
// body's coroutine, a connection, a handler).
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "jsonmaskcaddy")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	// Caddy keeps its data and config (autosave.json, certificates) there.
	os.Setenv("XDG_DATA_HOME", dir)
	os.Setenv("XDG_CONFIG_HOME", dir)
	code := m.Run()
	os.RemoveAll(dir)
	if code == 0 {
		if err := goleak.Find(caddyGlobals...); err != nil {
			fmt.Fprintln(os.Stderr, "goleak:", err)
			code = 1
		}
	}
	os.Exit(code)
}

// caddyGlobals are goroutines of Caddy's that outlive caddy.Stop for a
// while: certmagic refreshes a storage lock's file every 5 s, and notices
// that the lock is gone only when it wakes.
var caddyGlobals = []goleak.Option{
	goleak.IgnoreAnyFunction("github.com/caddyserver/certmagic.keepLockfileFresh"),
}

// freePort returns a port of 127.0.0.1 that was free a moment ago.
func freePort(t testing.TB) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// runCaddy runs a Caddy with config (JSON) in this process until the test
// ends. Caddy runs one config per process: tests that call it do not run
// in parallel.
func runCaddy(t testing.TB, config []byte) {
	t.Helper()
	if err := caddy.Load(config, true); err != nil {
		t.Fatalf("caddy.Load: %v\n%s", err, config)
	}
	t.Cleanup(func() {
		if err := caddy.Stop(); err != nil {
			t.Errorf("caddy.Stop: %v", err)
		}
	})
}

// caddyConfig is a Caddy JSON config with one HTTP server on 127.0.0.1:port
// whose routes are routes (JSON), changed by opts. The admin endpoint is
// off, nothing is persisted, and logs are off unless the tests run with
// -v.
func caddyConfig(t testing.TB, port int, routes string, opts ...serverOption) []byte {
	t.Helper()
	server := map[string]any{
		"listen":          []string{"127.0.0.1:" + strconv.Itoa(port)},
		"automatic_https": map[string]any{"disable": true},
		"routes":          json.RawMessage(routes),
	}
	for _, o := range opts {
		o(server)
	}
	config := map[string]any{
		"admin":   map[string]any{"disabled": true, "config": map[string]any{"persist": false}},
		"logging": map[string]any{"logs": map[string]any{"default": map[string]any{"level": logLevel()}}},
		"storage": map[string]any{"module": "file_system", "root": t.TempDir()},
		"apps":    map[string]any{"http": map[string]any{"servers": map[string]any{"test": server}}},
	}
	b, err := json.Marshal(config)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// logLevel is the level of Caddy's logs in the tests: all of them with
// -v, else none, since some tests are about what Caddy logs as errors. The
// logs stay on standard error: a writer of their own would make Caddy say
// so there.
func logLevel() string {
	if testing.Verbose() {
		return "DEBUG"
	}
	return "FATAL"
}

// A serverOption changes the JSON config of caddyConfig's server.
type serverOption func(server map[string]any)

// handleErrors sets the server's handle_errors routes (JSON).
func handleErrors(routes string) serverOption {
	return func(server map[string]any) {
		server["errors"] = map[string]any{"routes": json.RawMessage(routes)}
	}
}

// h2c has the server speak HTTP/2 without TLS too.
func h2c(server map[string]any) {
	server["protocols"] = []string{"h1", "h2c"}
}

// caddyfileGlobals are the global options of the tests' Caddyfiles: what
// caddyConfig sets in JSON.
func caddyfileGlobals(t *testing.T) string {
	return fmt.Sprintf("{\n\tadmin off\n\tpersist_config off\n\tauto_https off\n\tstorage file_system %s\n\tlog {\n\t\tlevel %s\n\t}\n}\n", t.TempDir(), logLevel())
}

// adapt turns a Caddyfile into Caddy's JSON config, as `caddy adapt` does.
func adapt(caddyfileText string) ([]byte, error) {
	a := caddyfile.Adapter{ServerType: httpcaddyfile.ServerType{}}
	cfg, _, err := a.Adapt([]byte(caddyfileText), map[string]any{"filename": "Caddyfile"})
	return cfg, err
}

// newClient is a client that leaves codings alone, so that tests see the
// bytes on the wire.
func newClient(t *testing.T) *http.Client {
	c := &http.Client{Transport: &http.Transport{DisableCompression: true}, Timeout: 20 * time.Second}
	t.Cleanup(c.CloseIdleConnections)
	return c
}

// newH2CClient is newClient speaking HTTP/2 without TLS only.
func newH2CClient(t *testing.T) *http.Client {
	var p http.Protocols
	p.SetUnencryptedHTTP2(true)
	c := &http.Client{Transport: &http.Transport{DisableCompression: true, Protocols: &p}, Timeout: 20 * time.Second}
	t.Cleanup(c.CloseIdleConnections)
	return c
}

// get sends a GET with the header h ("Key: value" pairs) and returns the
// response, its body as sent (still coded) and the error of reading it.
func get(t *testing.T, c *http.Client, url string, h ...string) (*http.Response, []byte, error) {
	t.Helper()
	req, err := http.NewRequest("GET", url, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, kv := range h {
		k, v, _ := strings.Cut(kv, ": ")
		req.Header.Set(k, v)
	}
	resp, err := c.Do(req)
	if err != nil {
		return nil, nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	return resp, body, err
}

// noCanary fails the test if the canary is in a response's header or
// body, coded or decoded.
func noCanary(t *testing.T, resp *http.Response, body []byte) {
	t.Helper()
	if bytes.Contains(body, []byte(canary)) {
		t.Fatalf("canary in the body %q", body)
	}
	if resp == nil {
		return
	}
	if strings.Contains(fmt.Sprint(resp.Header), canary) {
		t.Fatalf("canary in the header %v", resp.Header)
	}
	if codingtest.Holds(resp.Header.Get("Content-Encoding"), body, canary) {
		t.Fatalf("canary in the decoded body %q", body)
	}
}
