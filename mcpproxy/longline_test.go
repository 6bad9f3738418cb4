package mcpproxy

import (
	"encoding/json"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"
)

// streamedHarness is a harness whose server lines past 64 bytes are
// streamed, their values past 32 bytes not held, read 16 bytes at a time.
func streamedHarness(t testing.TB) *harness {
	h := newHarness(t)
	h.s.streamAt, h.s.bigAt, h.s.readSize = 64, 32, 16
	return h
}

// viaReader gives the session a line of the server through fromServer, in
// chunks of n bytes; it returns what the client got.
func (h *harness) viaReader(line string, n int) string {
	h.s.fromServer(&chunkReader{strings.NewReader(line + "\n"), n})
	h.s.wait()
	return h.drainChecked()
}

// TestLongLines: a long line of the server, streamed, reaches the client
// as it would held whole; where the rewrite needs what the proxy does not
// keep, the call gets an error result. Never a dropped value.
func TestLongLines(t *testing.T) {
	var items []string
	for i := range 60 {
		items = append(items, `{"id":`+strings.Repeat("7", 1+i%4)+`,"status":"ok","secret":"`+canary+`"}`)
	}
	doc := `{"keep":"k\u00e9\ud83d\ude00 \"q\"","drop":"` + canary + `","items":[` + strings.Join(items, ",") + `],"count":60}`
	pretty := strings.ReplaceAll(doc, ",", ",\n  ")
	other := strings.Replace(doc, `"count":60`, `"count":61`, 1)
	plain := strings.Repeat("plain text, not JSON. ", 20)
	text := func(s string) string { return `{"type":"text","text":` + jstr(s) + `}` }
	for _, tc := range []struct {
		name, tool, line string
		notStreamed      bool // the streamed line gets an error result
	}{
		{"Text", "m", result("1", `{"content":[`+text(doc)+`]}`), false},
		{"TextVariable", "v", result("1", `{"content":[`+text(doc)+`],"isError":false}`), false},
		{"TextDefault", "d", result("1", `{"content":[`+text(doc)+`]}`), false},
		{"Structured", "m", result("1", `{"content":[],"structuredContent":`+doc+`}`), false},
		{"StructuredArray", "a", result("1", `{"content":[],"structuredContent":[`+doc+`,`+doc+`]}`), false},
		{"TextAndStructured", "m", result("1", `{"content":[`+text(pretty)+`],"structuredContent":`+doc+`}`), false},
		{"TextAndStructuredVariable", "v", result("1", `{"content":[`+text(pretty)+`],"structuredContent":`+doc+`}`), false},
		{"TextAndOtherStructured", "m", result("1", `{"content":[`+text(other)+`],"structuredContent":`+doc+`}`), false},
		{"TextAndSmallStructured", "m", result("1", `{"content":[`+text(doc)+`],"structuredContent":{"keep":1}}`), false},
		{"Wrapper", "m", result("1", `{"content":[`+text(doc)+`],"structuredContent":{"content":`+jstr(doc)+`}}`), false},
		{"WrapperAlone", "v", result("1", `{"content":[],"structuredContent":{"content":`+jstr(doc)+`}}`), false},
		{"WrapperAndMore", "m", result("1", `{"content":[],"structuredContent":{"content":`+jstr(doc)+`,"n":1}}`), true},
		{"Plain", "m", result("1", `{"content":[`+text(plain)+`]}`), false},
		{"PlainWrapper", "u", result("1", `{"content":[`+text(plain)+`],"structuredContent":{"content":`+jstr(plain)+`}}`), false},
		{"Invalid", "m", result("1", `{"content":[`+text(doc+",")+`]}`), false},
		{"InvalidUnmasked", "u", result("1", `{"content":[`+text(doc+",")+`]}`), false},
		{"InvalidStructured", "m", `{"jsonrpc":"2.0","id":1,"result":{"content":[],"structuredContent":` + strings.Replace(doc, "60}", "NaN}", 1) + `}}`, false},
		{"Unmasked", "u", result("1", `{"content":[`+text(doc)+`]}`), false},
		{"UnmaskedProse", "u", result("1", `{"content":[`+text("Found:")+`,`+text(doc)+`]}`), false},
		{"UnmaskedProseVariable", "u", result("1", `{"content":[`+text(plain)+`,`+text(doc+strings.Repeat(" ", 0))+`]}`), false},
		{"Image", "m", result("1", `{"content":[{"type":"image","data":"`+strings.Repeat("AAAA", 50)+`","mimeType":"image/png"},`+text(doc)+`]}`), false},
		{"IDLast", "m", `{"jsonrpc":"2.0","result":{"content":[` + text(doc) + `]},"id":1}`, false},
		{"TwoIDs", "m", `{"jsonrpc":"2.0","id":1,"id":2,"result":{"content":[` + text(doc) + `]}}`, false},
		{"Request", "m", `{"jsonrpc":"2.0","id":1,"method":"sampling/createMessage","params":{"x":` + jstr(doc) + `}}`, false},
		{"OtherID", "m", result("5", `{"content":[`+text(doc)+`]}`), false},
		{"Batch", "m", `[` + result("1", `{"content":[`+text(doc)+`]}`) + `]`, false},
		{"Instructions", "m", result("1", `{"content":[`+text(`{"display_instructions_for_model":"Be brief.",`+doc[1:])+`]}`), false},
		{"InputRequired", "m", result("1", `{"content":[`+text(doc)+`],"resultType":"input_required"}`), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.tool == "u" || strings.Contains(tc.line, `"method"`) || strings.Contains(tc.line, `"id":5`) || strings.Contains(tc.line, "input_required") {
				// What passes unmasked holds no canary.
				tc.line = strings.ReplaceAll(tc.line, canary, "open-data")
			}
			h := newHarness(t)
			h.call("1", tc.tool)
			want := h.server(tc.line)
			for _, n := range []int{1, 7, 64, 1 << 20} {
				h := streamedHarness(t)
				h.call("1", tc.tool)
				got := h.viaReader(tc.line, n)
				switch {
				case tc.notStreamed:
					if !strings.Contains(got, `"isError":true`) || !strings.Contains(got, errNotStreamed.Error()[:20]) {
						t.Fatalf("chunks of %d: got %s", n, got)
					}
				case got != want:
					t.Fatalf("chunks of %d:\ngot  %s\nwant %s\nlog: %s", n, got, want, h.log.drain())
				}
				if strings.Contains(h.log.drain(), canary) {
					t.Fatal("a diagnostic holds a dropped value")
				}
			}
		})
	}
}

