package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	corev3 "github.com/envoyproxy/go-control-plane/envoy/config/core/v3"
	procmode "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/http/ext_proc/v3"
	extprocv3 "github.com/envoyproxy/go-control-plane/envoy/service/ext_proc/v3"
	"go.uber.org/goleak"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

const canary = "CANARY-77a1"

// logLines collects the command's JSON log lines as they come.
type logLines struct {
	mu    sync.Mutex
	lines []map[string]any
	added chan struct{}
}

func newLog() (*logLines, io.WriteCloser) {
	l := &logLines{added: make(chan struct{}, 100)}
	r, w := io.Pipe()
	go func() {
		sc := bufio.NewScanner(r)
		for sc.Scan() {
			var m map[string]any
			if json.Unmarshal(sc.Bytes(), &m) == nil {
				l.mu.Lock()
				l.lines = append(l.lines, m)
				l.mu.Unlock()
				l.added <- struct{}{}
			}
		}
	}()
	return l, w
}

// wait returns the first line, after those seen, whose msg is msg.
func (l *logLines) wait(t *testing.T, msg string, after *int) map[string]any {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for {
		l.mu.Lock()
		for ; *after < len(l.lines); *after++ {
			if m := l.lines[*after]; m["msg"] == msg {
				*after++
				l.mu.Unlock()
				return m
			}
		}
		l.mu.Unlock()
		select {
		case <-l.added:
		case <-deadline:
			t.Fatalf("no %q log line", msg)
		}
	}
}

