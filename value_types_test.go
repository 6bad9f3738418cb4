//lint:file-ignore SA5008 the odd json tags are the point: encoding/json's rules for them are under test

package jsonmask_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jsonmask/jsonmask"
	"github.com/jsonmask/jsonmask/compile"
	"github.com/jsonmask/jsonmask/fallback"
	"github.com/jsonmask/jsonmask/internal/reference"
)

// The Go types that AppendValue must encode as encoding/json does, each a
// rule of encoding/json's Marshal: embedding and its name conflicts, tags,
// omitempty and omitzero, ",string", methods on values and on pointers, map
// keys of every kind, byte slices, numbers, strings.
type (
	dBase struct {
		ID     int    `json:"id"`
		Secret string `json:"secret"`
	}
	DExported struct {
		A int    `json:"a"`
		S string `json:"s"`
	}
	dEmbed struct {
		dBase
		Name string `json:"name"`
	}
	dEmbedPtr struct {
		*dBase
		Name string `json:"name"`
	}
	dEmbedExportedPtr struct {
		*DExported
		B int `json:"b"`
	}
	dEmbedTagged struct {
		DExported `json:"inner"`
		B         int
	}
	dEmbedDeep struct {
		dEmbed
		dBase2
	}
	dBase2 struct {
		ID    string `json:"id"` // as deep as dBase's id, through dEmbed one level deeper: this one wins
		Other string `json:"other"`
	}
	dConflictA struct {
		X int
		Y int `json:"y"`
	}
	dConflictB struct {
		X int
		Y int
	}
	dConflict struct { // X twice at one depth: neither is encoded; y (tagged) and Y are two names
		dConflictA
		dConflictB
	}
	dDominant struct {
		dConflictA
		X string
	}
	// DTagWinsA and DTagWinsB, embedded side by side, tag "z" twice at one
	// depth: neither is encoded. tagsTwice builds that struct at run time:
	// go vet rejects it in the source.
	DTagWinsA struct {
		Z int `json:"z"`
	}
	DTagWinsB struct {
		Z int // named "Z": not the same name as "z"
		W int `json:"z"`
	}
	dTagBeatsUntagged struct { // tagged "X" beats the untagged X at the same depth
		dConflictB
		dTagX
	}
	dTagX struct {
		V int `json:"X"`
	}
	dTwice struct { // one type embedded twice (directly and through a pointer): its names annihilate
		dBase
		Twice dTwiceInner
	}
	dTwiceInner     struct{ dBase }
	dNonStructEmbed struct {
		dInt
		DString
		Name string
	}
	dInt        int
	DString     string
	dIface      interface{ M() }
	dIfaceImpl  struct{ CANARY string }
	dEmbedIface struct {
		dIface
		Stringer fmt.Stringer
		N        int
	}

	dOmitEmpty struct {
		S    string         `json:"s,omitempty"`
		I    int            `json:"i,omitempty"`
		U    uint8          `json:"u,omitempty"`
		F    float32        `json:"f,omitempty"`
		B    bool           `json:"b,omitempty"`
		P    *int           `json:"p,omitempty"`
		M    map[string]int `json:"m,omitempty"`
		L    []int          `json:"l,omitempty"`
		A0   [0]int         `json:"a0,omitempty"`
		A2   [2]int         `json:"a2,omitempty"`
		Any  any            `json:"any,omitempty"`
		St   dBase          `json:"st,omitempty"`
		Time time.Time      `json:"time,omitempty"`
	}
	dOmitZero struct {
		Time  time.Time     `json:"time,omitzero"`
		PTime *time.Time    `json:"ptime,omitzero"`
		V     dValueZero    `json:"v,omitzero"`
		P     dPtrZero      `json:"p,omitzero"`
		PP    *dPtrZero     `json:"pp,omitzero"`
		I     dZeroer       `json:"i,omitzero"`
		St    dBase         `json:"st,omitzero"`
		A     [2]int        `json:"a,omitzero"`
		L     []int         `json:"l,omitzero"`
		Both  int           `json:"both,omitempty,omitzero"`
		Dur   time.Duration `json:"dur,omitzero"`
		Plain string
	}
	dValueZero struct{ N int }
	dPtrZero   struct{ N int }
	dZeroer    interface{ IsZero() bool }

	dQuoted struct {
		I   int         `json:"i,string"`
		I8  int8        `json:"i8,string"`
		U   uint64      `json:"u,string"`
		F   float64     `json:"f,string"`
		F32 float32     `json:"f32,string"`
		B   bool        `json:"b,string"`
		S   string      `json:"s,string"`
		P   *int        `json:"p,string"`
		PN  *int        `json:"pn,string"`
		PP  **int       `json:"pp,string"`
		N   json.Number `json:"n,string"`
		DS  DString     `json:"ds,string"`
		Any any         `json:"any,string"`
		M   dValueJSON  `json:"m,string"`
		T   dValueText  `json:"t,string"`
		L   []int       `json:"l,string"`
	}

	dTags struct {
		Dash    int `json:"-,"`
		Skip    int `json:"-"`
		HTML    int `json:"a<b>&"`
		Euro    int `json:"€"`
		Accent  int `json:"é"`
		Space   int `json:"with space"`
		Quote   int `json:"q\"x"`
		Pi      int `json:"π"`
		Comma   int `json:","`
		Digit   int `json:"1"`
		Punct   int `json:"!#$%&()*+-./:;<=>?@[]^_{|}~"`
		Back    int `json:"back\\slash"`
		Empty   int `json:""`
		Unicode int `json:"日本"`
		Ctrl    int `json:"a\tb"`
		private int
	}

	// Methods of their own, on values and on pointers.
	dValueJSON struct{ N int }
	dPtrJSON   struct{ N int }
	dValueText struct{ S string }
	dPtrText   struct{ S string }
	dBothJSON  struct{ N int } // MarshalJSON on the pointer, MarshalText on the value
	dMethods   struct {
		V   dValueJSON            `json:"v"`
		P   dPtrJSON              `json:"p"`
		PP  *dPtrJSON             `json:"pp"`
		PN  *dPtrJSON             `json:"pn"`
		T   dValueText            `json:"t"`
		TP  dPtrText              `json:"tp"`
		B   dBothJSON             `json:"b"`
		L   []dPtrJSON            `json:"l"`
		A   [1]dPtrJSON           `json:"a"`
		M   map[string]dPtrJSON   `json:"m"`
		MV  map[string]dValueJSON `json:"mv"`
		I   json.Marshaler        `json:"i"`
		IN  json.Marshaler        `json:"in"`
		Any any                   `json:"any"`
	}
	dHolder struct {
		P dPtrJSON `json:"p"`
		N int      `json:"n"`
	}
	dBadJSON   struct{ Out string }
	dErrJSON   struct{}
	dErrText   struct{}
	dCycle     struct{ Next *dCycle }
	dSelfPtr   *dSelfPtr
	dSelfSlice []dSelfSlice

	// Map keys.
	dTextKey    struct{ S string }
	dPtrTextKey struct{ S string }
	dIntText    int // an integer key with MarshalText: the text wins
	dStringText string
	dByte       byte
	dTextByte   byte
)