// TestLongLineNotHeld: a result streamed to a masked tool over its budget
// is not held: what the proxy allocates while it reads a line of 24 MB is
// hardly more than for one of 8 MB.
func TestLongLineNotHeld(t *testing.T) {
	if testing.Short() {
		t.Skip("32 MB of lines")
	}
	h := newHarness(t)
	h.call("1", "d")
	h.server(result("1", `{"content":[{"type":"text","text":"{\\"id\\":1}"}]}`)) // the tokenizer's tables, made once
	alloc := func(size int) (uint64, int) {
		var b strings.Builder
		b.WriteString(`{"keep":1,"items":[`)
		for i := 0; b.Len() < size; i++ {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(`{"id":12345,"status":"open","note":"a note that the mask drops: ` + canary + `"}`)
		}
		b.WriteString(`]}`)
		line := result("1", `{"content":[{"type":"text","text":`+jstr(b.String())+`}]}`) + "\n"
		h.call("1", "d")
		alloc := h.allocsOfServerLine(line)
		if got := h.out.drain(); !strings.Contains(got, "var_") || strings.Contains(got, canary) {
			t.Fatalf("not a variable: %.300s", got)
		}
		return alloc, len(line)
	}
	small, n := alloc(8 << 20)
	large, m := alloc(24 << 20)
	t.Logf("allocated %d bytes for a line of %d, %d for %d", small, n, large, m)
	if large > small+uint64(m-n)/8 {
		t.Fatalf("allocated %d bytes for a line of %d, %d for %d: it grows with the line", small, n, large, m)
	}
}

