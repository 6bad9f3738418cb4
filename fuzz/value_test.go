package fuzz

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/jsonmask/jsonmask"
	"github.com/jsonmask/jsonmask/compile"
	"github.com/jsonmask/jsonmask/fallback"
	"github.com/jsonmask/jsonmask/internal/reference"
)

// Go types for FuzzAppendValue: what json.Unmarshal can fill from the
// fuzzer's document, over the rules of encoding/json's Marshal that
// AppendValue must follow (embedding, tags, omitempty, omitzero, ",string",
// methods, map keys, bytes, numbers).
type (
	fuzzBase struct {
		ID   int    `json:"id"`
		Name string `json:"name,omitempty"`
	}
	FuzzExported struct {
		E string `json:"e"`
		X int    `json:"x,omitempty"`
	}
	fuzzValue struct {
		fuzzBase
		*FuzzExported
		S   string               `json:"s"`
		Q   int                  `json:"q,string"`
		QS  string               `json:"qs,string,omitempty"`
		F   float64              `json:"f,omitempty"`
		F32 float32              `json:"f32,omitempty"`
		U   uint16               `json:"u,omitempty"`
		B   []byte               `json:"b"`
		N   json.Number          `json:"n,omitempty"`
		R   json.RawMessage      `json:"r,omitempty"`
		A   any                  `json:"a"`
		L   []fuzzValue          `json:"l,omitempty"`
		P   *fuzzValue           `json:"p,omitempty"`
		M   map[string]any       `json:"m"`
		MI  map[int8]string      `json:"mi,omitempty"`
		MT  map[fuzzKey]int      `json:"mt,omitempty"`
		MS  map[string]fuzzBase  `json:"ms,omitempty"`
		T   *time.Time           `json:"t,omitempty"`
		Z   fuzzText             `json:"z,omitzero"`
		Arr [2]int8              `json:"arr"`
		Odd string               `json:"a<b>&,omitempty"`
		PT  *fuzzText            `json:"pt"`
		PB  *bool                `json:"pb,string"`
		Raw map[string]fuzzJSON  `json:"raw,omitempty"`
		Ptr map[string]*fuzzBase `json:"ptr,omitempty"`
	}
	fuzzKey  struct{ s string }
	fuzzText struct{ s string }
	fuzzJSON struct{ v any }
)

func (k fuzzKey) MarshalText() ([]byte, error)   { return []byte("k:" + k.s), nil }
func (k *fuzzKey) UnmarshalText(b []byte) error  { k.s = string(b); return nil }
func (x fuzzText) MarshalText() ([]byte, error)  { return []byte("<" + x.s + ">"), nil }
func (x *fuzzText) UnmarshalText(b []byte) error { x.s = string(b); return nil }
func (x fuzzText) IsZero() bool                  { return x.s == "zero" }
func (x fuzzJSON) MarshalJSON() ([]byte, error) {
	return json.Marshal(map[string]any{"wrapped": x.v, "id": 1})
}
func (x *fuzzJSON) UnmarshalJSON(b []byte) error { return json.Unmarshal(b, &x.v) }

// fuzzTarget returns the Go value of the given kind that doc decodes into,
// with raw (any bytes, not always UTF-8) put where strings and keys go.
// Decoding errors are left aside on purpose: the fuzzer's doc need not fit
// the type, and what fits is kept.
func fuzzTarget(kind uint8, doc []byte, raw string) any {
	switch kind % 4 {
	case 0:
		var v any
		_ = json.Unmarshal(doc, &v)
		if m, ok := v.(map[string]any); ok && raw != "" {
			m[raw] = raw
		}
		return v
	case 1:
		v := new(fuzzValue)
		_ = json.Unmarshal(doc, v) // what fits is kept
		v.S = raw
		if v.M != nil {
			v.M[raw] = []any{raw, 1.5}
		}
		return v
	case 2:
		var v map[string]fuzzValue
		_ = json.Unmarshal(doc, &v)
		if v != nil {
			v[raw] = fuzzValue{S: raw, MT: map[fuzzKey]int{{raw}: 1}}
		}
		return v
	}
	var v []fuzzValue
	_ = json.Unmarshal(doc, &v)
	return v
}

