// Command ctxrss measures the peak memory of toolresult's variable route
// (SPEC C10: memory independent of the body's size): it makes a list of
// conversation items of the size asked as it is read, never holding it,
// runs it through a Processor into a DirStore in a temporary directory, and
// prints the process's peak resident set (VmHWM of /proc/self/status) with
// the route, sizes and throughput. Run it as its own process, from the bench
// directory:
//
//	go run ./cmd/ctxrss [-size BYTES] [-mask none|decision-fields] [-budget N] [-dir DIR] [-heapprofile FILE] [-impl toolresult|append]
//
// The figure includes the Go runtime, the tokenizers' vocabularies and the
// corpus the body is made from: everything the process holds.
//
// With -impl append it masks the same body with Append instead, in memory
// (without a mask: with one that keeps every member of the list), for
// comparison under callgrind, whose instruction counts, unlike seconds, do
// not depend on what else the machine runs: see ../../context.sh.
package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"strings"
	"time"

	"github.com/jsonmask/jsonmask"
	"github.com/jsonmask/jsonmask/bench"
	"github.com/jsonmask/jsonmask/toolresult"
)

func main() {
	size := flag.Int64("size", 1<<30, "the body's size in `bytes`")
	maskName := flag.String("mask", "none", "none, or decision-fields: the mask of the workload conversation-items/decision-fields")
	budget := flag.Int("budget", toolresult.DefaultBudget, "the token `budget`")
	dir := flag.String("dir", "", "the store's `directory` (default: a temporary one, removed at the end)")
	testdata := flag.String("testdata", "testdata", "the `directory` of conversation_items.json and workloads.json")
	heapProfile := flag.String("heapprofile", "", "write a heap profile to `file` when half of the body has been read")
	impl := flag.String("impl", "toolresult", "toolresult, or append: Append on the same body, in memory")
	flag.Parse()
	log.SetFlags(0)
	log.SetPrefix("ctxrss: ")

	items, err := bench.LoadItems(*testdata, "conversation_items.json")
	if err != nil {
		log.Fatal(err)
	}
	opts := []toolresult.Option{toolresult.WithBudget(*budget)}
	var m *jsonmask.Mask
	switch *maskName {
	case "none":
	case "decision-fields":
		if m, err = workloadMask(*testdata, "conversation-items/decision-fields"); err != nil {
			log.Fatal(err)
		}
		opts = append(opts, toolresult.WithMask(m))
	default:
		log.Fatalf("-mask: want none or decision-fields, got %q", *maskName)
	}
	switch *impl {
	case "toolresult":
	case "append":
		if m == nil {
			m = jsonmask.MustCompile(`{"object":true,"data":true,"has_more":true,"first_id":true,"last_id":true}`)
		}
		body := items.Bytes(*size)
		dst := make([]byte, 0, len(body)) // a server's output buffer, reused
		start := time.Now()
		out := runAppend(m, dst, body)
		elapsed := time.Since(start)
		fmt.Printf("body_bytes %d\nout_bytes %d\nseconds %.2f\nmb_per_s %.1f\n", len(body), out, elapsed.Seconds(), float64(len(body))/1e6/elapsed.Seconds())
		return
	default:
		log.Fatalf("-impl: want toolresult or append, got %q", *impl)
	}
	storeDir := *dir
	if storeDir == "" {
		if storeDir, err = os.MkdirTemp("", "ctxrss-"); err != nil {
			log.Fatal(err)
		}
		defer os.RemoveAll(storeDir)
	}
	st, err := toolresult.NewDirStore(storeDir)
	if err != nil {
		log.Fatal(err)
	}
	p, err := toolresult.New(append(opts, toolresult.WithStore(st))...)
	if err != nil {
		log.Fatal(err)
	}

	body := &countingReader{r: items.Reader(*size), half: *size / 2, profile: *heapProfile}
	start := time.Now()
	res, err := runProcess(p, body)
	elapsed := time.Since(start)
	if err != nil {
		log.Fatal(err)
	}
	if res.Variable != nil && *dir == "" {
		os.Remove(res.Variable.Path)
	}

	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	fmt.Printf("body_bytes %d\n", body.n)
	fmt.Printf("route %s\n", res.Route)
	if res.Variable != nil {
		fmt.Printf("variable_bytes %d\n", res.Variable.Bytes)
	}
	fmt.Printf("context_tokens %d\n", res.Tokens.Context)
	fmt.Printf("seconds %.2f\n", elapsed.Seconds())
	fmt.Printf("mb_per_s %.1f\n", float64(body.n)/1e6/elapsed.Seconds())
	fmt.Printf("gomemlimit %s\n", memLimit())
	fmt.Printf("go_heap_sys_mib %.1f\n", float64(ms.HeapSys)/(1<<20))
	fmt.Printf("go_sys_mib %.1f\n", float64(ms.Sys)/(1<<20))
	fmt.Printf("gc_cycles %d\n", ms.NumGC)
	for _, k := range []string{"VmHWM", "VmRSS"} {
		v, err := procStatus(k)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%s %s\n", k, v)
	}
}

// runProcess is Process, in a function of its own that callgrind can count
// the instructions of (--toggle-collect=main.runProcess).
//
//go:noinline
func runProcess(p *toolresult.Processor, body io.Reader) (*toolresult.Result, error) {
	return p.Process(context.Background(), body)
}

// runAppend masks body with m into dst and returns the output's length; for
// callgrind, as runProcess.
//
//go:noinline
func runAppend(m *jsonmask.Mask, dst, body []byte) int {
	out, err := m.Append(dst, body)
	if err != nil {
		log.Fatal(err)
	}
	return len(out)
}

// memLimit returns the runtime's memory limit, as GOMEMLIMIT set it.
func memLimit() string {
	l := debug.SetMemoryLimit(-1)
	if l == 1<<63-1 {
		return "off"
	}
	return fmt.Sprintf("%d MiB", l>>20)
}

// procStatus returns the value of key in /proc/self/status, such as "123 kB".
func procStatus(key string) (string, error) {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return "", err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), key+":"); ok {
			return strings.TrimSpace(v), nil
		}
	}
	return "", fmt.Errorf("no %s in /proc/self/status", key)
}

// workloadMask compiles the mask of the workload called name.
func workloadMask(dir, name string) (*jsonmask.Mask, error) {
	ws, err := bench.LoadWorkloads(dir)
	if err != nil {
		return nil, err
	}
	for _, w := range ws {
		if w.Name == name {
			return jsonmask.Compile(w.Mask)
		}
	}
	return nil, fmt.Errorf("no workload %q", name)
}

// countingReader counts the bytes read, and writes a heap profile when half
// of them are.
type countingReader struct {
	r       io.Reader
	n       int64
	half    int64
	profile string
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	before := c.n
	c.n += int64(n)
	if c.profile != "" && before < c.half && c.n >= c.half {
		f, err := os.Create(c.profile)
		if err != nil {
			log.Fatal(err)
		}
		runtime.GC() // the profile shows live memory as of the last GC
		if err := pprof.WriteHeapProfile(f); err != nil {
			log.Fatal(err)
		}
		f.Close()
	}
	return n, err
}
