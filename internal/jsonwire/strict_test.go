package jsonwire

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// strictOpts is an embedded struct, as config.MaskConfig is in a route.
type strictOpts struct {
	Strict bool `json:"strict"`
	Depth  int  `json:"max_depth"`
}

type strictTool struct {
	Mask   json.RawMessage `json:"mask"`
	Budget *int            `json:"budget"`
	Wait   strictDuration  `json:"wait"`
	strictOpts
}

type strictFile struct {
	Name   string                `json:"name"`
	Ratio  float64               `json:"ratio"`
	Size   uint8                 `json:"size"`
	Routes []strictTool          `json:"routes"`
	Tools  map[string]strictTool `json:"tools"`
	Skip   string                `json:"-"`
}

// strictDuration reads itself, as config.Duration does.
type strictDuration time.Duration

func (d *strictDuration) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	v, err := time.ParseDuration(s)
	*d = strictDuration(v)
	return err
}

// strictCases are the inputs DecodeStrict takes and refuses (SPEC G11);
// err is a substring of the error, "" for none.
var strictCases = []struct{ name, in, err string }{
	{"Full", `{"name": "n", "ratio": 1.5, "size": 255, "routes": [{"mask": {"ID": true, "id": true, "id": 1}, "budget": 3, "wait": "1s", "strict": true, "max_depth": 2}], "tools": {"a": {"budget": 0}, "A": {}}}`, ""},
	{"Nulls", `{"name": null, "routes": null, "tools": {"a": null}}`, ""},
	{"Twice", `{"name": "a", "name": "b"}`, `key "name" given twice, at offset 20`},
	{"TwiceInSlice", `{"routes": [{}, {"budget": 1, "budget": 2}]}`, `routes[1]: key "budget" given twice`},
	{"TwiceEmbedded", `{"routes": [{"strict": true, "strict": false}]}`, `routes[0]: key "strict" given twice`},
	{"Case", `{"Name": "a"}`, `key "Name" is "name" in another case, at offset 7`},
	{"CaseEmbedded", `{"tools": {"a": {"STRICT": false}}}`, `tools.a: key "STRICT" is "strict" in another case`},
	{"Unknown", `{"nam": "a"}`, `unknown key "nam", at offset 6`},
	{"UnknownInMap", `{"tools": {"a": {"budgett": 1}}}`, `tools.a: unknown key "budgett"`},
	{"IgnoredField", `{"Skip": "x"}`, `unknown key "Skip"`},
	{"MapKeyTwice", `{"tools": {"a": {}, "a": {}}}`, `tools: key "a" given twice, at offset 23`},
	{"MapKeyQuoted", "{\"tools\": {\"a b\\n\": {\"x\": 1}}}", `tools["a b\n"]: unknown key "x"`},
	{"WrongScalarInMap", `{"tools": {"a": {"budget": "big"}}}`, `key "tools.a.budget" must be int, got string at offset 32`},
	{"WrongBool", `{"routes": [{"strict": 1}]}`, `key "routes[0].strict" must be bool, got number`},
	{"WrongString", `{"name": true}`, `key "name" must be string, got bool`},
	{"Overflow", `{"size": 256}`, `key "size" must be uint8, got number 256`},
	{"Fraction", `{"routes": [{"budget": 1.5}]}`, `key "routes[0].budget" must be int, got number 1.5`},
	{"BigFloat", `{"ratio": 1e400}`, `key "ratio" must be float64, got number 1e400`},
	{"WrongContainer", `{"routes": {}}`, `key "routes" must be []jsonwire.strictTool, got object at offset 12`},
	{"ScalarForObject", `{"tools": {"a": true}}`, `key "tools.a" must be an object, got bool at offset 20`},
	{"ArrayForObject", `{"routes": [[]]}`, `key "routes[0]" must be an object, got array`},
	{"ScalarForSlice", `{"routes": "x"}`, `key "routes" must be []jsonwire.strictTool, got string`},
	{"Unmarshaler", `{"routes": [{"wait": 3}]}`, `key "routes.wait" must be string, got number`},
	{"Syntax", `{"name": }`, `invalid JSON at offset 9`},
	{"Early", `{"name": "a"`, `the config ends early at offset 12`},
	{"Empty", ``, `the config ends early at offset 0`},
	{"After", `{} {}`, `data after the config's value`},
}

func TestDecodeStrict(t *testing.T) {
	for _, c := range strictCases {
		t.Run(c.name, func(t *testing.T) {
			var f strictFile
			err := DecodeStrict([]byte(c.in), &f)
			switch {
			case c.err == "" && err != nil:
				t.Fatal(err)
			case c.err != "" && err == nil:
				t.Fatalf("no error, want %q", c.err)
			case c.err != "" && !strings.Contains(err.Error(), c.err):
				t.Fatalf("error %q, want %q in it", err, c.err)
			case err != nil && strings.ContainsAny(err.Error(), "\n\r"):
				t.Fatalf("error on two lines: %q", err)
			}
		})
	}
	t.Run("Values", func(t *testing.T) {
		var f strictFile
		if err := DecodeStrict([]byte(strictCases[0].in), &f); err != nil {
			t.Fatal(err)
		}
		r := f.Routes[0]
		if f.Name != "n" || f.Size != 255 || *r.Budget != 3 || time.Duration(r.Wait) != time.Second || !r.Strict || r.Depth != 2 || *f.Tools["a"].Budget != 0 || string(r.Mask) != `{"ID": true, "id": true, "id": 1}` {
			t.Fatalf("%+v", f)
		}
	})
	t.Run("NotPointer", func(t *testing.T) {
		if err := DecodeStrict([]byte(`{}`), strictFile{}); err == nil {
			t.Fatal("no error")
		}
	})
}

// FuzzDecodeStrict: no input makes DecodeStrict panic, every error is one
// line, and what it accepts encoding/json accepts too.
func FuzzDecodeStrict(f *testing.F) {
	for _, c := range strictCases {
		f.Add([]byte(c.in))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var f strictFile
		err := DecodeStrict(data, &f)
		if err != nil {
			if strings.ContainsAny(err.Error(), "\n\r") {
				t.Fatalf("error on two lines: %q", err)
			}
			return
		}
		var g strictFile
		if err := json.Unmarshal(data, &g); err != nil {
			t.Fatalf("DecodeStrict accepted what encoding/json refuses: %v", err)
		}
	})
}
