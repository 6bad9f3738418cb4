// Command gatewayload measures what the gateway's benchmarks cannot: the
// time to the first byte of a large body sent slowly, streaming against
// buffering, and the peak memory of `jsonmask serve` with many large
// responses in flight. It talks only to 127.0.0.1.
//
//	go run ./cmd/gatewayload -ttfb
//	go run ./cmd/gatewayload -rss -bin /tmp/jsonmask -n 256 -size 67108864
//
// gateway.sh runs both and prints the figures that REPORT.md's gateway
// section holds.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jsonmask/jsonmask"
	"github.com/jsonmask/jsonmask/bench"
	"github.com/klauspost/compress/gzip"
)

var mask = `{"items":{"id":true,"name":true}}`

// gzipped: body sends gzip members (one per piece, which gzip readers
// join), so that coding costs nothing next to the gateway's work.
var gzipped bool

// member is data as one gzip member.
func member(data []byte) []byte {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(data)
	zw.Close()
	return buf.Bytes()
}

func main() {
	ttfb := flag.Bool("ttfb", false, "measure the time to first byte of a body sent slowly")
	rss := flag.Bool("rss", false, "measure the peak RSS of jsonmask serve")
	bin := flag.String("bin", "", "the jsonmask binary, for -rss")
	n := flag.Int("n", 256, "-rss: responses in flight")
	size := flag.Int64("size", 64<<20, "body size in bytes")
	gz := flag.Bool("gzip", false, "-rss: the upstream sends its bodies gzipped")
	flag.Parse()
	gzipped = *gz
	if *ttfb {
		if err := measureTTFB(*size); err != nil {
			fmt.Fprintln(os.Stderr, "gatewayload:", err)
			os.Exit(1)
		}
	}
	if *rss {
		if err := measureRSS(*bin, *n, *size); err != nil {
			fmt.Fprintln(os.Stderr, "gatewayload:", err)
			os.Exit(1)
		}
	}
}

// body writes a JSON body of about size bytes to w, 64 KiB at a time,
// calling between after each piece: {"items":[{"id":N,"name":"nN",
// "payload":"xxx..."}, ...]}, where the mask keeps id and name. The pieces
// are one block written again and again, so that making the body costs
// little next to masking it.
func body(w io.Writer, size int64, between func() bool) error {
	payload := strings.Repeat("x", 1000)
	var block bytes.Buffer
	for i := 0; block.Len() < 64<<10; i++ {
		fmt.Fprintf(&block, `{"id":%d,"name":"n%d","payload":"%s"},`, i, i, payload)
	}
	head, piece, tail := []byte(`{"items":[`), block.Bytes(), []byte(`{"id":-1}]}`)
	if gzipped {
		head, piece, tail = member(head), member(piece), member(tail)
	}
	if _, err := w.Write(head); err != nil {
		return err
	}
	for written := int64(0); written+int64(block.Len()) < size; written += int64(block.Len()) {
		if _, err := w.Write(piece); err != nil {
			return err
		}
		if between != nil && !between() {
			return nil
		}
	}
	_, err := w.Write(tail)
	return err
}

// measureTTFB sends a body slowly (64 KiB every 2 ms) through the
// streaming gateway and through the buffering design, and prints when the
// client got its first byte and its last.
func measureTTFB(size int64) error {
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		body(w, size, func() bool {
			w.(http.Flusher).Flush()
			time.Sleep(2 * time.Millisecond)
			return r.Context().Err() == nil
		})
	}))
	defer up.Close()
	u, _ := url.Parse(up.URL)
	m := jsonmask.MustCompile(mask)
	fmt.Printf("time to first byte, %d MiB body sent in 64 KiB pieces every 2 ms:\n", size>>20)
	for _, design := range []string{"jsonmask", "buffering"} {
		srv := httptest.NewServer(bench.NewGatewayProxy(design, u, m))
		start := time.Now()
		resp, err := http.Get(srv.URL + "/big")
		if err != nil {
			return err
		}
		var first time.Duration
		buf := make([]byte, 32<<10)
		var got int64
		for {
			k, err := resp.Body.Read(buf)
			if k > 0 && first == 0 {
				first = time.Since(start)
			}
			got += int64(k)
			if err == io.EOF {
				break
			}
			if err != nil {
				return err
			}
		}
		resp.Body.Close()
		fmt.Printf("  %-10s first byte %8.1f ms, last byte %8.1f ms, %d bytes out\n", design,
			float64(first.Microseconds())/1000, float64(time.Since(start).Microseconds())/1000, got)
		srv.Close()
	}
	return nil
}

