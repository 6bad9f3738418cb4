package toolresult_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/jsonmask/jsonmask"
	"github.com/jsonmask/jsonmask/corpus"
	"github.com/jsonmask/jsonmask/toolresult"
)

// stored makes a variable of data in a new MemStore, through Process, and
// returns the store, the variable's name and a Processor on that store.
func stored(t *testing.T, data []byte, opts ...toolresult.Option) (*toolresult.MemStore, string, *toolresult.Processor) {
	t.Helper()
	st := &toolresult.MemStore{}
	p, err := toolresult.New(append([]toolresult.Option{toolresult.WithStore(st), toolresult.WithBudget(1)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	// Named: a variable, however small (else data cheaper than its note
	// passes as it is).
	named, err := p.With(toolresult.WithName("v"))
	if err != nil {
		t.Fatal(err)
	}
	res, err := named.ProcessBytes(ctx, data)
	if err != nil {
		t.Fatal(err)
	}
	if res.Route != toolresult.Variable {
		t.Fatalf("route %s", res.Route)
	}
	return st, res.Variable.Name, p
}

// element returns the compact JSON of expenses' element i.
func element(t *testing.T, js []byte, i int) string {
	var doc struct{ Expenses []json.RawMessage }
	if err := json.Unmarshal(js, &doc); err != nil {
		t.Fatal(err)
	}
	return string(doc.Expenses[i])
}

func TestReadVariable(t *testing.T) {
	_, js := expenses(500)
	st, name, _ := stored(t, js)
	e := func(i int) string { return element(t, js, i) }
	for _, tc := range []struct {
		name string
		sel  toolresult.Selection
		want string
		// route is the route at a budget of 100000 tokens.
		route toolresult.Route
	}{
		{"Whole", toolresult.Selection{}, string(js), toolresult.Passthrough},
		{"Member", toolresult.Selection{Pointer: "/count"}, `500`, toolresult.Plaintext},
		{"Element", toolresult.Selection{Pointer: "/expenses/3"}, e(3), toolresult.Passthrough},
		{"Deep", toolresult.Selection{Pointer: "/expenses/3/id"}, `"exp_0003"`, toolresult.Plaintext},
		{"Last", toolresult.Selection{Pointer: "/expenses/499"}, e(499), toolresult.Passthrough},
		{"Range", toolresult.Selection{Pointer: "/expenses", Offset: 10, Limit: 3}, "[" + e(10) + "," + e(11) + "," + e(12) + "]", toolresult.Passthrough},
		{"RangeFromStart", toolresult.Selection{Pointer: "/expenses", Limit: 1}, "[" + e(0) + "]", toolresult.Passthrough},
		{"RangeToEnd", toolresult.Selection{Pointer: "/expenses", Offset: 498}, "[" + e(498) + "," + e(499) + "]", toolresult.Passthrough},
		{"RangePastEnd", toolresult.Selection{Pointer: "/expenses", Offset: 498, Limit: 10}, "[" + e(498) + "," + e(499) + "]", toolresult.Passthrough},
		{"RangeBeyond", toolresult.Selection{Pointer: "/expenses", Offset: 600, Limit: 10}, "[]", toolresult.Passthrough},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.sel.Name = name
			p, _ := toolresult.New(toolresult.WithStore(st), toolresult.WithBudget(100000))
			res, err := p.ReadVariable(ctx, tc.sel)
			if err != nil {
				t.Fatal(err)
			}
			if res.Route != tc.route || string(res.Content) != tc.want || res.Text != tc.want {
				t.Fatalf("route %s, content %.200s\nwant %.200s", res.Route, res.Content, tc.want)
			}
			check(t, res, st, []byte(tc.want), 100000)
		})
	}
	t.Run("OverBudget", func(t *testing.T) {
		p, _ := toolresult.New(toolresult.WithStore(st), toolresult.WithBudget(300))
		res, err := p.ReadVariable(ctx, toolresult.Selection{Name: name, Pointer: "/expenses", Offset: 100, Limit: 100})
		if err != nil {
			t.Fatal(err)
		}
		var want []string
		for i := 100; i < 200; i++ {
			want = append(want, e(i))
		}
		data := []byte("[" + strings.Join(want, ",") + "]")
		if res.Route != toolresult.Variable || res.Variable.Name == name {
			t.Fatalf("route %s, variable %+v", res.Route, res.Variable)
		}
		check(t, res, st, data, 300)
		if !strings.Contains(res.Text, "/: 5 of 100 items shown") && !strings.Contains(res.Text, "(root): ") {
			t.Errorf("the omissions do not say how many items there are:\n%s", res.Text)
		}
	})
}

func TestReadVariableErrors(t *testing.T) {
	_, js := expenses(20)
	_, name, p := stored(t, js)
	for _, tc := range []struct {
		name string
		sel  toolresult.Selection
		want string
	}{
		{"NoVariable", toolresult.Selection{Name: "var_000000000000"}, `jsonmask: no such variable: "var_000000000000"`},
		{"BadName", toolresult.Selection{Name: "../etc/passwd"}, `jsonmask: no such variable: "../etc/passwd"`},
		{"NoMember", toolresult.Selection{Pointer: "/nope"}, `jsonmask: no value at /nope in ` + name + `: the object at (root) has no member "nope"`},
		{"NoElement", toolresult.Selection{Pointer: "/expenses/20"}, `jsonmask: no value at /expenses/20 in ` + name + `: the array at /expenses has 20 items`},
		{"LeadingZero", toolresult.Selection{Pointer: "/expenses/01"}, `the array at /expenses has 20 items`},
		{"NotAnIndex", toolresult.Selection{Pointer: "/expenses/-"}, `the array at /expenses has 20 items`},
		{"ThroughScalar", toolresult.Selection{Pointer: "/count/x"}, `jsonmask: no value at /count/x in ` + name + `: the value at /count is a number`},
		{"RangeOnObject", toolresult.Selection{Pointer: "/expenses/0", Limit: 2}, `jsonmask: offset and limit apply to arrays; the value at /expenses/0 in ` + name + ` is an object`},
		{"RangeOnRoot", toolresult.Selection{Offset: 1}, `jsonmask: offset and limit apply to arrays; the value at (root) in ` + name + ` is an object`},
		{"NoSlash", toolresult.Selection{Pointer: "expenses"}, `jsonmask: bad JSON Pointer "expenses": it must be empty or start with '/'`},
		{"BadTilde", toolresult.Selection{Pointer: "/a~2"}, `jsonmask: bad JSON Pointer "/a~2": '~' must be followed by 0 or 1`},
		{"TildeAtEnd", toolresult.Selection{Pointer: "/a~"}, `'~' must be followed by 0 or 1`},
		{"TildeBeforeSlash", toolresult.Selection{Pointer: "/a~/b"}, `jsonmask: bad JSON Pointer "/a~/b": '~' must be followed by 0 or 1`},
		{"TildeInLaterToken", toolresult.Selection{Pointer: "/expenses/~x"}, `jsonmask: bad JSON Pointer "/expenses/~x": '~' must be followed by 0 or 1`},
		{"Negative", toolresult.Selection{Pointer: "/expenses", Offset: -1}, `jsonmask: offset and limit must be at least 0, got -1 and 0`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.sel.Name == "" {
				tc.sel.Name = name
			}
			res, err := p.ReadVariable(ctx, tc.sel)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, %v; want %q", res, err, tc.want)
			}
			if noVar := tc.name == "NoVariable" || tc.name == "BadName"; errors.Is(err, toolresult.ErrNoVariable) != noVar {
				t.Fatalf("errors.Is(%v, ErrNoVariable) is not %v", err, noVar)
			}
		})
	}
}

