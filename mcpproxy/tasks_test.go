package mcpproxy_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/jsonmask/jsonmask/mcpproxy"
)

// The go-sdk (v1.8.0) has no API for MCP's tasks (protocol 2025-11-25), so
// the test binary, run with -mcptest.tasks, is a server that speaks them in
// raw JSON-RPC: a tools/call with params.task creates a task and answers
// with its id (CreateTaskResult); tasks/get says it is completed;
// tasks/result answers the tool's result. The task "t-old" exists before
// the session (made through another connection, say).
func tasksMain() int {
	results := map[string]string{
		"small": `{"content":[{"type":"text","text":` + quote(smallJSON) + `}],"structuredContent":` + smallJSON + `}`,
		"sized": `{"content":[{"type":"text","text":` + quote(string(sizedDoc(200000))) + `}]}`,
		"free":  `{"content":[{"type":"text","text":"free"}]}`,
	}
	tasks := map[string]string{"t-old": "small"}
	in := bufio.NewReader(os.Stdin)
	out := bufio.NewWriter(os.Stdout)
	n := 0
	for {
		line, err := in.ReadBytes('\n')
		if err != nil {
			return 0
		}
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				Name   string          `json:"name"`
				Task   json.RawMessage `json:"task"`
				TaskID string          `json:"taskId"`
			} `json:"params"`
		}
		if json.Unmarshal(line, &req) != nil || req.ID == nil {
			continue
		}
		var res string
		switch req.Method {
		case "initialize":
			res = `{"protocolVersion":"2025-11-25","capabilities":{"tools":{},"tasks":{"requests":{"tools":{"call":{}}}}},"serverInfo":{"name":"tasks","version":"1"}}`
		case "tools/call":
			if req.Params.Task == nil {
				// The result, and right behind it a notification about it.
				fmt.Fprintf(out, `{"jsonrpc":"2.0","id":%s,"result":%s}`+"\n", req.ID, results[req.Params.Name])
				fmt.Fprintf(out, `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"after %s"}}`+"\n", req.ID)
				out.Flush()
				continue
			}
			n++
			id := fmt.Sprintf("t-%d", n)
			tasks[id] = req.Params.Name
			res = `{"task":{"taskId":"` + id + `","status":"working","createdAt":"2026-11-26T20:00:00Z","lastUpdatedAt":"2026-11-26T20:00:00Z","ttl":60000,"pollInterval":100}}`
			fmt.Fprintf(out, `{"jsonrpc":"2.0","id":%s,"result":%s}`+"\n", req.ID, res)
			fmt.Fprintf(out, `{"jsonrpc":"2.0","method":"notifications/tasks/status","params":{"taskId":"%s","status":"completed","createdAt":"2026-11-26T20:00:00Z","lastUpdatedAt":"2026-11-26T20:00:01Z","ttl":60000}}`+"\n", id)
			out.Flush()
			continue
		case "tasks/get":
			res = `{"taskId":"` + req.Params.TaskID + `","status":"completed","createdAt":"2026-11-26T20:00:00Z","lastUpdatedAt":"2026-11-26T20:00:01Z","ttl":60000}`
		case "tasks/result":
			tool, ok := tasks[req.Params.TaskID]
			if !ok {
				fmt.Fprintf(out, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32602,"message":"no such task"}}`+"\n", req.ID)
				out.Flush()
				continue
			}
			r := results[tool]
			res = r[:len(r)-1] + `,"_meta":{"io.modelcontextprotocol/related-task":{"taskId":"` + req.Params.TaskID + `"}}}`
		default:
			res = `{}`
		}
		fmt.Fprintf(out, `{"jsonrpc":"2.0","id":%s,"result":%s}`+"\n", req.ID, res)
		out.Flush()
	}
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// rawSession is Proxy.Run in this process between a client that writes and
// reads raw JSON-RPC lines and a server started from the test binary.
type rawSession struct {
	t    *testing.T
	in   io.WriteCloser
	out  *bufio.Reader
	done chan struct{}
}

func runRaw(t *testing.T, cfg string, server ...string) *rawSession {
	t.Helper()
	c, err := mcpproxy.ParseConfig([]byte(cfg))
	if err != nil {
		t.Fatal(err)
	}
	c.Store = t.TempDir()
	p, err := mcpproxy.New(c, mcpproxy.WithGrace(300*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	proxyIn, clientOut := io.Pipe()
	clientIn, proxyOut := io.Pipe()
	cmd := exec.Command(os.Args[0], server...)
	cmd.Env = serverEnv()
	rs := &rawSession{t: t, in: clientOut, out: bufio.NewReader(clientIn), done: make(chan struct{})}
	go func() {
		p.Run(ctx, cmd, proxyIn, proxyOut)
		proxyOut.Close()
		close(rs.done)
	}()
	t.Cleanup(func() {
		clientOut.Close()
		go io.Copy(io.Discard, clientIn)
		select {
		case <-rs.done:
		case <-time.After(10 * time.Second):
			t.Error("Run did not return")
		}
	})
	return rs
}

// send writes a message and returns the next response the client gets
// with the id (the messages before it are returned too, in order).
func (rs *rawSession) send(msg, id string) (resp string, before []string) {
	rs.t.Helper()
	if _, err := io.WriteString(rs.in, msg+"\n"); err != nil {
		rs.t.Fatal(err)
	}
	for {
		line, err := rs.out.ReadString('\n')
		if err != nil {
			rs.t.Fatalf("reading the proxy: %v", err)
		}
		if strings.Contains(line, canary) {
			rs.t.Fatalf("a dropped value reached the client: %.300s", line)
		}
		var m struct {
			ID json.RawMessage `json:"id"`
		}
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			rs.t.Fatalf("the client got a line that is not JSON: %.300s", line)
		}
		if string(m.ID) == id {
			return line, before
		}
		before = append(before, line)
	}
}

// TestTasks: a masked tool called as a task (SPEC P8) gives the client its
// task as the server created it, and the task's result gets the tool's
// mask; a tool without a mask gets its budget on the task's result; the
// result of a task the proxy cannot attribute to a tool is refused while
// some tool is masked, and never reaches the client.
func TestTasks(t *testing.T) {
	const cfg = `{"budget": 500, "tools": {"small": {"response_mask": {"id": true, "status": true}}}}`
	rs := runRaw(t, cfg, "-mcptest.tasks")
	rs.send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`, "0")

	call := func(t *testing.T, id, tool string) string {
		t.Helper()
		resp, _ := rs.send(`{"jsonrpc":"2.0","id":`+id+`,"method":"tools/call","params":{"name":"`+tool+`","arguments":{},"task":{"ttl":60000}}}`, id)
		var r struct {
			Result struct {
				Task struct{ TaskID string }
			}
		}
		if err := json.Unmarshal([]byte(resp), &r); err != nil || r.Result.Task.TaskID == "" {
			t.Fatalf("the task's id did not reach the client: %s", resp)
		}
		return r.Result.Task.TaskID
	}
	result := func(t *testing.T, id, task string) string {
		t.Helper()
		resp, _ := rs.send(`{"jsonrpc":"2.0","id":`+id+`,"method":"tasks/result","params":{"taskId":"`+task+`"}}`, id)
		return resp
	}

	t.Run("Masked", func(t *testing.T) {
		task := call(t, "1", "small")
		resp := result(t, "2", task)
		var r struct {
			Result struct {
				StructuredContent map[string]any
				Meta              map[string]any `json:"_meta"`
			}
		}
		if err := json.Unmarshal([]byte(resp), &r); err != nil || r.Result.StructuredContent["id"] != "a1" || len(r.Result.StructuredContent) != 2 {
			t.Fatalf("the task's result: %s", resp)
		}
		if r.Result.Meta["io.modelcontextprotocol/related-task"] == nil {
			t.Errorf("the result lost its _meta: %s", resp)
		}
	})
	t.Run("Budget", func(t *testing.T) {
		task := call(t, "3", "sized")
		resp := result(t, "4", task)
		if len(resp) > 8000 || !strings.Contains(resp, "var_") {
			t.Fatalf("the result of a task of a tool with a budget of 500 is %d bytes: %.300s", len(resp), resp)
		}
	})
	t.Run("Unattributed", func(t *testing.T) {
		resp := result(t, "5", "t-old")
		if !strings.Contains(resp, `"error"`) {
			t.Fatalf("the result of a task made outside the session: %.300s", resp)
		}
	})
}

// TestOrder: the client gets the server's messages in the order the server
// sent them (SPEC P1): a result being processed holds back the
// notification the server wrote right behind it, whether the result is
// rewritten (small: masked; sized: over the budget) or passes as it is
// (free: no mask, no budget).
func TestOrder(t *testing.T) {
	const cfg = `{"budget": 500, "tools": {"small": {"response_mask": {"id": true}}, "free": {"budget": 0}}}`
	rs := runRaw(t, cfg, "-mcptest.tasks")
	rs.send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`, "0")
	n := 60
	if testing.Short() {
		n = 15
	}
	for i := 1; i <= n; i++ {
		tool := []string{"small", "sized", "free"}[i%3]
		id := fmt.Sprint(i)
		_, before := rs.send(`{"jsonrpc":"2.0","id":`+id+`,"method":"tools/call","params":{"name":"`+tool+`","arguments":{}}}`, id)
		for _, l := range before {
			if strings.Contains(l, `"after `+id+`"`) {
				t.Fatalf("call %s (%s): the notification the server sent after the result came before it", id, tool)
			}
		}
	}
}
