package main

import (
	"bufio"
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"io"
	"math/big"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/jsonmask/jsonmask/config"
	"github.com/jsonmask/jsonmask/gateway"
	"github.com/jsonmask/jsonmask/internal/reportlog"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
)

const serveCanary = "CANARY-5e7b"

// TestServeConfig: what serve adds to the gateway's config (whose keys,
// files and messages gateway's TestConfig checks): an upstream, which must
// be an http or https URL; every fault is one line that names the config.
func TestServeConfig(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "masks"), 0o755)
	os.WriteFile(filepath.Join(dir, "masks", "items.json"), []byte(`{"id": true}`), 0o644)
	cases := []struct {
		name, config, err string // err: a substring of the error, "" for none
	}{
		{"SpecExample", `{"listen": "127.0.0.1:8080", "admin": "127.0.0.1:9090", "upstream": "http://127.0.0.1:9000",
		  "limits": {"max_body_bytes": 268435456, "max_depth": 10000, "max_token_bytes": 67108864},
		  "routes": [
		    {"match": "GET /v1/flows/{id}", "mask": {"_id": true, "members": {"email": true}}},
		    {"match": "GET /v1/items", "mask_file": "masks/items.json", "arrays": true, "strict": true, "statuses": [200, 201]}]}`, ""},
		{"HTTPS", `{"upstream": "https://x", "routes": [{"match": "/", "mask": {}}]}`, ""},
		{"NoUpstream", `{"routes": [{"match": "/", "mask": {}}]}`, `config: no upstream`},
		{"NoRoutes", `{"upstream": "http://x", "routes": []}`, `routes: none given`},
		{"BadUpstream", `{"upstream": "ftp://x", "routes": [{"match": "/", "mask": {}}]}`, `config: upstream "ftp://x" is not an http or https URL`},
		{"NoHost", `{"upstream": "http:///x", "routes": [{"match": "/", "mask": {}}]}`, `not an http or https URL`},
		{"KeyTwice", `{"upstream": "http://x", "routes": [{"match": "/", "mask": {}, "strict": true, "strict": false}]}`, `routes[0]: key "strict" given twice`},
		{"KeyCase", `{"upstream": "http://x", "routes": [{"match": "/", "mask": {}, "STRICT": false}]}`, `routes[0]: key "STRICT" is "strict" in another case`},
		{"Fields", `{"upstream": "http://x", "routes": [{"match": "/", "fields": "id,user(name)"}]}`, ""},
		{"UnknownKey", `{"upstream": "http://x", "routes": [{"match": "/", "mask_fil": "m.json"}]}`, `config ` + filepath.Join(dir, "UnknownKey.json") + `: routes[0]: unknown key "mask_fil"`},
		{"BadMask", `{"upstream": "http://x", "routes": [{"match": "/a", "mask": {"x": 1}}]}`, `config ` + filepath.Join(dir, "BadMask.json") + `: routes[0] ("/a"): mask member "/x"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(dir, c.name+".json")
			os.WriteFile(path, []byte(c.config), 0o644)
			cfg, err := config.Load(path)
			if err == nil {
				_, err = build(cfg, nil)
			}
			switch {
			case c.err == "" && err != nil:
				t.Fatal(err)
			case c.err != "" && err == nil:
				t.Fatalf("no error, want %q", c.err)
			case c.err != "" && (!strings.HasPrefix(err.Error(), "config") && !strings.HasPrefix(err.Error(), "jsonmask: config") || !strings.Contains(err.Error(), c.err)):
				t.Fatalf("error %q, want %q in it, after config", err, c.err)
			case err != nil && strings.Contains(err.Error(), "\n"):
				t.Fatalf("error on two lines: %q", err)
			}
		})
	}
}

// TestServeUsage: bad invocations exit 2 with one line, -h exits 0.
func TestServeUsage(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	busy := ln.Addr().String()
	for _, c := range []struct {
		args   []string
		status int
		out    string
	}{
		{[]string{"serve", "-h"}, 0, "usage: jsonmask serve"},
		{[]string{"serve"}, 2, "give -config FILE, or -upstream URL and -mask JSON"},
		{[]string{"serve", "-upstream", "http://x"}, 2, "give -config FILE"},
		{[]string{"serve", "-config", "/nonexistent.json"}, 2, "no such file"},
		{[]string{"serve", "-upstream", "http://x", "-mask", "{"}, 2, "routes[0]"},
		{[]string{"serve", "-upstream", "http://x", "-mask", "{}", "-listen", "nonsense"}, 2, "jsonmask: listen: listen tcp: address nonsense: missing port in address\n"},
		{[]string{"serve", "-upstream", "http://x", "-mask", "{}", "-listen", busy}, 2, "address already in use\n"},
		{[]string{"serve", "-upstream", "http://x", "-mask", "{}", "-admin", busy}, 2, "jsonmask: listen admin: "},
		{[]string{"serve", "-bogus"}, 2, "flag provided but not defined"},
	} {
		var out, errb bytes.Buffer
		status := run(c.args, strings.NewReader(""), &out, &errb)
		if status != c.status || !strings.Contains(out.String()+errb.String(), c.out) || status == 2 && strings.Count(errb.String(), "\n") > 2 {
			t.Errorf("%v: status %d, stdout %q, stderr %q; want %d and %q", c.args, status, out.String(), errb.String(), c.status, c.out)
		}
	}
}

// serveProc is `jsonmask serve` running as its own process, with its log
// lines as they come.
type serveProc struct {
	cmd   *exec.Cmd
	addr  string
	admin string
	mu    sync.Mutex
	lines []map[string]any
	done  chan error
}

func startServe(t *testing.T, bin string, args ...string) *serveProc {
	t.Helper()
	p := &serveProc{cmd: exec.Command(bin, append([]string{"serve"}, args...)...), done: make(chan error, 1)}
	stderr, err := p.cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		p.cmd.Process.Kill()
		<-p.done
	})
	listening := make(chan map[string]any, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			var m map[string]any
			if json.Unmarshal(sc.Bytes(), &m) != nil {
				m = map[string]any{"raw": sc.Text()}
			}
			p.mu.Lock()
			p.lines = append(p.lines, m)
			p.mu.Unlock()
			if m["msg"] == "listening" {
				listening <- m
			}
		}
		p.done <- p.cmd.Wait()
	}()
	select {
	case m := <-listening:
		p.addr, _ = m["addr"].(string)
		p.admin, _ = m["admin"].(string)
	case <-time.After(20 * time.Second):
		t.Fatalf("serve did not start: %v", p.log())
	}
	return p
}

func (p *serveProc) log() []map[string]any {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]map[string]any(nil), p.lines...)
}

// waitLog waits for a log line with this message.
func (p *serveProc) waitLog(t *testing.T, msg string) map[string]any {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		for _, l := range p.log() {
			if l["msg"] == msg {
				return l
			}
		}
	}
	t.Fatalf("no log line %q in %v", msg, p.log())
	return nil
}

func (p *serveProc) get(t *testing.T, path string) (int, string) {
	t.Helper()
	resp, err := http.Get("http://" + p.addr + path)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// TestServe runs the built command: requests through it, the admin
// listener, a reload with a broken config and with a good one, and a drain.
func TestServe(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "jsonmask")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	release := make(chan struct{})
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if r.URL.Path == "/v1/slow" {
			w.Write([]byte(`{"id":1,"x":"` + serveCanary + `",`))
			w.(http.Flusher).Flush()
			<-release
			w.Write([]byte(`"name":"slow"}`))
			return
		}
		fmt.Fprintf(w, `{"id":7,"name":"n","secret":"%s"}`, serveCanary)
	}))
	defer upstream.Close()
	os.MkdirAll(filepath.Join(dir, "masks"), 0o755)
	os.WriteFile(filepath.Join(dir, "masks", "id.json"), []byte(`{"id": true}`), 0o644)
	config := filepath.Join(dir, "config.json")
	writeConfig := func(s string) { os.WriteFile(config, []byte(s), 0o644) }
	writeConfig(`{"admin": "127.0.0.1:0", "upstream": "` + upstream.URL + `",
	  "limits": {"drain_timeout": "10s"},
	  "routes": [{"match": "GET /v1/{x}", "mask_file": "masks/id.json"}]}`)
	p := startServe(t, bin, "-config", config, "-listen", "127.0.0.1:0")

	status, body := p.get(t, "/v1/items")
	if status != 200 || body != `{"id":7}` {
		t.Fatalf("%d %q", status, body)
	}
	status, body = p.get(t, "/other")
	if status != 200 || !strings.Contains(body, serveCanary) {
		t.Fatalf("unmatched: %d %q", status, body)
	}
	req := p.waitLog(t, "request")
	for _, k := range []string{"route", "status", "outcome", "bytes_in", "bytes_out", "duration_ms"} {
		if _, ok := req[k]; !ok {
			t.Errorf("log line %v has no %q", req, k)
		}
	}
	if req["outcome"] != "masked" || req["route"] != "GET /v1/{x}" {
		t.Errorf("log line %v", req)
	}
	resp, err := http.Get("http://" + p.admin + "/healthz")
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("healthz: %v %v", resp, err)
	}
	resp.Body.Close()
	resp, err = http.Get("http://" + p.admin + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	metrics, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	for _, want := range []string{
		`jsonmask_gateway_requests_total{outcome="masked",route="GET /v1/{x}"} 1`,
		`jsonmask_gateway_requests_total{outcome="unmatched",route="(none)"} 1`,
		`jsonmask_gateway_bytes_out_total{route="GET /v1/{x}"} 8`,
		`jsonmask_gateway_mask_seconds_count{route="GET /v1/{x}"} 1`,
	} {
		if !bytes.Contains(metrics, []byte(want)) {
			t.Errorf("metrics lack %s", want)
		}
	}

	t.Run("ReloadBroken", func(t *testing.T) {
		writeConfig(`{"upstream": "` + upstream.URL + `", "routes": [{"match": "GET /v1/{x}", "mask_fil": "masks/id.json"}]}`)
		p.cmd.Process.Signal(syscall.SIGHUP)
		l := p.waitLog(t, "reload failed; the old config stays")
		if !strings.Contains(fmt.Sprint(l["error"]), `unknown key "mask_fil"`) {
			t.Errorf("reload error %v", l["error"])
		}
		if status, body := p.get(t, "/v1/items"); status != 200 || body != `{"id":7}` {
			t.Fatalf("after a bad reload: %d %q", status, body)
		}
	})
	t.Run("ReloadGood", func(t *testing.T) {
		// The admin listener and read_header_timeout change only on a
		// restart: named; the rest applies.
		writeConfig(`{"upstream": "` + upstream.URL + `", "limits": {"read_header_timeout": "3s", "drain_timeout": "10s"},
		  "routes": [{"match": "GET /v1/{x}", "mask": {"name": true}}]}`)
		p.cmd.Process.Signal(syscall.SIGHUP)
		p.waitLog(t, "reloaded")
		if w := p.waitLog(t, "reload: these settings change only on a restart"); w["keys"] != "admin, limits.read_header_timeout" {
			t.Errorf("warning %v", w)
		}
		if status, body := p.get(t, "/v1/items"); status != 200 || body != `{"name":"n"}` {
			t.Fatalf("after a good reload: %d %q", status, body)
		}
	})
	t.Run("Drain", func(t *testing.T) {
		type result struct {
			status int
			body   string
			err    error
		}
		slow := make(chan result, 1)
		go func() {
			resp, err := http.Get("http://" + p.addr + "/v1/slow")
			if err != nil {
				slow <- result{err: err}
				return
			}
			b, err := io.ReadAll(resp.Body)
			resp.Body.Close()
			slow <- result{resp.StatusCode, string(b), err}
		}()
		time.Sleep(200 * time.Millisecond) // the request is in flight
		p.cmd.Process.Signal(syscall.SIGTERM)
		p.waitLog(t, "draining")
		// SPEC G10: the health check says so from the first moment.
		if resp, err := http.Get("http://" + p.admin + "/healthz"); err != nil || resp.StatusCode != 503 {
			t.Errorf("healthz while draining: %v %v", resp, err)
		} else {
			resp.Body.Close()
		}
		if _, err := http.Get("http://" + p.addr + "/v1/items"); err == nil {
			t.Error("a new request was served while draining")
		}
		close(release)
		r := <-slow
		if r.err != nil || r.status != 200 || r.body != `{"name":"slow"}` {
			t.Fatalf("the request in flight: %d %q %v", r.status, r.body, r.err)
		}
		select {
		case err := <-p.done:
			p.done <- err
			if err != nil {
				t.Fatalf("exit: %v", err)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("serve did not exit after draining")
		}
	})
	for _, l := range p.log() {
		if strings.Contains(fmt.Sprint(l), serveCanary) {
			t.Errorf("the canary is in the log: %v", l)
		}
	}
}

// selfSigned writes a certificate for 127.0.0.1 and its key into dir.
func selfSigned(t *testing.T, dir string) (certFile, keyFile string, pool *x509.CertPool) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "127.0.0.1"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")}, KeyUsage: x509.KeyUsageDigitalSignature,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	kb, _ := x509.MarshalECPrivateKey(key)
	certFile, keyFile = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600)
	os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kb}), 0o600)
	cert, _ := x509.ParseCertificate(der)
	pool = x509.NewCertPool()
	pool.AddCert(cert)
	return certFile, keyFile, pool
}

// TestServeHTTP2: with tls_cert_file and tls_key_file serve speaks HTTP/2
// by ALPN, and with -h2c HTTP/2 without TLS; on both a masked body that
// fails after bytes were sent is aborted by a stream reset, so that no
// client takes it for complete (SPEC G5, G11).
func TestServeHTTP2(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "jsonmask")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	prefix := `{"id":7,"items":[` + strings.Repeat(`{"k":1,"v":"`+serveCanary+`"},`, 20000)
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if r.URL.Path == "/v1/broken" {
			io.WriteString(w, prefix)
			w.(http.Flusher).Flush()
			io.WriteString(w, `{"k":2,"v":"`+serveCanary+`",}]}`)
			return
		}
		fmt.Fprintf(w, `{"id":7,"secret":"%s"}`, serveCanary)
	}))
	defer upstream.Close()
	_, _, pool := selfSigned(t, dir)
	cfg := filepath.Join(dir, "config.json")
	os.WriteFile(cfg, []byte(`{"upstream": "`+upstream.URL+`", "tls_cert_file": "cert.pem", "tls_key_file": "key.pem",
	  "routes": [{"match": "GET /v1/{x}", "mask": {"id": true, "items": {"k": true}}}]}`), 0o644)
	tlsProc := startServe(t, bin, "-config", cfg, "-listen", "127.0.0.1:0")
	h2cProc := startServe(t, bin, "-upstream", upstream.URL, "-mask", `{"id": true, "items": {"k": true}}`, "-listen", "127.0.0.1:0", "-h2c")
	var h2c http.Protocols
	h2c.SetUnencryptedHTTP2(true)
	for _, c := range []struct {
		name, base string
		client     *http.Client
	}{
		{"TLS", "https://" + tlsProc.addr, &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}, ForceAttemptHTTP2: true}}},
		{"h2c", "http://" + h2cProc.addr, &http.Client{Transport: &http.Transport{Protocols: &h2c}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			resp, err := c.client.Get(c.base + "/v1/items")
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.ProtoMajor != 2 || string(b) != `{"id":7}` {
				t.Fatalf("%s %q", resp.Proto, b)
			}
			resp, err = c.client.Get(c.base + "/v1/broken")
			if err != nil {
				t.Fatal(err)
			}
			b, err = io.ReadAll(resp.Body)
			resp.Body.Close()
			if err == nil || !strings.Contains(err.Error(), "stream error") {
				t.Errorf("%s: read %d bytes, %v: want a stream reset", resp.Proto, len(b), err)
			}
			if strings.Contains(string(b), serveCanary) {
				t.Error("the canary reached the client")
			}
		})
	}
}

// TestMetricsObserver: the observer counts a request under its route and
// outcome whether the route's metrics were prepared (the config's routes)
// or not (a route of a config that a reload replaced), and under "(none)"
// when no route matched.
func TestMetricsObserver(t *testing.T) {
	m := newMetrics()
	m.prepare([]string{"GET /a"})
	obs := m.observer(reportlog.NewLines(io.Discard))
	for _, r := range []gateway.Report{
		{Route: "GET /a", Outcome: gateway.OutcomeMasked, BytesIn: 10, BytesOut: 4},
		{Route: "GET /a", Outcome: gateway.OutcomeMasked, BytesIn: 10, BytesOut: 4},
		{Route: "GET /old", Outcome: gateway.OutcomeAborted, BytesIn: 7},
		{Outcome: gateway.OutcomeUnmatched, BytesIn: 3, BytesOut: 3},
	} {
		obs(r)
	}
	for _, c := range []struct {
		got  prometheus.Collector
		want float64
	}{
		{m.requests.WithLabelValues("GET /a", "masked"), 2},
		{m.requests.WithLabelValues("GET /a", "aborted"), 0},
		{m.bytesIn.WithLabelValues("GET /a"), 20},
		{m.bytesOut.WithLabelValues("GET /a"), 8},
		{m.requests.WithLabelValues("GET /old", "aborted"), 1},
		{m.aborts.WithLabelValues("GET /old"), 1},
		{m.requests.WithLabelValues("(none)", "unmatched"), 1},
		{m.bytesOut.WithLabelValues("(none)"), 3},
	} {
		if got := testutil.ToFloat64(c.got); got != c.want {
			t.Errorf("%v: %v, want %v", c.got, got, c.want)
		}
	}
}
