package mcpproxy_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

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
		{"WrongStrict", `{"strict": "yes"}`, `jsonmask: config: strict must be true or false, got "yes" at offset 11`, nil},
		{"WrongInstructions", `{"tools": {"a": {"instructions": 1}}}`, `jsonmask: config: tools.a.instructions must be true or false, got 1 at offset 33`, nil},
		{"BudgetOff", `{"budget": 0}`, "", func(t *testing.T, c *mcpproxy.Config) {
			if c.Budget != 0 {
				t.Fatalf("%+v", c)
			}
		}},
		{"UnknownKey", `{"budgett": 1}`, `jsonmask: config: unknown key "budgett" at offset 1`, nil},
		{"UnknownToolKey", `{"tools": {"a": {"mask": {}}}}`, `jsonmask: config: unknown key "tools.a.mask" at offset 17`, nil},
		{"Twice", `{"tools": {"a": {"response_mask": {"id": true}}, "a": {}}}`, `jsonmask: config: tools.a given twice, at offset 49`, nil},
		{"WrongType", `{"budget": "big"}`, `jsonmask: config: budget must be an integer, got "big" at offset 11`, nil},
		{"WrongToolType", `{"tools": {"a": {"arrays": 1}}}`, `jsonmask: config: tools.a.arrays must be true or false, got 1 at offset 27`, nil},
		{"ToolNotObject", `{"tools": {"a": true}}`, `jsonmask: config: tools.a must be an object, at offset 16`, nil},
		{"NotObject", `[]`, `jsonmask: config: not a JSON object`, nil},
		{"NotJSON", `{"budget": 1,}`, `jsonmask: config: invalid character '}' looking for beginning of object key string at offset 13`, nil},
		{"Two", `{} {}`, `jsonmask: config: invalid character '{' after top-level value at offset 3`, nil},
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
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := mcpproxy.New(&tc.cfg); err == nil || err.Error() != tc.err {
				t.Fatalf("got %v, want %s", err, tc.err)
			}
		})
	}
}

func TestLoadConfig(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "mcp.json")
	os.WriteFile(path, []byte(`{"store": "vars"}`), 0o644)
	c, err := mcpproxy.LoadConfig(path)
	if err != nil || c.Store != filepath.Join(dir, "vars") {
		t.Fatalf("%+v %v", c, err)
	}
	if _, err := mcpproxy.LoadConfig(filepath.Join(dir, "nope.json")); err == nil || !strings.Contains(err.Error(), "no such file") {
		t.Fatalf("got %v", err)
	}
}