// TestReadVariableData: the selection is data, never instructions, and the
// mask does not apply again; keys are matched unescaped, the first of
// duplicates wins, and a byte-order mark before the data is skipped.
func TestReadVariableData(t *testing.T) {
	for _, tc := range []struct {
		name, body, ptr, want string
		opts                  []toolresult.Option
	}{
		{"NestedInstructions", `{"x":{"display_instructions_for_model":"hi","y":1}}`, "/x", `{"display_instructions_for_model":"hi","y":1}`, nil},
		{"Escapes", `{"a/b":{"m~n":[10,20,{"\u0078":true}]},"x":1}`, "/a~1b/m~0n/2/x", `true`, nil},
		{"EscapedKeyInData", `{"\u0061\/b":[1,2]}`, "/a~1b", `[1,2]`, nil},
		{"EmptyKey", `{"":{"":3}}`, "//", `3`, nil},
		{"Duplicates", `{"a":1,"a":2}`, "/a", `1`, nil},
		{"Whitespace", " \n{ \"a\" : [ 1 , { \"b\" : \"x y\" } ] }\n", "/a", `[1,{"b":"x y"}]`, nil},
		{"ByteOrderMark", "\xEF\xBB\xBF{\"a\":[1]}", "/a", `[1]`, nil},
		{"MaskedOnce", `{"a":{"b":1,"c":2},"z":"CANARY"}`, "/a", `{"b":1}`, []toolresult.Option{toolresult.WithMask(jsonmask.MustCompile(`{"a":{"b":true}}`))}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st, name, _ := stored(t, []byte(tc.body), tc.opts...)
			// A processor with another mask: ReadVariable must not apply it.
			p, _ := toolresult.New(toolresult.WithStore(st), toolresult.WithMask(jsonmask.MustCompile(`{"q":true}`)))
			res, err := p.ReadVariable(ctx, toolresult.Selection{Name: name, Pointer: tc.ptr})
			if err != nil {
				t.Fatal(err)
			}
			if string(res.Content) != tc.want || res.Instructions != "" {
				t.Fatalf("content %s instructions %q, want %s", res.Content, res.Instructions, tc.want)
			}
			r, _, _ := st.Open(name)
			all, _ := io.ReadAll(r)
			if bytes.Contains(all, []byte("CANARY")) {
				t.Fatal("a dropped value was stored")
			}
		})
	}
}

