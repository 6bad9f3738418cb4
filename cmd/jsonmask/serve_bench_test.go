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
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/jsonmask/jsonmask"
	"github.com/jsonmask/jsonmask/config"
	"github.com/jsonmask/jsonmask/corpus"
	"github.com/jsonmask/jsonmask/internal/reportlog"
)

// BenchmarkServeCost is the gateway's own cost per request (issue 26):
// the CPU time of a request through `jsonmask serve` (its real server,
// handler, metrics and JSON log line, written to /dev/null) minus that of
// the same request through a tuned httputil.ReverseProxy, against the CPU
// time of Mask.Copy on the same body alone. Everything runs in this
// process over loopback (4 clients at once, kept-alive connections, a real
// upstream that sends the body with its Content-Length), so the clients'
// and the upstream's CPU is the same on both sides and cancels in the
// difference. CPU time is the process's user + system time (getrusage),
// which a busy machine inflates less than wall time. Two baselines:
// base=plain is the tuned proxy of bench/cmd/gatewaywrk (idle connections
// for the concurrency, no decoding), as in round 2; base=pooled is the
// same with a pool of copy buffers (httputil.BufferPool), as serve has and
// as production proxies (Caddy) do, which is the fair one for the
// gateway's own cost. It reports, per request:
//
//	base-µs    the plain proxy's request
//	serve-µs   serve's request
//	copy-µs    Mask.Copy on the body alone
//	extra/copy (serve − base) / copy: the target is at most 1.2
//	own/copy   (serve − base − copy) / copy: what is not masking, against
//	           masking; the target is at most 0.2
//
// The three parts run in turn, rounds of 200, b.N times each. Run it with
// -benchtime 4000x or more, and -count for a spread: at 1 KB the
// difference is a few µs of about 150, within this shared machine's noise
// from run to run.
//
//	go test -run '^$' -bench BenchmarkServeCost -benchtime 4000x -count 5 ./cmd/jsonmask
func BenchmarkServeCost(b *testing.B) {
	m := jsonmask.MustCompile(corpus.ItemsMask)
	for _, size := range []int{1 << 10, 100 << 10, 1 << 20} {
		body := corpus.ItemsBody(size)
		p := startBenchProxies(b, body)
		for _, base := range []struct{ name, url string }{{"plain", p.plain}, {"pooled", p.pooled}} {
			b.Run("size="+humanBytes(size)+"/base="+base.name, func(b *testing.B) {
				// Warm both proxies' connections and pools.
				benchRequests(b, base.url, 64)
				benchRequests(b, p.serve, 64)
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
				// Rounds of each part in turn, so that the three see the
				// same machine when its load changes.
				var baseCPU, serveCPU, copyCPU float64
				for done := 0; done < b.N; {
					n := min(costRound, b.N-done)
					baseCPU += cpuTime(func() { benchRequests(b, base.url, n) })
					serveCPU += cpuTime(func() { benchRequests(b, p.serve, n) })
					copyCPU += cpuTime(func() { copies(n) })
					done += n
				}
				baseCPU, serveCPU, copyCPU = baseCPU/float64(b.N), serveCPU/float64(b.N), copyCPU/float64(b.N)
				b.StopTimer()
				b.ReportMetric(0, "ns/op")
				b.ReportMetric(baseCPU/1e3, "base-µs")
				b.ReportMetric(serveCPU/1e3, "serve-µs")
				b.ReportMetric(copyCPU/1e3, "copy-µs")
				b.ReportMetric((serveCPU-baseCPU)/copyCPU, "extra/copy")
				b.ReportMetric((serveCPU-baseCPU-copyCPU)/copyCPU, "own/copy")
			})
		}
	}
}

// BenchmarkServe drives one proxy at a time, for a CPU or allocation
// profile of serve's request path (-cpuprofile, -memprofile) beside the
// plain proxies': proxy=serve, proxy=plain or proxy=pooled, ns/op being
// the wall time of a request with 4 at once.
func BenchmarkServe(b *testing.B) {
	for _, size := range []int{1 << 10, 100 << 10, 1 << 20} {
		body := corpus.ItemsBody(size)
		b.Run("size="+humanBytes(size), func(b *testing.B) {
			ps := startBenchProxies(b, body)
			for _, p := range []struct {
				name string
				url  string
			}{{"plain", ps.plain}, {"pooled", ps.pooled}, {"serve", ps.serve}} {
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

// benchProxies are the URLs of an upstream and of the proxies in front of
// it.
type benchProxies struct {
	upstream, plain, pooled, serve string
}

// startBenchProxies starts an upstream that answers every request with
// body, the tuned plain reverse proxy to it, the same with a buffer pool,
// and `jsonmask serve -mask` to it.
func startBenchProxies(b *testing.B, body []byte) benchProxies {
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
	rewrite := func(pr *httputil.ProxyRequest) { pr.SetURL(u); pr.SetXForwarded() }
	plain := benchServer(b, &httputil.ReverseProxy{Rewrite: rewrite, Transport: t})
	pooled := benchServer(b, &httputil.ReverseProxy{Rewrite: rewrite, Transport: t, BufferPool: benchBuffers{}})

	// serve as deployed: its server, metrics and one JSON log line per
	// request (to /dev/null, a write as to a log file).
	devnull, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { devnull.Close() })
	logger := slog.New(slog.NewJSONHandler(devnull, nil))
	cfg := &config.File{Listen: "127.0.0.1:0", Upstream: up,
		Routes: []config.Route{{Match: "/", MaskConfig: config.MaskConfig{Mask: []byte(corpus.ItemsMask)}}}}
	mt := newMetrics()
	observe := mt.observer(reportlog.NewLines(devnull))
	h, err := build(cfg, observe)
	if err != nil {
		b.Fatal(err)
	}
	mt.prepare(routePatterns(cfg))
	svc, err := startServer(cfg, h, false, mt, observe, logger)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(svc.Close)
	return benchProxies{up, plain, pooled, "http://" + svc.addr + "/items"}
}

// benchBuffers is the pooled baseline's httputil.BufferPool.
type benchBuffers struct{}

var benchBufferPool = sync.Pool{New: func() any { b := make([]byte, 32<<10); return &b }}

func (benchBuffers) Get() []byte  { return *benchBufferPool.Get().(*[]byte) }
func (benchBuffers) Put(b []byte) { benchBufferPool.Put(&b) }

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
