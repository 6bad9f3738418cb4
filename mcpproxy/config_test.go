package mcpproxy_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jsonmask/jsonmask"
	"github.com/jsonmask/jsonmask/mcpproxy"
	"github.com/jsonmask/jsonmask/toolresult"
)

func TestParseConfig(t *testing.T) {
	for _, tc := range []struct {
		name, json, err string
		check           func(*testing.T, *mcpproxy.Config)
	}{
		{"Empty", `{}`, "", func(t *testing.T, c *mcpproxy.Config) {
			if c.Budget != toolresult.DefaultBudget || c.Tools != nil {
				t.Fatalf("%+v", c)
			}
		}},
		{"Full", `{"budget": 25000, "encoding": "cl100k_base", "store": "/tmp/v", "tools": {"a": {"response_mask": {"id": true}, "budget": 0, "arrays": true}, "b": {"response_mask": null}}}`, "", func(t *testing.T, c *mcpproxy.Config) {
			a, b := c.Tools["a"], c.Tools["b"]
			if c.Budget != 25000 || c.Encoding != "cl100k_base" || c.Store != "/tmp/v" || string(a.ResponseMask) != `{"id": true}` || a.Budget == nil || *a.Budget != 0 || !a.Arrays || b.ResponseMask != nil || b.Budget != nil {
				t.Fatalf("%+v", c)
			}
		}},
		{"StrictAndInstructions", `{"strict": true, "tools": {"a": {"strict": true, "instructions": true}, "b": {}}}`, "", func(t *testing.T, c *mcpproxy.Config) {
			a, b := c.Tools["a"], c.Tools["b"]
			if !c.Strict || !a.Strict || !a.Instructions || b.Strict || b.Instructions {
				t.Fatalf("%+v", c)
			}
		}},
		{"WrongStrict", `{"strict": "yes"}`, `jsonmask: config: key "strict" must be bool, got string at offset 16`, nil},
		{"WrongInstructions", `{"tools": {"a": {"instructions": 1}}}`, `jsonmask: config: key "tools.a.instructions" must be bool, got number at offset 34`, nil},
		{"BudgetOff", `{"budget": 0}`, "", func(t *testing.T, c *mcpproxy.Config) {
			if c.Budget != 0 {
				t.Fatalf("%+v", c)
			}
		}},
		{"UnknownKey", `{"budgett": 1}`, `jsonmask: config: unknown key "budgett", at offset 10`, nil},
		{"UnknownToolKey", `{"tools": {"a": {"mask": {}}}}`, `jsonmask: config: tools.a: unknown key "mask", at offset 23`, nil},
		{"UnknownQueryKey", `{"query": {"loads": 1}}`, `jsonmask: config: query: unknown key "loads", at offset 18`, nil},
		{"ToolTwice", `{"tools": {"a": {"response_mask": {"id": true}}, "a": {}}}`, `jsonmask: config: tools: key "a" given twice, at offset 52`, nil},
		// SPEC G11: what encoding/json lets pass, refused with the key and
		// its place, as `jsonmask serve` refuses it.
		{"KeyTwice", `{"budget": 5, "budget": 0}`, `jsonmask: config: key "budget" given twice, at offset 22`, nil},
		{"ToolKeyTwice", `{"tools": {"a": {"response_mask": {"id": true}, "response_mask": {"id": true, "secret": true}}}}`, `jsonmask: config: tools.a: key "response_mask" given twice, at offset 63`, nil},
		{"QueryKeyTwice", `{"query": {"load": 1, "load": 2}}`, `jsonmask: config: query: key "load" given twice, at offset 28`, nil},
		{"KeyCase", `{"Budget": 0}`, `jsonmask: config: key "Budget" is "budget" in another case, at offset 9`, nil},
		{"ToolKeyCase", `{"tools": {"a": {"response_mask": {"id": true}, "STRICT": false}}}`, `jsonmask: config: tools.a: key "STRICT" is "strict" in another case, at offset 56`, nil},
		{"ToolNameQuoted", "{\"tools\": {\"a\\nb\": {\"x\": 1}}}", `jsonmask: config: tools["a\nb"]: unknown key "x", at offset 23`, nil},
		{"TwoMasks", `{"tools": {"a": {"response_mask": {"id": true}, "fields": "id"}}}`, `jsonmask: config: tools.a.response_mask: give one of "response_mask", "mask_file" and "fields", not two`, nil},
		{"MaskAndFile", `{"tools": {"a": {"mask_file": "m.json", "fields": "id"}}}`, `jsonmask: config: tools.a.response_mask: give one of "response_mask", "mask_file" and "fields", not two`, nil},
		{"NegativeBudget", `{"budget": -1}`, `jsonmask: config: budget must be at least 0, got -1`, nil},
		{"NegativeToolBudget", `{"tools": {"a": {"budget": -3}}}`, `jsonmask: config: tools.a.budget must be at least 0, got -3`, nil},
		{"ZeroQueryLoad", `{"query": {"load": 0}}`, `jsonmask: config: query.load must be a positive number of bytes, got 0`, nil},
		{"NegativeQueryMemory", `{"query": {"memory": -5}}`, `jsonmask: config: query.memory must be a positive number of bytes, got -5`, nil},
		{"BadQueryTime", `{"query": {"time": "-1s"}}`, `jsonmask: config: query.time must be a positive duration such as "10s", got "-1s"`, nil},
		{"BudgetOverflow", `{"budget": 1e99}`, `jsonmask: config: key "budget" must be int, got number 1e99 at offset 15`, nil},
		{"Query", `{"query": {"load": 1000, "time": "2s", "output": 10, "memory": 99}}`, "", func(t *testing.T, c *mcpproxy.Config) {
			if q := c.Query; q.Load != 1000 || q.Time != 2*time.Second || q.Output != 10 || q.Memory != 99 {
				t.Fatalf("%+v", q)
			}
		}},
		{"MaskKeys", `{"tools": {"a": {"fields": "id", "wildcards": true, "drop_mismatched": true, "trusted": true}, "b": {"mask_file": "m.json"}}}`, "", func(t *testing.T, c *mcpproxy.Config) {
			a, b := c.Tools["a"], c.Tools["b"]
			if a.Fields != "id" || !a.Wildcards || !a.DropMismatched || !a.Trusted || b.MaskFile != "m.json" {
				t.Fatalf("%+v", c)
			}
		}},
		{"WrongType", `{"budget": "big"}`, `jsonmask: config: key "budget" must be int, got string at offset 16`, nil},
		{"WrongToolType", `{"tools": {"a": {"arrays": 1}}}`, `jsonmask: config: key "tools.a.arrays" must be bool, got number at offset 28`, nil},
		{"ToolNotObject", `{"tools": {"a": true}}`, `jsonmask: config: key "tools.a" must be an object, got bool at offset 20`, nil},
		{"NotObject", `[]`, `jsonmask: config: not a JSON object`, nil},
		{"NotJSON", `{"budget": 1,}`, `jsonmask: config: invalid JSON at offset 13: invalid character '}' looking for beginning of object key string`, nil},
		{"Two", `{} {}`, `jsonmask: config: data after the config's value at offset 4`, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := mcpproxy.ParseConfig([]byte(tc.json))
			if tc.err != "" {
				if err == nil || err.Error() != tc.err {
					t.Fatalf("got %v, want %s", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			tc.check(t, c)
		})
	}
}

func TestNewErrors(t *testing.T) {
	budget := -3
	for _, tc := range []struct {
		name string
		cfg  mcpproxy.Config
		err  string
	}{
		{"Mask", mcpproxy.Config{Tools: map[string]mcpproxy.ToolConfig{"s": {ResponseMask: []byte(`{"a":1}`)}}}, `jsonmask: config: tools.s.response_mask: mask member "/a" must be true or an object, got a number`},
		{"Encoding", mcpproxy.Config{Budget: 1, Encoding: "p50k"}, `jsonmask: config: unknown encoding "p50k": want o200k_base or cl100k_base`},
		{"Budget", mcpproxy.Config{Budget: -1}, `jsonmask: config: budget must be at least 0, got -1`},
		{"ToolBudget", mcpproxy.Config{Tools: map[string]mcpproxy.ToolConfig{"s": {Budget: &budget}}}, `jsonmask: config: tools.s.budget must be at least 0, got -3`},
		{"Fields", mcpproxy.Config{Tools: map[string]mcpproxy.ToolConfig{"s": {Fields: "id("}}}, `jsonmask: config: tools.s.fields: invalid fields mask: unbalanced parentheses: '(' is not closed at offset 2`},
		{"MaskFile", mcpproxy.Config{Tools: map[string]mcpproxy.ToolConfig{"s": {MaskFile: "/nonexistent/m.json"}}}, `jsonmask: config: tools.s.mask_file /nonexistent/m.json: no such file or directory`},
		{"TwoMasks", mcpproxy.Config{Tools: map[string]mcpproxy.ToolConfig{"s": {ResponseMask: []byte(`{"a":true}`), Fields: "a"}}}, `jsonmask: config: tools.s.response_mask: give one of "response_mask", "mask_file" and "fields", not two`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := mcpproxy.New(&tc.cfg); err == nil || err.Error() != tc.err {
				t.Fatalf("got %v, want %s", err, tc.err)
			}
		})
	}
}

// TestNewMaskError: a mask that does not compile, given by any key, is an
// error that wraps the compiler's *jsonmask.MaskError.
func TestNewMaskError(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte(`{"a": 1}`), 0o644)
	for name, tc := range map[string]mcpproxy.ToolConfig{
		"ResponseMask": {ResponseMask: []byte(`{"a": 1}`)},
		"MaskFile":     {MaskFile: bad},
		"Fields":       {Fields: "a(("},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := mcpproxy.New(&mcpproxy.Config{Tools: map[string]mcpproxy.ToolConfig{"s": tc}})
			var me *jsonmask.MaskError
			if !errors.As(err, &me) {
				t.Fatalf("%v (%T) wraps no *jsonmask.MaskError", err, err)
			}
		})
	}
}

