package mcpproxy_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/jsonmask/jsonmask"
	"github.com/jsonmask/jsonmask/corpus"
	"github.com/jsonmask/jsonmask/toolresult"
)

func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == "-mcptest.serve" {
		os.Exit(serveMain(os.Args[2:]))
	}
	if len(os.Args) > 1 && os.Args[1] == "-mcptest.tasks" {
		os.Exit(tasksMain())
	}
	code := m.Run()
	if bin.path != "" {
		os.RemoveAll(filepath.Dir(bin.path))
	}
	os.Exit(code)
}

var ctx = context.Background()

// raceBuild is set when the tests run with the race detector.
var raceBuild bool

// bin is the jsonmask command, built once for the tests that run it.
var bin struct {
	once sync.Once
	path string
	err  error
	out  []byte
}

func jsonmaskBin(t *testing.T) string {
	t.Helper()
	bin.once.Do(func() {
		goCmd, err := exec.LookPath("go")
		if err != nil {
			bin.err = err
			return
		}
		dir, err := os.MkdirTemp("", "jsonmask-mcp-test-")
		if err != nil {
			bin.err = err
			return
		}
		bin.path = filepath.Join(dir, "jsonmask")
		args := []string{"build", "-o", bin.path}
		if raceBuild {
			args = append(args, "-race")
		}
		bin.out, bin.err = exec.Command(goCmd, append(args, "../cmd/jsonmask")...).CombinedOutput()
	})
	if bin.err != nil {
		t.Fatalf("go build ../cmd/jsonmask: %v\n%s", bin.err, bin.out)
	}
	return bin.path
}

