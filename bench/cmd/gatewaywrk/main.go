// Command gatewaywrk measures `jsonmask serve` against a tuned plain
// httputil.ReverseProxy with wrk (issue 26, item 13), twice: as round 2's
// baseline (plain) and the same with a pool of copy buffers (pooled), as
// serve has, the fair baseline for the gateway's own cost; the same
// upstream (in this process), bodies of 1 KB, 100 KB and 1 MB, identity
// and gzip, 16 connections, rounds interleaved so that all proxies see the
// same machine. For each it prints requests per second and the proxy process's
// CPU time per request (from /proc), and, for the same bodies, the CPU
// time of Mask.Copy alone, so that the gateway's own cost (its CPU per
// request minus the plain proxy's, minus masking) can be read beside it.
//
//	go run ./cmd/gatewaywrk -bin /path/to/jsonmask [-rounds 3] [-duration 5s]
//	go run ./cmd/gatewaywrk -caddy /path/to/caddy   # Caddy + jsonmask against Caddy
//
// With -caddy it compares a Caddy built with contrib/caddy, with the
// jsonmask handler before reverse_proxy, against the same Caddy without it.
// With -plain ADDR -upstream URL [-pool] it is the plain proxy itself.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/jsonmask/jsonmask"
	"github.com/jsonmask/jsonmask/corpus"
	"github.com/klauspost/compress/gzip"
)

func main() {
	bin := flag.String("bin", "", "the jsonmask binary")
	caddyBin := flag.String("caddy", "", "compare Caddy + jsonmask with Caddy alone, with this Caddy binary")
	rounds := flag.Int("rounds", 3, "rounds, each proxy once per round")
	dur := flag.Duration("duration", 5*time.Second, "wrk's run per proxy and round")
	plain := flag.String("plain", "", "serve the plain proxy on this address")
	upstream := flag.String("upstream", "", "with -plain: the upstream")
	pool := flag.Bool("pool", false, "with -plain: take the copy buffers from a pool")
	flag.Parse()
	if *plain != "" {
		servePlain(*plain, *upstream, *pool)
		return
	}
	if err := run(*bin, *caddyBin, *rounds, *dur); err != nil {
		fmt.Fprintln(os.Stderr, "gatewaywrk:", err)
		os.Exit(1)
	}
}

// servePlain is the baseline: httputil.ReverseProxy tuned as a production
// proxy is (idle connections for the concurrency, no decoding); with pool,
// also with its copy buffers from a pool (httputil.BufferPool), as Caddy
// and `jsonmask serve` have.
func servePlain(addr, upstream string, pool bool) {
	u, _ := url.Parse(upstream)
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxIdleConns, t.MaxIdleConnsPerHost, t.DisableCompression = 256, 256, true
	rp := &httputil.ReverseProxy{Rewrite: func(pr *httputil.ProxyRequest) { pr.SetURL(u); pr.SetXForwarded() }, Transport: t}
	if pool {
		rp.BufferPool = buffers{}
	}
	http.ListenAndServe(addr, rp)
}

// buffers is the pooled baseline's httputil.BufferPool.
type buffers struct{}

var bufferPool = sync.Pool{New: func() any { b := make([]byte, 32<<10); return &b }}

func (buffers) Get() []byte  { return *bufferPool.Get().(*[]byte) }
func (buffers) Put(b []byte) { bufferPool.Put(&b) }

func gzipped(p []byte) []byte {
	var b bytes.Buffer
	w, _ := gzip.NewWriterLevel(&b, gzip.DefaultCompression)
	w.Write(p)
	w.Close()
	return b.Bytes()
}

type proxy struct {
	name string
	addr string
	cmd  *exec.Cmd
}

func freeAddr() string {
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	defer ln.Close()
	return ln.Addr().String()
}

func waitUp(addr string) error {
	for i := 0; i < 200; i++ {
		if c, err := net.Dial("tcp", addr); err == nil {
			c.Close()
			return nil
		}
		time.Sleep(25 * time.Millisecond)
	}
	return fmt.Errorf("%s did not come up", addr)
}

// cpu returns the user and system CPU time of process pid so far.
func cpu(pid int) time.Duration {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+2:]))
	ut, _ := strconv.ParseInt(f[11], 10, 64)
	st, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(ut+st) * time.Second / 100 // USER_HZ
}

