package main

import (
	"bytes"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/jsonmask/jsonmask"
	"github.com/jsonmask/jsonmask/config"
)

// benchMask keeps about a third of benchBody's bytes, as bench/cmd/gatewaywrk's.
const benchMask = `{"id":true,"items":{"id":true,"name":true}}`

// benchBody is an object of about size bytes, the body of
// bench/cmd/gatewaywrk: {"id":1,"items":[{"id","name","email","payload",
// "tags"}, ...]}.
func benchBody(size int) []byte {
	var b bytes.Buffer
	b.WriteString(`{"id":1,"items":[`)
	for i := 0; b.Len() < size-120; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"id":%d,"name":"n%d","email":"user%d@example.com","payload":"%s","tags":["a","b"]}`, i, i, i, strings.Repeat("x", 40))
	}
	b.WriteString(`]}`)
	return b.Bytes()
}

// BenchmarkServeCost is the gateway's own cost per request (issue 26):
// the CPU time of a request through `jsonmask serve` (its real server,
// handler, metrics and JSON log line, written to /dev/null) minus that of
// the same request through a tuned httputil.ReverseProxy, against the CPU
// time of Mask.Copy on the same body alone. Everything runs in this
// process over loopback (4 clients at once, kept-alive connections, a real
// upstream that sends the body with its Content-Length), so the clients'
// and the upstream's CPU is the same on both sides and cancels in the
// difference. CPU time is the process's user + system time (getrusage),
// which a busy machine inflates less than wall time. It reports, per
// request:
//
//	plain-µs   the plain proxy's request
//	serve-µs   serve's request
//	copy-µs    Mask.Copy on the body alone
//	extra/copy (serve − plain) / copy: the target is at most 1.2
//	own/copy   (serve − plain − copy) / copy: what is not masking, against
//	           masking; the target is at most 0.2
//
// The three parts run in turn, rounds of 200, b.N times each. Run it with
// -benchtime 2000x or more (-count for a spread):
//
//	go test -run '^$' -bench BenchmarkServeCost -benchtime 2000x ./cmd/jsonmask
func BenchmarkServeCost(b *testing.B) {
	m := jsonmask.MustCompile(benchMask)
	for _, size := range []int{1 << 10, 100 << 10, 1 << 20} {
		body := benchBody(size)
		b.Run("size="+humanBytes(size), func(b *testing.B) {
			_, plain, serve := startBenchProxies(b, body)
			// Warm both proxies' connections and pools.
			benchRequests(b, plain, 64)
			benchRequests(b, serve, 64)
			rd := bytes.NewReader(body)
			copies := func(n int) {
				for range n {
					rd.Reset(body)
					if _, err := m.Copy(io.Discard, rd); err != nil {
						b.Fatal(err)
					}
				}
			}
			b.ResetTimer()
			// Rounds of each part in turn, so that the three see the same
			// machine when its load changes.
			var plainCPU, serveCPU, copyCPU float64
			for done := 0; done < b.N; {
				n := min(costRound, b.N-done)
				plainCPU += cpuTime(func() { benchRequests(b, plain, n) })
				serveCPU += cpuTime(func() { benchRequests(b, serve, n) })
				copyCPU += cpuTime(func() { copies(n) })
				done += n
			}
			plainCPU, serveCPU, copyCPU = plainCPU/float64(b.N), serveCPU/float64(b.N), copyCPU/float64(b.N)
			b.StopTimer()
			b.ReportMetric(0, "ns/op")
			b.ReportMetric(plainCPU/1e3, "plain-µs")
			b.ReportMetric(serveCPU/1e3, "serve-µs")
			b.ReportMetric(copyCPU/1e3, "copy-µs")
			b.ReportMetric((serveCPU-plainCPU)/copyCPU, "extra/copy")
			b.ReportMetric((serveCPU-plainCPU-copyCPU)/copyCPU, "own/copy")
		})
	}
}

// BenchmarkServe drives one proxy at a time, for a CPU or allocation
// profile of serve's request path (-cpuprofile, -memprofile) beside the
// plain proxy's: proxy=serve or proxy=plain, ns/op being the wall time of
// a request with 4 at once.
func BenchmarkServe(b *testing.B) {
	for _, size := range []int{1 << 10, 100 << 10, 1 << 20} {
		body := benchBody(size)
		b.Run("size="+humanBytes(size), func(b *testing.B) {
			_, plain, serve := startBenchProxies(b, body)
			for _, p := range []struct {
				name string
				url  string
			}{{"plain", plain}, {"serve", serve}} {
				b.Run("proxy="+p.name, func(b *testing.B) {
					benchRequests(b, p.url, 64)
					b.SetBytes(int64(len(body)))
					b.ReportAllocs()
					b.ResetTimer()
					benchRequests(b, p.url, b.N)
				})
			}
		})
	}
}

// startBenchProxies starts an upstream that answers every request with
// body, a tuned plain reverse proxy to it and `jsonmask serve -mask` to it,
// and returns the URL of each.
func startBenchProxies(b *testing.B, body []byte) (upstream, plain, serve string) {
	b.Helper()
	up := benchServer(b, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		w.Write(body)
	}))
	u, _ := url.Parse(up)
	// The baseline: httputil.ReverseProxy tuned as production proxies are
	// (idle connections for the concurrency, no decoding), as
	// bench/cmd/gatewaywrk's.
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxIdleConns, t.MaxIdleConnsPerHost, t.DisableCompression = 256, 256, true
	b.Cleanup(t.CloseIdleConnections)
	plain = benchServer(b, &httputil.ReverseProxy{Rewrite: func(pr *httputil.ProxyRequest) { pr.SetURL(u); pr.SetXForwarded() }, Transport: t})

	// serve as deployed: its server, metrics and one JSON log line per
	// request (to /dev/null, a write as to a log file).
	devnull, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { devnull.Close() })
	logger := slog.New(slog.NewJSONHandler(devnull, nil))
	cfg := &config.File{Listen: "127.0.0.1:0", Upstream: up,
		Routes: []config.Route{{Match: "/", MaskConfig: config.MaskConfig{Mask: []byte(benchMask)}}}}
	mt := newMetrics()
	h, err := build(cfg, mt.observer(logger))
	if err != nil {
		b.Fatal(err)
	}
	mt.prepare(routePatterns(cfg))
	svc, err := startServer(cfg, h, false, mt, logger)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(svc.Close)
	return up, plain, "http://" + svc.addr + "/items"
}

// benchServer serves h on a loopback port until the benchmark ends.
func benchServer(b *testing.B, h http.Handler) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln)
	b.Cleanup(func() { srv.Close() })
	return "http://" + ln.Addr().String() + "/items"
}

var benchClient = &http.Client{Transport: &http.Transport{
	MaxIdleConns: 64, MaxIdleConnsPerHost: 64, DisableCompression: true,
}}

// benchRequests makes n GET requests to url, 4 at once, and reads each
// response whole.
func benchRequests(b *testing.B, url string, n int) {
	const clients = 4
	var wg sync.WaitGroup
	var mu sync.Mutex
	var first error
	for c := range clients {
		wg.Go(func() {
			for i := c; i < n; i += clients {
				if err := benchGet(url); err != nil {
					mu.Lock()
					first = err
					mu.Unlock()
					return
				}
			}
		})
	}
	wg.Wait()
	if first != nil {
		b.Fatal(first)
	}
}

func benchGet(url string) error {
	resp, err := benchClient.Get(url)
	if err != nil {
		return err
	}
	_, err = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if err == nil && resp.StatusCode != http.StatusOK {
		err = fmt.Errorf("status %d", resp.StatusCode)
	}
	return err
}

// costRound is how many requests (or copies) a round of
// BenchmarkServeCost makes through each proxy in turn.
const costRound = 200

// cpuTime runs f and returns this process's CPU time (user + system)
// while it ran, in ns.
func cpuTime(f func()) float64 {
	var before, after syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &before)
	f()
	syscall.Getrusage(syscall.RUSAGE_SELF, &after)
	return float64(after.Utime.Nano() + after.Stime.Nano() - before.Utime.Nano() - before.Stime.Nano())
}

func humanBytes(n int) string {
	if n >= 1<<20 {
		return strconv.Itoa(n>>20) + "MB"
	}
	return strconv.Itoa(n>>10) + "KB"
}
