// Command mcplatency measures the latency that jsonmask mcp adds to a
// tools/call: a go-sdk client calls a go-sdk server's tool, whose result is
// a JSON document of a given size (as structuredContent and as text, as the
// go-sdk's typed tools send it), directly and through jsonmask mcp, with a
// mask on the tool and the default budget of 7000 tokens. The two sessions
// run side by side and their calls alternate, so that both see the same
// noise; the report gives the median and the 99th percentile of each, and
// their differences.
//
// Usage, from the bench directory:
//
//	go run ./cmd/mcplatency [-n 1000] [-sizes 10000,5000000] [-config JSON] [-jsonmask PATH]
//
// -config '{"budget": 0}' measures the relay alone: no mask, no budget.
// Without -jsonmask it builds ../cmd/jsonmask into a temporary directory.
// The same binary, run with -serve, is the server. Not part of CI.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// defaultConfig masks the tool: it keeps each item's id and status, and
// drops its note; the budget is the default, 7000 tokens.
const defaultConfig = `{"tools": {"sized": {"response_mask": {"items": {"id": true, "status": true}, "count": true}}}}`

func main() {
	serve := flag.Bool("serve", false, "be the MCP server")
	n := flag.Int("n", 1000, "calls per size and path")
	sizes := flag.String("sizes", "10000,5000000", "result sizes in bytes, comma-separated")
	bin := flag.String("jsonmask", "", "the jsonmask binary (default: built from ../cmd/jsonmask)")
	warm := flag.Int("warmup", 20, "calls per size and path before measuring")
	config := flag.String("config", defaultConfig, "the proxy's configuration, without its store")
	flag.Parse()
	log.SetFlags(0)
	log.SetPrefix("mcplatency: ")
	if *serve {
		if err := runServer(); err != nil {
			log.Fatal(err)
		}
		return
	}
	self, err := os.Executable()
	if err != nil {
		log.Fatal(err)
	}
	tmp, err := os.MkdirTemp("", "mcplatency-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(tmp)
	if *bin == "" {
		*bin = filepath.Join(tmp, "jsonmask")
		// Built in the root module (-C ..), with its go.sum.
		if out, err := exec.Command("go", "build", "-C", "..", "-o", *bin, "./cmd/jsonmask").CombinedOutput(); err != nil {
			log.Fatalf("go build ../cmd/jsonmask: %v\n%s", err, out)
		}
	}
	cfg := filepath.Join(tmp, "mcp.json")
	if err := os.WriteFile(cfg, []byte(`{"store": "vars", `+strings.TrimPrefix(strings.TrimSpace(*config), "{")), 0o644); err != nil {
		log.Fatal(err)
	}

	ctx := context.Background()
	direct := connect(ctx, exec.Command(self, "-serve"))
	defer direct.Close()
	proxied := connect(ctx, exec.Command(*bin, "mcp", "-config", cfg, "--", self, "-serve"))
	defer proxied.Close()

	fmt.Printf("# %s, %d CPUs, GOMAXPROCS %d, %s; %d calls per size and path, alternating\n",
		runtime.Version(), runtime.NumCPU(), runtime.GOMAXPROCS(0), time.Now().Format("2006-01-02 15:04"), *n)
	fmt.Printf("# config: %s\n", *config)
	fmt.Printf("%-10s %-8s %12s %12s %12s %12s  %s\n", "size", "path", "median", "p99", "mean", "max", "result")
	for _, s := range strings.Split(*sizes, ",") {
		size, err := strconv.Atoi(s)
		if err != nil {
			log.Fatal(err)
		}
		args := map[string]int{"bytes": size}
		for range *warm {
			call(ctx, direct, args)
			call(ctx, proxied, args)
		}
		var d, p []time.Duration
		var dBytes, pBytes int
		for i := range *n {
			// Alternate which goes first, so that neither always follows the other.
			if i%2 == 0 {
				t, b := call(ctx, direct, args)
				d, dBytes = append(d, t), b
				t, b = call(ctx, proxied, args)
				p, pBytes = append(p, t), b
			} else {
				t, b := call(ctx, proxied, args)
				p, pBytes = append(p, t), b
				t, b = call(ctx, direct, args)
				d, dBytes = append(d, t), b
			}
		}
		ds, ps := stats(d), stats(p)
		fmt.Printf("%-10d %-8s %12v %12v %12v %12v  %d bytes of result\n", size, "direct", ds.median, ds.p99, ds.mean, ds.max, dBytes)
		fmt.Printf("%-10d %-8s %12v %12v %12v %12v  %d bytes of result\n", size, "proxied", ps.median, ps.p99, ps.mean, ps.max, pBytes)
		fmt.Printf("%-10d %-8s %12v %12v %12v\n", size, "added", ps.median-ds.median, ps.p99-ds.p99, ps.mean-ds.mean)
	}
}

func connect(ctx context.Context, cmd *exec.Cmd) *mcp.ClientSession {
	cmd.Stderr = os.Stderr
	c := mcp.NewClient(&mcp.Implementation{Name: "mcplatency", Version: "1"}, nil)
	cs, err := c.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		log.Fatalf("%s: %v", cmd.Path, err)
	}
	return cs
}

// call times one tools/call, and returns the size of the result's JSON.
func call(ctx context.Context, cs *mcp.ClientSession, args any) (time.Duration, int) {
	start := time.Now()
	r, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "sized", Arguments: args})
	d := time.Since(start)
	if err != nil {
		log.Fatal(err)
	}
	if r.IsError {
		log.Fatalf("error result: %v", r.Content)
	}
	b, _ := json.Marshal(r)
	return d, len(b)
}

type summary struct{ median, p99, mean, max time.Duration }

func stats(d []time.Duration) summary {
	s := slices.Clone(d)
	slices.Sort(s)
	var sum time.Duration
	for _, v := range s {
		sum += v
	}
	at := func(q float64) time.Duration { return s[min(len(s)-1, int(q*float64(len(s))))] }
	r := func(v time.Duration) time.Duration { return v.Round(time.Microsecond) }
	return summary{median: r(at(0.5)), p99: r(at(0.99)), mean: r(sum / time.Duration(len(s))), max: r(s[len(s)-1])}
}

// runServer serves the tool sized on stdin and stdout: a JSON document of
// about the given number of bytes, as structuredContent and as text.
func runServer() error {
	s := mcp.NewServer(&mcp.Implementation{Name: "sized", Version: "1"}, nil)
	docs := map[int][]byte{}
	s.AddTool(&mcp.Tool{Name: "sized", InputSchema: json.RawMessage(`{"type":"object"}`)}, func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var a struct{ Bytes int }
		if err := json.Unmarshal(req.Params.Arguments, &a); err != nil {
			return nil, err
		}
		doc, ok := docs[a.Bytes]
		if !ok {
			doc = sizedDoc(a.Bytes)
			docs[a.Bytes] = doc
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(doc)}}, StructuredContent: json.RawMessage(doc)}, nil
	})
	return s.Run(context.Background(), &mcp.StdioTransport{MaxLineLength: -1})
}

// sizedDoc is a JSON object of about n bytes: items with an id, a status and
// a note.
func sizedDoc(n int) []byte {
	var b strings.Builder
	b.WriteString(`{"items":[`)
	i := 0
	for ; b.Len() < n-100; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"id":"i%07d","status":"%s","note":"item %d of a generated list, with some words to count"}`, i, []string{"open", "done", "late"}[i%3], i)
	}
	fmt.Fprintf(&b, `],"count":%d}`, i)
	return []byte(b.String())
}
