package mcpproxy

import (
	"bytes"
	"context"
	"encoding/json"

	"github.com/jsonmask/jsonmask/internal/jsonwire"
	"github.com/jsonmask/jsonmask/toolresult"
)

// queryVariable is the name of the second tool the proxy adds (SPEC P7).
const queryVariable = "query_variable"

// queryVariableTool is its definition in tools/list: it teaches by two
// short examples, a count and a group-by with a sum.
const queryVariableTool = `{"name":"query_variable","title":"Query a stored variable",` +
	`"description":"Runs a jq program over the whole of a variable that a large tool result was stored as (its name, var_..., is in the note that took the result's place), ` +
	`to answer questions about all of the data in one step instead of reading it page by page. ` +
	`Examples: how many items: .data | length ; the total amount per category: .data | group_by(.category) | map({category: .[0].category, total: (map(.amount) | add)}) . ` +
	`A JSON Pointer (such as /data) runs the program over that part only. ` +
	`A result within the token budget comes as it is (several outputs one per line); a larger one is stored as a new variable, with a schema and a preview.",` +
	`"inputSchema":{"type":"object","properties":{` +
	`"name":{"type":"string","description":"the variable's name, such as var_1a2b3c4d5e6f"},` +
	`"program":{"type":"string","description":"a jq program, such as .data | length"},` +
	`"pointer":{"type":"string","description":"a JSON Pointer to the part to run the program over, such as /data; empty for the whole"}},` +
	`"required":["name","program"],"additionalProperties":false},` +
	`"annotations":{"readOnlyHint":true,"destructiveHint":false,"idempotentHint":true,"openWorldHint":false}}`

// query_variable is answered as read_variable is (answerOwn): in a
// goroutine of its own, its id guarded as any other's; the program runs
// under the limits and the budget of the tool that made the variable (or
// the defaults).
func init() {
	ownTools = append(ownTools, ownTool{name: queryVariable, def: queryVariableTool, answer: (*session).queryResult})
}

// queryResult is the result of a query_variable call with the arguments
// args. Its errors say what the program or its limits did, never the data.
func (s *session) queryResult(ctx context.Context, args []byte) []byte {
	var a struct {
		Name    *string `json:"name"`
		Program *string `json:"program"`
		Pointer string  `json:"pointer"`
	}
	d := json.NewDecoder(bytes.NewReader(args))
	d.DisallowUnknownFields()
	if err := d.Decode(&a); err != nil || a.Name == nil || a.Program == nil {
		why := "the arguments name and program are required"
		if err != nil {
			why = "bad arguments: " + err.Error()
		}
		return toolError("jsonmask: query_variable: " + why)
	}
	proc := s.p.readerOf(*a.Name)
	r, err := proc.Query(ctx, toolresult.Query{Name: *a.Name, Program: *a.Program, Pointer: a.Pointer})
	if err != nil {
		return toolError("jsonmask: query_variable: " + message(err))
	}
	if r.Route == toolresult.Variable {
		s.p.rememberVariable(r.Variable.Name, proc)
	}
	text := r.ModelText()
	if text == "" {
		text = "(the program gave no output)"
	}
	b := []byte(`{"content":[{"type":"text","text":`)
	b = jsonwire.AppendQuote(b, text)
	b = append(b, "}]"...)
	if r.Route == toolresult.Passthrough {
		if data := jsonwire.Trim(r.Content); len(data) > 0 && data[0] == '{' {
			b = append(append(b, `,"structuredContent":`...), data...)
		}
	}
	return append(b, '}')
}
