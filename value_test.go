package jsonmask_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jsonmask/jsonmask"
)

// Go types for AppendValue: tags, options, pointers, interfaces, maps,
// values with their own encoders, and shapes left to the encoder.
type vUser struct {
	Name    string          `json:"name"`
	Email   string          `json:"email,omitempty"`
	ID      int64           `json:"id"`
	Tags    []string        `json:"tags"`
	Meta    map[string]any  `json:"meta"`
	Boss    *vUser          `json:"boss,omitempty"`
	When    time.Time       `json:"when"`
	Raw     json.RawMessage `json:"raw,omitempty"`
	Skip    string          `json:"-"`
	Score   float64         `json:"score,omitzero"`
	Blob    []byte          `json:"blob"`
	Arr     [2]uint8        `json:"arr"`
	Any     any             `json:"any"`
	Plain   bool
	private int // not encoded
}

type vEmbedded struct {
	vUser
	Extra string `json:"extra"`
}

type vQuoted struct {
	N int `json:"n,string"`
}

type vIntKeys map[int]string

// valueGen makes random Go values.
type valueGen struct{ rng *rand.Rand }

var valueKeys = []string{"name", "email", "id", "tags", "meta", "boss", "when", "raw", "-", "score", "blob",
	"arr", "any", "Plain", "extra", "n", "a<b>&", "é", "", "1", "k"}

func (g valueGen) str() string {
	return []string{"", "x", "Ana", "a<b>&c", "é\u2028", "\"q\"", "tab\t", "\xff"}[g.rng.IntN(8)]
}

func (g valueGen) any(depth int) any {
	switch g.rng.IntN(12) {
	case 0:
		return nil
	case 1:
		return g.str()
	case 2:
		return g.rng.Float64() * 1e6
	case 3:
		return g.rng.IntN(2) == 0
	case 4:
		return []any{g.any(depth - 1), g.any(depth - 1)}
	case 5:
		if depth > 0 {
			return g.user(depth - 1)
		}
	case 6:
		if depth > 0 {
			m := map[string]any{}
			for range g.rng.IntN(4) {
				m[valueKeys[g.rng.IntN(len(valueKeys))]] = g.any(depth - 1)
			}
			return m
		}
	case 7:
		return vQuoted{N: g.rng.IntN(100)}
	case 8:
		if depth > 0 {
			return vEmbedded{vUser: *g.user(depth - 1), Extra: g.str()}
		}
	case 9:
		return vIntKeys{1: "a", -2: "b"}
	case 10:
		return []byte("bytes")
	}
	return g.rng.IntN(1000)
}

func (g valueGen) user(depth int) *vUser {
	u := &vUser{Name: g.str(), ID: g.rng.Int64N(1e12), Skip: "secret", Plain: g.rng.IntN(2) == 0, private: 1}
	if g.rng.IntN(2) == 0 {
		u.Email = g.str()
	}
	if g.rng.IntN(2) == 0 {
		u.Tags = []string{g.str(), g.str()}
	}
	if depth > 0 && g.rng.IntN(3) == 0 {
		u.Boss = g.user(depth - 1)
	}
	if depth > 0 && g.rng.IntN(2) == 0 {
		u.Meta = map[string]any{"k": g.any(depth - 1), "a<b>&": g.any(depth - 1)}
	}
	if g.rng.IntN(3) == 0 {
		u.When = time.Date(2026, 11, 22, 1, 2, 3, 4, time.UTC)
	}
	if g.rng.IntN(3) == 0 {
		u.Raw = json.RawMessage(`{"k": [1, 2], "x": "y"}`)
	}
	if g.rng.IntN(2) == 0 {
		u.Score = g.rng.Float64()
	}
	if g.rng.IntN(2) == 0 {
		u.Blob = []byte("blob")
	}
	u.Any = g.any(depth)
	return u
}