func TestLoadConfig(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "mcp.json")
	os.WriteFile(path, []byte(`{"store": "vars", "tools": {"a": {"mask_file": "masks/a.json"}, "b": {"mask_file": "/abs/b.json"}}}`), 0o644)
	c, err := mcpproxy.LoadConfig(path)
	if err != nil || c.Store != filepath.Join(dir, "vars") || c.Tools["a"].MaskFile != filepath.Join(dir, "masks/a.json") || c.Tools["b"].MaskFile != "/abs/b.json" {
		t.Fatalf("%+v %v", c, err)
	}
	if _, err := mcpproxy.LoadConfig(filepath.Join(dir, "nope.json")); err == nil || !strings.Contains(err.Error(), "no such file") {
		t.Fatalf("got %v", err)
	}
}

// FuzzParseConfig: no input makes ParseConfig panic, every error is one
// line that begins "jsonmask: config: ", and a config it accepts that
// names no store or mask file (the fuzzer would have New touch any path)
// makes New work or fail the same way.
func FuzzParseConfig(f *testing.F) {
	for _, s := range []string{
		`{}`, `{"budget": 25000, "encoding": "cl100k_base", "tools": {"a": {"response_mask": {"id": true}, "budget": 0, "arrays": true}, "b": {"response_mask": null}}}`,
		`{"strict": true, "variable_location": true, "query": {"load": 1000, "time": "2s", "output": 10, "memory": 99}}`,
		`{"tools": {"a": {"fields": "id,user(name)", "wildcards": true, "drop_mismatched": true, "trusted": true, "instructions": true}}}`,
		`{"tools": {"a": {"response_mask": {"*": {"x": true}}, "wildcards": true}, "a": {}}}`,
		`{"Budget": 1}`, `{"tools": {"a": {"fields": "id", "mask_file": "m"}}}`, `{"budget": -1}`, `[]`, `{} {}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		oneLine := func(err error) {
			if !strings.HasPrefix(err.Error(), "jsonmask: config: ") || strings.ContainsAny(err.Error(), "\n\r") {
				t.Fatalf("error %q: want one line that begins with jsonmask: config: ", err)
			}
		}
		c, err := mcpproxy.ParseConfig(data)
		if err != nil {
			oneLine(err)
			return
		}
		if c.Store != "" {
			return
		}
		for _, tc := range c.Tools {
			if tc.MaskFile != "" {
				return
			}
		}
		if _, err := mcpproxy.New(c); err != nil && !strings.HasPrefix(err.Error(), "jsonmask: config: ") {
			t.Fatalf("New: %v", err)
		}
	})
}
