package mcpproxy

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/iotest"
	"time"

	"github.com/jsonmask/jsonmask/tokenizer"
	"github.com/jsonmask/jsonmask/toolresult"
)

// canary is in every value the harness's mask drops.
const canary = "CANARY-msg-9b2"

// harness is a session without processes: the tests give it lines as if
// from the client or the server, and read what it writes to each.
type harness struct {
	t   testing.TB
	p   *Proxy
	s   *session
	out *lockedBuffer // to the client
	log *lockedBuffer
	ps  parser
}

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

// drain returns what was written since the last drain.
func (l *lockedBuffer) drain() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	s := l.b.String()
	l.b.Reset()
	return s
}

// harnessConfig: the tool m is masked (keep, and the items of the
// benchmark) within a budget of 100000 tokens; v has a budget of 50, a
// masks arrays too, o has a mask and no budget, u a budget and no mask, d
// the benchmark's mask and the default budget of 7000; other tools pass as
// they are (budget 0).
const harnessConfig = `{"budget": 0, "tools": {
	"m": {"response_mask": {"keep": true, "items": {"id": true, "status": true}, "count": true}, "budget": 100000, "instructions": true},
	"v": {"response_mask": {"keep": true}, "budget": 50},
	"a": {"response_mask": {"keep": true}, "budget": 100000, "arrays": true},
	"u": {"budget": 100000},
	"d": {"response_mask": {"items": {"id": true, "status": true}, "count": true}, "budget": 7000},
	"o": {"response_mask": {"keep": true}, "budget": 0}}}`

func newHarness(t testing.TB) *harness {
	t.Helper()
	cfg, err := ParseConfig([]byte(harnessConfig))
	if err != nil {
		t.Fatal(err)
	}
	cfg.Store = t.TempDir()
	log := &lockedBuffer{}
	p, err := New(cfg, WithLog(log))
	if err != nil {
		t.Fatal(err)
	}
	out := &lockedBuffer{}
	return &harness{t: t, p: p, s: newSession(p, out, io.Discard), out: out, log: log}
}

// client gives the session a line of the client; it returns what goes to
// the server, and what the client got back.
func (h *harness) client(line string) (forwarded, replies string) {
	fwd := h.s.clientLine(&h.ps, []byte(line+"\n"))
	h.s.wait()
	return string(fwd), h.out.drain()
}

// server gives the session a line of the server; it returns what the
// client got.
func (h *harness) server(line string) string {
	h.s.serverLine(&h.ps, []byte(line+"\n"))
	h.s.wait()
	return h.drainChecked()
}

// drainChecked returns what the client got since the last drain, failing
// the test if a dropped value reached it or a line is not JSON.
func (h *harness) drainChecked() string {
	got := h.out.drain()
	if strings.Contains(got, canary) {
		h.t.Fatalf("a dropped value reached the client: %s", got)
	}
	for _, l := range strings.Split(strings.TrimSuffix(got, "\n"), "\n") {
		if l != "" && !json.Valid([]byte(l)) {
			h.t.Fatalf("the client got a line that is not JSON: %s", l)
		}
	}
	return got
}

// call makes a pending tools/call of tool with the id.
func (h *harness) call(id, tool string) {
	h.t.Helper()
	fwd, rep := h.client(`{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"` + tool + `","arguments":{}}}`)
	if fwd == "" || rep != "" {
		h.t.Fatalf("the call was not forwarded: %q", rep)
	}
}