func (g valueGen) value() any {
	switch g.rng.IntN(6) {
	case 0:
		return []*vUser{g.user(2), nil, g.user(1)}
	case 1:
		return g.any(3)
	case 2:
		return map[string]any{"a<b>&": g.user(2), "k": g.any(2)}
	}
	return g.user(3)
}

// valueMask makes a random mask over valueKeys.
func (g valueGen) mask(depth int) map[string]any {
	m := map[string]any{}
	for range g.rng.IntN(5) {
		k := valueKeys[g.rng.IntN(len(valueKeys))]
		if depth > 0 && g.rng.IntN(2) == 0 {
			m[k] = g.mask(depth - 1)
		} else {
			m[k] = true
		}
	}
	return m
}

// TestAppendValue: for random Go values, masks and options, AppendValue
// gives exactly what Append gives for encoding/json's encoding of the value.
func TestAppendValue(t *testing.T) {
	g := valueGen{rand.New(rand.NewPCG(4, 2))}
	n := 3000
	if testing.Short() {
		n = 300
	}
	for iter := range n {
		maskJSON, _ := json.Marshal(g.mask(3))
		opts := []jsonmask.Option{jsonmask.WithArrays(iter%3 == 0), jsonmask.WithDropMismatched(iter%4 == 1)}
		if iter%5 == 2 {
			opts = append(opts, jsonmask.WithMaxDepth(4+iter%4)) // deep enough for the masks, not always for the values
		}
		m, err := jsonmask.Compile(maskJSON, opts...)
		if err != nil {
			t.Fatal(err)
		}
		v := g.value()
		enc, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		want, werr := m.Append(nil, enc)
		got, err := m.AppendValue([]byte("prefix"), v)
		if werr != nil || err != nil {
			// Too deep for AppendValue means too deep for Append; not the other
			// way round: AppendValue does not look at what the mask drops.
			if err != nil && werr == nil || werr != nil && !errors.Is(werr, jsonmask.ErrMaxDepth) {
				t.Fatalf("mask %s value %s\nAppendValue: %v\nAppend: %v", maskJSON, enc, err, werr)
			}
			continue
		}
		if !bytes.Equal(got, append([]byte("prefix"), want...)) {
			t.Fatalf("mask %s options %d\nvalue %s\nAppendValue: %s, %v\nAppend:      %s", maskJSON, iter%12, enc, got, err, want)
		}
	}
}

func TestAppendValueErrors(t *testing.T) {
	m := jsonmask.MustCompile(`{"boss":{"boss":true}}`)
	loop := &vUser{}
	loop.Boss = loop
	if _, err := m.AppendValue(nil, loop); err == nil {
		t.Error("a cycle of pointers was encoded")
	}
	deep := jsonmask.MustCompile(`{"a":{"a":true}}`, jsonmask.WithMaxDepth(3))
	var v any = map[string]any{"a": map[string]any{"a": map[string]any{"a": map[string]any{"a": 1}}}}
	if _, err := deep.AppendValue(nil, v); err == nil {
		t.Error("nesting past the limit was encoded")
	}
	if _, err := m.AppendValue(nil, map[string]any{"boss": func() {}}); err == nil {
		t.Error("a func was encoded")
	}
	var ue *json.UnsupportedTypeError
	_, err := m.AppendValue(nil, map[string]any{"boss": map[string]any{"boss": make(chan int)}})
	if err == nil || errors.As(err, &ue) && ue == nil {
		t.Errorf("a chan: %v", err)
	}
}

// Types for the root tests: what the walk once left to encoding/json and
// then mishandled behind a pointer.
type (
	vTextKey struct{ s string }
	vBase    struct{ ID int }
	vAccount struct {
		vBase
		Name string
	}
)

func (k vTextKey) MarshalText() ([]byte, error) { return []byte(k.s), nil }

