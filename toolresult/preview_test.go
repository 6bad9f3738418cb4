package toolresult_test

import (
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
