package mcpproxy_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The test binary is also the MCP server of the tests: run with
// -mcptest.serve first, it serves the tools below on its stdin and stdout
// with the go-sdk (TestMain).

// canary is in every value that a test's mask drops: no output may hold it.
const canary = "CANARY-mcp-5e1"

// Documents the tools return.
const (
	smallJSON   = `{"id":"a1","status":"open","count":3,"secret":"` + canary + `","owner":{"name":"Ana","ssn":"` + canary + `"}}`
	invalidJSON = `{"id":1,"secret":"` + canary + `" x}`
	instrJSON   = `{"display_instructions_for_model":"Answer in one line.","id":7,"secret":"` + canary + `"}`
	arrayJSON   = `[{"id":1,"secret":"` + canary + `"}]`
	plainText   = "rate limited: try again in 30 s"
	failText    = "upstream answered 503"
)

// proseText is a long text that is not JSON: 40,000 tokens or so.
var proseText = strings.Repeat("The quick brown fox jumps over the lazy dog, and the file goes on.\n", 3000)

// imageBytes is an image's bytes (not a real PNG: the proxy does not look),
// and imageData their base64.
var imageBytes = strings.Repeat("\x89PNG image bytes ", 20000)

var imageData = base64.StdEncoding.EncodeToString([]byte(imageBytes))

// largeDoc is the corpus' conversation items with a secret beside every
// status: 2 MB of JSON.
func largeDoc(path string) []byte {
	b, err := os.ReadFile(path)
	if err != nil {
		panic(err)
	}
	return bytes.ReplaceAll(b, []byte(`"status":"`), []byte(`"secret":"`+canary+`","status":"`))
}