// FuzzLongLine: a result read whole and the same result streamed (its
// values past 32 bytes not held) reach the client as the same JSON (a text
// the processor put back may use other escapes than the server's), or the
// streamed one is an error result: one that says it was too long to hold
// whole, or any one where the whole one is an error result too.
func FuzzLongLine(f *testing.F) {
	for _, s := range []string{`{"keep":"` + strings.Repeat("k", 40) + `","drop":"` + canary + `"}`,
		`{"keep":[` + strings.Repeat(`{"id":1,"status":"a"},`, 5) + `1],"x":"\u00e9\ud83d\ude00"}`, strings.Repeat("not json ", 10),
		`[` + strings.Repeat(`{"keep":1,"drop":2},`, 4) + `{}]`, `{"keep":"` + strings.Repeat(`\"`, 30) + `"}`, `{"a":` + strings.Repeat(" ", 50) + `1,}`} {
		for mode := range uint8(6) {
			f.Add(s, mode, uint8(7))
		}
	}
	f.Fuzz(func(t *testing.T, payload string, mode, chunk uint8) {
		tool := []string{"m", "u", "a", "v"}[mode%4]
		text := `{"type":"text","text":` + jstr(payload) + `}`
		var res string
		switch mode / 4 % 4 {
		case 0:
			res = `{"content":[` + text + `]}`
		case 1:
			if !json.Valid([]byte(payload)) {
				return
			}
			res = `{"content":[` + text + `],"structuredContent":` + payload + `}`
		case 2:
			res = `{"content":[` + text + `],"structuredContent":{"content":` + jstr(payload) + `}}`
		case 3:
			res = `{"content":[{"type":"text","text":"summary"}],"structuredContent":{"content":` + jstr(payload) + `,"n":1}}`
		}
		line := result("1", res)
		run := func(streamed bool) string {
			h := newHarness(t)
			if streamed {
				h.s.streamAt, h.s.bigAt, h.s.readSize = 64, 32, 16
			}
			h.call("1", tool)
			h.s.fromServer(&chunkReader{strings.NewReader(line + "\n"), 1 + int(chunk)})
			h.s.wait()
			return h.out.drain()
		}
		whole, streamed := run(false), run(true)
		if streamed == whole || sameMessages(whole, streamed) {
			return
		}
		if isErrorResult(whole) && isErrorResult(streamed) {
			// Both withheld, for different reasons: a result is judged
			// the same way whether its values stream or not.
			if strings.Contains(streamed, canary) {
				t.Fatal("a dropped value reached the client")
			}
			t.Fatalf("withheld for another reason when streamed\nwhole:    %s\nstreamed: %s", whole, streamed)
		}
		if !json.Valid([]byte(streamed)) || !strings.Contains(streamed, `"isError":true`) || !strings.Contains(streamed, "too long to hold whole") {
			t.Fatalf("whole:    %s\nstreamed: %s", whole, streamed)
		}
		if tool != "u" && strings.Contains(payload, canary) && strings.Contains(streamed, canary) {
			t.Fatal("a dropped value reached the client")
		}
	})
}