// jstr is s as a JSON string.
func jstr(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// result is a server's response with a result.
func result(id, res string) string {
	return `{"jsonrpc":"2.0","id":` + id + `,"result":` + res + `}`
}

func TestClientLines(t *testing.T) {
	for _, tc := range []struct {
		name, line string
		forwarded  bool   // the line goes to the server as it is
		reply      string // what the client gets back
	}{
		{"Call", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"m"}}`, true, ""},
		{"Other", `{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"x"}}`, true, ""},
		{"Notification", `{"jsonrpc":"2.0","method":"notifications/initialized"}`, true, ""},
		{"Response", `{"jsonrpc":"2.0","id":"s1","result":{}}`, true, ""},
		{"Blank", ``, true, ""},
		{"CRLF", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\r", true, ""},
		{"TwoNames", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"u","name":"m"}}`, false, `{"jsonrpc":"2.0","id":1,"error":{"code":-32600,"message":"jsonmask: a tools/call with two \"name\" members is ambiguous: not forwarded"}}`},
		{"NameNotString", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":5}}`, false, `"message":"jsonmask: the name of the tool must be a string: not forwarded"`},
		{"TwoParams", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"u"},"params":{"name":"m"}}`, false, `"code":-32600`},
		{"TwoIDs", `{"jsonrpc":"2.0","id":1,"id":2,"method":"tools/call","params":{"name":"m"}}`, false, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600`},
		{"TwoMethods", `{"jsonrpc":"2.0","id":1,"method":"ping","method":"tools/call","params":{"name":"m"}}`, false, `"code":-32600`},
		{"CallWithoutID", `{"jsonrpc":"2.0","method":"tools/call","params":{"name":"m"}}`, false, ""},
		{"NullID", `{"jsonrpc":"2.0","id":null,"method":"tools/call","params":{"name":"m"}}`, false, `"message":"jsonmask: the id of a tools/call must be a string or a number"`},
		{"ObjectID", `{"jsonrpc":"2.0","id":{},"method":"tools/list"}`, false, `"code":-32600`},
		{"NotJSON", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"m"},}`, false, `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"jsonmask: invalid character '}' looking for beginning of object key string at offset 68"}}`},
		{"NaN", `{"jsonrpc":"2.0","id":NaN,"method":"tools/call"}`, false, `"code":-32700`},
		{"Text", `hello`, false, `"code":-32700`},
		{"Scalar", `42`, false, `"code":-32600`},
		{"Truncated", `{"jsonrpc":"2.0","id":1,`, false, `"code":-32700`},
		{"Batch", `[{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"m"}},{"jsonrpc":"2.0","method":"notifications/initialized"}]`, true, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t)
			fwd, rep := h.client(tc.line)
			if (fwd == tc.line+"\n") != tc.forwarded || !tc.forwarded && fwd != "" {
				t.Fatalf("forwarded %q", fwd)
			}
			if tc.reply == "" && rep != "" || !strings.Contains(rep, tc.reply) {
				t.Fatalf("reply %q, want %q", rep, tc.reply)
			}
			if rep != "" && !json.Valid([]byte(rep)) {
				t.Fatalf("reply is not JSON: %s", rep)
			}
		})
	}
	t.Run("IDInUse", func(t *testing.T) {
		h := newHarness(t)
		h.call("1", "m")
		fwd, rep := h.client(`{"jsonrpc":"2.0","id":1.0,"method":"tools/call","params":{"name":"u"}}`)
		if fwd != "" || !strings.Contains(rep, "in use") {
			t.Fatalf("forwarded %q, reply %q", fwd, rep)
		}
		// Once answered, the id is free.
		h.server(result("1", `{"content":[]}`))
		h.call("1", "u")
	})
	t.Run("BatchWithReadVariable", func(t *testing.T) {
		h := newHarness(t)
		fwd, rep := h.client(`[{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"read_variable","arguments":{"name":"var_000000000000"}}},{"jsonrpc":"2.0","id":2,"method":"ping"}]`)
		if fwd != `[{"jsonrpc":"2.0","id":2,"method":"ping"}]`+"\n" {
			t.Fatalf("forwarded %q", fwd)
		}
		if !strings.Contains(rep, `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"jsonmask: read_variable: no such variable: \"var_000000000000\""}],"isError":true}}`) {
			t.Fatalf("reply %q", rep)
		}
	})
}

func TestServerLines(t *testing.T) {
	keep := `{"keep":1,"drop":"` + canary + `"}`
	pretty := "{\n  \"keep\": 1,\n  \"drop\": \"" + canary + "\"\n}"
	for _, tc := range []struct {
		name, tool, line, want string
	}{
		{"Text", "m", result("1", `{"content":[{"type":"text","text":`+jstr(keep)+`}]}`),
			result("1", `{"content":[{"type":"text","text":"{\"keep\":1}"}],"structuredContent":{"keep":1}}`)},
		{"StructuredAndText", "m", result("1", `{"content":[{"type":"text","text":`+jstr(pretty)+`}],"structuredContent":`+keep+`,"isError":false,"_meta":{"k":1}}`),
			result("1", `{"content":[{"type":"text","text":"{\"keep\":1}"}],"structuredContent":{"keep":1},"isError":false,"_meta":{"k":1}}`)},
		{"StructuredAndOtherText", "m", result("1", `{"content":[{"type":"text","text":`+jstr(`{"keep":2,"drop":"`+canary+`"}`)+`}],"structuredContent":`+keep+`}`),
			result("1", `{"content":[{"type":"text","text":"jsonmask: the result of the tool \"m\" is withheld: content item 0 holds JSON that is not the result's payload, which the mask would not see"}],"isError":true}`)},
		{"EscapedText", "m", result("1", `{"content":[{"type":"text","text":"\u007b\"keep\":\"\u00e9\",\"drop\":\"`+canary+`\"}"}]}`),
			result("1", `{"content":[{"type":"text","text":"{\"keep\":\"é\"}"}],"structuredContent":{"keep":"é"}}`)},
		{"Invalid", "m", result("1", `{"content":[{"type":"text","text":`+jstr(`{"drop":"`+canary+`",}`)+`}]}`),
			result("1", `{"content":[{"type":"text","text":"jsonmask: the result of the tool \"m\" is withheld: its text content could not be processed: invalid character looking for beginning of object key string at offset 25"}],"isError":true}`)},
		{"InvalidStructured", "m", `{"jsonrpc":"2.0","id":1,"result":{"content":[],"structuredContent":{"drop":NaN}}}`,
			`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"jsonmask: the result of the tool \"m\" is withheld: the server's response is not valid JSON: invalid character 'N' looking for beginning of value at offset 75"}],"isError":true}}`},
		{"InvalidIDLast", "m", `{"jsonrpc":"2.0","result":{"content":[],"structuredContent":{"drop":NaN}},"id":1}`, ``},
		{"Plaintext", "m", result("1", `{"content":[{"type":"text","text":"not JSON"}]}`), result("1", `{"content":[{"type":"text","text":"not JSON"}]}`)},
		{"ArrayWithoutArrays", "m", result("1", `{"content":[{"type":"text","text":"[1,2]"}]}`), result("1", `{"content":[{"type":"text","text":"[1,2]"}]}`)},
		{"ArrayMasked", "a", result("1", `{"content":[{"type":"text","text":`+jstr(`[`+keep+`,`+keep+`]`)+`}]}`),
			result("1", `{"content":[{"type":"text","text":"[{\"keep\":1},{\"keep\":1}]"}]}`)},
		{"Image", "m", result("1", `{"content":[{"type":"image","data":"AAAA","mimeType":"image/png"},{"type":"text","text":`+jstr(keep)+`}]}`),
			result("1", `{"content":[{"type":"text","text":"{\"keep\":1}"}],"structuredContent":{"keep":1}}`)},
		{"ImageUnmasked", "u", result("1", `{"content":[{"type":"image","data":"AAAA","mimeType":"image/png"},{"type":"text","text":`+jstr(`{"a":1}`)+`}],"isError":true}`),
			result("1", `{"content":[{"type":"image","data":"AAAA","mimeType":"image/png"},{"type":"text","text":`+jstr(`{"a":1}`)+`}],"isError":true}`)},
		{"Prose", "m", result("1", `{"content":[{"type":"text","text":`+jstr("Found it: "+keep)+`}],"structuredContent":`+keep+`}`),
			result("1", `{"content":[{"type":"text","text":"{\"keep\":1}"}],"structuredContent":{"keep":1}}`)},
		{"EmbeddedResource", "m", result("1", `{"content":[{"type":"text","text":"summary"},{"type":"resource","resource":{"uri":"x:1","text":`+jstr(keep)+`}}],"structuredContent":{"keep":3}}`),
			result("1", `{"content":[{"type":"text","text":"jsonmask: the result of the tool \"m\" is withheld: content item 1 holds JSON that is not the result's payload, which the mask would not see"}],"isError":true}`)},
		{"UnknownMember", "m", result("1", `{"content":[{"type":"text","text":`+jstr(keep)+`}],"toolResult":`+keep+`}`),
			result("1", `{"content":[{"type":"text","text":"{\"keep\":1}"}],"structuredContent":{"keep":1}}`)},
		{"UnknownMemberPlaintext", "m", result("1", `{"content":[{"type":"text","text":"ok"}],"toolResult":`+keep+`,"isError":false}`),
			result("1", `{"content":[{"type":"text","text":"ok"}],"isError":false}`)},
		{"UnknownMemberUnmasked", "u", result("1", `{"content":[{"type":"text","text":"{\"a\":1}"}],"x":2}`), result("1", `{"content":[{"type":"text","text":"{\"a\":1}"}],"x":2}`)},
		{"TwoContents", "m", result("1", `{"content":[],"content":[{"type":"text","text":`+jstr(keep)+`}]}`),
			result("1", `{"content":[{"type":"text","text":"jsonmask: the result of the tool \"m\" is withheld: the result has two content or structuredContent members"}],"isError":true}`)},
		{"TwoIDs", "m", `{"jsonrpc":"2.0","id":1,"id":2,"result":{"content":[{"type":"text","text":` + jstr(keep) + `}]}}`,
			`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"jsonmask: the result of the tool \"m\" is withheld: the server's response has two ids"}],"isError":true}}`},
		{"ResultAndError", "m", `{"jsonrpc":"2.0","id":1,"error":{"code":1,"message":"x"},"result":{"content":[{"type":"text","text":` + jstr(keep) + `}]}}`,
			`{"jsonrpc":"2.0","id":1,"error":{"code":1,"message":"x"},"result":{"content":[{"type":"text","text":"jsonmask: the result of the tool \"m\" is withheld: the server's response has two results or errors"}],"isError":true}}`},
		{"RPCError", "m", `{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"unknown tool"}}`, `{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"unknown tool"}}`},
		{"InputRequired", "m", result("1", `{"resultType":"input_required","inputRequests":{"a":{}}}`), result("1", `{"resultType":"input_required","inputRequests":{"a":{}}}`)},
		{"Instructions", "m", result("1", `{"content":[{"type":"text","text":`+jstr(`{"display_instructions_for_model":"Be brief.","keep":1,"drop":"`+canary+`"}`)+`}]}`),
			result("1", `{"content":[{"type":"text","text":"Be brief.\n\n{\"keep\":1}"}],"structuredContent":{"keep":1}}`)},
		{"UnmaskedWithinBudget", "u", result("1", `{"content":[{"type":"text","text":"{\"a\":1}"}],"structuredContent":{"a":1}}`), result("1", `{"content":[{"type":"text","text":"{\"a\":1}"}],"structuredContent":{"a":1}}`)},
		{"MaskWithoutBudget", "o", result("1", `{"content":[{"type":"text","text":`+jstr(keep)+`}]}`),
			result("1", `{"content":[{"type":"text","text":"{\"keep\":1}"}],"structuredContent":{"keep":1}}`)},
		{"StringID", "m", `{"jsonrpc":"2.0","id":"1","result":{"content":[{"type":"text","text":"x"}]}}`, `{"jsonrpc":"2.0","id":"1","result":{"content":[{"type":"text","text":"x"}]}}`},
		{"FloatID", "m", result("1.0", `{"content":[{"type":"text","text":`+jstr(keep)+`}]}`),
			result("1.0", `{"content":[{"type":"text","text":"{\"keep\":1}"}],"structuredContent":{"keep":1}}`)},
		{"Request", "m", `{"jsonrpc":"2.0","id":1,"method":"sampling/createMessage","params":{}}`, `{"jsonrpc":"2.0","id":1,"method":"sampling/createMessage","params":{}}`},
		{"Batch", "m", `[{"jsonrpc":"2.0","method":"notifications/message","params":{}},` + result("1", `{"content":[{"type":"text","text":`+jstr(keep)+`}]}`) + `]`,
			`[{"jsonrpc":"2.0","method":"notifications/message","params":{}},` + result("1", `{"content":[{"type":"text","text":"{\"keep\":1}"}],"structuredContent":{"keep":1}}`) + `]`},
		{"NotJSON", "m", `Server started on stdio`, ``},
		{"Blank", "m", ``, "\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t)
			h.call("1", tc.tool)
			got := h.server(tc.line)
			want := tc.want
			if want != "" && want != "\n" {
				want += "\n"
			}
			if got != want {
				t.Fatalf("got  %s\nwant %s\nlog: %s", got, want, h.log.drain())
			}
			if strings.Contains(h.log.drain(), canary) {
				t.Fatal("a diagnostic holds a dropped value")
			}
		})
	}
}

// TestServerVariable: a result over the budget becomes a variable, which
// read_variable reads under the budget of the tool that made it.
func TestServerVariable(t *testing.T) {
	h := newHarness(t)
	h.call("1", "v")
	var items []string
	for i := range 200 {
		items = append(items, `{"n":`+strings.Repeat("1", 1+i%5)+`}`)
	}
	doc := `{"keep":[` + strings.Join(items, ",") + `],"drop":"` + canary + `"}`
	got := h.server(result("1", `{"content":[{"type":"text","text":`+jstr(doc)+`}],"isError":false}`))
	var msg struct {
		Result struct {
			Content []struct{ Text string }
			IsError *bool
		}
	}
	if err := json.Unmarshal([]byte(got), &msg); err != nil || len(msg.Result.Content) != 1 || msg.Result.IsError == nil {
		t.Fatalf("%v: %s", err, got)
	}
	name := strings.Fields(msg.Result.Content[0].Text[strings.Index(msg.Result.Content[0].Text, "var_"):])[0]
	name = strings.TrimRight(name, ":,.")
	fwd, rep := h.client(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"read_variable","arguments":{"name":"` + name + `","pointer":"/keep/3"}}}`)
	if fwd != "" || rep != `{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"{\"n\":1111}"}],"structuredContent":{"n":1111}}}`+"\n" {
		t.Fatalf("forwarded %q, reply %s", fwd, rep)
	}
	_, rep = h.client(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"read_variable","arguments":{"name":"` + name + `","pointer":"/keep"}}}`)
	if !strings.Contains(rep, "over the 50-token budget") {
		t.Fatalf("a read over the budget of tool v: %s", rep)
	}
	_, rep = h.client(`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"read_variable","arguments":{"pointer":"/keep"}}}`)
	if !strings.Contains(rep, `"isError":true`) || !strings.Contains(rep, "the argument name is required") {
		t.Fatalf("reply %s", rep)
	}
	_, rep = h.client(`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"read_variable","arguments":{"name":"x","offset":"1"}}}`)
	if !strings.Contains(rep, `"isError":true`) || !strings.Contains(rep, "bad arguments") {
		t.Fatalf("reply %s", rep)
	}
}

// TestCancelled: a result the client cancelled is not sent.
func TestCancelled(t *testing.T) {
	h := newHarness(t)
	h.call("1", "m")
	h.client(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1,"reason":"user"}}`)
	if got := h.server(result("1", `{"content":[{"type":"text","text":"{\"keep\":1}"}]}`)); got != "" {
		t.Fatalf("got %s", got)
	}
	// The id is free again.
	h.call("1", "m")
}