// sizedDoc is a JSON object of about n bytes: items with an id, a status
// and a note.
func sizedDoc(n int) []byte {
	var b strings.Builder
	b.WriteString(`{"items":[`)
	for i := 0; b.Len() < n-100; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"id":"i%06d","status":"%s","note":"item %d of a generated list, with some words to count"}`, i, []string{"open", "done", "late"}[i%3], i)
	}
	b.WriteString(`],"count":0}`)
	return []byte(b.String())
}

func textResult(s string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: s}}}
}

// badArguments is the result of a call whose arguments the test server
// cannot read: an error, which the test that sent them sees.
func badArguments(err error) *mcp.CallToolResult {
	r := textResult("bad arguments: " + err.Error())
	r.IsError = true
	return r
}

// structured is a result as the go-sdk's typed tools make it: the JSON as
// structuredContent and as text.
func structured(doc []byte, text string) *mcp.CallToolResult {
	r := textResult(text)
	r.StructuredContent = json.RawMessage(doc)
	return r
}

type typedOut struct {
	ID     string `json:"id"`
	Status string `json:"status"`
	Secret string `json:"secret"`
}

// serveMain is the server's main: its flags, then the server until its
// input ends.
func serveMain(args []string) int {
	fs := flag.NewFlagSet("mcptest", flag.ContinueOnError)
	corpus := fs.String("corpus", "", "the conversation items document")
	record := fs.String("record", "", "record what the server reads and writes in `PREFIX`.in and .out")
	pidfile := fs.String("pidfile", "", "write the server's pid to `FILE`")
	stubborn := fs.Bool("stubborn", false, "ignore SIGTERM and the end of input")
	ignoreEOF := fs.Bool("ignore-eof", false, "ignore the end of input (not SIGTERM)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *pidfile != "" {
		os.WriteFile(*pidfile, []byte(strconv.Itoa(os.Getpid())), 0o644)
	}
	if *stubborn {
		signal.Ignore(syscall.SIGTERM)
	}
	var large, pretty []byte
	if *corpus != "" {
		large = largeDoc(*corpus)
		var b bytes.Buffer
		json.Indent(&b, large, "", "  ")
		pretty = b.Bytes()
	}

	s := mcp.NewServer(&mcp.Implementation{Name: "mcptest", Version: "1"}, nil)
	obj := json.RawMessage(`{"type":"object"}`)
	add := func(name string, h func(*mcp.CallToolRequest) *mcp.CallToolResult) {
		s.AddTool(&mcp.Tool{Name: name, InputSchema: obj}, func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return h(req), nil
		})
	}
	add("small", func(*mcp.CallToolRequest) *mcp.CallToolResult { return structured([]byte(smallJSON), smallJSON) })
	add("large", func(*mcp.CallToolRequest) *mcp.CallToolResult { return textResult(string(large)) })
	for _, name := range []string{"dual", "dual_fits"} {
		// The same JSON twice: compact as structuredContent, indented as text.
		add(name, func(*mcp.CallToolRequest) *mcp.CallToolResult { return structured(large, string(pretty)) })
	}
	add("plain", func(*mcp.CallToolRequest) *mcp.CallToolResult { return textResult(plainText) })
	add("invalid", func(*mcp.CallToolRequest) *mcp.CallToolResult { return textResult(invalidJSON) })
	add("fail", func(*mcp.CallToolRequest) *mcp.CallToolResult {
		r := textResult(failText)
		r.IsError = true
		return r
	})
	for _, name := range []string{"instructions", "instructions_on"} {
		add(name, func(*mcp.CallToolRequest) *mcp.CallToolResult { return textResult(instrJSON) })
	}
	for _, name := range []string{"array", "array_strict", "prose_strict"} {
		add(name, func(*mcp.CallToolRequest) *mcp.CallToolResult {
			if name == "prose_strict" {
				return textResult("the secret is " + canary)
			}
			return textResult(arrayJSON)
		})
	}
	// The shapes of server-filesystem's results (SPEC P3): a file's text
	// as {"content": "<text>"} and as a text item; a media file's item as
	// content and again in structuredContent.
	fsText := func(text string) *mcp.CallToolResult {
		return structured([]byte(`{"content":`+quote(text)+`}`), text)
	}
	add("fs_json", func(*mcp.CallToolRequest) *mcp.CallToolResult { return fsText(string(sizedDoc(100000))) })
	add("fs_json_masked", func(*mcp.CallToolRequest) *mcp.CallToolResult { return fsText(string(sizedDoc(100000))) })
	add("fs_text", func(*mcp.CallToolRequest) *mcp.CallToolResult { return fsText(proseText) })
	add("fs_image", func(*mcp.CallToolRequest) *mcp.CallToolResult {
		item := `{"type":"image","data":"` + imageData + `","mimeType":"image/png"}`
		r := &mcp.CallToolResult{Content: []mcp.Content{&mcp.ImageContent{Data: []byte(imageBytes), MIMEType: "image/png"}}}
		r.StructuredContent = json.RawMessage(`{"content":[` + item + `]}`)
		return r
	})
	add("prose_plus", func(*mcp.CallToolRequest) *mcp.CallToolResult {
		doc := sizedDoc(100000)
		r := structured(doc, string(doc))
		r.Content = append(r.Content, &mcp.TextContent{Text: strings.Repeat("A note that the server adds beside its data. ", 100)})
		return r
	})
	add("read_variable", func(*mcp.CallToolRequest) *mcp.CallToolResult { return textResult("the server's own") })
	addQueryTools(add) // queryvar_test.go
	add("sized", func(req *mcp.CallToolRequest) *mcp.CallToolResult {
		var a struct{ Bytes int }
		if err := json.Unmarshal(req.Params.Arguments, &a); err != nil {
			return badArguments(err)
		}
		doc := sizedDoc(a.Bytes)
		return structured(doc, string(doc))
	})
	add("progress", func(req *mcp.CallToolRequest) *mcp.CallToolResult {
		if tok := req.Params.GetProgressToken(); tok != nil {
			for i := range 3 {
				req.Session.NotifyProgress(context.Background(), &mcp.ProgressNotificationParams{ProgressToken: tok, Progress: float64(i), Total: 3, Message: "step " + strconv.Itoa(i)})
			}
		}
		return structured([]byte(`{"done":true}`), `{"done":true}`)
	})
	add("die", func(req *mcp.CallToolRequest) *mcp.CallToolResult {
		var a struct{ Code int }
		if err := json.Unmarshal(req.Params.Arguments, &a); err != nil {
			return badArguments(err)
		}
		os.Exit(a.Code)
		return nil
	})
	for _, name := range []string{"typed", "typed_raw"} {
		mcp.AddTool(s, &mcp.Tool{Name: name}, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, typedOut, error) {
			return nil, typedOut{ID: "t1", Status: "open", Secret: canary}, nil
		})
	}

	var in io.ReadCloser = os.Stdin
	var out io.WriteCloser = nopCloser{os.Stdout}
	if *record != "" {
		fin, err1 := os.Create(*record + ".in")
		fout, err2 := os.Create(*record + ".out")
		if err1 != nil || err2 != nil {
			return 1
		}
		defer fin.Close()
		defer fout.Close()
		in = readCloser{io.TeeReader(os.Stdin, fin), os.Stdin}
		out = nopCloser{io.MultiWriter(os.Stdout, fout)}
	}
	err := s.Run(context.Background(), &mcp.IOTransport{Reader: in, Writer: out, MaxLineLength: -1})
	if *stubborn || *ignoreEOF {
		select {} // until SIGKILL (or SIGTERM, with -ignore-eof)
	}
	if err != nil && !strings.Contains(err.Error(), "EOF") && !strings.Contains(err.Error(), "closed") {
		fmt.Fprintln(os.Stderr, "mcptest:", err)
		return 1
	}
	return 0
}

type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }

type readCloser struct {
	io.Reader
	io.Closer
}