var reqs = regexp.MustCompile(`(\d+) requests in`)

// load runs wrk against url and returns the requests done and the CPU the
// proxy used meanwhile.
func load(p *proxy, path string, gz bool, dur time.Duration) (int64, time.Duration, error) {
	args := []string{"-t2", "-c16", "-d" + dur.String(), "--latency"}
	if gz {
		args = append(args, "-H", "Accept-Encoding: gzip")
	}
	args = append(args, "http://"+p.addr+path)
	before := cpu(p.cmd.Process.Pid)
	out, err := exec.Command("wrk", args...).CombinedOutput()
	used := cpu(p.cmd.Process.Pid) - before
	if err != nil {
		return 0, 0, fmt.Errorf("wrk: %v: %s", err, out)
	}
	m := reqs.FindSubmatch(out)
	if m == nil {
		return 0, 0, fmt.Errorf("wrk said %s", out)
	}
	if bytes.Contains(out, []byte("Non-2xx")) {
		return 0, 0, fmt.Errorf("wrk saw errors: %s", out)
	}
	n, _ := strconv.ParseInt(string(m[1]), 10, 64)
	return n, used, nil
}

// caddyfile is the config of a Caddy on addr to upstream, with the
// jsonmask handler in front of reverse_proxy when masked.
func caddyfile(addr, upstream string, masked bool) string {
	h := ""
	if masked {
		h = "\tjsonmask {\n\t\tmask `" + corpus.ItemsMask + "`\n\t}\n"
	}
	return "{\n\tadmin off\n\tauto_https off\n\tpersist_config off\n}\nhttp://" + addr + " {\n" + h +
		"\treverse_proxy " + upstream + "\n}\n"
}

// startCaddy starts a Caddy with the caddyfile.
func startCaddy(bin, name, upAddr string, masked bool) (*proxy, error) {
	p := &proxy{name: name, addr: freeAddr()}
	dir, err := os.MkdirTemp("", "gatewaywrk")
	if err != nil {
		return nil, err
	}
	cf := dir + "/Caddyfile"
	if err := os.WriteFile(cf, []byte(caddyfile(p.addr, upAddr, masked)), 0o644); err != nil {
		return nil, err
	}
	p.cmd = exec.Command(bin, "run", "--config", cf, "--adapter", "caddyfile")
	p.cmd.Env = append(os.Environ(), "HOME="+dir, "XDG_DATA_HOME="+dir, "XDG_CONFIG_HOME="+dir)
	return p, nil
}