// FuzzAppendValue: for Go values built from the fuzzer's document, under
// its mask and options, AppendValue and its reference give exactly what
// Append gives for json.Marshal's encoding, and never panic.
func FuzzAppendValue(f *testing.F) {
	masks, inputs := conformanceSeeds(f)
	for i, in := range inputs {
		f.Add(masks[i%len(masks)], in, "", uint8(i), uint8(i))
	}
	f.Add([]byte(`{"s":true,"q":true,"id":true,"e":true,"m":{"k":true}}`), []byte(`{"id":1,"e":"x","m":{"k":2,"j":3},"q":"7"}`), "k", uint8(0), uint8(1))
	f.Add([]byte(`{"l":{"id":true,"mt":true},"mi":true}`), []byte(`{"l":[{"id":1,"mt":{"a":1}}],"mi":{"-3":"x"}}`), "\xff", uint8(1), uint8(1))
	f.Add([]byte(`{"\ufffd":true,"x":{"\ufffd":{}}}`), []byte(`{"x":{"a":1}}`), "\xfe", uint8(2), uint8(0))
	f.Add([]byte(`{"raw":{"k":{"wrapped":true}},"z":true,"pt":true,"pb":true}`), []byte(`{"raw":{"k":{"a":[1]}},"z":"zero","pt":"p","pb":true}`), "", uint8(2), uint8(1))
	f.Add([]byte(`{"a<b>&":true,"b":true,"t":true,"arr":{}}`), []byte(`{"a<b>&":"<>","b":"AAE=","t":"2026-01-02T03:04:05Z","arr":[1,2]}`), "\u2028", uint8(0), uint8(3))
	f.Fuzz(func(t *testing.T, mask, doc []byte, raw string, flags, kind uint8) {
		arrays, drop := flags&optArrays != 0, flags&optDropMismatched != 0
		m, err := jsonmask.Compile(mask, jsonmask.WithArrays(arrays), jsonmask.WithDropMismatched(drop))
		if err != nil {
			return
		}
		prog, err := compile.Compile(mask, compile.Options{})
		if err != nil {
			t.Fatalf("compile.Compile fails where jsonmask.Compile does not: %v", err)
		}
		v := fuzzTarget(kind, doc, raw)
		enc, err := json.Marshal(v)
		if err != nil {
			return // nothing here that encoding/json refuses: the tests have those
		}
		want, werr := m.Append(nil, enc)
		if werr != nil && !errors.Is(werr, jsonmask.ErrMaxDepth) && !strings.Contains(werr.Error(), "invalid UTF-8") {
			t.Fatalf("Append of encoding/json's output: %v", werr)
		}
		got, err := appendValue(t, m.AppendValue, v)
		ref, rerr := appendValue(t, func(dst []byte, v any) ([]byte, error) {
			return reference.ReferenceValue(dst, prog, v, fallback.ValueOptions{Arrays: arrays, DropMismatched: drop})
		}, v)
		switch {
		case errors.Is(werr, jsonmask.ErrMaxDepth):
			// Too deep for Append may be within the limit for AppendValue,
			// which does not read what the mask drops; then both agree.
			if (err == nil) != (rerr == nil) || err == nil && !bytes.Equal(got, ref) {
				t.Fatalf("deep value: AppendValue %q, %v; reference %q, %v", got, err, ref, rerr)
			}
		case werr != nil:
			// Bytes that are not UTF-8, from a MarshalJSON method
			// (encoding/json passes them on): AppendValue fails where it
			// keeps them, and may succeed where the mask drops them, which
			// it does not read (the reference leaves some of that to Append,
			// which reads all); what it writes is JSON.
			if err == nil && (!utf8.Valid(got) || !json.Valid(got)) {
				t.Fatalf("AppendValue wrote what is not JSON: %q", got)
			}
			if err == nil && rerr == nil && !bytes.Equal(got, ref) {
				t.Fatalf("AppendValue %q; reference %q", got, ref)
			}
		case err != nil || !bytes.Equal(got, want):
			t.Fatalf("AppendValue of %s\nmask %s\n got %q, %v\nwant %q", enc, mask, got, err, want)
		case rerr != nil || !bytes.Equal(ref, want):
			t.Fatalf("reference of %s\nmask %s\n got %q, %v\nwant %q", enc, mask, ref, rerr, want)
		}
	})
}

// appendValue calls f after a prefix in dst, which it must keep, and
// returns what f appended. A panic fails the test.
func appendValue(t *testing.T, f func([]byte, any) ([]byte, error), v any) ([]byte, error) {
	t.Helper()
	defer func() {
		if r := recover(); r != nil {
			t.Fatalf("panic: %v\nvalue %#v", r, v)
		}
	}()
	out, err := f([]byte("p:"), v)
	if !bytes.HasPrefix(out, []byte("p:")) {
		t.Fatalf("the prefix in dst is gone: %q", out)
	}
	return out[2:], err
}
