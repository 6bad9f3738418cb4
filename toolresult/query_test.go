package toolresult_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/jsonmask/jsonmask"
	"github.com/jsonmask/jsonmask/toolresult"
)

const queryCanary = "CANARY-q7f3a9"

// expenses is a body of n expenses, each with a field secret holding the
// queryCanary.
func queryExpenses(n int) string {
	cats := []string{"travel", "food", "software", "office", "hardware"}
	var b strings.Builder
	b.WriteString(`{"data":[`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"id":"e%d","category":%q,"amount":%d.%02d,"secret":%q}`, i, cats[(i*7)%len(cats)], (i*37)%500, i%100, queryCanary)
	}
	b.WriteString(`],"count":` + fmt.Sprint(n) + `}`)
	return b.String()
}

// stored processes body into a variable of store and returns its name.
func storedVar(t *testing.T, store toolresult.Store, body string, opts ...toolresult.Option) string {
	t.Helper()
	p, err := toolresult.New(append([]toolresult.Option{toolresult.WithBudget(100), toolresult.WithStore(store)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	res, err := p.Process(context.Background(), strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if res.Route != toolresult.Variable {
		t.Fatalf("route %s, want variable", res.Route)
	}
	return res.Variable.Name
}

func TestQuery(t *testing.T) {
	store := &toolresult.MemStore{}
	name := storedVar(t, store, queryExpenses(500))
	p, err := toolresult.New(toolresult.WithBudget(200), toolresult.WithStore(store))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, program, pointer string
		route                  toolresult.Route
		text                   string // the model text, when it passes
	}{
		{"Count", `.data | length`, "", toolresult.Passthrough, "500"},
		{"CountAtPointer", `length`, "/data", toolresult.Passthrough, "500"},
		{"Object", `{n: .count}`, "", toolresult.Passthrough, `{"n":500}`},
		{"Lines", `.data[:3][] | .id`, "", toolresult.Passthrough, "\"e0\"\n\"e1\"\n\"e2\""},
		{"PointerIntoItem", `.category`, "/data/2", toolresult.Passthrough, `"hardware"`},
		{"NoOutput", `empty`, "", toolresult.Passthrough, ""},
		{"Halt", `1, halt, 2`, "", toolresult.Passthrough, "1"},
		{"EnvIsEmpty", `$ENV | length`, "", toolresult.Passthrough, "0"},
		{"OverBudgetIsAVariable", `.data`, "", toolresult.Variable, ""},
		{"ManyOverBudgetIsAVariable", `.data[]`, "", toolresult.Variable, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := p.Query(context.Background(), toolresult.Query{Name: name, Program: tc.program, Pointer: tc.pointer})
			if err != nil {
				t.Fatal(err)
			}
			if res.Route != tc.route {
				t.Fatalf("route %s, want %s (%q)", res.Route, tc.route, res.Text)
			}
			if res.Tokens.Context > 200 {
				t.Fatalf("%d tokens over the budget", res.Tokens.Context)
			}
			if tc.route != toolresult.Variable && res.Text != tc.text {
				t.Fatalf("text %q, want %q", res.Text, tc.text)
			}
			if tc.route == toolresult.Variable {
				// The outputs are the new variable: query it again.
				n, err := p.Query(context.Background(), toolresult.Query{Name: res.Variable.Name, Program: `if type == "array" then length else .data | length end`})
				if err != nil || n.Text != "500" {
					t.Fatalf("the result's variable: %v %q", err, n.Text)
				}
			}
		})
	}
}

// TestQueryGroupBy is the question, checked against Go.
func TestQueryGroupBy(t *testing.T) {
	store := &toolresult.MemStore{}
	body := queryExpenses(500)
	name := storedVar(t, store, body)
	p, _ := toolresult.New(toolresult.WithBudget(2000), toolresult.WithStore(store))
	res, err := p.Query(context.Background(), toolresult.Query{Name: name,
		Program: `.data | group_by(.category) | map({category: .[0].category, total: (map(.amount) | add)}) | max_by(.total)`})
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Category string
		Total    float64
	}
	if err := json.Unmarshal([]byte(res.Text), &got); err != nil {
		t.Fatalf("%v: %q", err, res.Text)
	}
	cat, total := highestCategory(t, body)
	if got.Category != cat || got.Total != total {
		t.Fatalf("got %s %v, Go says %s %v", got.Category, got.Total, cat, total)
	}
}

// highestCategory is the group-by in Go: the category whose amounts add up
// highest, added in the order of the data as jq's add does.
func highestCategory(t *testing.T, body string) (string, float64) {
	var v struct {
		Data []struct {
			Category string
			Amount   float64
		}
	}
	if err := json.Unmarshal([]byte(body), &v); err != nil {
		t.Fatal(err)
	}
	sums := map[string]float64{}
	for _, e := range v.Data {
		sums[e.Category] += e.Amount
	}
	best, bestSum := "", 0.0
	for c, s := range sums {
		if best == "" || s > bestSum || s == bestSum && c > best {
			best, bestSum = c, s
		}
	}
	return best, bestSum
}

// TestQueryMasked: a masked tool's variable holds what the mask kept, so no
// program reaches the queryCanary, whatever it does.
func TestQueryMasked(t *testing.T) {
	store := &toolresult.MemStore{}
	m := jsonmask.MustCompile(`{"data":{"id":true,"category":true,"amount":true},"count":true}`)
	name := storedVar(t, store, queryExpenses(200), toolresult.WithMask(m))
	p, _ := toolresult.New(toolresult.WithBudget(100000), toolresult.WithStore(store))
	for _, prog := range []string{`.`, `tostring`, `[paths]`, `[.. | strings]`, `.data[0] | keys`, `.data[].secret`, `tojson | test("CANARY")`} {
		res, err := p.Query(context.Background(), toolresult.Query{Name: name, Program: prog})
		if err != nil {
			t.Fatalf("%s: %v", prog, err)
		}
		if strings.Contains(res.Text, queryCanary) || strings.Contains(res.Text, "secret\"") {
			t.Fatalf("%s: the queryCanary reached the result", prog)
		}
	}
}

func TestQueryErrors(t *testing.T) {
	store := &toolresult.MemStore{}
	name := storedVar(t, store, queryExpenses(50))
	big := storedVar(t, store, queryExpenses(5000))
	limits := toolresult.QueryLimits{Time: 500 * time.Millisecond, Output: 1 << 20, Load: 100 << 10}
	p, _ := toolresult.New(toolresult.WithStore(store), toolresult.WithQueryLimits(limits))
	// Rows that expect another limit than time run with a time limit that a
	// loaded machine cannot reach first.
	limits.Time = time.Minute
	untimed, _ := toolresult.New(toolresult.WithStore(store), toolresult.WithQueryLimits(limits))
	for _, tc := range []struct {
		name, varName, program, pointer string
		kind, limit                     string // of the *QueryError; "" for other errors
		want                            string // in the message
	}{
		{"Syntax", name, ".data | map(.amount", "", "syntax", "", "line 1, column"},
		{"SyntaxSecondLine", name, ".data\n| ]", "", "syntax", "", "line 2, column 3"},
		{"UndefinedFunction", name, "nosuchfn(1)", "", "compile", "", "nosuchfn/1"},
		{"TypeError", name, ".data[0].secret | .x", "", "runtime", "", "expected an object but got: string"},
		{"AddError", name, ".data[0].secret + 1", "", "runtime", "", "cannot add"},
		{"ToNumber", name, ".data[0].secret | tonumber", "", "runtime", "", "tonumber"},
		{"ErrorOfData", name, "error(.data[0].secret)", "", "runtime", "", "not shown"},
		{"ErrorOfProgram", name, `error("no such expense")`, "", "runtime", "", "no such expense"},
		{"Keys", name, ".data[0].secret | keys", "", "runtime", "", "keys"},
		{"Input", name, "input", "", "compile", "", "not allowed"},
		{"RangeBillion", name, "[range(1e9)] | length", "", "limit", "time", "longer than"},
		{"Recursion", name, "def f: f; f", "", "limit", "time", ""},
		{"Repeat", name, "repeat(.)", "", "limit", "output", ""},
		{"RecursionGrowing", name, "def f: [f]; f", "", "limit", "time", ""},
		{"HugeProgram", name, strings.Repeat(" ", 1<<20) + ".", "", "limit", "program", ""},
		{"Load", big, ".", "", "limit", "load", "JSON Pointer"},
		{"LoadAtPointer", big, ".", "/data", "limit", "load", "/data"},
		{"NoVariable", "var_000000000000", ".", "", "", "", "no such variable"},
		{"BadName", "../etc/passwd", ".", "", "", "", "no such variable"},
		{"NoValueAtPointer", name, ".", "/nothing", "", "", "no value at /nothing"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			q := p
			if tc.limit != "time" {
				q = untimed
			}
			start := time.Now()
			_, err := q.Query(context.Background(), toolresult.Query{Name: tc.varName, Program: tc.program, Pointer: tc.pointer})
			if took := time.Since(start); took > 30*time.Second {
				t.Errorf("took %v", took)
			}
			if err == nil {
				t.Fatal("no error")
			}
			if strings.Contains(err.Error(), queryCanary) || strings.Contains(err.Error(), "e0") {
				t.Fatalf("the error quotes data: %v", err)
			}
			var qe *toolresult.QueryError
			if errors.As(err, &qe) != (tc.kind != "") {
				t.Fatalf("error %T %v", err, err)
			}
			if qe != nil && (qe.Kind != tc.kind || qe.Limit != tc.limit) {
				t.Fatalf("kind %s limit %s: %v", qe.Kind, qe.Limit, err)
			}
			if tc.limit != "" && !errors.Is(err, toolresult.ErrQueryLimit) {
				t.Fatalf("not ErrQueryLimit: %v", err)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %q does not say %q", err, tc.want)
			}
			t.Log(err)
		})
	}
}

// TestQueryMemory: a program that grows memory ends at the memory limit,
// long before its time limit.
func TestQueryMemory(t *testing.T) {
	store := &toolresult.MemStore{}
	name := storedVar(t, store, queryExpenses(50))
	p, _ := toolresult.New(toolresult.WithStore(store), toolresult.WithQueryLimits(toolresult.QueryLimits{Time: time.Minute, Memory: 32 << 20}))
	for _, prog := range []string{"def f: [f]; f", "[range(1e9)] | length"} {
		if testing.Short() && strings.Contains(prog, "range") {
			continue // a few seconds; longer under the race detector
		}
		start := time.Now()
		_, err := p.Query(context.Background(), toolresult.Query{Name: name, Program: prog})
		var qe *toolresult.QueryError
		if !errors.As(err, &qe) || qe.Limit != "memory" {
			t.Fatalf("%s: %v", prog, err)
		}
		if d := time.Since(start); d > 30*time.Second {
			t.Fatalf("%s: took %v", prog, d)
		}
		t.Logf("%s: %v after %v", prog, err, time.Since(start))
	}
	// Within the limit, the same processor answers.
	if res, err := p.Query(context.Background(), toolresult.Query{Name: name, Program: ".count"}); err != nil || res.Text != "50" {
		t.Fatalf("%v %v", err, res)
	}
}

// TestQueryCancel: the caller's cancellation is its own error, not a limit.
func TestQueryCancel(t *testing.T) {
	store := &toolresult.MemStore{}
	name := storedVar(t, store, queryExpenses(50))
	p, _ := toolresult.New(toolresult.WithStore(store))
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	_, err := p.Query(ctx, toolresult.Query{Name: name, Program: "last(range(1e12))"})
	if !errors.Is(err, context.DeadlineExceeded) || errors.Is(err, toolresult.ErrQueryLimit) {
		t.Fatalf("got %v", err)
	}
}

// TestLocation: the note names where a variable lives only on request
// (SPEC C16), and says that it can be queried (C14).
func TestLocation(t *testing.T) {
	dir := t.TempDir()
	st, err := toolresult.NewDirStore(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, on := range []bool{false, true} {
		p, _ := toolresult.New(toolresult.WithBudget(300), toolresult.WithStore(st), toolresult.WithLocation(on))
		res, err := p.Process(context.Background(), strings.NewReader(queryExpenses(100)))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(res.Text, "query_variable") {
			t.Fatalf("the note does not name query_variable: %.300s", res.Text)
		}
		if strings.Contains(res.Text, dir) != on || on && !strings.Contains(res.Text, res.Variable.Path) {
			t.Fatalf("location %v: %.400s", on, res.Text)
		}
		if res.Tokens.Context > 300 {
			t.Fatalf("%d tokens", res.Tokens.Context)
		}
	}
}

// TestQueryBeingWritten: a variable is not there for a query until its
// draft is committed.
func TestQueryBeingWritten(t *testing.T) {
	st, err := toolresult.NewDirStore(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	p, _ := toolresult.New(toolresult.WithStore(st))
	d, err := st.Create()
	if err != nil {
		t.Fatal(err)
	}
	d.Write([]byte(`{"data":[1,2,`))
	if _, err := p.Query(context.Background(), toolresult.Query{Name: "var_written", Program: "."}); !errors.Is(err, toolresult.ErrNoVariable) {
		t.Fatalf("while written: %v", err)
	}
	d.Write([]byte(`3]}`))
	if _, err := d.Commit("var_written"); err != nil {
		t.Fatal(err)
	}
	res, err := p.Query(context.Background(), toolresult.Query{Name: "var_written", Program: ".data | add"})
	if err != nil || res.Text != "6" {
		t.Fatalf("%v %q", err, res.Text)
	}
}
