package mcpproxy_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/jsonmask/jsonmask/mcpproxy"
)

// expensesDoc is what the test server's tool expenses returns: 500
// expenses, each with a secret (the canary) that the tool's mask drops.
func expensesDoc() []byte {
	cats := []string{"travel", "meals", "software", "office", "hardware", "training"}
	var b strings.Builder
	b.WriteString(`{"data":[`)
	for i := range 500 {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"id":"exp-%04d","date":"2026-%02d-%02d","category":%q,"amount":%d.%02d,"merchant":"merchant %d","card":%q}`,
			i, i%12+1, i%28+1, cats[(i*i+3*i)%len(cats)], (i*7919)%900+5, (i*31)%100, i%37, canary)
	}
	b.WriteString(`],"count":500,"currency":"EUR"}`)
	return []byte(b.String())
}

// addQueryTools adds the tools of the query tests to the test server.
func addQueryTools(add func(string, func(*mcp.CallToolRequest) *mcp.CallToolResult)) {
	add("expenses", func(*mcp.CallToolRequest) *mcp.CallToolResult {
		doc := expensesDoc()
		return structured(doc, string(doc))
	})
}

// queryConfig masks the expenses (the card goes) within a budget of 2000
// tokens, and queries may take a second.
func queryConfig(t *testing.T, dir string) string {
	cfg := `{"budget": 2000, "store": "vars", "query": {"time": "1s"},
	 "tools": {"expenses": {"response_mask": {"data": {"id": true, "date": true, "category": true, "amount": true, "merchant": true}, "count": true, "currency": true}}}}`
	path := filepath.Join(dir, "mcp.json")
	if err := os.WriteFile(path, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// highest is the answer in Go: the category whose amounts add up highest.
func highest(t *testing.T) (string, float64) {
	var v struct {
		Data []struct {
			Category string
			Amount   float64
		}
	}
	if err := json.Unmarshal(expensesDoc(), &v); err != nil {
		t.Fatal(err)
	}
	sums := map[string]float64{}
	for _, e := range v.Data {
		sums[e.Category] += e.Amount
	}
	best := ""
	for c, s := range sums {
		if best == "" || s > sums[best] {
			best = c
		}
	}
	return best, sums[best]
}

// TestQueryVariable is "what is my highest expense category?" end to end: a
// go-sdk client calls a go-sdk server's tool through jsonmask mcp, gets a
// variable, and answers with one query_variable call (SPEC C13, C14, P7).
func TestQueryVariable(t *testing.T) {
	dir := t.TempDir()
	c := dial(t, queryConfig(t, dir))

	tools, err := c.cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var qt *mcp.Tool
	for _, tool := range tools.Tools {
		if tool.Name == "query_variable" {
			qt = tool
		}
	}
	if qt == nil {
		t.Fatal("tools/list has no query_variable")
	}
	if !strings.Contains(qt.Description, ".data | length") || !strings.Contains(qt.Description, "group_by") {
		t.Fatalf("the description does not teach by the two examples: %s", qt.Description)
	}
	schema, _ := json.Marshal(qt.InputSchema)
	for _, want := range []string{`"name"`, `"program"`, `"pointer"`, `"required":["name","program"]`} {
		if !strings.Contains(string(schema), want) {
			t.Fatalf("input schema %s lacks %s", schema, want)
		}
	}

	text := only(t, c.call(t, "expenses", nil))
	name := varName.FindString(text)
	if name == "" || !strings.Contains(text, "Schema:") || !strings.Contains(text, "Preview:") {
		t.Fatalf("not a variable with a schema and a preview:\n%.600s", text)
	}
	if !strings.Contains(text, "query_variable") {
		t.Fatalf("the model text does not name query_variable (C14):\n%.600s", text)
	}
	if n := tokens(t, text); n > 2000 {
		t.Fatalf("%d tokens over the budget", n)
	}

	r := c.call(t, "query_variable", map[string]any{"name": name,
		"program": `.data | group_by(.category) | map({category: .[0].category, total: (map(.amount) | add)}) | max_by(.total)`})
	if r.IsError {
		t.Fatalf("error: %s", only(t, r))
	}
	var got struct {
		Category string
		Total    float64
	}
	if err := json.Unmarshal([]byte(only(t, r)), &got); err != nil {
		t.Fatalf("%v: %s", err, only(t, r))
	}
	cat, total := highest(t)
	if got.Category != cat || got.Total != total {
		t.Fatalf("query says %s %v, Go says %s %v", got.Category, got.Total, cat, total)
	}

	t.Run("Count", func(t *testing.T) {
		if s := only(t, c.call(t, "query_variable", map[string]any{"name": name, "program": "length", "pointer": "/data"})); s != "500" {
			t.Fatalf("got %s", s)
		}
	})
	t.Run("NoQueryReachesTheCanary", func(t *testing.T) {
		for _, prog := range []string{".", "tostring", "[.. | strings]", "[paths]", ".data[] | .card", "error(tostring)", ".data[0] | keys"} {
			c.call(t, "query_variable", map[string]any{"name": name, "program": prog}) // call checks for the canary
		}
	})
	t.Run("OverBudgetIsAVariable", func(t *testing.T) {
		s := only(t, c.call(t, "query_variable", map[string]any{"name": name, "program": ".data[] | {id, amount}"}))
		if !varName.MatchString(s) || strings.Contains(s, name) {
			t.Fatalf("not a new variable:\n%.300s", s)
		}
	})
	t.Run("Errors", func(t *testing.T) {
		for _, tc := range []struct{ name, varName, program, want string }{
			{"Syntax", name, ".data | map(", "syntax error at line 1"},
			{"Runtime", name, ".data | .x", "expected an object but got: array"},
			{"Range", name, "[range(1e9)] | length", "limit time"},
			{"Recursion", name, "def f: f; f", "limit time"},
			{"Repeat", name, "[repeat(.)]", "limit time"},
			{"NoVariable", "var_000000000000", ".", "no such variable"},
			{"Program", name, strings.Repeat(" ", 1<<20) + ".", "limit program"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				r := c.call(t, "query_variable", map[string]any{"name": tc.varName, "program": tc.program})
				if s := only(t, r); !r.IsError || !strings.Contains(s, tc.want) {
					t.Fatalf("isError %v: %s", r.IsError, s)
				}
			})
		}
	})
	t.Run("ServesWhileAQueryRuns", func(t *testing.T) {
		var wg sync.WaitGroup
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.callRaw(t, "query_variable", map[string]any{"name": name, "program": "last(range(1e12))"})
		}()
		time.Sleep(100 * time.Millisecond)
		start := time.Now()
		if s := only(t, c.call(t, "query_variable", map[string]any{"name": name, "program": ".count"})); s != "500" {
			t.Fatalf("got %s", s)
		}
		if d := time.Since(start); d > 900*time.Millisecond {
			t.Fatalf("a quick query waited %v behind a long one", d)
		}
		wg.Wait()
	})
}

func TestParseConfigQuery(t *testing.T) {
	cfg, err := mcpproxy.ParseConfig([]byte(`{"store": "s3://bucket?region=x", "query": {"load": 1024, "time": "2s", "output": 4096, "memory": 8192}, "variable_location": true}`))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Query.Load != 1024 || cfg.Query.Time != 2*time.Second || cfg.Query.Output != 4096 || cfg.Query.Memory != 8192 || !cfg.VariableLocation || cfg.Store != "s3://bucket?region=x" {
		t.Fatalf("%+v", cfg)
	}
	for _, bad := range []string{`{"query": {"time": "soon"}}`, `{"query": {"load": -1}}`, `{"query": {"loads": 1}}`, `{"query": 3}`, `{"variable_location": "yes"}`} {
		if _, err := mcpproxy.ParseConfig([]byte(bad)); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
}