// sameAsEncoding checks that AppendValue gives for v what Append gives for
// json.Marshal(v): the same bytes, or an error where either fails.
func sameAsEncoding(t *testing.T, m *jsonmask.Mask, v any) {
	t.Helper()
	var got []byte
	var err error
	func() {
		defer func() {
			if r := recover(); r != nil {
				err = fmt.Errorf("panic: %v", r)
				t.Errorf("AppendValue(%#v) panics: %v", v, r)
			}
		}()
		got, err = m.AppendValue(nil, v)
	}()
	enc, werr := json.Marshal(v)
	var want []byte
	if werr == nil {
		want, werr = m.Append(nil, enc)
	}
	switch {
	case werr != nil && err == nil:
		t.Errorf("AppendValue(%#v) = %s; encoding/json + Append fail: %v", v, got, werr)
	case werr == nil && err != nil:
		t.Errorf("AppendValue(%#v) fails: %v; encoding/json + Append give %s", v, err, want)
	case werr == nil && !bytes.Equal(got, want):
		t.Errorf("AppendValue(%#v)\n got %s\nwant %s", v, got, want)
	}
}

// TestAppendValueRoot: a value at the root takes the path it takes when
// nested, whether it comes as itself, behind pointers, or in an interface
// (issue 16, defect 2: behind a pointer, a map with TextMarshaler or float
// keys panicked, and a struct with an embedded struct or a ",string" field
// gave {}).
func TestAppendValueRoot(t *testing.T) {
	values := []struct {
		name string
		v    any
	}{
		{"map with TextMarshaler keys", map[vTextKey]int{{"x"}: 1, {"b"}: 2}},
		{"map with float keys", map[float64]int{1.5: 1}},
		{"embedded struct", vAccount{vBase{ID: 7}, "ana"}},
		{"string option", vQuoted{N: 5}},
		{"int keys", vIntKeys{1: "a", -2: "b"}},
		{"struct", vUser{Name: "ana", ID: 7}},
		{"time", time.Date(2026, 11, 22, 1, 2, 3, 4, time.UTC)},
		{"raw object", json.RawMessage(`{"x": 1, "ID": [2]}`)},
		{"slice", []vAccount{{vBase{1}, "a"}}},
		{"string", "<x>"},
	}
	masks := []string{`{"ID":true,"Name":true,"x":true,"n":true,"1":true,"name":true}`, `{"x":{},"ID":{"a":true}}`, `{}`}
	for _, c := range values {
		forms := map[string]any{"value": c.v}
		p := reflect.New(reflect.TypeOf(c.v))
		p.Elem().Set(reflect.ValueOf(c.v))
		forms["pointer"] = p.Interface()
		pp := reflect.New(p.Type())
		pp.Elem().Set(p)
		forms["pointer to pointer"] = pp.Interface()
		var iface any = c.v
		forms["pointer to interface"] = &iface
		for form, v := range forms {
			for i, mk := range masks {
				for _, on := range []bool{false, true} {
					m := jsonmask.MustCompile(mk, jsonmask.WithArrays(on), jsonmask.WithDropMismatched(on))
					name := fmt.Sprintf("%s/%s/mask=%d/options=%t", c.name, form, i, on)
					t.Run(name, func(t *testing.T) { sameAsEncoding(t, m, v) })
				}
			}
		}
	}
}

// TestAppendValueMaxDepth: a value nested deeper than WithMaxDepth fails
// with an error that wraps ErrMaxDepth, as Append's does (issue 16, defect 3).
func TestAppendValueMaxDepth(t *testing.T) {
	deep := map[string]any{"a": map[string]any{"a": map[string]any{"a": map[string]any{"a": 1}}}}
	cases := []struct {
		name, mask string
		depth      int
		v          any
	}{
		{"walked", `{"a":{"b":true}}`, 3, map[string]any{"a": []any{[]any{[]any{map[string]any{"b": 1}}}}}},
		{"kept whole", `{"a":{"a":true}}`, 3, deep},
		{"in an array", `{"a":true}`, 2, map[string]any{"a": []any{[]any{1}}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := jsonmask.MustCompile(c.mask, jsonmask.WithMaxDepth(c.depth))
			enc, err := json.Marshal(c.v)
			if err == nil {
				if _, err = m.Append(nil, enc); !errors.Is(err, jsonmask.ErrMaxDepth) {
					t.Fatalf("Append: %v, want ErrMaxDepth", err)
				}
			}
			if _, err := m.AppendValue(nil, c.v); !errors.Is(err, jsonmask.ErrMaxDepth) {
				t.Errorf("AppendValue: %v, want an error that wraps ErrMaxDepth", err)
			}
		})
	}
}