// TestList: outputSchema goes from the tools whose results are rewritten;
// read_variable is added to the first page, and the server's own is hidden.
func TestList(t *testing.T) {
	h := newHarness(t)
	fwd, _ := h.client(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)
	if fwd == "" {
		t.Fatal("not forwarded")
	}
	got := h.server(result("1", `{"tools":[{"name":"m","inputSchema":{"type":"object"},"outputSchema":{"type":"object"}}, {"name":"x","outputSchema":{"type":"object"}},{"name":"read_variable","inputSchema":{}}],"nextCursor":"2"}`))
	want := result("1", `{"tools":[{"name":"m","inputSchema":{"type":"object"}},{"name":"x","outputSchema":{"type":"object"}},`+readVariableTool+`,`+queryVariableTool+`],"nextCursor":"2"}`) + "\n"
	if got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
	h.client(`{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"cursor":"2"}}`)
	if got := h.server(result("2", `{"tools":[]}`)); got != result("2", `{"tools":[]}`)+"\n" {
		t.Fatalf("second page: %s", got)
	}
	if !json.Valid([]byte(readVariableTool)) || !json.Valid([]byte(queryVariableTool)) {
		t.Fatal("readVariableTool is not JSON")
	}
}

// TestIDs: request ids are compared as JSON values.
func TestIDs(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		same bool
	}{
		{`1`, `1`, true}, {`1`, `1.0`, true}, {`1`, `1e0`, true}, {`10`, `1e1`, true}, {`-0`, `0`, true},
		{`"1"`, `"\u0031"`, true}, {`"a"`, `"a"`, true},
		{`1`, `"1"`, false}, {`1`, `2`, false}, {`1.5`, `1.50`, true}, {`12345678901234567890`, `12345678901234567891`, false},
	} {
		ka, okA := idKey([]byte(tc.a))
		kb, okB := idKey([]byte(tc.b))
		if !okA || !okB || (ka == kb) != tc.same {
			t.Errorf("%s and %s: keys %q %q", tc.a, tc.b, ka, kb)
		}
	}
	for _, bad := range []string{`null`, `{}`, `[]`, `true`, ``} {
		if _, ok := idKey([]byte(bad)); ok {
			t.Errorf("%s is an id", bad)
		}
	}
}

