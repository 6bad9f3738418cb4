package toolresult_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/jsonmask/jsonmask"
	"github.com/jsonmask/jsonmask/corpus"
	"github.com/jsonmask/jsonmask/toolresult"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

var ctx = context.Background()

func process(t *testing.T, body []byte, opts ...toolresult.Option) (*toolresult.Result, *toolresult.MemStore) {
	t.Helper()
	st := &toolresult.MemStore{}
	p, err := toolresult.New(append([]toolresult.Option{toolresult.WithStore(st)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	res, err := p.Process(ctx, iotestHalf(body))
	if err != nil {
		t.Fatalf("Process: %v", err)
	}
	return res, st
}

// iotestHalf is a reader that returns odd-sized reads, so that windows
// split tokens.
func iotestHalf(b []byte) io.Reader { return &oddReader{b: b} }

type oddReader struct {
	b []byte
	n int
}

func (r *oddReader) Read(p []byte) (int, error) {
	if len(r.b) == 0 {
		return 0, io.EOF
	}
	r.n++
	k := min(len(p), len(r.b), 1+(r.n*7919)%4093)
	copy(p, r.b[:k])
	r.b = r.b[k:]
	return k, nil
}

func count(t *testing.T, s string) int {
	tok, err := toolresult.NewTokenizer(toolresult.O200kBase)
	if err != nil {
		t.Fatal(err)
	}
	return tok.Count([]byte(s), -1)
}

// check asserts what holds of every result: the model text's count,
// recounted, is tokens.context and within the budget; a preview is valid
// JSON and a structural subset of the data; the data validates against the
// schema; the variable holds exactly the data.
func check(t *testing.T, res *toolresult.Result, st *toolresult.MemStore, data []byte, budget int) {
	t.Helper()
	if n := count(t, res.Text); n != res.Tokens.Context {
		t.Fatalf("tokens.context %d, recounted %d", res.Tokens.Context, n)
	}
	switch res.Route {
	case toolresult.Passthrough:
		if !bytes.Equal(res.Content, data) || res.Text != string(data) {
			t.Fatal("passthrough content is not the data")
		}
		if res.Tokens.Context > budget {
			t.Fatalf("passthrough over budget: %d", res.Tokens.Context)
		}
	case toolresult.Variable:
		if res.Tokens.Context > budget && !res.OverBudget {
			t.Fatalf("model text %d tokens over budget %d", res.Tokens.Context, budget)
		}
		r, _, err := st.Open(res.Variable.Name)
		if err != nil {
			t.Fatal(err)
		}
		stored, _ := io.ReadAll(r)
		if !bytes.Equal(stored, data) || res.Variable.Bytes != int64(len(data)) {
			t.Fatal("the variable is not the data")
		}
		if want := fmt.Sprintf("var_%x", sha(data))[:16]; res.Variable.Name != want {
			t.Fatalf("name %s want %s", res.Variable.Name, want)
		}
		pv, err := parse(res.Content)
		if err != nil {
			t.Fatalf("preview is not JSON: %v\n%s", err, res.Content)
		}
		dv, _ := parse(data)
		if err := subset(pv, dv, ""); err != nil {
			t.Fatalf("preview is not a subset of the data: %v", err)
		}
		validateSchema(t, res.Schema.JSON(), data)
		if !strings.Contains(res.Text, res.Variable.Name) || !strings.Contains(res.Text, string(res.Content)) {
			t.Fatal("model text lacks the name or the preview")
		}
		if dataTokens := count(t, string(data)); dataTokens >= 2*budget && !res.OverBudget {
			if pt := count(t, string(res.Content)); pt < budget/2 {
				t.Fatalf("data of %d tokens, budget %d: preview uses %d tokens, want at least half", dataTokens, budget, pt)
			}
		}
	}
}

func validateSchema(t *testing.T, js, doc []byte) {
	t.Helper()
	sv, err := jsonschema.UnmarshalJSON(bytes.NewReader(js))
	if err != nil {
		t.Fatalf("schema: %v", err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource("mem://s.json", sv); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile("mem://s.json")
	if err != nil {
		t.Fatal(err)
	}
	v, _ := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
	if err := s.Validate(v); err != nil {
		t.Fatalf("data does not validate against its schema: %v", err)
	}
}

// member and value: JSON with object members in order.
type member struct {
	key string
	val any
}

func parse(b []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	v, err := parseValue(d)
	if err == nil {
		if _, err2 := d.Token(); err2 != io.EOF {
			return nil, fmt.Errorf("trailing data")
		}
	}
	return v, err
}

func parseValue(d *json.Decoder) (any, error) {
	tok, err := d.Token()
	if err != nil {
		return nil, err
	}
	switch tok {
	case json.Delim('{'):
		var obj []member
		for d.More() {
			k, _ := d.Token()
			v, err := parseValue(d)
			if err != nil {
				return nil, err
			}
			obj = append(obj, member{k.(string), v})
		}
		d.Token()
		return obj, nil
	case json.Delim('['):
		arr := []any{}
		for d.More() {
			v, err := parseValue(d)
			if err != nil {
				return nil, err
			}
			arr = append(arr, v)
		}
		d.Token()
		return arr, nil
	}
	return tok, nil
}

// subset reports how p is not a structural subset of d (C8): members a
// subset in order, arrays a prefix, strings a prefix.
func subset(p, d any, at string) error {
	switch pv := p.(type) {
	case []member:
		dv, ok := d.([]member)
		if !ok {
			return fmt.Errorf("%s: object where the data has %T", at, d)
		}
		j := 0
		for _, m := range pv {
			for j < len(dv) && dv[j].key != m.key {
				j++
			}
			if j == len(dv) {
				return fmt.Errorf("%s: member %q not in the data, or out of order", at, m.key)
			}
			if err := subset(m.val, dv[j].val, at+"/"+m.key); err != nil {
				return err
			}
			j++
		}
	case []any:
		dv, ok := d.([]any)
		if !ok || len(pv) > len(dv) {
			return fmt.Errorf("%s: array not a prefix", at)
		}
		for i := range pv {
			if err := subset(pv[i], dv[i], fmt.Sprintf("%s/%d", at, i)); err != nil {
				return err
			}
		}
	case string:
		if ds, ok := d.(string); !ok || !strings.HasPrefix(ds, pv) {
			return fmt.Errorf("%s: string %q not a prefix", at, pv)
		}
	default:
		if p != d {
			return fmt.Errorf("%s: %v is not %v", at, p, d)
		}
	}
	return nil
}

func TestCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("2 MB documents at four budgets: seconds; run without -short")
	}
	for _, tc := range []struct{ file, mask string }{
		{"conversation_items.json", `{"object":true,"has_more":true,"first_id":true,"last_id":true,"data":{"type":true,"id":true,"status":true,"role":true,"name":true,"call_id":true,"content":{"type":true,"text":true}}}`},
		{"flow_document.json", `{"count":true,"flows":{"_id":true,"last_action_number":true,"members":{"_id":true,"email":true},"blocks":{"block_id":true,"type":true,"service_item":{"title":true,"price_per_unit":true}}}}`},
	} {
		body := corpus.File(t, tc.file)
		m := jsonmask.MustCompile(tc.mask)
		masked, err := m.Append(nil, body)
		if err != nil {
			t.Fatal(err)
		}
		for _, budget := range []int{500, 2000, 7000, 100000} {
			t.Run(fmt.Sprintf("%s/budget=%d/mask", tc.file, budget), func(t *testing.T) {
				res, st := process(t, body, toolresult.WithBudget(budget), toolresult.WithMask(m))
				check(t, res, st, masked, budget)
				if budget < 100000 && res.Route != toolresult.Variable {
					t.Fatalf("route %s", res.Route)
				}
			})
			t.Run(fmt.Sprintf("%s/budget=%d/whole", tc.file, budget), func(t *testing.T) {
				res, st := process(t, body, toolresult.WithBudget(budget))
				if res.Route != toolresult.Variable {
					t.Fatalf("route %s", res.Route)
				}
				check(t, res, st, body, budget)
			})
		}
	}
}

func sha(b []byte) []byte {
	h := shaNew()
	h.Write(b)
	return h.Sum(nil)
}

// expenses returns n deterministic expenses as RENDER-style text lines and
// as MAP-style JSON.
func expenses(n int) (text, js []byte) {
	rng := rand.New(rand.NewPCG(19, 500))
	cats := []string{"travel", "meals", "software", "office", "training"}
	descs := []string{"Taxi to airport", "Team lunch", "IDE licence", "Printer paper", "Conference ticket", "Hotel night", "Train ticket"}
	var tb, jb strings.Builder
	jb.WriteString(`{"expenses":[`)
	for i := range n {
		date := fmt.Sprintf("2024-%02d-%02d", 1+i%12, 1+i%28)
		d, c := descs[rng.IntN(len(descs))], cats[rng.IntN(len(cats))]
		amt := fmt.Sprintf("%d.%02d", 5+rng.IntN(900), rng.IntN(100))
		fmt.Fprintf(&tb, "%s  %-20s %-10s %10s EUR\n", date, d, c, amt)
		if i > 0 {
			jb.WriteByte(',')
		}
		fmt.Fprintf(&jb, `{"id":"exp_%04d","date":"%s","description":"%s","amount":%s,"currency":"EUR","category":"%s"}`, i, date, d, amt, c)
	}
	fmt.Fprintf(&jb, `],"count":%d,"currency":"EUR"}`, n)
	return []byte(tb.String()), []byte(jb.String())
}

func TestExpenses(t *testing.T) {
	text, js := expenses(500)
	t.Run("Render/Plaintext", func(t *testing.T) {
		res, st := process(t, text)
		if res.Route != toolresult.Plaintext || res.Text != string(text) {
			t.Fatalf("route %s", res.Route)
		}
		check(t, res, st, text, 7000)
		if !res.OverBudget || len(res.Hints) != 1 {
			t.Fatalf("a plaintext over the budget gets a hint: %+v", res.Hints)
		}
	})
	t.Run("Map/Variable", func(t *testing.T) {
		res, st := process(t, js)
		if res.Route != toolresult.Variable {
			t.Fatalf("route %s", res.Route)
		}
		check(t, res, st, js, 7000)
		for _, want := range []string{`expenses: Array<{id: string; date: string /*date*/; description: `, `category: "`, `count: number; currency: string`} {
			if !strings.Contains(res.Text, want) {
				t.Errorf("schema lacks %q:\n%s", want, res.Text)
			}
		}
		if !strings.Contains(string(res.Content), `"count":500`) {
			t.Errorf("the preview lacks the count, a decision field: %s", res.Content)
		}
		if res.Omitted[len(res.Omitted)-1].Pointer != "/expenses" || res.Omitted[len(res.Omitted)-1].Total != 500 {
			t.Errorf("omitted: %+v", res.Omitted)
		}
	})
}

func TestInstructions(t *testing.T) {
	const canary = "CANARY-7c1"
	for _, tc := range []struct {
		name, body, instr, data string
		mask                    string
	}{
		{"String", `{"a":1,"display_instructions_for_model":"Say hi.\nThen stop."}`, "Say hi.\nThen stop.", `{"a":1}`, ""},
		{"NonString", `{"display_instructions_for_model":{"style":"brief","max":[1,2]},"a":1}`, `{"style":"brief","max":[1,2]}`, `{"a":1}`, ""},
		{"Several", `{"display_instructions_for_model":"one","a":1,"display_\u0069nstructions_for_model":2}`, "one\n2", `{"a":1}`, ""},
		{"MaskDoesNotNameIt", `{"a":1,"secret":"` + canary + `","display_instructions_for_model":"x"}`, "x", `{"a":1}`, `{"a":true}`},
		{"MaskNamesIt", `{"a":1,"display_instructions_for_model":"x"}`, "x", `{"a":1}`, `{"a":true,"display_instructions_for_model":true}`},
		{"Nested", `{"a":{"display_instructions_for_model":"x"}}`, "", `{"a":{"display_instructions_for_model":"x"}}`, ""},
	} {
		for _, budget := range []int{7000, 1} {
			t.Run(fmt.Sprintf("%s/budget=%d", tc.name, budget), func(t *testing.T) {
				opts := []toolresult.Option{toolresult.WithBudget(budget)}
				if tc.mask != "" {
					opts = append(opts, toolresult.WithMask(jsonmask.MustCompile(tc.mask)))
				}
				res, st := process(t, []byte(tc.body), opts...)
				if res.Instructions != tc.instr {
					t.Fatalf("instructions %q want %q", res.Instructions, tc.instr)
				}
				if tc.instr != "" && res.Tokens.Instructions != count(t, tc.instr) {
					t.Fatalf("instruction tokens %d", res.Tokens.Instructions)
				}
				all, _ := json.Marshal(res)
				if strings.Contains(string(all), canary) {
					t.Fatalf("a dropped value got out: %s", all)
				}
				if budget == 1 && res.Route == toolresult.Variable {
					r, _, _ := st.Open(res.Variable.Name)
					stored, _ := io.ReadAll(r)
					if string(stored) != tc.data || strings.Contains(string(res.Content)+string(res.Schema.JSON()), "display_instructions") != (tc.name == "Nested") {
						t.Fatalf("variable %s, preview %s", stored, res.Content)
					}
					return
				}
				if string(res.Content) != tc.data {
					t.Fatalf("data %s want %s", res.Content, tc.data)
				}
			})
		}
	}
}

// TestInstructionsBudget: the instructions count against the budget and
// are capped (C2), and WithInstructions(false) leaves them data.
func TestInstructionsBudget(t *testing.T) {
	const canary = "CANARY-i9"
	instr := strings.Repeat("Answer briefly and cite the id. ", 40)                     // about 300 tokens
	data := `{"id":"x1","items":[` + strings.Repeat(`"alpha beta",`, 120) + `"gamma"]}` // about 400 tokens
	body := `{"display_instructions_for_model":` + jstr(instr) + `,` + data[1:]
	t.Run("Counted", func(t *testing.T) {
		res, _ := process(t, []byte(body), toolresult.WithBudget(600))
		if res.Route != toolresult.Variable || res.Tokens.Context+res.Tokens.Instructions > 600 {
			t.Fatalf("route %s, %d + %d tokens at a budget of 600", res.Route, res.Tokens.Context, res.Tokens.Instructions)
		}
	})
	t.Run("Capped", func(t *testing.T) {
		long := strings.Repeat("Do this and that, then stop. ", 1000) // 7,000 tokens or so
		res, _ := process(t, []byte(`{"display_instructions_for_model":`+jstr(long)+`,"a":1}`))
		if res.Tokens.Instructions > toolresult.MaxInstructionTokens || res.Tokens.Instructions != count(t, res.Instructions) ||
			!strings.HasPrefix(long, res.Instructions) || res.Tokens.Instructions < toolresult.MaxInstructionTokens-10 {
			t.Fatalf("%d tokens of instructions (%d bytes)", res.Tokens.Instructions, len(res.Instructions))
		}
		if string(res.Content) != `{"a":1}` {
			t.Fatalf("data %s", res.Content)
		}
	})
	t.Run("Off", func(t *testing.T) {
		res, _ := process(t, []byte(`{"display_instructions_for_model":"`+canary+`","a":1}`),
			toolresult.WithInstructions(false), toolresult.WithMask(jsonmask.MustCompile(`{"a":true}`)))
		if res.Instructions != "" || string(res.Content) != `{"a":1}` {
			t.Fatalf("instructions %q, data %s", res.Instructions, res.Content)
		}
	})
}

func jstr(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func TestHints(t *testing.T) {
	inner, _ := json.Marshal(map[string]any{"rows": strings.Split(strings.Repeat("row,", 300), ",")})
	s, _ := json.Marshal(string(inner))
	body := []byte(`{"id":1,"payload":` + string(s) + `,"list":[{"j":` + string(s) + `}],"text":"{not json at all ` + strings.Repeat("x", 1100) + `"}`)
	for _, budget := range []int{100000, 50} {
		res, _ := process(t, body, toolresult.WithBudget(budget))
		var ptrs []string
		for _, h := range res.Hints {
			ptrs = append(ptrs, h.Pointer)
		}
		if got := strings.Join(ptrs, " "); got != "/payload /list/0/j" {
			t.Fatalf("budget %d (%s): hints at %q", budget, res.Route, got)
		}
	}
}

func TestBodies(t *testing.T) {
	for _, tc := range []struct {
		name, body string
		route      toolresult.Route
	}{
		{"Empty", "", toolresult.Plaintext},
		{"Whitespace", " \n\t ", toolresult.Plaintext},
		{"Text", "rate limited, try later", toolresult.Plaintext},
		{"Scalar", `"just a string"`, toolresult.Plaintext},
		{"Number", `42`, toolresult.Plaintext},
		{"BadJSON", `{"a": [1, 2}`, toolresult.Plaintext},
		{"LogLines", "[INFO] started\n[WARN] slow\n", toolresult.Plaintext},
		{"Array", `[1,2,3]`, toolresult.Passthrough},
		{"Object", ` {"a":1} `, toolresult.Passthrough},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, st := process(t, []byte(tc.body))
			if res.Route != tc.route || string(res.Content) != tc.body || res.Text != tc.body {
				t.Fatalf("route %s content %q", res.Route, res.Content)
			}
			check(t, res, st, []byte(tc.body), 7000)
		})
	}
	t.Run("BadJSONWithMask", func(t *testing.T) {
		p, _ := toolresult.New(toolresult.WithMask(jsonmask.MustCompile(`{"a":true}`)), toolresult.WithStore(&toolresult.MemStore{}))
		_, err := p.ProcessBytes(ctx, []byte(`{"a":1,"b":"CANARY" x}`))
		var se *jsonmask.SyntaxError
		if !errorsAs(err, &se) || se.Offset != 20 {
			t.Fatalf("got %v", err)
		}
	})
	t.Run("BadJSONLargeNoMask", func(t *testing.T) {
		_, js := expenses(500)
		bad := append(js[:len(js)-1:len(js)-1], ']')
		res, _ := process(t, bad, toolresult.WithBudget(100))
		if res.Route != toolresult.Plaintext || res.Text != string(bad) {
			t.Fatalf("route %s", res.Route)
		}
	})
}

func TestCanary(t *testing.T) {
	const canary = "CANARY-d41"
	_, js := expenses(300)
	body := bytes.ReplaceAll(js, []byte(`"currency":"EUR"`), []byte(`"currency":"EUR","card":"`+canary+`"`))
	m := jsonmask.MustCompile(`{"expenses":{"id":true,"amount":true,"date":true},"count":true}`)
	for _, budget := range []int{1, 200, 7000, 1000000} {
		res, st := process(t, body, toolresult.WithBudget(budget), toolresult.WithMask(m))
		all, _ := json.Marshal(res)
		if strings.Contains(string(all)+res.Text, canary) {
			t.Fatalf("budget %d: a dropped value got out", budget)
		}
		if res.Variable != nil {
			r, _, _ := st.Open(res.Variable.Name)
			stored, _ := io.ReadAll(r)
			if bytes.Contains(stored, []byte(canary)) {
				t.Fatal("a dropped value was stored")
			}
		}
	}
}
