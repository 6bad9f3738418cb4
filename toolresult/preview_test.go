package toolresult_test

import (
	"encoding/json"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/jsonmask/jsonmask/toolresult"
)

// askedTokenizer counts the tokens a processor asks its tokenizer to count:
// a call that stops early (its answer is over its limit) is charged limit+1,
// what the tokenizer counts before it stops (TestCountEarlyExit).
type askedTokenizer struct {
	toolresult.Tokenizer
	tokens atomic.Int64
}

func (a *askedTokenizer) Count(text []byte, limit int) int {
	n := a.Tokenizer.Count(text, limit)
	if limit >= 0 && n > limit {
		a.tokens.Add(int64(limit + 1))
	} else {
		a.tokens.Add(int64(n))
	}
	return n
}

// TestPreviewCounts bounds the tokens counted to fit a preview (SPEC C10):
// a string longer than the budget can show is not counted whole for every
// length the preview tries. Strings of base64, with no spaces, are the
// costliest to count.
func TestPreviewCounts(t *testing.T) {
	b64 := make([]byte, 72<<10)
	for i := range b64 {
		b64[i] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"[(i*7919+i/64)%64]
	}
	words := strings.Repeat("lorem ipsum dolor sit amet ", 2000)
	for _, tc := range []struct {
		name string
		body string
	}{
		{"base64", `{"id":"x1","blob":"` + string(b64) + `","more":["` + string(b64[:5000]) + `"]}`},
		{"words", `{"items":[{"id":1,"text":"` + words + `"},{"id":2,"text":"` + words + `"}]}`},
	} {
		for _, budget := range []int{500, 7000} {
			t.Run(tc.name+"/budget="+strconv.Itoa(budget), func(t *testing.T) {
				tok, err := toolresult.NewTokenizer(toolresult.DefaultEncoding)
				if err != nil {
					t.Fatal(err)
				}
				asked := &askedTokenizer{Tokenizer: tok}
				res, _ := process(t, []byte(tc.body), toolresult.WithBudget(budget), toolresult.WithTokenizer(asked))
				if res.Route != toolresult.Variable {
					t.Fatalf("route %s, want variable", res.Route)
				}
				// The fitting tries up to 8 texts per schema depth, each built
				// in rounds that show strings twice as long each time. Counted
				// whole at every try and every round, these bodies cost 240 to
				// 630 times the budget; with costs counted up to what is left
				// and kept across tries, 9 to 21.
				if n := asked.tokens.Load(); n > 30*int64(budget) {
					t.Errorf("%d tokens counted for a budget of %d: %.0f times the budget, want at most 30", n, budget, float64(n)/float64(budget))
				}
			})
		}
	}
}