// measureRSS runs `jsonmask serve` as its own process in front of an
// upstream that sends n bodies of size bytes at once, reads them all
// through it, and prints the server's peak RSS (VmHWM). In order: the
// upstream (a body per request, gzipped when asked); serve's config in a
// temporary directory; serve started, its address read from its log line;
// n requests at once, each body read to its end; then the peak RSS from
// /proc, read before serve is stopped.
func measureRSS(bin string, n int, size int64) error {
	if bin == "" {
		return fmt.Errorf("-rss needs -bin")
	}
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if gzipped {
			w.Header().Set("Content-Encoding", "gzip")
		}
		body(w, size, func() bool { return r.Context().Err() == nil })
	}))
	defer up.Close()
	dir, err := os.MkdirTemp("", "gatewayload")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	config := filepath.Join(dir, "config.json")
	cfg, _ := json.Marshal(map[string]any{
		"listen": "127.0.0.1:0", "upstream": up.URL,
		"limits": map[string]any{"max_body_bytes": size * 2},
		"routes": []map[string]any{{"match": "/", "mask": json.RawMessage(mask)}},
	})
	if err := os.WriteFile(config, cfg, 0o644); err != nil {
		return err
	}
	cmd := exec.Command(bin, "serve", "-config", config)
	stderr, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		return err
	}
	defer cmd.Process.Kill()
	addr := make(chan string, 1)
	var outcomes sync.Map
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			var l map[string]any
			if json.Unmarshal(sc.Bytes(), &l) != nil {
				continue
			}
			if l["msg"] == "listening" {
				addr <- l["addr"].(string)
			}
			if o, ok := l["outcome"].(string); ok {
				v, _ := outcomes.LoadOrStore(o, new(atomic.Int64))
				v.(*atomic.Int64).Add(1)
			}
		}
	}()
	var target string
	select {
	case a := <-addr:
		target = "http://" + a + "/big"
	case <-time.After(20 * time.Second):
		return fmt.Errorf("serve did not start")
	}
	// The client asks for gzip, as clients do: the gateway asks the
	// upstream for it in turn.
	client := &http.Client{Transport: &http.Transport{
		MaxIdleConnsPerHost: n, DisableCompression: true,
		DialContext: (&net.Dialer{Timeout: 10 * time.Second}).DialContext,
	}}
	start := time.Now()
	var wg sync.WaitGroup
	var in, fails atomic.Int64
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			req, _ := http.NewRequest("GET", target, nil)
			req.Header.Set("Accept-Encoding", "gzip")
			resp, err := client.Do(req)
			if err != nil {
				fails.Add(1)
				return
			}
			k, err := io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			in.Add(k)
			if err != nil || resp.StatusCode != 200 {
				fails.Add(1)
			}
		}()
	}
	wg.Wait()
	took := time.Since(start)
	hwm, err := vmHWM(cmd.Process.Pid)
	if err != nil {
		return err
	}
	coding := "identity"
	if gzipped {
		coding = "gzip"
	}
	fmt.Printf("peak RSS of jsonmask serve, %d responses of %d MiB (%s) in flight at once:\n", n, size>>20, coding)
	fmt.Printf("  VmHWM %d MiB; %d MiB (decoded) in from upstream, %d KiB out to clients, in %.1f s; %d failed\n",
		hwm>>20, int64(n)*size>>20, in.Load()>>10, took.Seconds(), fails.Load())
	time.Sleep(200 * time.Millisecond)
	outcomes.Range(func(k, v any) bool {
		fmt.Printf("  outcome %s: %d\n", k, v.(*atomic.Int64).Load())
		return true
	})
	return nil
}

// vmHWM reads a process's peak resident set size from /proc.
func vmHWM(pid int) (int64, error) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return kb << 10, err
		}
	}
	return 0, fmt.Errorf("no VmHWM in /proc/%d/status", pid)
}