// TestAppendValueWith: Masks made with With share the plans of the Mask
// they come from (plans do not depend on options), and each masks with its
// own options.
func TestAppendValueWith(t *testing.T) {
	v := &vUser{Name: "ana", ID: 7, Tags: []string{"a"}, Skip: "CANARY", Any: 3}
	base := jsonmask.MustCompile(`{"name":true,"id":{},"tags":{},"any":{}}`)
	drop, err := base.With(jsonmask.WithDropMismatched(true))
	if err != nil {
		t.Fatal(err)
	}
	strict, err := base.With(jsonmask.WithStrict(true))
	if err != nil {
		t.Fatal(err)
	}
	whole, err := json.Marshal([]*vUser{v}) // an array passes through (SPEC B3)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 2 { // the first round builds the plans, the second uses them
		for _, c := range []struct {
			m    *jsonmask.Mask
			v    any
			want string
		}{
			{base, v, `{"name":"ana","id":7,"tags":["a"],"any":3}`},
			{drop, v, `{"name":"ana","tags":[]}`},
			{strict, v, `{"name":"ana","id":7,"tags":["a"],"any":3}`},
			{base, []*vUser{v}, string(whole)},
			{strict, []*vUser{v}, ``},
		} {
			got, err := c.m.AppendValue(nil, c.v)
			if c.want == "" {
				if !errors.Is(err, jsonmask.ErrNotObject) {
					t.Errorf("round %d: %s, %v; want ErrNotObject", i, got, err)
				}
				continue
			}
			if err != nil || string(got) != c.want {
				t.Errorf("round %d: %s, %v; want %s", i, got, err, c.want)
			}
		}
	}
}

// TestAppendValueErrorMessages: a depth error names the container past the
// limit, on one line, and shortens a long pointer (SPEC V3).
func TestAppendValueErrorMessages(t *testing.T) {
	loop := &vUser{Name: "loop"}
	loop.Boss = loop
	long := strings.Repeat("k", 300)
	cases := []struct {
		name, mask string
		depth      int
		v          any
		want       string
	}{
		{"array", `{"a":{"b":true}}`, 3, map[string]any{"a": []any{[]any{[]any{1}}}},
			`jsonmask: value nested deeper than the limit of 3 (/a/0/0)`},
		{"control bytes", `{"a\n":true}`, 2, map[string]any{"a\n": []any{[]any{1}}},
			`jsonmask: value nested deeper than the limit of 2 (/a\n/0)`},
		{"escaped pointer", `{"a/b":{"~":true}}`, 2, map[string]any{"a/b": map[string]any{"~": []any{}}},
			`jsonmask: value nested deeper than the limit of 2 (/a~1b/~0)`},
		{"long pointer", `{"` + long + `":{"x":true}}`, 2, map[string]any{long: map[string]any{"x": []any{1}}},
			`jsonmask: value nested deeper than the limit of 2 (/` + strings.Repeat("k", 99) + `…` + strings.Repeat("k", 95) + `/x)`}, // as SyntaxError shortens it: 200 bytes in all
		{"cycle kept whole", `{"boss":true}`, 5, loop, `jsonmask: value nested deeper than the limit of 5 (/boss/boss/boss/boss/boss)`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := jsonmask.MustCompile(c.mask, jsonmask.WithMaxDepth(c.depth))
			_, err := m.AppendValue(nil, c.v)
			if !errors.Is(err, jsonmask.ErrMaxDepth) || err.Error() != c.want {
				t.Errorf("got  %v\nwant %s", err, c.want)
			}
		})
	}
	// A cycle under the default limit: encoding/json's error, as soon as it
	// would find it (1000 pointers deep), not 10000 levels later.
	_, err := jsonmask.MustCompile(`{"boss":true}`).AppendValue(nil, loop)
	var uv *json.UnsupportedValueError
	if !errors.As(err, &uv) || !strings.Contains(err.Error(), "cycle") {
		t.Errorf("a cycle: %v", err)
	}
}