func TestSameJSON(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		same bool
	}{
		{`{"a":[1,2]}`, "{ \"a\" : [ 1 , 2 ] }\n", true},
		{`{"a":"é"}`, `{"a":"\u00e9"}`, true},
		{`{"\u0061":1}`, `{"a":1}`, true},
		{"\xEF\xBB\xBF{}", `{}`, true},
		{`{"a":1}`, `{"a":1.0}`, false},
		{`{"a":1,"b":2}`, `{"b":2,"a":1}`, false},
		{`{"a":1}`, `{"a":1}x`, false},
		{`{"a":1}`, `{"a":1`, false},
		{`[1]`, `[1,2]`, false},
		{`1`, ` 1`, true},
		{`1`, `1 `, true},
		{`-1.5e3 `, "-1.5e3", true},
		{`1`, `12`, false},
		{`1`, `1 x`, false},
		{`1 x`, `1`, false},
		{`[1, tru`, `[1,tru`, false},
		// Text cut inside a string: not JSON, and an answer, not a loop
		// (FuzzLongLine found the loop: a tool's result could stall its
		// session for good).
		{`{ "ab`, `{"ab`, false},
		{`{"a\`, `{ "a\`, false},
		// Not JSON is the same as nothing, even itself, as on a long
		// line's streamed path, where such text has no hash.
		{`{`, `{`, false},
		{`{"ab`, `{"ab`, false},
	} {
		if got := sameJSON([]byte(tc.a), []byte(tc.b)); got != tc.same {
			t.Errorf("sameJSON(%s, %s) = %v", tc.a, tc.b, got)
		}
	}
}

// chunkReader returns at most n bytes per read.
type chunkReader struct {
	r io.Reader
	n int
}

func (c *chunkReader) Read(p []byte) (int, error) { return c.r.Read(p[:min(len(p), c.n)]) }

// TestStreaming reads the server's output in chunks of every size, lines
// longer than the reader's buffer included: the client gets the same.
func TestStreaming(t *testing.T) {
	keep := `{"keep":"` + strings.Repeat("k", 100000) + `","drop":"` + canary + `"}`
	input := strings.Join([]string{
		`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":1}}`,
		result("1", `{"content":[{"type":"text","text":`+jstr(keep)+`}]}`),
		result("7", `{"content":[{"type":"text","text":"`+strings.Repeat("x", 70000)+`"}]}`),
		``,
		`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":2}}`,
	}, "\n") + "\n"
	var want string
	for i, size := range []int{1 << 20, 1, 2, 3, 7, 4095, 65535, 65536, 65537} {
		h := newHarness(t)
		h.call("1", "m")
		var r io.Reader = &chunkReader{strings.NewReader(input), size}
		if size == 1 {
			r = iotest.OneByteReader(strings.NewReader(input))
		}
		h.s.fromServer(r)
		h.s.wait()
		got := h.out.drain()
		if strings.Contains(got, canary) {
			t.Fatal("a dropped value reached the client")
		}
		if i == 0 {
			want = got
			if n := strings.Count(got, "\n"); n != 5 {
				t.Fatalf("%d lines", n)
			}
			continue
		}
		if got != want {
			t.Fatalf("chunks of %d: output differs", size)
		}
	}
	// The client's side, likewise.
	h := newHarness(t)
	var fwd bytes.Buffer
	h.s.server = &fwd
	in := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"u","arguments":{"a":"` + strings.Repeat("y", 80000) + `"}}}` + "\n" + `{"jsonrpc":"2.0","id":2,"method":"ping"}`
	h.s.fromClient(bufio.NewReaderSize(iotest.HalfReader(strings.NewReader(in)), 16))
	if fwd.String() != in {
		t.Fatal("the client's lines did not pass as they were")
	}
}

// FuzzServerResult: whatever a masked tool returns, as text or as
// structuredContent, the client gets exactly what the mask keeps of it (as
// the model text and as structuredContent), or an error result; never a
// member the mask drops.
func FuzzServerResult(f *testing.F) {
	for _, s := range []string{`{"keep":1,"drop":2}`, `{"drop":{"keep":1}}`, `{"keep":{"drop":1}}`, `[1]`, `not json`, `{"keep":"\u00e9"`,
		` {"keep":[1,{"drop":1}]} `, `{"display_instructions_for_model":"x","keep":1}`, "\xEF\xBB\xBF{}", `{"keep":1}{}`, `{"a":"\ud800"}`,
		`{ "keep`, `{"keep":"a\`, `[1, tru`, `1`, ` 1`, `1 `} {
		f.Add(s, false)
		f.Add(s, true)
	}
	h := newHarness(f)
	f.Fuzz(func(t *testing.T, payload string, structured bool) {
		if structured && !json.Valid([]byte(payload)) {
			return
		}
		h.t = t
		h.call("1", "m")
		res := `{"content":[{"type":"text","text":` + jstr(payload) + `}]}`
		if structured {
			res = `{"content":[],"structuredContent":` + payload + `}`
		} else {
			// What the proxy reads: invalid UTF-8 as U+FFFD.
			if err := json.Unmarshal([]byte(jstr(payload)), &payload); err != nil {
				t.Fatal(err)
			}
		}
		h.s.serverLine(&h.ps, []byte(result("1", res)+"\n"))
		h.s.wait()
		got := h.out.drain()
		var msg struct {
			Result struct {
				Content []struct {
					Type, Text string
				}
				StructuredContent json.RawMessage
				IsError           bool
			}
		}
		if err := json.Unmarshal([]byte(got), &msg); err != nil {
			t.Fatalf("not JSON: %v: %s", err, got)
		}
		if firstOf(payload) != '{' {
			return // not masked (SPEC B3)
		}
		ref, err := h.p.tools["m"].mask.Append(nil, []byte(payload))
		if msg.Result.IsError != (err != nil) {
			t.Fatalf("isError %v, the mask's error %v: %s", msg.Result.IsError, err, got)
		}
		if err != nil {
			return
		}
		if len(msg.Result.Content) != 1 || !strings.HasSuffix(msg.Result.Content[0].Text, string(ref)) {
			t.Fatalf("the client got %s\nthe mask keeps %s", got, ref)
		}
		if !bytes.Equal(msg.Result.StructuredContent, ref) {
			t.Fatalf("structuredContent %s, the mask keeps %s", msg.Result.StructuredContent, ref)
		}
	})
}

// firstOf is the first byte of s that is not whitespace.
func firstOf(s string) byte {
	s = strings.TrimLeft(strings.TrimPrefix(s, "\xEF\xBB\xBF"), " \t\r\n")
	if s == "" {
		return 0
	}
	return s[0]
}

// FuzzClientLine: no line of the client panics the proxy; what it forwards
// is the line or a batch of its elements, and what it answers is JSON.
func FuzzClientLine(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"m"}}`,
		`{"jsonrpc":"2.0","id":"x","method":"tools/list","params":{"cursor":"2"}}`,
		`[{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"read_variable","arguments":{"name":"v"}}},{"jsonrpc":"2.0","id":2,"method":"ping"}]`,
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}`,
		`{"id":1,"id":2}`, `42`, `[`, ``,
	} {
		f.Add(s)
	}
	h := newHarness(f)
	f.Fuzz(func(t *testing.T, line string) {
		if strings.ContainsRune(line, '\n') {
			return
		}
		h.t = t
		h.s = newSession(h.p, h.out, io.Discard)
		fwd, rep := h.client(line)
		if fwd != "" && fwd != line+"\n" && !json.Valid([]byte(fwd)) {
			t.Fatalf("forwarded %q", fwd)
		}
		for _, l := range strings.Split(strings.TrimSuffix(rep, "\n"), "\n") {
			if l != "" && !json.Valid([]byte(l)) {
				t.Fatalf("answered %q", l)
			}
		}
	})
}

// blockingStore is a store whose drafts wait for release.
type blockingStore struct {
	toolresult.MemStore
	release chan struct{}
}

func (b *blockingStore) Create() (toolresult.Draft, error) {
	<-b.release
	return b.MemStore.Create()
}

// blockedResult gives the harness's tool v a store that blocks until its
// release is closed, calls v with the id 1, and returns the store and a
// server's result line for that call, whose processing then blocks.
func blockedResult(t *testing.T, h *harness) (*blockingStore, []byte) {
	t.Helper()
	bs := &blockingStore{release: make(chan struct{})}
	v := h.p.tools["v"]
	var err error
	if v.proc, err = v.proc.With(toolresult.WithStore(bs)); err != nil {
		t.Fatal(err)
	}
	h.call("1", "v")
	doc := `{"keep":[` + strings.Repeat(`"some words to count",`, 500) + `1]}`
	return bs, []byte(result("1", `{"content":[{"type":"text","text":`+jstr(doc)+`}]}`) + "\n")
}

// TestHeldInOrder: a result being processed does not hold up reading the
// server, and the messages behind it wait for it: the client gets them in
// the order the server sent them (SPEC P1).
func TestHeldInOrder(t *testing.T) {
	h := newHarness(t)
	bs, res := blockedResult(t, h)
	note := `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"after"}}` + "\n"
	pumped := make(chan struct{})
	go func() { // the server's pump
		h.s.serverLine(&h.ps, res)
		h.s.serverLine(&h.ps, []byte(note))
		close(pumped)
	}()
	select {
	case <-pumped:
	case <-time.After(5 * time.Second):
		close(bs.release)
		t.Fatal("reading the server waited for the result's processing")
	}
	if got := h.out.drain(); got != "" {
		t.Fatalf("the client got %q before the result was done", got)
	}
	close(bs.release)
	h.s.wait()
	got := h.out.drain()
	i := strings.Index(got, `"id":1,"result":{"content":[{"type":"text","text":"The response (`)
	if i < 0 || !strings.HasSuffix(got, note) || strings.Index(got, note) < i {
		t.Fatalf("then %q", got)
	}
}

// TestStoreFails: a masked tool's result over the budget, when the store
// cannot take the variable, becomes an error result that says why; nothing
// of the result, dropped values least of all, reaches the client.
func TestStoreFails(t *testing.T) {
	cfg, err := ParseConfig([]byte(harnessConfig))
	if err != nil {
		t.Fatal(err)
	}
	cfg.Store = filepath.Join(t.TempDir(), "store")
	p, err := New(cfg, WithLog(io.Discard))
	if err != nil {
		t.Fatal(err)
	}
	// The store's directory becomes a file: every draft fails.
	if err := os.RemoveAll(cfg.Store); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cfg.Store, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	out := &lockedBuffer{}
	h := &harness{t: t, p: p, s: newSession(p, out, io.Discard), out: out, log: &lockedBuffer{}}
	h.call("1", "v")
	doc := `{"keep":"` + strings.Repeat("kept words ", 200) + `","drop":"` + canary + `"}`
	got := h.server(result("1", `{"content":[{"type":"text","text":`+jstr(doc)+`}]}`))
	if !strings.Contains(got, `"isError":true`) || strings.Contains(got, "kept words") {
		t.Fatalf("the client got %s", got)
	}
}

// TestOwnToolIDs: a call of read_variable whose id is in use by a request
// in flight is refused, as other duplicate ids are; so is a request whose
// id is in use by a read_variable being answered.
func TestOwnToolIDs(t *testing.T) {
	h := newHarness(t)
	h.call("5", "m")
	readVar := func(id string) string {
		return `{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"read_variable","arguments":{"name":"var_000000000000"}}}`
	}
	if fwd, rep := h.client(readVar("5")); fwd != "" || strings.Count(rep, `"id":5`) != 1 || !strings.Contains(rep, "in use") {
		t.Fatalf("a read_variable with the id of a call in flight: forwarded %q, answered %q", fwd, rep)
	}
	// Hold the read_variable being answered: every processing slot is taken.
	for range cap(h.s.slots) {
		h.s.slots <- struct{}{}
	}
	if fwd := h.s.clientLine(&h.ps, []byte(readVar("6")+"\n")); fwd != nil {
		t.Fatalf("forwarded %q", fwd)
	}
	for _, line := range []string{readVar("6"), `{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"m","arguments":{}}}`} {
		if fwd := h.s.clientLine(&h.ps, []byte(line+"\n")); fwd != nil {
			t.Fatalf("a request with the id of a read_variable in flight was forwarded: %q", fwd)
		}
	}
	for range cap(h.s.slots) {
		<-h.s.slots
	}
	h.s.wait()
	if got := h.out.drain(); strings.Count(got, `"id":6,"result"`) != 1 || strings.Count(got, `"id":6,"error"`) != 2 {
		t.Fatalf("the client got %s", got)
	}
}

// FuzzTaskResult: a result, whatever it is, reaches the client as valid
// JSON, and a masked tool's task result (SPEC P8) is rewritten exactly as the
// same result of a tools/call of that tool is. (The canary is not looked
// for: the fuzzer moves it where the mask keeps it, or into prose that
// passes, with a warning, as SPEC B3 says.)
func FuzzTaskResult(f *testing.F) {
	for _, s := range []string{
		`{"content":[{"type":"text","text":"{\"keep\":1,\"drop\":\"` + canary + `\"}"}]}`,
		`{"content":[{"type":"text","text":"x"}],"structuredContent":{"content":"{\"keep\":[1],\"drop\":\"` + canary + `\"}"}}`,
		`{"content":[{"type":"text","text":"plain"}],"structuredContent":{"content":"plain"}}`,
		`{"content":[{"type":"image","data":"AAAA","mimeType":"image/png"}],"structuredContent":{"content":[{"type":"image","data":"AAAA","mimeType":"image/png"}]}}`,
		`{"task":{"taskId":"t9","status":"working"},"other":"` + canary + `"}`,
		`{"content":[],"structuredContent":[1,2]}`, `[]`, `{"content":{}}`, `{"isError":true,"content":[{"type":"text","text":"no"}]}`,
	} {
		f.Add(s)
	}
	h := newHarness(f)
	f.Fuzz(func(t *testing.T, res string) {
		if !json.Valid([]byte(res)) || strings.ContainsAny(res, "\n") {
			return
		}
		h.t = t
		h.s = newSession(h.p, h.out, io.Discard)
		server := func(line string) string {
			h.s.serverLine(&h.ps, []byte(line+"\n"))
			h.s.wait()
			got := h.out.drain()
			for _, l := range strings.Split(strings.TrimSuffix(got, "\n"), "\n") {
				if l != "" && !json.Valid([]byte(l)) {
					t.Fatalf("the client got a line that is not JSON: %s", l)
				}
			}
			return got
		}
		h.call("1", "m")
		direct := server(result("1", res))
		// The same result as a task's.
		if fwd, rep := h.client(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"m","arguments":{},"task":{"ttl":1000}}}`); fwd == "" || rep != "" {
			t.Fatalf("the task's call was not forwarded: %q", rep)
		}
		created := server(result("2", `{"task":{"taskId":"t1","status":"working"}}`))
		if !strings.Contains(created, `"taskId":"t1"`) {
			t.Fatalf("the task's creation: %s", created)
		}
		if fwd, rep := h.client(`{"jsonrpc":"2.0","id":1,"method":"tasks/result","params":{"taskId":"t1"}}`); fwd == "" || rep != "" {
			t.Fatalf("tasks/result was not forwarded: %q", rep)
		}
		viaTask := server(result("1", res))
		var top map[string]json.RawMessage
		if json.Unmarshal([]byte(res), &top) == nil && top["task"] != nil {
			return // a task's creation, as a tools/call result: not as a task's result
		}
		if viaTask != direct {
			t.Fatalf("tools/call gave\n%s\ntasks/result gave\n%s", direct, viaTask)
		}
	})
}

// TestTaskExtension: the tasks extension of later protocols (a tools/call
// result with resultType "task" and the task's members its own; tasks/get
// with the finished task's result inline) gets the same treatment as
// MCP 2025-11-25's tasks (SPEC P8): the task passes, its inline result is
// masked, and one that cannot be attributed is withheld.
func TestTaskExtension(t *testing.T) {
	h := newHarness(t)
	if fwd, rep := h.client(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"m","arguments":{},"task":{}}}`); fwd == "" || rep != "" {
		t.Fatalf("not forwarded: %q", rep)
	}
	got := h.server(result("1", `{"resultType":"task","taskId":"t5","status":"working","extra":"`+canary+`"}`))
	if !strings.Contains(got, `"taskId":"t5"`) || strings.Contains(got, "extra") {
		t.Fatalf("the task's creation: %s", got)
	}
	inline := `{"taskId":"%s","status":"completed","result":{"content":[{"type":"text","text":` + jstr(`{"keep":1,"drop":"`+canary+`"}`) + `}]}}`
	for _, tc := range []struct{ task, want string }{
		{"t5", `"result":{"content":[{"type":"text","text":"{\"keep\":1}"}],"structuredContent":{"keep":1}}`},
		{"unknown", `"isError":true`},
	} {
		if fwd, rep := h.client(`{"jsonrpc":"2.0","id":2,"method":"tasks/get","params":{"taskId":"` + tc.task + `"}}`); fwd == "" || rep != "" {
			t.Fatalf("tasks/get not forwarded: %q", rep)
		}
		got := h.server(result("2", strings.Replace(inline, "%s", tc.task, 1)))
		if !strings.Contains(got, tc.want) || !strings.Contains(got, `"status":"completed"`) {
			t.Fatalf("tasks/get of %s: %s", tc.task, got)
		}
	}
	// A task without an inline result passes as it is.
	h.client(`{"jsonrpc":"2.0","id":3,"method":"tasks/get","params":{"taskId":"unknown"}}`)
	plain := result("3", `{"taskId":"unknown","status":"working"}`)
	if got := h.server(plain); got != plain+"\n" {
		t.Fatalf("got %s", got)
	}
}

// TestUnescaper: a text payload read through the unescaping reader is the
// text unescaped whole, wherever its escapes fall against the reader's
// windows.
func TestUnescaper(t *testing.T) {
	for _, esc := range []string{`\ud83d\ude00`, `\u00e9`, `\n`, `\\`, `\"`, `\ud800`, `\udc00x`, `\\u0041`} {
		for pad := 32<<10 - 14; pad <= 32<<10+2; pad++ {
			raw := strings.Repeat("a", pad) + esc + strings.Repeat(esc, 3) + "z"
			got, err := io.ReadAll(&unescaper{raw: []byte(raw)})
			want := tokenizer.AppendUnescaped(nil, []byte(raw))
			if err != nil || !bytes.Equal(got, want) {
				t.Fatalf("%s after %d bytes: %d bytes, want %d", esc, pad, len(got), len(want))
			}
		}
	}
}

// TestHeldBound: what waits behind a result being processed is bounded
// (maxHeldMessages): past it, reading the server waits for the result.
func TestHeldBound(t *testing.T) {
	h := newHarness(t)
	bs, res := blockedResult(t, h)
	h.s.serverLine(&h.ps, res)
	note := func(i int) []byte {
		return []byte(`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":` + strconv.Itoa(i) + `}}` + "\n")
	}
	var pumped atomic.Int64
	done := make(chan struct{})
	go func() { // the server's pump
		for i := range maxHeldMessages + 10 {
			h.s.serverLine(&h.ps, note(i))
			pumped.Add(1)
		}
		close(done)
	}()
	// The pump reads up to the bound (the result's place included), then
	// waits.
	for i := 0; pumped.Load() < maxHeldMessages-1 && i < 500; i++ {
		time.Sleep(10 * time.Millisecond)
	}
	time.Sleep(100 * time.Millisecond)
	if n := pumped.Load(); n != maxHeldMessages-1 {
		t.Errorf("%d messages read behind the result being processed, want %d", n, maxHeldMessages-1)
	}
	close(bs.release)
	<-done
	h.s.wait()
	got := strings.Split(strings.TrimSuffix(h.out.drain(), "\n"), "\n")
	if len(got) != maxHeldMessages+11 || !strings.Contains(got[0], `"id":1,"result"`) {
		t.Fatalf("%d messages, the first %.100s", len(got), got[0])
	}
	for i, l := range got[1:] {
		if l+"\n" != string(note(i)) {
			t.Fatalf("message %d out of order: %s", i, l)
		}
	}
}