func (dValueJSON) MarshalJSON() ([]byte, error) { return []byte(` {"n": 1, "h": "<&>"} `), nil }
func (p *dPtrJSON) MarshalJSON() ([]byte, error) {
	return fmt.Appendf(nil, `{"ptr":%d,"x":[1, {"CANARY":"CANARY"}]}`, p.N), nil
}
func (v dValueText) MarshalText() ([]byte, error) { return []byte("text:" + v.S + "<\u2028>"), nil }
func (p *dPtrText) MarshalText() ([]byte, error)  { return []byte("ptrtext:" + p.S), nil }
func (p *dBothJSON) MarshalJSON() ([]byte, error) { return []byte(`{"both":"json"}`), nil }
func (dBothJSON) MarshalText() ([]byte, error)    { return []byte("both-text"), nil }
func (b dBadJSON) MarshalJSON() ([]byte, error)   { return []byte(b.Out), nil }
func (dErrJSON) MarshalJSON() ([]byte, error)     { return nil, errors.New("no JSON here") }
func (dErrText) MarshalText() ([]byte, error)     { return nil, errors.New("no text here") }
func (k dTextKey) MarshalText() ([]byte, error)   { return []byte("k-" + k.S), nil }
func (k *dPtrTextKey) MarshalText() ([]byte, error) {
	return []byte("pk-" + k.S), nil
}
func (k dIntText) MarshalText() ([]byte, error)    { return fmt.Appendf(nil, "int-%d", int(k)), nil }
func (k dStringText) MarshalText() ([]byte, error) { return []byte("never called"), nil }
func (b *dTextByte) MarshalText() ([]byte, error)  { return []byte{'b', byte(*b)}, nil }
func (v dValueZero) IsZero() bool                  { return v.N == 7 }
func (p *dPtrZero) IsZero() bool                   { return p.N == 7 }
func (dIfaceImpl) M()                              {}

