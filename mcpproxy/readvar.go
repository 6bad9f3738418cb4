package mcpproxy

import (
	"bytes"
	"encoding/json"

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

// answerRead answers a read_variable call itself, in a goroutine of its
// own: the variable is read from the store and rendered under the budget
// of the tool that made it (or the default budget).
func (s *session) answerRead(rawID, line []byte, params []member) {
	var args []byte
	if a, _ := find(params, "arguments"); a != nil {
		args = bytes.Clone(line[a.val.start:a.val.end])
	}
	id := bytes.Clone(rawID)
	s.spawn(func() {
		s.slots <- struct{}{}
		defer func() { <-s.slots }()
		b := append([]byte(`{"jsonrpc":"2.0","id":`), id...)
		b = append(append(b, `,"result":`...), s.readResult(args)...)
		s.out.write(append(b, "}\n"...))
	})
}

// readResult is the result of a read_variable call with the arguments args.
func (s *session) readResult(args []byte) []byte {
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
	r, err := proc.ReadVariable(s.ctx, toolresult.Selection{Name: *a.Name, Pointer: a.Pointer, Offset: a.Offset, Limit: a.Limit})
	if err != nil {
		return toolError("jsonmask: read_variable: " + message(err))
	}
	if r.Route == toolresult.Variable {
		s.p.made(r.Variable.Name, proc)
	}
	b := []byte(`{"content":[{"type":"text","text":`)
	b = appendString(b, modelText(r))
	b = append(b, "}]"...)
	if r.Route == toolresult.Passthrough {
		if data := trimJSON(r.Content); len(data) > 0 && data[0] == '{' {
			b = append(append(b, `,"structuredContent":`...), data...)
		}
	}
	return append(b, '}')
}

// toolError is a tool result with isError set and one text.
func toolError(text string) []byte {
	b := appendString([]byte(`{"content":[{"type":"text","text":`), text)
	return append(b, `}],"isError":true}`...)
}