// TestLongLineLimits: a long line that must be held whole (its id after
// its result, or not a result to rewrite) is held up to the session's
// limit; past it, the call it answers gets an error, a response to a call
// the proxy does not rewrite becomes a JSON-RPC error, and nothing of the
// line reaches the client.
func TestLongLineLimits(t *testing.T) {
	doc := jstr(`{"keep":1,"drop":"` + canary + `","pad":"` + strings.Repeat("p", 600) + `"}`)
	for _, tc := range []struct {
		name, line, want string
	}{
		{"IDLast", `{"jsonrpc":"2.0","result":{"content":[{"type":"text","text":` + doc + `}]},"id":1}`,
			`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"jsonmask: the result of the tool \"m\" is withheld: the server's response is too long: the message is longer than the proxy holds of a message it cannot stream (0 MiB)"}],"isError":true}}`},
		{"OtherCall", `{"jsonrpc":"2.0","id":5,"result":{"content":[{"type":"text","text":` + doc + `}]}}`,
			`{"jsonrpc":"2.0","id":5,"error":{"code":-32603,"message":"jsonmask: the server's response is too long: the message is longer than the proxy holds of a message it cannot stream (0 MiB)"}}`},
		{"Request", `{"jsonrpc":"2.0","id":9,"method":"sampling/createMessage","params":{"x":` + doc + `}}`, ``},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := streamedHarness(t)
			h.s.maxHeld = 300
			h.call("1", "m")
			got := h.viaReader(tc.line, 7)
			if want := tc.want; got != want && got != want+"\n" {
				t.Fatalf("got  %s\nwant %s", got, want)
			}
			if log := h.log.drain(); !strings.Contains(log, "too long") || strings.Contains(log, canary) {
				t.Fatalf("log: %s", log)
			}
		})
	}
}

// TestLongLineOrder: a streamed result keeps its place: the notification
// the server wrote after it reaches the client after it (SPEC P1).
func TestLongLineOrder(t *testing.T) {
	doc := jstr(`{"keep":1,"drop":"` + canary + `","pad":"` + strings.Repeat("p", 600) + `"}`)
	note := `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":1}}`
	h := streamedHarness(t)
	h.call("1", "m")
	got := h.viaReader(result("1", `{"content":[{"type":"text","text":`+doc+`}]}`)+"\n"+note, 5)
	lines := strings.Split(strings.TrimSuffix(got, "\n"), "\n")
	if len(lines) != 2 || !strings.Contains(lines[0], `"id":1`) || lines[1] != note {
		t.Fatalf("got %s", got)
	}
}

// TestLongLineTask: a task's tasks/result on a long line gets its tool's
// mask and budget as a tools/call result does (SPEC P8), streamed.
func TestLongLineTask(t *testing.T) {
	doc := `{"keep":"` + strings.Repeat("k", 300) + `","drop":"` + canary + `"}`
	res := `{"content":[{"type":"text","text":` + jstr(doc) + `}]}`
	h := newHarness(t)
	h.call("1", "m")
	direct := h.server(result("1", res))
	h = streamedHarness(t)
	if fwd, rep := h.client(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"m","arguments":{},"task":{"ttl":1000}}}`); fwd == "" || rep != "" {
		t.Fatalf("the task's call was not forwarded: %q", rep)
	}
	if created := h.viaReader(result("2", `{"task":{"taskId":"t1","status":"working"}}`), 3); !strings.Contains(created, `"taskId":"t1"`) {
		t.Fatalf("the task's creation: %s", created)
	}
	if fwd, rep := h.client(`{"jsonrpc":"2.0","id":1,"method":"tasks/result","params":{"taskId":"t1"}}`); fwd == "" || rep != "" {
		t.Fatalf("tasks/result was not forwarded: %q", rep)
	}
	if got := h.viaReader(result("1", res), 7); got != direct {
		t.Fatalf("streamed tasks/result gave\n%s\ntools/call gave\n%s", got, direct)
	}
}

// TestLongLineCancelled: a streamed result of a call the client cancelled
// is not sent, and the id is free again.
func TestLongLineCancelled(t *testing.T) {
	doc := `{"keep":"` + strings.Repeat("k", 300) + `","drop":"` + canary + `"}`
	h := streamedHarness(t)
	h.call("1", "m")
	h.client(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1,"reason":"user"}}`)
	if got := h.viaReader(result("1", `{"content":[{"type":"text","text":`+jstr(doc)+`}]}`), 5); got != "" {
		t.Fatalf("got %s", got)
	}
	h.call("1", "m")
}