// valueCase is a Go value for the differential tests. A case with a hole is
// a value built around one slot (a field, a map value, an element): fill
// puts hazard there, a value that encoding/json refuses (NaN, a channel, a
// cycle, a method that fails), or marker, a string whose place in the
// encoding tells which masks reach the slot. A fill that builds its hazard
// itself is called with nil.
type valueCase struct {
	name   string
	v      any
	fill   func(slot any) any
	hazard any
	fails  hazardKind
}

// hazardKind says where a hazard makes AppendValue fail: it fails where the
// mask keeps the slot whole (encoding/json would fail there too), and, by
// kind, where a nested mask reaches the slot.
type hazardKind int

const (
	// A scalar encoding/json refuses (NaN, an invalid json.Number) fails
	// where it is written: also under a nested mask (SPEC A4), not where
	// WithDropMismatched drops it (A6).
	failsWritten hazardKind = iota
	// A type encoding/json refuses, or a method that fails, fails wherever
	// the mask reaches it: AppendValue calls the method to learn what the
	// value encodes to.
	failsReached
	// A cycle through an object fails only kept whole: a nested mask walks
	// the object and drops what loops.
	failsWhole
)

// holeReach tells how mask reaches the first slot of doc (decoded) that
// holds marker: not at all, kept whole, or with a nested mask there.
func holeReach(t *testing.T, mask []byte, doc any, arrays bool) (whole, nested bool) {
	var path []string
	var find func(v any, at []string) bool
	find = func(v any, at []string) bool {
		switch v := v.(type) {
		case string:
			if v == marker {
				path = at
				return true
			}
		case map[string]any:
			for k, e := range v {
				if find(e, append(slices.Clip(at), k)) {
					return true
				}
			}
		case []any:
			for _, e := range v {
				if find(e, at) {
					return true
				}
			}
		}
		return false
	}
	if !find(doc, nil) {
		t.Fatal("no marker in the value")
	}
	switch doc.(type) {
	case map[string]any:
	case []any:
		if !arrays {
			return true, false // passed through whole (SPEC B3)
		}
	default:
		return true, false
	}
	var m any
	if err := json.Unmarshal(mask, &m); err != nil {
		t.Fatal(err)
	}
	for _, k := range path {
		switch e := m.(map[string]any)[k].(type) {
		case nil:
			return false, false
		case bool:
			return true, false
		default:
			m = e
		}
	}
	return false, true
}

const marker = "HOLE-MARKER"

