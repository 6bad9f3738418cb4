package mcpproxy

import (
	"bytes"
	"context"
	"encoding/json"

	"github.com/jsonmask/jsonmask/internal/jsonwire"
	"github.com/jsonmask/jsonmask/toolresult"
)

// readVariable is the name of the tool the proxy adds (SPEC P5).
const readVariable = "read_variable"

// readVariableTool is its definition in tools/list.
const readVariableTool = `{"name":"read_variable","title":"Read a stored variable",` +
	`"description":"Reads a variable that a large tool result was stored as: its name (var_...) is in the note that took the result's place. ` +
	`A JSON Pointer (RFC 6901, such as /data/0/id) reads part of it; offset and limit read a range of an array's items. ` +
	`Data within the token budget comes as it is; larger data comes as a schema and a preview, stored as a new variable.",` +
	`"inputSchema":{"type":"object","properties":{` +
	`"name":{"type":"string","description":"the variable's name, such as var_1a2b3c4d5e6f"},` +
	`"pointer":{"type":"string","description":"a JSON Pointer to the part to read, such as /data/0; empty for the whole"},` +
	`"offset":{"type":"integer","minimum":0,"description":"for an array: the index of the first item to read"},` +
	`"limit":{"type":"integer","minimum":0,"description":"for an array: the most items to read; 0 for all from offset"}},` +
	`"required":["name"],"additionalProperties":false},` +
	`"annotations":{"readOnlyHint":true,"destructiveHint":false,"idempotentHint":true,"openWorldHint":false}}`

// ownTool is a tool the proxy adds to tools/list (after the server's, on
// the first page) and answers itself, when variables are on (some budget
// is). A tool of the server with its name is hidden.
type ownTool struct {
	name string
	def  string // its definition in tools/list
	// answer returns the tool's result for the call's arguments (JSON, or
	// nil for none); it runs in a goroutine of its own, under a context
	// that the client's notifications/cancelled for the call ends.
	answer func(s *session, ctx context.Context, args []byte) []byte
}

// ownTools are the proxy's tools, in the order tools/list gives them. A file
// of this package may add one in its init.
var ownTools = []ownTool{{name: readVariable, def: readVariableTool, answer: (*session).readResult}}

// ownToolNamed returns the proxy's tool called name, or nil.
func ownToolNamed(name string) *ownTool {
	for i := range ownTools {
		if ownTools[i].name == name {
			return &ownTools[i]
		}
	}
	return nil
}

// answerOwn answers a call of one of the proxy's tools, in a goroutine of
// its own. A call whose id is in use by a request in flight is refused,
// as the others are.
func (s *session) answerOwn(t *ownTool, key string, rawID, line []byte, params []member) {
	s.mu.Lock()
	_, inUse := s.pending[key]
	if _, busy := s.busy[key]; busy {
		inUse = true
	}
	if s.own[key] != nil {
		inUse = true
	}
	ctx, cancel := context.WithCancel(s.ctx)
	if !inUse {
		s.own[key] = cancel
	}
	s.mu.Unlock()
	if inUse {
		cancel()
		s.replyError(rawID, codeInvalidRequest, "jsonmask: the id is in use by a request in flight: not forwarded")
		return
	}
	var args []byte
	if a, _ := find(params, "arguments"); a != nil {
		args = bytes.Clone(line[a.val.start:a.val.end])
	}
	id := bytes.Clone(rawID)
	done := func() {
		cancel()
		s.mu.Lock()
		defer s.mu.Unlock()
		delete(s.own, key)
	}
	if !s.spawn(func() {
		defer done()
		s.slots <- struct{}{}
		defer func() { <-s.slots }()
		b := append([]byte(`{"jsonrpc":"2.0","id":`), id...)
		b = append(append(b, `,"result":`...), t.answer(s, ctx, args)...)
		if ctx.Err() == nil || s.ctx.Err() != nil {
			s.out.write(append(b, "}\n"...)) // not to a call the client cancelled
		}
	}) {
		done()
	}
}

// readResult is the result of a read_variable call with the arguments args.
func (s *session) readResult(ctx context.Context, args []byte) []byte {
	var a struct {
		Name    *string `json:"name"`
		Pointer string  `json:"pointer"`
		Offset  int     `json:"offset"`
		Limit   int     `json:"limit"`
	}
	d := json.NewDecoder(bytes.NewReader(args))
	d.DisallowUnknownFields()
	if err := d.Decode(&a); err != nil || a.Name == nil {
		why := "the argument name is required"
		if err != nil {
			why = "bad arguments: " + err.Error()
		}
		return toolError("jsonmask: read_variable: " + why)
	}
	proc := s.p.readerOf(*a.Name)
	r, err := proc.ReadVariable(ctx, toolresult.Selection{Name: *a.Name, Pointer: a.Pointer, Offset: a.Offset, Limit: a.Limit})
	if err != nil {
		return toolError("jsonmask: read_variable: " + message(err))
	}
	if r.Route == toolresult.Variable {
		s.p.rememberVariable(r.Variable.Name, proc)
	}
	b := []byte(`{"content":[{"type":"text","text":`)
	b = jsonwire.AppendQuote(b, r.ModelText())
	b = append(b, "}]"...)
	if r.Route == toolresult.Passthrough {
		if data := jsonwire.Trim(r.Content); len(data) > 0 && data[0] == '{' {
			b = append(append(b, `,"structuredContent":`...), data...)
		}
	}
	return append(b, '}')
}

// toolError is a tool result with isError set and one text.
func toolError(text string) []byte {
	b := jsonwire.AppendQuote([]byte(`{"content":[{"type":"text","text":`), text)
	return append(b, `}],"isError":true}`...)
}