// TestLongProse: a long text that is not JSON, held (the model sees it
// whole), is read in time and memory linear in its length: it is looked at
// once, not once per window.
func TestLongProse(t *testing.T) {
	if testing.Short() {
		t.Skip("16 MB")
	}
	prose := strings.Repeat("Plain words of a long log line, not JSON. ", 16<<20/42)
	line := result("1", `{"content":[{"type":"text","text":`+jstr(prose)+`}]}`) + "\n"
	h := newHarness(t)
	h.call("1", "m")
	alloc := h.allocsOfServerLine(line)
	if got := h.out.drain(); !strings.Contains(got, "Plain words") {
		t.Fatalf("%.300s", got)
	}
	if alloc > 8*uint64(len(line)) {
		t.Fatalf("allocated %d bytes for a line of %d", alloc, len(line))
	}
}

// allocsOfServerLine gives the session line from the server, in windows
// of 1 MiB, and returns the bytes the process allocated until the session
// was done with it.
func (h *harness) allocsOfServerLine(line string) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	h.s.fromServer(&chunkReader{strings.NewReader(line), 1 << 20})
	h.s.wait()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// sameMessages reports whether a and b are the same JSON-RPC lines once
// decoded: a text that streamed through the processor as plaintext is
// written back quoted as the house quotes (jsonwire.AppendQuote), where the
// line read whole kept the server's own escapes ("\u0026" for "&").
func sameMessages(a, b string) bool {
	la, lb := strings.Split(a, "\n"), strings.Split(b, "\n")
	if len(la) != len(lb) {
		return false
	}
	for i := range la {
		if la[i] == lb[i] {
			continue
		}
		va, erra := decodeNumbers(la[i])
		vb, errb := decodeNumbers(lb[i])
		if erra != nil || errb != nil || !reflect.DeepEqual(va, vb) {
			return false
		}
	}
	return true
}

// decodeNumbers decodes one JSON value, numbers as written.
func decodeNumbers(s string) (any, error) {
	d := json.NewDecoder(strings.NewReader(s))
	d.UseNumber()
	var v any
	err := d.Decode(&v)
	return v, err
}

// isErrorResult reports whether out is one line, a result with isError.
func isErrorResult(out string) bool {
	return strings.Count(out, "\n") <= 1 && json.Valid([]byte(strings.TrimSuffix(out, "\n"))) && strings.Contains(out, `"isError":true`)
}

// TestCutTextsAnswered: a result whose content text and structuredContent
// text are both JSON cut short, differing in whitespace, is withheld with an
// answer. sameJSON used to ask the scanner for the cut token's next piece
// for ever, which stalled the session for good (found by FuzzLongLine).
func TestCutTextsAnswered(t *testing.T) {
	for _, tc := range []struct{ name, text, wrapped string }{
		{"CutString", `{ "ab`, `{"ab`},
		{"CutAfterNumber", `[1, 2`, `[1,2`},
		{"CutLiteral", `[ tru`, `[tru`},
	} {
		for _, tool := range []string{"m", "u", "v"} {
			t.Run(tc.name+"/"+tool, func(t *testing.T) {
				h := newHarness(t)
				h.call("1", tool)
				res := `{"content":[{"type":"text","text":` + jstr(tc.text) + `}],"structuredContent":{"content":` + jstr(tc.wrapped) + `}}`
				done := make(chan string, 1)
				go func() {
					h.s.fromServer(strings.NewReader(result("1", res) + "\n"))
					h.s.wait()
					done <- h.out.drain()
				}()
				select {
				case out := <-done:
					if !strings.Contains(out, `"id":1`) {
						t.Fatalf("no answer to the call: %s", out)
					}
				case <-time.After(20 * time.Second):
					t.Fatal("the session stalled on the result")
				}
			})
		}
	}
}