// corpusPath is the path of a copy of the corpus' conversation items, for
// the test server in another process.
func corpusPath(t *testing.T) string {
	p := filepath.Join(t.TempDir(), "conversation_items.json")
	if err := os.WriteFile(p, corpus.File(t, "conversation_items.json"), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// convMask keeps the conversation items' decision fields.
const convMask = `{"object":true,"has_more":true,"first_id":true,"last_id":true,"data":{"type":true,"id":true,"status":true,"role":true,"name":true,"call_id":true,"content":{"type":true,"text":true}}}`

// testConfig is the configuration of the tests: a mask for most tools, the
// budgets of section 9, and a store in dir.
func testConfig(t *testing.T, dir string) string {
	cfg := `{"budget": 100000, "store": "vars",
	 "tools": {
	  "small": {"response_mask": {"id": true, "status": true, "owner": {"name": true}}},
	  "large": {"response_mask": ` + convMask + `, "budget": 2000},
	  "dual": {"response_mask": ` + convMask + `, "budget": 2000},
	  "dual_fits": {"response_mask": ` + convMask + `, "budget": 1000000},
	  "plain": {"response_mask": {"id": true}},
	  "invalid": {"response_mask": {"id": true}},
	  "fail": {"response_mask": {"id": true}},
	  "instructions": {"response_mask": {"id": true}},
	  "instructions_on": {"response_mask": {"id": true}, "instructions": true},
	  "array": {"response_mask": {"id": true}},
	  "array_strict": {"response_mask": {"id": true}, "strict": true},
	  "prose_strict": {"response_mask": {"id": true}, "strict": true},
	  "typed": {"response_mask": {"id": true, "status": true}},
	  "typed_raw": {"budget": 0}}}`
	path := filepath.Join(dir, "mcp.json")
	if err := os.WriteFile(path, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// syncBuffer is a bytes.Buffer for a command's stderr, read by the test.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// client is a go-sdk client talking to jsonmask mcp, which runs the test
// server.
type client struct {
	cs     *mcp.ClientSession
	cmd    *exec.Cmd
	stderr *syncBuffer
}

// proxyCommand is jsonmask mcp running the test server.
func proxyCommand(t *testing.T, config string, serverArgs ...string) *exec.Cmd {
	args := []string{"mcp", "-grace", "300ms"}
	if config != "" {
		args = append(args, "-config", config)
	}
	args = append(append(args, "--", os.Args[0], "-mcptest.serve", "-corpus", corpusPath(t)), serverArgs...)
	cmd := exec.Command(jsonmaskBin(t), args...)
	cmd.Env = serverEnv()
	return cmd
}

// serverEnv is the environment of the test server: built with -race, it
// would sleep a second before exiting, longer than the tests' grace.
func serverEnv() []string {
	return append(os.Environ(), "GORACE="+os.Getenv("GORACE")+" atexit_sleep_ms=0")
}

func dial(t *testing.T, config string, serverArgs ...string) *client {
	t.Helper()
	cmd := proxyCommand(t, config, serverArgs...)
	stderr := &syncBuffer{}
	cmd.Stderr = stderr
	c := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	cs, err := c.Connect(ctx, &mcp.CommandTransport{Command: cmd, TerminateDuration: 3 * time.Second}, nil)
	if err != nil {
		t.Fatalf("connect: %v\nstderr: %s", err, stderr)
	}
	t.Cleanup(func() {
		cs.Close()
		if strings.Contains(stderr.String(), canary) {
			t.Errorf("the proxy's stderr holds a dropped value:\n%s", stderr)
		}
		if strings.Contains(stderr.String(), "DATA RACE") {
			t.Errorf("the race detector found a race in the proxy:\n%s", stderr)
		}
	})
	return &client{cs: cs, cmd: cmd, stderr: stderr}
}

// call calls a tool and checks that its result holds no dropped value.
func (c *client) call(t *testing.T, name string, args any) *mcp.CallToolResult {
	t.Helper()
	r := c.callRaw(t, name, args)
	noCanary(t, r)
	return r
}

// callRaw calls a tool.
func (c *client) callRaw(t *testing.T, name string, args any) *mcp.CallToolResult {
	t.Helper()
	if args == nil {
		args = map[string]any{}
	}
	r, err := c.cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("call %s: %v\nstderr: %s", name, err, c.stderr)
	}
	return r
}

// noCanary fails when v, as JSON, holds the canary.
func noCanary(t *testing.T, v any) {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(b, []byte(canary)) {
		t.Fatalf("a dropped value reached the client: %.300s", b)
	}
}

// only returns the text of a result that has one text content.
func only(t *testing.T, r *mcp.CallToolResult) string {
	t.Helper()
	if len(r.Content) != 1 {
		t.Fatalf("%d contents, want 1", len(r.Content))
	}
	tc, ok := r.Content[0].(*mcp.TextContent)
	if !ok {
		t.Fatalf("content is %T", r.Content[0])
	}
	return tc.Text
}

func tokens(t *testing.T, s string) int {
	tok, err := toolresult.NewTokenizer(toolresult.O200kBase)
	if err != nil {
		t.Fatal(err)
	}
	return tok.Count([]byte(s), -1)
}

// maskedLarge is the large document as the tests' mask leaves it.
func maskedLarge(t *testing.T) []byte {
	out, err := jsonmask.MustCompile(convMask).Append(nil, largeDoc(corpusPath(t)))
	if err != nil {
		t.Fatal(err)
	}
	return out
}

var varName = regexp.MustCompile(`var_[0-9a-f]{12}`)

// TestTools calls every tool of the test server through jsonmask mcp with
// a go-sdk client, and checks what the client gets (SPEC P3 to P6).
func TestTools(t *testing.T) {
	dir := t.TempDir()
	c := dial(t, testConfig(t, dir))
	masked := maskedLarge(t)
	// largeVariable is the variable of a call of large of its own: a
	// subtest that needs it does not depend on Large having run.
	largeVariable := func(t *testing.T) string {
		t.Helper()
		name := varName.FindString(only(t, c.call(t, "large", nil)))
		if name == "" {
			t.Fatal("the result of large names no variable")
		}
		return name
	}

	t.Run("List", func(t *testing.T) {
		r, err := c.cs.ListTools(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		seen := map[string]*mcp.Tool{}
		n := 0
		for _, tool := range r.Tools {
			seen[tool.Name] = tool
			if tool.Name == "read_variable" {
				n++
			}
		}
		if n != 1 || seen["read_variable"].Title != "Read a stored variable" {
			t.Fatalf("read_variable %d times, the proxy's: %+v", n, seen["read_variable"])
		}
		if seen["typed"].OutputSchema != nil {
			t.Error("a masked tool keeps its outputSchema")
		}
		if seen["typed_raw"].OutputSchema == nil {
			t.Error("a tool that is not rewritten lost its outputSchema")
		}
		schema, _ := json.Marshal(seen["read_variable"].InputSchema)
		if !strings.Contains(string(schema), `"required":["name"]`) {
			t.Errorf("read_variable's input schema: %s", schema)
		}
	})
	t.Run("Small", func(t *testing.T) {
		r := c.call(t, "small", nil)
		want := `{"id":"a1","status":"open","owner":{"name":"Ana"}}`
		if got := only(t, r); got != want {
			t.Fatalf("text %s want %s", got, want)
		}
		sc, _ := json.Marshal(r.StructuredContent)
		if string(sc) != `{"id":"a1","owner":{"name":"Ana"},"status":"open"}` { // as encoding/json sorts a map
			t.Fatalf("structuredContent %s", sc)
		}
	})
	t.Run("Large", func(t *testing.T) {
		r := c.call(t, "large", nil)
		text := only(t, r)
		if n := tokens(t, text); n > 2000 {
			t.Fatalf("model text of %d tokens, budget 2000", n)
		}
		if r.StructuredContent != nil || r.IsError {
			t.Fatalf("structuredContent %v, isError %v", r.StructuredContent != nil, r.IsError)
		}
		largeVar := varName.FindString(text)
		stored, err := os.ReadFile(filepath.Join(dir, "vars", largeVar+".json"))
		if err != nil {
			t.Fatalf("the note names %q: %v\n%s", largeVar, err, text)
		}
		if !bytes.Equal(stored, masked) {
			t.Fatal("the variable is not the masked data")
		}
		for _, want := range []string{"Schema:", "Preview:", `"data":[{"type":`, "read_variable"} {
			if !strings.Contains(text, want) {
				t.Errorf("the model text lacks %q", want)
			}
		}
	})
	t.Run("ReadVariable", func(t *testing.T) {
		largeVar := largeVariable(t)
		var doc struct{ Data []json.RawMessage }
		if err := json.Unmarshal(masked, &doc); err != nil {
			t.Fatal(err)
		}
		r := c.call(t, "read_variable", map[string]any{"name": largeVar, "pointer": "/data/7"})
		if got := only(t, r); got != string(doc.Data[7]) || r.IsError {
			t.Fatalf("got %s want %s", got, doc.Data[7])
		}
		r = c.call(t, "read_variable", map[string]any{"name": largeVar, "pointer": "/data", "offset": 5, "limit": 2})
		if got, want := only(t, r), "["+string(doc.Data[5])+","+string(doc.Data[6])+"]"; got != want {
			t.Fatalf("got %s want %s", got, want)
		}
		r = c.call(t, "read_variable", map[string]any{"name": largeVar, "pointer": "/data", "offset": 0, "limit": 300})
		if text := only(t, r); tokens(t, text) > 2000 || !strings.Contains(text, "stored as the variable") {
			t.Fatalf("a selection over the budget of the tool that made the variable: %.300s", text)
		}
		r = c.call(t, "read_variable", map[string]any{"name": "var_000000000000"})
		if got := only(t, r); !r.IsError || got != `jsonmask: read_variable: no such variable: "var_000000000000"` {
			t.Fatalf("got %v %s", r.IsError, got)
		}
		r = c.call(t, "read_variable", map[string]any{"name": largeVar, "pointer": "/data/99999"})
		if got := only(t, r); !r.IsError || !strings.Contains(got, "the array at /data has 1400 items") {
			t.Fatalf("got %v %s", r.IsError, got)
		}
	})
	t.Run("DuplicateOnce", func(t *testing.T) {
		if testing.Short() {
			t.Skip("4 MB of JSON through the go-sdk's client and server: seconds under -race")
		}
		r := c.call(t, "dual", nil) // the same 2 MB as structuredContent and, indented, as text
		text := only(t, r)
		if n := tokens(t, text); n > 2000 || r.StructuredContent != nil {
			t.Fatalf("model text of %d tokens", n)
		}
		if v, want := varName.FindString(text), largeVariable(t); v != want {
			t.Fatalf("variable %s, want the same data as large: %s", v, want)
		}
	})
	t.Run("DuplicateOnceWithinBudget", func(t *testing.T) {
		if testing.Short() {
			t.Skip("4 MB of JSON through the go-sdk's client and server: seconds under -race")
		}
		r := c.call(t, "dual_fits", nil)
		if got := only(t, r); got != string(masked) {
			t.Fatalf("text is not the masked data (%d bytes, want %d)", len(got), len(masked))
		}
		if r.StructuredContent == nil {
			t.Fatal("no structuredContent: the masked data fits and is an object")
		}
	})
	t.Run("Plaintext", func(t *testing.T) {
		r := c.call(t, "plain", nil)
		if got := only(t, r); got != plainText || r.IsError {
			t.Fatalf("got %q", got)
		}
	})
	t.Run("InvalidJSON", func(t *testing.T) {
		r := c.call(t, "invalid", nil)
		got := only(t, r)
		want := `jsonmask: the result of the tool "invalid" is withheld: its text content could not be processed: invalid character after object key:value pair at offset 34 (/…)`
		if !r.IsError || got != want {
			t.Fatalf("got %v %q\nwant %q", r.IsError, got, want)
		}
	})
	t.Run("ErrorResult", func(t *testing.T) {
		r := c.call(t, "fail", nil)
		if got := only(t, r); got != failText || !r.IsError {
			t.Fatalf("got %v %q", r.IsError, got)
		}
	})
	t.Run("OutputSchema", func(t *testing.T) {
		r := c.call(t, "typed", nil)
		if got := only(t, r); got != `{"id":"t1","status":"open"}` {
			t.Fatalf("got %s", got)
		}
		r = c.callRaw(t, "typed_raw", nil) // budget 0, no mask: as the server sent it
		if got := only(t, r); got != `{"id":"t1","secret":"`+canary+`","status":"open"}` {
			t.Fatalf("typed_raw: %s", got)
		}
	})
	t.Run("Instructions", func(t *testing.T) {
		// Off by default (C2): display_instructions_for_model is data, and
		// the mask drops it.
		r := c.call(t, "instructions", nil)
		if got := only(t, r); got != `{"id":7}` {
			t.Fatalf("got %q", got)
		}
		r = c.call(t, "instructions_on", nil)
		if got := only(t, r); got != "Answer in one line.\n\n{\"id\":7}" {
			t.Fatalf("opted in: got %q", got)
		}
	})
	t.Run("UnmaskedWarning", func(t *testing.T) {
		// An array root without "arrays" passes unmasked (B3), with a
		// warning in the log.
		c.callRaw(t, "array", nil)
		// The proxy's stderr is copied by a goroutine of exec: give it time.
		for i := 0; !strings.Contains(c.stderr.String(), `tools/call "array": the result passes unmasked`); i++ {
			if i == 100 {
				t.Fatalf("no warning for a masked tool's result that passes unmasked:\n%s", c.stderr)
			}
			time.Sleep(20 * time.Millisecond)
		}
	})
	t.Run("Strict", func(t *testing.T) {
		for _, name := range []string{"array_strict", "prose_strict"} {
			r := c.call(t, name, nil)
			if got := only(t, r); !r.IsError || !strings.Contains(got, "strict") {
				t.Fatalf("%s: isError %v, %q", name, r.IsError, got)
			}
		}
	})
	t.Run("ServersReadVariableHidden", func(t *testing.T) {
		if strings.Contains(c.stderr.String(), "the server's tool read_variable is hidden") == false {
			t.Errorf("no diagnostic for the hidden tool:\n%s", c.stderr)
		}
	})
	entries, _ := os.ReadDir(filepath.Join(dir, "vars"))
	for _, e := range entries {
		b, _ := os.ReadFile(filepath.Join(dir, "vars", e.Name()))
		if bytes.Contains(b, []byte(canary)) {
			t.Errorf("variable %s holds a dropped value", e.Name())
		}
	}
}

// teeWriteCloser writes to w and records what it wrote.
type teeWriteCloser struct {
	w   interface{ Write([]byte) (int, error) }
	c   interface{ Close() error }
	rec *syncBuffer
}

func (t *teeWriteCloser) Write(p []byte) (int, error) {
	t.rec.Write(p)
	return t.w.Write(p)
}

func (t *teeWriteCloser) Close() error { return t.c.Close() }

// lines splits a recording into its messages.
func lines(s string) []string {
	s = strings.TrimSuffix(s, "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

// script runs the same session against the test server, through jsonmask
// mcp or directly, and returns the lines the client sent and received and
// those the server received and sent.
func script(t *testing.T, proxied bool, config, version string) (clientSent, clientGot, serverGot, serverSent []string) {
	rec := filepath.Join(t.TempDir(), "server")
	var cmd *exec.Cmd
	if proxied {
		cmd = proxyCommand(t, config, "-record", rec)
	} else {
		cmd = exec.Command(os.Args[0], "-mcptest.serve", "-corpus", corpusPath(t), "-record", rec)
		cmd.Env = serverEnv()
	}
	stderr := &syncBuffer{}
	cmd.Stderr = stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sent, got := &syncBuffer{}, &syncBuffer{}
	transport := &mcp.IOTransport{
		Reader: readCloser{io.TeeReader(stdout, got), stdout},
		Writer: &teeWriteCloser{w: stdin, c: stdin, rec: sent},
	}
	c := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	cs, err := c.Connect(ctx, transport, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatalf("connect: %v\n%s", err, stderr)
	}
	if _, err := cs.ListTools(ctx, nil); err != nil {
		t.Fatal(err)
	}
	for _, call := range []struct {
		name string
		args any
	}{{"small", nil}, {"plain", nil}, {"fail", nil}, {"progress", nil}, {"typed_raw", nil}, {"sized", map[string]int{"bytes": 200000}}} {
		params := &mcp.CallToolParams{Name: call.name, Arguments: call.args}
		if params.Arguments == nil {
			params.Arguments = map[string]any{}
		}
		if call.name == "progress" {
			params.SetProgressToken("p1")
		}
		if _, err := cs.CallTool(ctx, params); err != nil {
			t.Fatalf("%s: %v", call.name, err)
		}
	}
	if err := cs.Ping(ctx, nil); err != nil {
		t.Fatal(err)
	}
	cs.Close()
	if err := cmd.Wait(); err != nil {
		t.Fatalf("wait: %v\n%s", err, stderr)
	}
	in, _ := os.ReadFile(rec + ".in")
	out, _ := os.ReadFile(rec + ".out")
	return lines(sent.String()), lines(got.String()), lines(string(in)), lines(string(out))
}

// TestTransparent runs one session directly and one through jsonmask mcp,
// and compares them message by message: everything but the results the
// proxy rewrites (tools/list, and the masked tool small) is byte for byte
// what the server sent, in both directions, in order.
func TestTransparent(t *testing.T) {
	config := testConfig(t, t.TempDir())
	for _, version := range []string{"2025-06-18", ""} {
		t.Run("version="+version, func(t *testing.T) {
			dSent, dGot, dServerGot, dServerSent := script(t, false, config, version)
			pSent, pGot, pServerGot, pServerSent := script(t, true, config, version)
			// Which responses may differ: those to tools/list and to the
			// call of small.
			rewritten := map[string]bool{}
			for _, l := range pSent {
				var m struct {
					ID     json.RawMessage
					Method string
					Params struct{ Name string }
				}
				if err := json.Unmarshal([]byte(l), &m); err != nil {
					t.Fatalf("the proxy sent a line that is not JSON: %v: %.200s", err, l)
				}
				if m.Method == "tools/list" || m.Method == "tools/call" && m.Params.Name == "small" {
					rewritten[string(m.ID)] = true
				}
			}
			if len(rewritten) != 2 {
				t.Fatalf("rewritten ids %v", rewritten)
			}
			idOf := func(l string) string {
				var m struct {
					ID     json.RawMessage
					Method string
				}
				if err := json.Unmarshal([]byte(l), &m); err != nil {
					t.Fatalf("a line that is not JSON: %v: %.200s", err, l)
				}
				if m.Method != "" {
					return ""
				}
				return string(m.ID)
			}
			compare := func(what string, a, b []string, mayDiffer bool) {
				t.Helper()
				if len(a) != len(b) {
					t.Fatalf("%s: %d messages and %d", what, len(a), len(b))
				}
				changed := 0
				for i := range a {
					if a[i] == b[i] {
						continue
					}
					if !mayDiffer || !rewritten[idOf(a[i])] {
						t.Fatalf("%s: message %d differs:\n%.300s\n%.300s", what, i, a[i], b[i])
					}
					changed++
				}
				if mayDiffer && changed != 2 {
					t.Fatalf("%s: %d messages rewritten, want 2", what, changed)
				}
			}
			compare("client sent, direct and proxied", dSent, pSent, false)
			compare("server received, direct and proxied", dServerGot, pServerGot, false)
			compare("client sent and server received, proxied", pSent, pServerGot, false)
			compare("server sent, direct and proxied", dServerSent, pServerSent, false)
			compare("client received, direct and proxied", dGot, pGot, true)
			compare("server sent and client received, proxied", pServerSent, pGot, true)
			if len(pGot) < 12 {
				t.Fatalf("only %d messages", len(pGot))
			}
		})
	}
}