// valueCases are the Go values that AppendValue is compared on with the
// reference (encoding/json, then the mask), a table, in groups: embedded
// structs (pointers, tags, conflicts, interfaces); omitempty and omitzero;
// the ",string" option; tags; MarshalJSON and MarshalText methods, by value
// and behind pointers, in maps and arrays; json.RawMessage and json.Number;
// numbers and strings at their edges; map keys of every kind Go allows;
// bytes, nils, pointers, arrays and slices at the root and below; and
// hazards (fill, hazard, fails): what encoding/json refuses (NaN, funcs,
// channels, bad key types, cycles) or a method that fails or lies, put
// where a mask may drop it or reach it.
func valueCases() []valueCase {
	one, seven := 1, 7
	pone := &one
	str := func(s string) *string { return &s }
	cycle := &dCycle{}
	cycle.Next = cycle
	var selfPtr dSelfPtr
	selfPtr = &selfPtr
	selfSlice := dSelfSlice{nil}
	selfSlice[0] = selfSlice
	selfMap := map[string]any{"k": 1}
	selfMap["self"] = selfMap
	when := time.Date(2026, 11, 22, 1, 2, 3, 4, time.UTC)
	base := dBase{ID: 7, Secret: "CANARY"}
	return []valueCase{
		{name: "embedded", v: dEmbed{base, "ana"}},
		{name: "embedded pointer", v: dEmbedPtr{&base, "ana"}},
		{name: "embedded nil pointer", v: dEmbedPtr{nil, "ana"}},
		{name: "embedded exported pointer", v: dEmbedExportedPtr{&DExported{1, "CANARY"}, 2}},
		{name: "embedded exported nil pointer", v: dEmbedExportedPtr{nil, 2}},
		{name: "embedded with a tag", v: dEmbedTagged{DExported{1, "s"}, 2}},
		{name: "embedded at two depths", v: dEmbedDeep{dEmbed{base, "n"}, dBase2{"deep", "o"}}},
		{name: "embedded name conflict", v: dConflict{dConflictA{1, 2}, dConflictB{3, 4}}},
		{name: "embedded dominated", v: dDominant{dConflictA{1, 2}, "outer"}},
		{name: "embedded tags conflict", v: tagsTwice()},
		{name: "embedded tag beats untagged", v: dTagBeatsUntagged{dConflictB{1, 2}, dTagX{3}}},
		{name: "embedded twice", v: dTwice{base, dTwiceInner{base}}},
		{name: "embedded non-structs", v: dNonStructEmbed{5, "ds", "n"}},
		{name: "embedded interface", v: dEmbedIface{dIfaceImpl{"CANARY"}, nil, 1}},
		{name: "embedded nil interface", v: dEmbedIface{nil, time.Second, 1}},
		{name: "omitempty zero", v: dOmitEmpty{}},
		{name: "omitempty set", v: dOmitEmpty{"s", 1, 2, 3.5, true, pone, map[string]int{"a": 1}, []int{1}, [0]int{}, [2]int{}, "x", base, when}},
		{name: "omitempty empty containers", v: dOmitEmpty{M: map[string]int{}, L: []int{}, Any: 0}},
		{name: "omitzero zero", v: dOmitZero{}},
		{name: "omitzero by method", v: dOmitZero{V: dValueZero{7}, P: dPtrZero{7}, PP: &dPtrZero{7}, I: dValueZero{7}}},
		{name: "omitzero set", v: dOmitZero{when, &when, dValueZero{1}, dPtrZero{1}, &dPtrZero{1}, dValueZero{1}, base, [2]int{0, 1}, []int{}, 3, time.Second, "p"}},
		{name: "omitzero nil pointer in interface", v: dOmitZero{I: (*dPtrZero)(nil)}},
		{name: "string option", v: dQuoted{-1, -8, math.MaxUint64, 1.5e-7, 2.5, true, `a"<b>\`, pone, nil, &pone, "12.5", "ds", 3, dValueJSON{}, dValueText{"t"}, []int{1}}},
		{name: "string option zero", v: dQuoted{}},
		{name: "tags", v: dTags{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}},
		{name: "methods", v: dMethods{dValueJSON{1}, dPtrJSON{2}, &dPtrJSON{3}, nil, dValueText{"v"}, dPtrText{"p"}, dBothJSON{}, []dPtrJSON{{4}}, [1]dPtrJSON{{5}},
			map[string]dPtrJSON{"k": {6}}, map[string]dValueJSON{"k": {7}}, &dPtrJSON{8}, nil, dPtrJSON{9}}},
		{name: "methods behind a pointer", v: &dMethods{P: dPtrJSON{2}, TP: dPtrText{"p"}, A: [1]dPtrJSON{{5}}, Any: &dPtrText{"q"}}},
		{name: "methods in map values", v: map[string]any{"s": map[string]dHolder{"k": {dPtrJSON{1}, 2}, "j": {}}, "a": map[string][1]dPtrJSON{"k": {{3}}},
			"v": map[string]dValueJSON{"k": {4}}, "b": map[string]dBothJSON{"k": {5}}, "p": map[string]*dPtrJSON{"k": {6}}}},
		{name: "methods in a map", v: map[string]any{"a": dPtrJSON{1}, "b": &dPtrJSON{2}, "c": dBothJSON{}, "d": &dBothJSON{}, "e": dValueText{"CANARY"}}},
		{name: "json.RawMessage", v: map[string]any{"raw": json.RawMessage(` { "a" : [ 1 , 2 ] , "b" : "<>" } `), "nil": json.RawMessage(nil), "arr": json.RawMessage(`[{"a":1,"b":2}]`)}},
		{name: "json.Number", v: map[string]any{"n": json.Number("-1.5e+10"), "z": json.Number(""), "i": json.Number("10000000000000000999")}},
		{name: "numbers", v: map[string]any{"f": 1e21, "g": 1e20, "h": 1e-7, "i": 1e-6, "j": math.Copysign(0, -1), "k": float32(1e-7), "l": float32(3.4e38), "m": math.MaxInt64, "n": uint64(math.MaxUint64),
			"o": int8(-128), "p": float32(0.1), "q": 123456789.0, "r": math.SmallestNonzeroFloat64, "s": float32(1e21), "t": float32(16777216.0)}},
		{name: "strings", v: map[string]any{"html": "<a href=\"x\">&amp;</a>", "ctrl": "\x00\x01\b\f\n\r\t\x1f\x7f", "seps": "a\u2028b\u2029c", "bad": "a\xffb\xc3", "wtf8": "\xed\xa0\x80",
			"emoji": "😀é", "long": strings.Repeat("<é>", 100), "quote": `"\`}},
		{name: "odd keys", v: map[string]any{"a<b>&": 1, "\xff": 2, "\ufffd": 3, "": 4, "\u2028": 5, "\"": 6, "\xed\xa0\x80": 7, "CANARY": "CANARY", "é": 8}},
		{name: "invalid UTF-8 keys", v: map[string]any{"a\xff": 1, "a\xfe": 2, "a\ufffd": 3, "b": map[string]int{"\xc3": 1}}},
		{name: "string maps", v: map[string]any{"ss": map[string]string{"b": "<2>", "a": "1", "\xff": "bad", "\ufffd": "rep", "CANARY": "CANARY", "": ""},
			"nil": map[string]string(nil), "named": map[DString]string{"x": "y", "a": "b"}, "ptr": &map[string]string{"k": "v"}}},
		{name: "int keys", v: map[int]string{-1: "a", 0: "b", 10: "c", 2: "d"}},
		{name: "int8 keys", v: map[int8]any{-128: "a", 127: map[string]int{"x": 1}}},
		{name: "uint keys", v: map[uint16]int{65535: 1, 1: 2}},
		{name: "uintptr keys", v: map[uintptr]int{1: 1}},
		{name: "TextMarshaler keys", v: map[dTextKey]int{{"b"}: 1, {"a"}: 2, {"<"}: 3}},
		{name: "pointer TextMarshaler keys", v: map[*dPtrTextKey]int{{"b"}: 1, nil: 2}},
		{name: "integer keys with MarshalText", v: map[dIntText]int{1: 1, 2: 2}},
		{name: "string keys with MarshalText", v: map[dStringText]int{"s": 1, "t": 2}},
		{name: "named string keys", v: map[DString]dBase{"x": base}},
		{name: "bytes", v: map[string]any{"b": []byte("<CANARY>"), "nil": []byte(nil), "empty": []byte{}, "arr": [3]byte{1, 2, 3}, "named": []dByte{1, 2}, "text": []dTextByte{'x', 'y'}}},
		{name: "nils", v: map[string]any{"p": (*int)(nil), "i": nil, "m": map[string]int(nil), "s": []int(nil), "ps": (*dBase)(nil)}},
		{name: "nil pointer", v: (*dBase)(nil)},
		{name: "nil map", v: map[string]int(nil)},
		{name: "nil interface", v: nil},
		{name: "nil slice", v: []int(nil)},
		{name: "pointers", v: map[string]any{"pp": &pone, "pb": &base, "ps": str("<s>")}},
		{name: "arrays", v: [2]any{dBase{1, "CANARY"}, []any{[]dBase{{2, "CANARY"}}, 3}}},
		{name: "array of arrays", v: [][]map[string]any{{{"id": 1, "secret": "CANARY"}}, {}, nil}},
		{name: "slice root", v: []dEmbed{{base, "a"}, {dBase{}, "b"}}},
		{name: "struct slice in map", v: map[string][]dBase{"users": {base, {ID: 8}}}},
		{name: "deep", v: map[string]any{"a": map[string]any{"a": map[string]any{"a": []any{map[string]any{"a": 1, "b": "CANARY"}}}}}},
		{name: "scalar root", v: "<root>"},
		{name: "number root", v: 1.5},
		{name: "time root", v: when},
		{name: "text root", v: dValueText{"r"}},
		{name: "JSON method root", v: &dPtrJSON{1}},
		{name: "JSON method root by value", v: dPtrJSON{1}},
		{name: "recursive types", v: &dCycle{Next: &dCycle{}}},
		{name: "hole in a struct", fill: func(x any) any { return dMethods{Any: x} }, hazard: math.NaN()},
		{name: "NaN", fill: func(x any) any { return map[string]any{"a": x, "b": 1} }, hazard: math.NaN()},
		{name: "Inf in a struct field", fill: func(x any) any {
			if x == marker {
				return map[string]any{"s": struct{ F string }{marker}}
			}
			return map[string]any{"s": struct{ F float64 }{math.Inf(-1)}}
		}},
		{name: "float32 Inf", fill: func(x any) any { return map[string]any{"a": []any{x}} }, hazard: float32(math.Inf(1))},
		{name: "invalid json.Number", fill: func(x any) any { return map[string]any{"n": x} }, hazard: json.Number("1x")},
		{name: "bool keys", fill: func(x any) any { return map[string]any{"m": x} }, hazard: map[bool]int{true: 1}, fails: failsReached},
		{name: "float keys", fill: func(x any) any { return map[string]any{"m": x} }, hazard: map[float64]int{1.5: 1}, fails: failsReached},
		{name: "array keys", fill: func(x any) any { return map[string]any{"m": x} }, hazard: map[[2]int]int{{1, 2}: 3}, fails: failsReached},
		{name: "nil float-key map", fill: func(x any) any { return map[string]any{"m": x} }, hazard: map[float64]int(nil), fails: failsReached},
		{name: "nil func", fill: func(x any) any { return map[string]any{"f": x} }, hazard: (func())(nil), fails: failsReached},
		{name: "channel", fill: func(x any) any { return map[string]any{"a": map[string]any{"c": x}} }, hazard: make(chan int), fails: failsReached},
		{name: "func", fill: func(x any) any { return []any{map[string]any{"f": x}} }, hazard: func() {}, fails: failsReached},
		{name: "complex", fill: func(x any) any { return map[string]any{"c": x} }, hazard: complex(1, 2), fails: failsReached},
		{name: "typed channel field", fill: func(x any) any {
			if x == marker {
				return map[string]any{"s": struct{ C string }{marker}}
			}
			return map[string]any{"s": struct{ C chan int }{}}
		}, fails: failsReached},
		{name: "cycle of pointers", fill: func(x any) any { return map[string]any{"c": x} }, hazard: cycle, fails: failsWhole},
		{name: "cycle of a pointer type", fill: func(x any) any { return map[string]any{"c": x} }, hazard: selfPtr, fails: failsReached},
		{name: "cycle of slices", fill: func(x any) any { return map[string]any{"c": x} }, hazard: selfSlice, fails: failsReached},
		{name: "cycle of maps", fill: func(x any) any { return map[string]any{"c": x} }, hazard: selfMap, fails: failsWhole},
		{name: "MarshalJSON fails", fill: func(x any) any { return map[string]any{"e": x} }, hazard: dErrJSON{}, fails: failsReached},
		{name: "MarshalText fails", fill: func(x any) any { return map[string]any{"e": x} }, hazard: dErrText{}, fails: failsReached},
		{name: "MarshalJSON gives bad JSON", fill: func(x any) any { return map[string]any{"e": x} }, hazard: dBadJSON{`{"a":`}, fails: failsReached},
		{name: "MarshalJSON gives nothing", fill: func(x any) any { return map[string]any{"e": x} }, hazard: dBadJSON{""}, fails: failsReached},
		{name: "failing key", fill: func(x any) any {
			if x == marker {
				return map[string]any{"m": marker}
			}
			return map[string]any{"m": map[dErrText]int{{}: 1}}
		}, fails: failsReached},
		{name: "map with a failing value", fill: func(x any) any { return map[string]any{"m": map[string]any{"a": 1, "z": x}} }, hazard: dErrJSON{}, fails: failsReached},
		{name: "seven", v: &seven},
	}
}

func tagsTwice() any {
	t := reflect.StructOf([]reflect.StructField{
		{Name: "DTagWinsA", Type: reflect.TypeFor[DTagWinsA](), Anonymous: true},
		{Name: "DTagWinsB", Type: reflect.TypeFor[DTagWinsB](), Anonymous: true},
	})
	v := reflect.New(t).Elem()
	v.Field(0).Set(reflect.ValueOf(DTagWinsA{1}))
	v.Field(1).Set(reflect.ValueOf(DTagWinsB{2, 3}))
	return v.Interface()
}

// valueMasks returns masks for v's encoding enc: none kept, each member path
// kept whole, each turned into a nested mask that keeps nothing, every path
// nested to its leaves, and every leaf under a nested mask (SPEC A4, A6).
func valueMasks(t *testing.T, enc []byte) [][]byte {
	var doc any
	dec := json.NewDecoder(bytes.NewReader(enc))
	dec.UseNumber()
	if err := dec.Decode(&doc); err != nil {
		t.Fatal(err)
	}
	type tree map[string]tree // nil: a leaf
	all, allObj := tree{}, tree{}
	var paths [][]string
	var walk func(v any, path []string, into, intoObj tree)
	walk = func(v any, path []string, into, intoObj tree) {
		switch v := v.(type) {
		case map[string]any:
			for _, k := range slices.Sorted(maps.Keys(v)) {
				p := append(slices.Clip(path), k)
				paths = append(paths, p)
				if into[k] == nil {
					into[k], intoObj[k] = tree{}, tree{}
				}
				walk(v[k], p, into[k], intoObj[k])
			}
		case []any:
			for _, e := range v {
				walk(e, path, into, intoObj)
			}
		}
	}
	walk(doc, nil, all, allObj)
	var toJSON func(m tree, leafObj bool) any
	toJSON = func(m tree, leafObj bool) any {
		if len(m) == 0 && !leafObj {
			return true
		}
		out := map[string]any{}
		for k, sub := range m {
			out[k] = toJSON(sub, leafObj)
		}
		return out
	}
	at := func(path []string, leaf any) []byte {
		var m any = leaf
		for i := len(path) - 1; i >= 0; i-- {
			m = map[string]any{path[i]: m}
		}
		b, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	masks := [][]byte{[]byte(`{}`)}
	if len(all) > 0 {
		masks = append(masks, at(nil, toJSON(all, false)), at(nil, toJSON(allObj, true)))
	}
	for _, p := range paths {
		masks = append(masks, at(p, true), at(p, map[string]any{}))
	}
	return masks
}

// nesting returns how deep the containers of the JSON text b nest.
func nesting(b []byte) int {
	d, most, inString := 0, 0, false
	for i := 0; i < len(b); i++ {
		switch c := b[i]; {
		case inString && c == '\\':
			i++
		case c == '"':
			inString = !inString
		case inString:
		case c == '{' || c == '[':
			d++
			most = max(most, d)
		case c == '}' || c == ']':
			d--
		}
	}
	return most
}

// TestAppendValueTypes: for each Go value of valueCases, under masks that
// reach every member, with and without WithArrays and WithDropMismatched,
// AppendValue gives the bytes of json.Marshal + Append, and fails where
// they fail on what the mask keeps; what the mask drops is not looked at,
// so a value that encoding/json refuses there does not fail. A canary in
// a dropped value never reaches the output, even on error.
func TestAppendValueTypes(t *testing.T) {
	for _, c := range valueCases() {
		t.Run(c.name, func(t *testing.T) {
			v := c.v
			if c.fill != nil {
				v = c.fill(marker)
			}
			enc, err := json.Marshal(v)
			if err != nil {
				t.Fatalf("json.Marshal: %v", err)
			}
			for _, mk := range valueMasks(t, enc) {
				for opt := range 8 {
					arrays, drop, strict := opt&1 != 0, opt&2 != 0, opt&4 != 0
					m, err := jsonmask.Compile(mk, jsonmask.WithArrays(arrays), jsonmask.WithDropMismatched(drop), jsonmask.WithStrict(strict))
					if err != nil {
						t.Fatal(err)
					}
					ref := referenceFor(t, mk, fallback.ValueOptions{Arrays: arrays, DropMismatched: drop, Strict: strict})
					where := fmt.Sprintf("mask %s, arrays %t, drop mismatched %t, strict %t", mk, arrays, drop, strict)
					want, err := m.Append(nil, enc)
					var notObject error
					if err != nil {
						if !errors.Is(err, jsonmask.ErrNotObject) {
							t.Fatalf("%s: Append: %v", where, err)
						}
						notObject = jsonmask.ErrNotObject // SPEC B5: the value must be rejected too
					}
					if c.fill == nil {
						checkValue(t, where, m, ref, v, want, notObject)
						continue
					}
					// The hazard fails the call where the mask reaches its
					// slot (by its kind), and changes nothing elsewhere.
					var doc any
					if err := json.Unmarshal(enc, &doc); err != nil {
						t.Fatal(err)
					}
					whole, nested := holeReach(t, mk, doc, arrays)
					fails := whole || nested && (c.fails == failsReached || c.fails == failsWritten && !drop)
					var wantErr error
					switch {
					case fails || notObject != nil:
						wantErr = errExpected
					case nested && c.fails == failsWhole:
						want = nil // the walk keeps what does not loop: no error, and no canary
					}
					checkValue(t, where, m, ref, c.fill(c.hazard), want, wantErr)
				}
			}
		})
	}
}

var errExpected = errors.New("an error")

// valueFunc is AppendValue or its reference.
type valueFunc func(dst []byte, v any) ([]byte, error)

// referenceFor returns reference.ReferenceValue for mask and opt.
func referenceFor(t *testing.T, mask []byte, opt fallback.ValueOptions) valueFunc {
	prog, err := compile.Compile(mask, compile.Options{MaxDepth: opt.MaxDepth})
	if err != nil {
		t.Fatal(err)
	}
	return func(dst []byte, v any) ([]byte, error) { return reference.ReferenceValue(dst, prog, v, opt) }
}

// checkValue checks AppendValue(v), and the reference's answer, against
// want, the bytes they must give, or wantErr, an error they must give.
// Output must never hold the canary where want does not, error or not.
func checkValue(t *testing.T, where string, m *jsonmask.Mask, ref valueFunc, v any, want []byte, wantErr error) {
	t.Helper()
	checkFunc(t, where, m.AppendValue, v, want, wantErr)
	checkFunc(t, "reference: "+where, ref, v, want, wantErr)
}

func checkFunc(t *testing.T, where string, f valueFunc, v any, want []byte, wantErr error) {
	t.Helper()
	prefix := []byte("prefix:")
	var got []byte
	var err error
	func() {
		defer func() {
			if r := recover(); r != nil {
				err = fmt.Errorf("panic: %v", r)
			}
		}()
		got, err = f(bytes.Clone(prefix), v)
	}()
	if bytes.Contains(got, []byte("CANARY")) && !bytes.Contains(want, []byte("CANARY")) || bytes.Contains(got, []byte(marker)) && wantErr == nil && !bytes.Contains(want, []byte(marker)) {
		t.Errorf("%s: a dropped value reached the output (error %v): %s", where, err, got)
	}
	var notObject *fallback.NotObjectError
	switch {
	case wantErr != nil && err == nil:
		t.Errorf("%s: AppendValue = %s, want an error", where, got)
	case wantErr != nil && wantErr != errExpected && !errors.Is(err, wantErr) && !errors.As(err, &notObject):
		t.Errorf("%s: AppendValue: %v, want %v", where, err, wantErr)
	case wantErr == nil && err != nil:
		t.Errorf("%s: AppendValue: %v\nwant %s", where, err, want)
	case wantErr == nil && want != nil && !bytes.Equal(got, append(prefix, want...)):
		t.Errorf("%s:\n got %s\nwant %s", where, got[len(prefix):], want)
	}
}

// TestAppendValueDepth: at each limit around the nesting of the output,
// AppendValue fails with ErrMaxDepth where the output would nest deeper
// than the limit, and succeeds with Append's bytes where Append succeeds.
// In between, where only what the mask drops nests too deep, it may
// succeed: it fails only where a method's whole output nests too deep, and
// then so does its reference, which leaves more to encoding/json (embedded
// structs, ",string" fields) and counts all of it.
func TestAppendValueDepth(t *testing.T) {
	for _, c := range valueCases() {
		if c.fill != nil {
			continue
		}
		t.Run(c.name, func(t *testing.T) {
			enc, err := json.Marshal(c.v)
			if err != nil {
				t.Fatal(err)
			}
			for _, mk := range valueMasks(t, enc) {
				for _, arrays := range []bool{false, true} {
					full, err := jsonmask.Compile(mk, jsonmask.WithArrays(arrays))
					if err != nil {
						t.Fatal(err)
					}
					want, err := full.Append(nil, enc)
					if err != nil {
						t.Fatal(err)
					}
					masked := enc[0] == '{' || enc[0] == '[' && arrays
					n := nesting(want)
					for limit := max(n-1, 1); limit <= n+1; limit++ {
						where := fmt.Sprintf("mask %s, arrays %t, limit %d (output nests %d)", mk, arrays, limit, n)
						m, err := jsonmask.Compile(mk, jsonmask.WithArrays(arrays), jsonmask.WithMaxDepth(limit))
						if err != nil {
							continue // the mask itself nests deeper
						}
						got, err := m.AppendValue(nil, c.v)
						ref, rerr := referenceFor(t, mk, fallback.ValueOptions{Arrays: arrays, MaxDepth: limit})(nil, c.v)
						_, aerr := m.Append(nil, enc)
						switch {
						case err != nil && !errors.Is(err, jsonmask.ErrMaxDepth):
							t.Errorf("%s: %v, want ErrMaxDepth or none", where, err)
						case masked && n > limit && (err == nil || rerr == nil):
							t.Errorf("%s: no error: %s; reference: %v", where, got, rerr)
						case aerr == nil && (err != nil || rerr != nil):
							t.Errorf("%s: %v, reference %v; Append succeeds", where, err, rerr)
						case err != nil && rerr == nil:
							t.Errorf("%s: %v; the reference succeeds", where, err)
						case err == nil && !bytes.Equal(got, want) || rerr == nil && !bytes.Equal(ref, want):
							t.Errorf("%s:\n got %s\n ref %s\nwant %s", where, got, ref, want)
						}
					}
				}
			}
		})
	}
}