// TestAppendValueConcurrentPlans: goroutines that mask values of new types
// at once build the same plans at once, and all get the right bytes (run
// with -race).
func TestAppendValueConcurrentPlans(t *testing.T) {
	m := jsonmask.MustCompile(`{"items":{"id":true,"owner":{"name":true}},"name":true,"id":{}}`)
	values := []any{
		&allocPageForRace{Items: []allocItemForRace{{ID: 1, Owner: &allocItemForRace{Name: "o", Secret: "CANARY"}, Secret: "CANARY"}}},
		vAccount{vBase{1}, "n"}, &vUser{Name: "u", ID: 2}, map[string]vUser{"x": {}},
	}
	want := make([][]byte, len(values))
	for i, v := range values {
		enc, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		if want[i], err = m.Append(nil, enc); err != nil {
			t.Fatal(err)
		}
	}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for k := range 50 {
				i := (g + k) % len(values)
				if got, err := m.AppendValue(nil, values[i]); err != nil || !bytes.Equal(got, want[i]) {
					t.Errorf("goroutine %d: %s, %v; want %s", g, got, err, want[i])
					return
				}
			}
		})
	}
	wg.Wait()
}

type (
	allocItemForRace struct {
		ID     int               `json:"id"`
		Name   string            `json:"name"`
		Secret string            `json:"secret"`
		Owner  *allocItemForRace `json:"owner"`
	}
	allocPageForRace struct {
		Items []allocItemForRace `json:"items"`
	}
)

// TestAppendValueInvalidUTF8: a MarshalJSON method (json.RawMessage's too)
// may return bytes that are not UTF-8, which encoding/json passes on. Where
// the mask keeps them, AppendValue fails, as Append fails on that encoding
// (SPEC V1); where it drops them it need not look; a root that is not
// masked passes as it is, as Append passes it (B3).
func TestAppendValueInvalidUTF8(t *testing.T) {
	bad := json.RawMessage("\"\x8b\"")
	m := jsonmask.MustCompile(`{"r":true,"n":{"r":true}}`)
	type kept struct {
		R json.RawMessage `json:"r"`
	}
	type nested struct {
		N kept `json:"n"`
	}
	type dropped struct {
		X json.RawMessage `json:"x"`
		R int             `json:"r"`
	}
	for _, tc := range []struct {
		name    string
		v       any
		want    string
		wantErr bool
	}{
		{"Kept", kept{bad}, "", true},
		{"KeptNested", nested{kept{bad}}, "", true},
		{"KeptInMap", map[string]any{"r": bad}, "", true},
		{"KeptInArray", map[string]any{"r": []any{1, bad}}, "", true},
		{"Dropped", dropped{X: bad, R: 1}, `{"r":1}`, false},
		{"DroppedInMap", map[string]any{"x": bad}, `{}`, false},
		{"RootScalar", bad, "\"\x8b\"", false},
		{"RootArray", []json.RawMessage{bad}, "[\"\x8b\"]", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := m.AppendValue(nil, tc.v)
			if tc.wantErr {
				if err == nil {
					t.Fatalf("AppendValue = %q, want an error", got)
				}
				enc, _ := json.Marshal(tc.v)
				if _, aerr := m.Append(nil, enc); aerr == nil {
					t.Fatalf("Append of %q does not fail", enc)
				}
				return
			}
			if err != nil || string(got) != tc.want {
				t.Fatalf("AppendValue = %q, %v; want %q", got, err, tc.want)
			}
		})
	}
}
