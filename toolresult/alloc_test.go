//go:build !race

package toolresult_test

import (
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"

	"github.com/jsonmask/jsonmask/toolresult"
)

// discardStore keeps nothing, so that what a test measures is the processor.
type discardStore struct{}

func (discardStore) Create() (toolresult.Draft, error) { return discardDraft{}, nil }
func (discardStore) Open(string) (io.ReadCloser, int64, error) {
	return nil, 0, toolresult.ErrNoVariable
}

type discardDraft struct{}

func (discardDraft) Write(p []byte) (int, error)       { return len(p), nil }
func (discardDraft) ReadAt([]byte, int64) (int, error) { return 0, io.EOF }
func (discardDraft) Commit(string) (string, error)     { return "", nil }
func (discardDraft) Discard() error                    { return nil }

// TestVariableAllocs gates the variable route's pass over the data: once the
// sample's caps are reached, a member, a string or a number allocates
// nothing, so that a large body costs no garbage per value (SPEC C10: memory
// independent of the size). It compares a list with four times the items of
// another, at a budget whose caps the smaller list already passes. (Not
// gated: the schema's check of the uri format, which parses with net/url
// each value of a place whose values have all been URIs so far.)
func TestVariableAllocs(t *testing.T) {
	list := func(n int) []byte {
		var b strings.Builder
		b.WriteString(`{"object":"list","data":[`)
		for i := range n {
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `{"id":"msg_%06d","status":"done","text":"some words of text, item %d","n":%d,"at":"12:%02d"}`, i, i, i, i%60)
		}
		b.WriteString(`],"has_more":false}`)
		return []byte(b.String())
	}
	p, err := toolresult.New(toolresult.WithBudget(100), toolresult.WithStore(discardStore{}))
	if err != nil {
		t.Fatal(err)
	}
	allocs := func(body []byte) float64 {
		return testing.AllocsPerRun(3, func() {
			res, err := p.ProcessBytes(ctx, body)
			if err != nil || res.Route != toolresult.Variable {
				t.Fatalf("route %v, error %v", res.Route, err)
			}
		})
	}
	const n = 5000
	small, large := allocs(list(n)), allocs(list(4*n))
	values := float64(3*n) * 10 // the large list's extra items, of 5 members and 5 values each
	// The model text is fitted with a few more or fewer counts for one
	// list than the other: a few thousand allocations either way, below
	// 0.1 per value. One per key or string would be 0.4 or more.
	if per := (large - small) / values; per > 0.1 {
		t.Errorf("%.0f allocations for %d items, %.0f for %d: %.3f per member or value, want none", small, n, large, 4*n, per)
	}
}

// TestProcessBytesNoCopy checks that ProcessBytes reads the body where it
// is: a variable's data streams to the store, so a body in memory costs no
// second copy of itself.
func TestProcessBytesNoCopy(t *testing.T) {
	body := []byte(`{"data":[` + strings.Repeat(`{"id":"a1","text":"some words"},`, 256<<10) + `{}]}`)
	p, err := toolresult.New(toolresult.WithBudget(100), toolresult.WithStore(discardStore{}))
	if err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	if _, err := p.ProcessBytes(ctx, body); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	if n := after.TotalAlloc - before.TotalAlloc; n >= uint64(len(body)) {
		t.Errorf("ProcessBytes of %d bytes allocated %d bytes, want less than the body", len(body), n)
	}
}
