package stream

import (
	"strings"
	"testing"

	"github.com/jsonmask/jsonmask/compile"
	"github.com/jsonmask/jsonmask/tokenizer"
)

// objects returns an object whose "items" are n objects with the given
// members, laid out alike so that the tokenizer learns their heads.
func objects(n int, members string) []byte {
	return []byte(`{"items":[` + strings.TrimSuffix(strings.Repeat(`{`+members+`},`, n), ",") + `]}` + strings.Repeat(" ", 64))
}

// TestLookupCacheNeverStale: the cache of Lookup's answers is keyed by the
// names the tokenizer gives member heads (MemberSpan.Head); a name must mean
// the same key for as long as an answer may be kept, whatever Scanner gave
// it. A fresh Scanner (as a pool or a refactoring may hand the Machine) used
// to start its names at 1 again, and the cache kept "id"'s answer for
// whichever key of the same length it named first: the canary leaked.
func TestLookupCacheNeverStale(t *testing.T) {
	progA, err := compile.Compile([]byte(`{"items":{"id":true}}`), compile.Options{})
	if err != nil {
		t.Fatal(err)
	}
	progB, err := compile.Compile([]byte(`{"items":{"xx":{"x":true}}}`), compile.Options{})
	if err != nil {
		t.Fatal(err)
	}
	learn := objects(8, `"id":1,"xx":"CANARY"`)
	swapped := objects(8, `"xx":"CANARY","id":2`)
	mask := func(m *Machine, prog *compile.Program, doc []byte) string {
		t.Helper()
		m.Reset(prog, Config{})
		out, err := m.Append(nil, doc)
		if err != nil {
			t.Fatal(err)
		}
		return string(out)
	}
	wantA := func(id string) string {
		return `{"items":[` + strings.TrimSuffix(strings.Repeat(`{"id":`+id+`},`, 8), ",") + `]}`
	}
	t.Run("FreshScanner", func(t *testing.T) {
		var m Machine
		mask(&m, progA, learn)
		m.sc = tokenizer.Scanner{}
		if got := mask(&m, progA, swapped); got != wantA("2") {
			t.Errorf("got %s", got)
		}
	})
	t.Run("TwoMachines", func(t *testing.T) {
		var m1, m2 Machine
		mask(&m1, progA, learn)
		mask(&m2, progA, swapped)
		m1.sc, m2.sc = m2.sc, m1.sc // each keeps its cache, with the other's names
		if got := mask(&m1, progA, swapped); got != wantA("2") {
			t.Errorf("first machine: got %s", got)
		}
		if got := mask(&m2, progA, learn); got != wantA("1") {
			t.Errorf("second machine: got %s", got)
		}
	})
	t.Run("Programs", func(t *testing.T) {
		var m Machine
		for range 3 {
			if got := mask(&m, progA, learn); got != wantA("1") {
				t.Fatalf("program A: got %s", got)
			}
			if got := mask(&m, progB, learn); got != `{"items":[`+strings.TrimSuffix(strings.Repeat(`{"xx":"CANARY"},`, 8), ",")+`]}` {
				t.Fatalf("program B: got %s", got)
			}
		}
	})
}