func writeFile(t *testing.T, dir, name, data string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestServe: the command serves ext_proc and gRPC health on its port,
// masks a route's responses with a mask file relative to the config, logs
// one line per stream, reloads its config on request (a bad one is logged
// and the old one kept), and drains when its context ends.
func TestServe(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "masks/items.json", `{"id":true}`)
	cfg := writeFile(t, dir, "extproc.json", `{"routes": [{"match": "GET /v1/items", "mask_file": "masks/items.json"}]}`)
	logs, logw := newLog()
	ctx, cancel := context.WithCancel(context.Background())
	reloads := make(chan struct{})
	exit := make(chan int, 1)
	go func() {
		exit <- run(ctx, []string{"-config", cfg, "-listen", "127.0.0.1:0"}, io.Discard, logw, reloads)
		logw.Close()
	}()
	seen := 0
	addr, _ := logs.wait(t, "listening", &seen)["addr"].(string)

	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	hc, err := healthpb.NewHealthClient(conn).Check(context.Background(), &healthpb.HealthCheckRequest{})
	if err != nil || hc.GetStatus() != healthpb.HealthCheckResponse_SERVING {
		t.Fatalf("health: %v, %v", hc, err)
	}
	client := extprocv3.NewExternalProcessorClient(conn)
	body := `{"id":1,"name":"kept by the second mask","x":"` + canary + `"}`
	if got := exchange(t, client, body); got != `{"id":1}` {
		t.Errorf("masked body %q", got)
	}
	line := logs.wait(t, "stream", &seen)
	if line["route"] != "GET /v1/items" || line["outcome"] != "masked" || line["status"] != 200.0 {
		t.Errorf("log line %v", line)
	}

	writeFile(t, dir, "extproc.json", `{"routes": [{"match": "GET /v1/items", "mask": {"id": true, "name": true}}]}`)
	reloads <- struct{}{}
	logs.wait(t, "reloaded", &seen)
	if got := exchange(t, client, body); got != `{"id":1,"name":"kept by the second mask"}` {
		t.Errorf("masked body after the reload %q", got)
	}
	writeFile(t, dir, "extproc.json", `{"routes": [{"match": "GET /v1/items", "mask": {"id": false}}]}`)
	reloads <- struct{}{}
	if line := logs.wait(t, "reload failed; the old config stays", &seen); !strings.Contains(line["error"].(string), `routes[0] ("GET /v1/items")`) {
		t.Errorf("reload error %v", line)
	}
	if got := exchange(t, client, body); got != `{"id":1,"name":"kept by the second mask"}` {
		t.Errorf("masked body after a bad reload %q", got)
	}

	cancel()
	select {
	case code := <-exit:
		if code != 0 {
			t.Errorf("exit %d", code)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the command did not stop")
	}
	logs.wait(t, "stopped", &seen)
}

// exchange sends one response through the server as Envoy does in
// FULL_DUPLEX_STREAMED mode, and returns the body that comes back.
func exchange(t *testing.T, client extprocv3.ExternalProcessorClient, body string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	s, err := client.Process(ctx)
	if err != nil {
		t.Fatal(err)
	}
	hm := func(kv ...string) *corev3.HeaderMap {
		m := &corev3.HeaderMap{}
		for i := 0; i < len(kv); i += 2 {
			m.Headers = append(m.Headers, &corev3.HeaderValue{Key: kv[i], RawValue: []byte(kv[i+1])})
		}
		return m
	}
	for _, r := range []*extprocv3.ProcessingRequest{
		{ProtocolConfig: &extprocv3.ProtocolConfiguration{ResponseBodyMode: procmode.ProcessingMode_FULL_DUPLEX_STREAMED},
			Request: &extprocv3.ProcessingRequest_RequestHeaders{RequestHeaders: &extprocv3.HttpHeaders{
				Headers: hm(":method", "GET", ":path", "/v1/items", ":authority", "a"), EndOfStream: true}}},
		{Request: &extprocv3.ProcessingRequest_ResponseHeaders{ResponseHeaders: &extprocv3.HttpHeaders{
			Headers: hm(":status", "200", "content-type", "application/json")}}},
		{Request: &extprocv3.ProcessingRequest_ResponseBody{ResponseBody: &extprocv3.HttpBody{Body: []byte(body), EndOfStream: true}}},
	} {
		if err := s.Send(r); err != nil {
			t.Fatal(err)
		}
	}
	var out []byte
	for {
		a, err := s.Recv()
		if err != nil {
			t.Fatal(err)
		}
		if sr := a.GetResponseBody().GetResponse().GetBodyMutation().GetStreamedResponse(); sr != nil {
			out = append(out, sr.GetBody()...)
			if sr.GetEndOfStream() {
				break
			}
		}
	}
	s.CloseSend()
	if _, err := s.Recv(); err != io.EOF {
		t.Fatalf("stream ended with %v", err)
	}
	return string(out)
}

// TestConfigErrors: a config that cannot be served is a usage error (exit
// 2) whose one line says what and where, before anything listens.
func TestConfigErrors(t *testing.T) {
	dir := t.TempDir()
	cases := []struct{ name, config, want string }{
		{"ProxyKey", `{"routes": [], "upstream": "http://x"}`, `upstream: a key of a proxy`},
		{"NoRoutes", `{"routes": []}`, `routes: none given`},
		{"KeyTwice", `{"routes": [{"match": "/v1/", "mask": {"id": true}, "mask": {}}]}`, `routes[0]: key "mask" given twice`},
		{"KeyCase", `{"routes": [{"match": "/v1/", "mask": {"id": true}, "Strict": false}]}`, `routes[0]: key "Strict" is "strict" in another case`},
		{"Typo", `{"routes": [{"match": "/v1/", "mask": {"id": true}, "stricct": true}]}`, `unknown key "stricct"`},
		{"Syntax", `{"routes": [}`, "invalid JSON at offset 12"},
		{"Truncated", `{"routes": [`, "the config ends early"},
		{"Type", `{"routes": {}}`, `key "routes" must be`},
		{"NoMask", `{"routes": [{"match": "/v1/"}]}`, `routes[0] ("/v1/"): no mask`},
		{"BadMask", `{"routes": [{"match": "/v1/", "mask": {"a": 1}}]}`, `routes[0] ("/v1/"): mask member "/a" must be true or an object`},
		{"NoMaskFile", `{"routes": [{"match": "/v1/", "mask_file": "nope.json"}]}`, "nope.json: no such file"},
		{"BadPattern", `{"routes": [{"match": "GET v1", "mask": {}}]}`, "route 0"},
		{"Conflict", `{"routes": [{"match": "/a/{x}/b", "mask": {}}, {"match": "/a/b/{x}", "mask": {}}]}`, "route 1"},
		{"Duration", `{"limits": {"drain_timeout": 30}, "routes": []}`, "a duration is a string"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := writeFile(t, dir, c.name+".json", c.config)
			var stderr strings.Builder
			code := run(context.Background(), []string{"-config", p, "-listen", "127.0.0.1:0"}, io.Discard, &stderr, nil)
			if code != 2 || !strings.Contains(stderr.String(), c.want) || strings.Count(stderr.String(), "\n") != 2 {
				t.Errorf("exit %d, stderr %q; want 2 and %q", code, stderr.String(), c.want)
			}
			// One name at the start of the line, said once.
			line, _, _ := strings.Cut(stderr.String(), "\n")
			if n := strings.Count(line, "jsonmask: ") + strings.Count(line, "jsonmask-extproc: "); n != 1 ||
				!strings.HasPrefix(line, "jsonmask: ") && !strings.HasPrefix(line, "jsonmask-extproc: ") {
				t.Errorf("line %q names the program %d times, want once at its start", line, n)
			}
		})
	}
	var stdout, stderr strings.Builder
	if code := run(context.Background(), []string{"-h"}, &stdout, &stderr, nil); code != 0 || !strings.Contains(stdout.String(), "usage: jsonmask-extproc") {
		t.Errorf("-h: exit %d, %q", code, stdout.String())
	}
	if code := run(context.Background(), nil, &stdout, &stderr, nil); code != 2 {
		t.Errorf("no -config: exit %d", code)
	}
}