func readCorpus(t *testing.T, name string) []byte {
	t.Helper()
	b := corpus.File(t, name)
	return b
}

// TestReadVariableCorpus compares selections of the 2 MB corpus document
// with encoding/json's view of it, compacted.
func TestReadVariableCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("a 2 MB document stored and read: seconds under -race; run without -short")
	}
	body := readCorpus(t, "conversation_items.json")
	st := &toolresult.MemStore{}
	p, _ := toolresult.New(toolresult.WithStore(st), toolresult.WithBudget(500))
	res, err := p.ProcessBytes(ctx, body)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Data []json.RawMessage `json:"data"`
	}
	if err := json.Unmarshal(body, &doc); err != nil {
		t.Fatal(err)
	}
	compact := func(raw []byte) string {
		var b bytes.Buffer
		if err := json.Compact(&b, raw); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	var content []json.RawMessage
	var item struct {
		Content []json.RawMessage `json:"content"`
	}
	json.Unmarshal(doc.Data[0], &item)
	content = item.Content
	big, _ := toolresult.New(toolresult.WithStore(st), toolresult.WithBudget(1<<30))
	for _, tc := range []struct {
		sel  toolresult.Selection
		want string
	}{
		{toolresult.Selection{Pointer: "/data/0"}, compact(doc.Data[0])},
		{toolresult.Selection{Pointer: "/data/1399"}, compact(doc.Data[1399])},
		{toolresult.Selection{Pointer: "/data/0/content/0"}, compact(content[0])},
		{toolresult.Selection{Pointer: "/data", Offset: 700, Limit: 2}, "[" + compact(doc.Data[700]) + "," + compact(doc.Data[701]) + "]"},
		{toolresult.Selection{}, compact(body)},
	} {
		t.Run(tc.sel.Pointer, func(t *testing.T) {
			tc.sel.Name = res.Variable.Name
			got, err := big.ReadVariable(ctx, tc.sel)
			if err != nil {
				t.Fatal(err)
			}
			if string(got.Content) != tc.want {
				t.Fatalf("got %.300s\nwant %.300s", got.Content, tc.want)
			}
		})
	}
}