// TestPreviewC8 checks the preview's rules that real data broke (SPEC C8):
// no object that had members shown as {} while the budget holds one of them
// (a list sampled after a larger one had used the sampler's caps); a long
// string cut at any length, so that the preview uses the budget, with the
// schema whole; ids and URLs whole or not at all; and data that costs fewer
// tokens than its note passes as it is.
func TestPreviewC8(t *testing.T) {
	var log, items strings.Builder
	for i := range 10000 {
		if i > 0 {
			log.WriteByte(',')
		}
		log.WriteString(`{"t":"2026-11-26T20:00:00Z","msg":"event ` + strconv.Itoa(i) + ` of the log"}`)
	}
	for i := range 500 {
		if i > 0 {
			items.WriteByte(',')
		}
		items.WriteString(`{"id":"i` + strconv.Itoa(i) + `","name":"item ` + strconv.Itoa(i) + `"}`)
	}
	lists := `{"log":[` + log.String() + `],"items":[` + items.String() + `]}`
	for _, budget := range []int{1000, 3000, 5000} {
		t.Run("NoEmptyObjects/budget="+strconv.Itoa(budget), func(t *testing.T) {
			res, _ := process(t, []byte(lists), toolresult.WithBudget(budget))
			if n := strings.Count(string(res.Content), "{}"); n > 0 {
				t.Fatalf("%d objects shown as {}: %.300s", n, res.Content)
			}
			if !strings.Contains(string(res.Content), `"items":[{"id":"i0"`) {
				t.Fatalf("the second list shows no item: %.300s", res.Content)
			}
		})
	}

	words := strings.Repeat("the quick brown fox jumps over the lazy dog ", 4000)
	escaped, _ := json.Marshal(lists) // a file's JSON, as server-filesystem sends it
	for _, budget := range []int{1000, 2000, 3000, 5000} {
		for name, body := range map[string]string{
			"Alone":   `{"content":"` + words + `"}`,
			"Beside":  `{"id":"x1","meta":{"kind":"text","lang":"en"},"text":"` + words + `"}`,
			"Escaped": `{"content":` + string(escaped) + `}`,
		} {
			t.Run("LongString/"+name+"/budget="+strconv.Itoa(budget), func(t *testing.T) {
				res, _ := process(t, []byte(body), toolresult.WithBudget(budget))
				// One string to cut: it can fill the budget but for the note
				// and the schema.
				if res.Tokens.Context < budget*3/4 {
					t.Errorf("the model text uses %d tokens of %d", res.Tokens.Context, budget)
				}
				if res.SchemaDepth != 0 {
					t.Errorf("the schema is cut at depth %d though the preview has room", res.SchemaDepth)
				}
			})
		}
	}

	t.Run("IDsWhole", func(t *testing.T) {
		var b strings.Builder
		b.WriteString(`{"items":[`)
		for i := range 300 {
			if i > 0 {
				b.WriteByte(',')
			}
			id := "msg_" + strings.Repeat(strconv.Itoa(i%10), 48)
			url := "https://example.com/files/" + strings.Repeat("abcdef", 20) + "/" + strconv.Itoa(i)
			b.WriteString(`{"id":"` + id + `","url":"` + url + `","text":"` + strings.Repeat("word ", 40) + `"}`)
		}
		b.WriteString(`]}`)
		doc := b.String()
		for _, budget := range []int{300, 700, 2000} {
			res, _ := process(t, []byte(doc), toolresult.WithBudget(budget))
			for _, o := range res.Omitted {
				if o.Kind == "chars" && (strings.HasSuffix(o.Pointer, "/id") || strings.HasSuffix(o.Pointer, "/url")) {
					t.Fatalf("budget %d: %s is cut (%d of %d characters)", budget, o.Pointer, o.Kept, o.Total)
				}
			}
		}
	})

	t.Run("CheaperThanNote", func(t *testing.T) {
		data := `{"a":[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25]}`
		res, _ := process(t, []byte(data), toolresult.WithBudget(40))
		if res.Route != toolresult.Passthrough || string(res.Content) != data {
			t.Fatalf("route %s, %d tokens of model text for %d tokens of data", res.Route, res.Tokens.Context, count(t, data))
		}
	})
}

// FuzzPreview: whatever the data and the budget, the model text is within
// the budget unless the result says it is over, its count is exact, the
// preview is valid JSON, and data that passes is the data.
func FuzzPreview(f *testing.F) {
	for _, s := range []string{`{"a":[1,2,3],"b":{"c":"x y z"}}`, `[{"id":"msg_1","url":"https://e.x/1"},{}]`, `{"s":"` + strings.Repeat("word ", 300) + `"}`, `{"":{"":{"":[]}}}`} {
		f.Add(s, uint16(50))
		f.Add(s, uint16(400))
	}
	f.Fuzz(func(t *testing.T, doc string, b uint16) {
		if !json.Valid([]byte(doc)) || len(doc) > 64<<10 {
			return
		}
		budget := int(b%2000) + 1
		res, _ := process(t, []byte(doc), toolresult.WithBudget(budget))
		switch res.Route {
		case toolresult.Variable:
			if res.Tokens.Context > budget && !res.OverBudget || res.Tokens.Context != count(t, res.Text) {
				t.Fatalf("%d tokens (counted %d) at a budget of %d", res.Tokens.Context, count(t, res.Text), budget)
			}
			if !json.Valid(res.Content) {
				t.Fatalf("the preview is not JSON: %s", res.Content)
			}
		case toolresult.Passthrough:
			if res.Tokens.Context > budget && !res.OverBudget {
				t.Fatalf("passthrough of %d tokens at a budget of %d", res.Tokens.Context, budget)
			}
		}
	})
}