func run(bin, caddyBin string, rounds int, dur time.Duration) error {
	m := jsonmask.MustCompile(corpus.ItemsMask)
	sizes := []int{1 << 10, 100 << 10, 1 << 20}
	bodies := map[string][]byte{}
	for _, s := range sizes {
		b := corpus.ItemsBody(s)
		bodies[fmt.Sprintf("/%d", s)] = b
		bodies[fmt.Sprintf("/%d.gz", s)] = gzipped(b)
	}
	up := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		gz := strings.Contains(r.Header.Get("Accept-Encoding"), "gzip")
		b := bodies[r.URL.Path]
		if gz {
			b = bodies[r.URL.Path+".gz"]
			w.Header().Set("Content-Encoding", "gzip")
		}
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Length", strconv.Itoa(len(b)))
		w.Write(b)
	})}
	upAddr := freeAddr()
	ln, err := net.Listen("tcp", upAddr)
	if err != nil {
		return err
	}
	go up.Serve(ln)
	self, _ := os.Executable()
	// proxies are the baselines, then the masking proxy, last.
	var proxies []*proxy
	if caddyBin != "" {
		base, err := startCaddy(caddyBin, "caddy", upAddr, false)
		if err != nil {
			return err
		}
		masked, err := startCaddy(caddyBin, "caddy+jm", upAddr, true)
		if err != nil {
			return err
		}
		proxies = []*proxy{base, masked}
	} else {
		plain := &proxy{name: "plain", addr: freeAddr()}
		plain.cmd = exec.Command(self, "-plain", plain.addr, "-upstream", "http://"+upAddr)
		pooled := &proxy{name: "pooled", addr: freeAddr()}
		pooled.cmd = exec.Command(self, "-plain", pooled.addr, "-upstream", "http://"+upAddr, "-pool")
		serve := &proxy{name: "serve", addr: freeAddr()}
		serve.cmd = exec.Command(bin, "serve", "-listen", serve.addr, "-upstream", "http://"+upAddr, "-mask", corpus.ItemsMask)
		serve.cmd.Stderr = io.Discard
		proxies = []*proxy{plain, pooled, serve}
	}
	for _, p := range proxies {
		if err := p.cmd.Start(); err != nil {
			return err
		}
		defer p.cmd.Process.Kill()
		if err := waitUp(p.addr); err != nil {
			return err
		}
	}
	cpuModel := "unknown CPU"
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		if m := regexp.MustCompile(`model name\s*:\s*(.*)`).FindSubmatch(b); m != nil {
			cpuModel = string(m[1])
		}
	}
	last := len(proxies) - 1
	base := proxies[last-1] // the fairest baseline: pooled, or Caddy
	fmt.Printf("# %s; wrk -t2 -c16 -d%s, %d interleaved rounds; CPU is the proxy process's user+system time per request\n", cpuModel, dur, rounds)
	fmt.Printf("# ratio: %s req/s over %s req/s; extra: %s CPU/r minus %s CPU/r\n", proxies[last].name, base.name, proxies[last].name, base.name)
	fmt.Printf("%-8s %-8s", "body", "coding")
	for _, p := range proxies {
		fmt.Printf(" %12s", p.name+" req/s")
	}
	fmt.Printf(" %8s", "ratio")
	for _, p := range proxies {
		fmt.Printf(" %12s", p.name+" CPU/r")
	}
	fmt.Printf(" %12s %12s %10s\n", "extra CPU/r", "Copy CPU", "Copy MB/s")
	for _, size := range sizes {
		path := fmt.Sprintf("/%d", size)
		copyNs := copyCost(m, bodies[path])
		for _, gz := range []bool{false, true} {
			n, c, secs := make([]int64, len(proxies)), make([]int64, len(proxies)), make([]float64, len(proxies))
			for r := 0; r < rounds; r++ {
				for i, p := range proxies {
					k, used, err := load(p, path, gz, dur)
					if err != nil {
						return fmt.Errorf("%s %s: %w", p.name, path, err)
					}
					n[i] += k
					c[i] += int64(used)
					secs[i] += dur.Seconds()
				}
			}
			coding := "identity"
			if gz {
				coding = "gzip"
			}
			rate := func(i int) float64 { return float64(n[i]) / secs[i] }
			per := func(i int) float64 { return float64(c[i]) / float64(n[i]) / 1e3 } // µs
			fmt.Printf("%-8s %-8s", humanSize(size), coding)
			for i := range proxies {
				fmt.Printf(" %12.0f", rate(i))
			}
			fmt.Printf(" %8.2f", rate(last)/rate(last-1))
			for i := range proxies {
				fmt.Printf(" %10.1fµs", per(i))
			}
			fmt.Printf(" %10.1fµs %10.1fµs %10.0f\n", per(last)-per(last-1), copyNs/1e3, float64(len(bodies[path]))/copyNs*1e3)
		}
	}
	return nil
}

// copyCost is the CPU time, in ns, of Mask.Copy on body alone: this
// process's user and system time (the idle upstream's included, which is
// nothing) over a second of copies, so that a busy machine does not
// inflate it as it does wall time.
func copyCost(m *jsonmask.Mask, body []byte) float64 {
	rd := bytes.NewReader(body)
	var before, after syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &before)
	start, n := time.Now(), 0
	for ; n < 10 || time.Since(start) < time.Second; n++ {
		rd.Reset(body)
		if _, err := m.Copy(io.Discard, rd); err != nil {
			panic(err)
		}
	}
	syscall.Getrusage(syscall.RUSAGE_SELF, &after)
	used := time.Duration(after.Utime.Nano()+after.Stime.Nano()-before.Utime.Nano()-before.Stime.Nano()) * time.Nanosecond
	return float64(used.Nanoseconds()) / float64(n)
}

func humanSize(n int) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%dMB", n>>20)
	case n >= 1<<10:
		return fmt.Sprintf("%dKB", n>>10)
	}
	return strconv.Itoa(n)
}
