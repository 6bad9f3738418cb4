package schema_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/jsonmask/jsonmask/schema"
)

// trace records what an Observer sees, a scalar's pieces joined, so that
// traces of the same document read in different windows compare equal.
type trace struct {
	b     strings.Builder
	piece []byte
}

func (o *trace) Begin(k schema.Kind) { fmt.Fprintf(&o.b, "<%c", k) }
func (o *trace) Key(raw, text []byte, whole bool) {
	fmt.Fprintf(&o.b, " k%q=%q/%v", raw, text, whole)
}
func (o *trace) Piece(p []byte, last bool) {
	o.piece = append(o.piece, p...)
	if last {
		fmt.Fprintf(&o.b, "%q|", o.piece)
		o.piece = o.piece[:0]
	}
}
func (o *trace) End(k schema.Kind) { fmt.Fprintf(&o.b, "%c>", k) }

// inferSplit reads doc in windows whose sizes cycle through sizes, and
// returns the schema, the observer's trace and the error, as one string.
func inferSplit(doc []byte, sizes []int) string {
	var in schema.Inferrer
	o := &trace{}
	in.SetObserver(o)
	var err error
	for i, k := 0, 0; i < len(doc) && err == nil; k++ {
		w := max(1, sizes[k%len(sizes)])
		_, err = in.Write(doc[i:min(i+w, len(doc))])
		i += w
	}
	if err == nil {
		err = in.End()
	}
	if err != nil {
		return "error: " + err.Error()
	}
	s := in.Schema()
	return fmt.Sprintf("%s\n%s\n%s", s.JSON(), s.Compact(0), o.b.String())
}

// FuzzInfer checks that an Inferrer reads a document the same way however
// it is cut into windows (its fast paths read what is whole in a window,
// Next the rest): the same schema, the same observer events, the same
// error; and that it accepts exactly the documents encoding/json accepts
// that are UTF-8.
func FuzzInfer(f *testing.F) {
	for _, d := range []string{
		`{"s":"x","i":1,"f":1.5,"b":true,"n":null}`, `{"a":1,"a":2}`, `{"d":[{"id":1},{"id":2,"x":true},"s"]}`,
		`{"\u0061":1,"a\"b":2,"\ud800":3}`, `12`, `[]`, `{}`, `{"a":` + strings.Repeat(`"`+strings.Repeat("k", 40)+`",`, 40) + `1}`,
		`{"t":"2024-01-02T03:04:05Z","u":"https://example.com/%41?q=1"}`, `{"a":1,}`, `{"a" 1}`, `[1,2`, `"x`, `{} x`, `{ "ab`, `{"a":"b\`, `[1, tru`, ` 1`, `1 `, `{"a":-`,
		`{"` + strings.Repeat("k", 1100) + `":1}`, `[` + strings.Repeat(`{"a":[`, 40) + strings.Repeat(`]}`, 40) + `]`,
	} {
		f.Add([]byte(d), 7, 1, 64)
	}
	g := &gen{rand.New(rand.NewPCG(1, 2))}
	for range 20 {
		var b strings.Builder
		g.value(&b, 5)
		f.Add([]byte(b.String()), 3, 17, 5)
	}
	f.Fuzz(func(t *testing.T, doc []byte, a, b, c int) {
		whole := inferSplit(doc, []int{len(doc) + 1})
		// encoding/json does not check UTF-8; the tokenizer's tests use the same oracle.
		if valid := json.Valid(doc) && utf8.Valid(doc); valid == strings.HasPrefix(whole, "error: ") {
			t.Fatalf("encoding/json valid %v, Inferrer: %.200s", valid, whole)
		}
		for _, sizes := range [][]int{{1}, {a % 97, b % 97, c % 97}} {
			if got := inferSplit(doc, sizes); got != whole {
				t.Fatalf("windows %v:\n got %.300s\nwant %.300s", sizes, got, whole)
			}
		}
	})
}
