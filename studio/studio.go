// Package studio is the mask studio (SPEC section 13): an http.Handler that
// serves a page for writing a mask against sample responses. The page shows
// where a response's bytes and tokens go, as a tree of paths and a treemap;
// a click keeps a path whole, recurses into it or drops it; the masked
// output, its tokens and the warnings of Explain follow at once; and the
// mask is there to copy, as JSON and in the text syntax.
//
// The page renders what the server computes with the library (Append,
// Explain, Paths, and toolresult's tokenizer), never its own idea of a mask
// (W3). Its assets are embedded (W4). The server answers only requests made
// to its own loopback address from its own page (W5): see Listen and
// Studio.Handler.
package studio

import (
	"bytes"
	"errors"
	"slices"
	"strings"
	"sync"

	"github.com/jsonmask/jsonmask"
	"github.com/jsonmask/jsonmask/toolresult"
)

// A Sample is one response to write a mask against: a JSON document (an
// object, or an array of them) or NDJSON, one document per line.
type Sample struct {
	Name string
	Data []byte
}

// Config is what a Studio works on.
type Config struct {
	Samples []Sample
	// Mask is the JSON mask the page starts with; nil starts with {}, which
	// keeps nothing. "*" in it is the wildcard (SPEC T2).
	Mask []byte
	// Encoding is the tokenizer's (toolresult.NewTokenizer); "" is
	// toolresult.DefaultEncoding.
	Encoding string
}

// A Studio holds the samples, read once: it reads no file after New.
type Studio struct {
	samples []sample
	tk      toolresult.Tokenizer
	initial []byte
	all     []*row // every path of the samples, without a mask's verdicts
	kidKeys map[string][]string

	mu        sync.Mutex
	tokens    map[string]int64 // a path's tokens, counted once
	tokensIn  int64            // -1 until counted
	outTokens map[string]int64 // tokens out, by canonical mask
}

type sample struct {
	name   string
	data   []byte
	ndjson bool
}

// outputCap is how much of the masked output a view shows.
const outputCap = 64 << 10

// New reads the samples: each must be a JSON document or NDJSON.
func New(cfg Config) (*Studio, error) {
	if len(cfg.Samples) == 0 {
		return nil, errors.New("studio: no sample")
	}
	enc := cfg.Encoding
	if enc == "" {
		enc = toolresult.DefaultEncoding
	}
	tk, err := toolresult.NewTokenizer(enc)
	if err != nil {
		return nil, err // toolresult's: it names the encoding
	}
	s := &Studio{tk: tk, tokens: map[string]int64{}, tokensIn: -1, outTokens: map[string]int64{}, initial: []byte("{}")}
	if cfg.Mask != nil {
		m, _, err := compileMask(cfg.Mask)
		if err != nil {
			return nil, &studioError{"the mask", err}
		}
		if s.initial, err = m.MarshalJSON(); err != nil {
			return nil, &studioError{"the mask", err}
		}
	}
	probe, _, _ := compileMask([]byte("{}"))
	for _, in := range cfg.Samples {
		sm := sample{name: in.Name, data: in.Data}
		if _, err := probe.Append(nil, in.Data); err != nil {
			nd, _ := probe.With(jsonmask.WithNDJSON(true))
			if _, err2 := nd.Append(nil, in.Data); err2 != nil {
				return nil, &studioError{in.Name + ": neither JSON nor NDJSON", err}
			}
			sm.ndjson = true
		}
		s.samples = append(s.samples, sm)
	}
	every, _, _ := compileMask([]byte(`{"*":true}`))
	if s.all, err = s.paths(every); err != nil {
		return nil, err
	}
	s.kidKeys = map[string][]string{}
	for _, r := range s.all {
		keys := maskPath(r.Path)
		if len(keys) == 0 {
			continue
		}
		parent := joinPointer(keys[:len(keys)-1])
		if !slices.Contains(s.kidKeys[parent], keys[len(keys)-1]) {
			s.kidKeys[parent] = append(s.kidKeys[parent], keys[len(keys)-1])
		}
	}
	return s, nil
}

// maskFor is m as it applies to a sample.
func (sm *sample) maskFor(m *jsonmask.Mask) (*jsonmask.Mask, error) {
	if !sm.ndjson {
		return m, nil
	}
	return m.With(jsonmask.WithNDJSON(true))
}

// docs calls f with each JSON document of the sample.
func (sm *sample) docs(f func([]byte) error) error {
	if !sm.ndjson {
		return f(sm.data)
	}
	for line := range bytes.Lines(sm.data) {
		if line = bytes.TrimSpace(line); len(line) > 0 {
			if err := f(line); err != nil {
				return err
			}
		}
	}
	return nil
}

// row is one path of the samples, as the page lists it.
type row struct {
	Path        string   `json:"path"`
	Parent      string   `json:"parent"`
	Name        string   `json:"name"`
	Depth       int      `json:"depth"`
	Entry       string   `json:"entry"` // the mask entry that applies here: Path without its array levels
	Count       int64    `json:"count"`
	Types       []string `json:"types"`
	Bytes       int64    `json:"bytes"`
	Share       float64  `json:"share"`
	Tokens      *int64   `json:"tokens,omitempty"`
	TokenShare  *float64 `json:"token_share,omitempty"` // of the tokens in
	Mask        string   `json:"mask"`                  // kept, masked, dropped
	KeptBytes   int64    `json:"kept_bytes"`
	HasChildren bool     `json:"has_children"`
	Open        bool     `json:"open"`
	Warnings    []string `json:"warnings,omitempty"`
}

var typeOrder = []string{"object", "array", "string", "number", "boolean", "null"}

// paths returns the rows of every path of the samples under m, merged:
// counts and bytes added up, types joined, in tree order (each path's
// children after it, the heaviest first).
func (s *Studio) paths(m *jsonmask.Mask) ([]*row, error) {
	byPath := map[string]*row{}
	var order []*row
	for i := range s.samples {
		sm := &s.samples[i]
		ms, err := sm.maskFor(m)
		if err != nil {
			return nil, err
		}
		stats, err := ms.Paths(sm.data)
		if err != nil {
			return nil, &studioError{sm.name, err}
		}
		for _, st := range stats {
			r := byPath[st.Path]
			if r == nil {
				r = &row{Path: st.Path, Mask: st.Mask}
				byPath[st.Path] = r
				order = append(order, r)
			}
			r.Count += st.Count
			r.Bytes += st.Bytes
			r.KeptBytes += st.KeptBytes
			if r.Mask != st.Mask && st.Mask == "masked" {
				r.Mask = st.Mask // kept in one sample, masked in another: say masked
			}
			for _, t := range st.Types {
				if !slices.Contains(r.Types, t) {
					r.Types = append(r.Types, t)
				}
			}
		}
	}
	var total int64
	for _, r := range order {
		slices.SortFunc(r.Types, func(a, b string) int { return slices.Index(typeOrder, a) - slices.Index(typeOrder, b) })
		if r.Path == "" {
			total = r.Bytes
		}
		keys := splitPointer(r.Path)
		r.Depth = len(keys)
		r.Entry = joinPointer(maskPath(r.Path))
		if len(keys) > 0 {
			r.Name = keys[len(keys)-1]
			r.Parent = r.Path[:strings.LastIndexByte(r.Path, '/')]
			if p := byPath[r.Parent]; p != nil {
				p.HasChildren = true
			}
		}
	}
	for _, r := range order {
		if total > 0 {
			r.Share = float64(r.Bytes) / float64(total)
		}
	}
	return treeOrder(order), nil
}

// treeOrder returns rows depth first from the root, each path's children
// the heaviest first.
func treeOrder(rows []*row) []*row {
	kids := map[string][]*row{}
	var root *row
	for _, r := range rows {
		if r.Path == "" {
			root = r
			continue
		}
		kids[r.Parent] = append(kids[r.Parent], r)
	}
	if root == nil {
		return nil
	}
	for _, k := range kids {
		slices.SortStableFunc(k, func(a, b *row) int {
			if a.Bytes != b.Bytes {
				if a.Bytes > b.Bytes {
					return -1
				}
				return 1
			}
			return strings.Compare(a.Path, b.Path)
		})
	}
	out := []*row{}
	stack := []*row{root}
	for len(stack) > 0 {
		r := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		out = append(out, r)
		k := kids[r.Path]
		for i := len(k) - 1; i >= 0; i-- {
			stack = append(stack, k[i])
		}
	}
	return out
}

// studioError is err met at where (a sample, "the mask"): "studio: where:
// what". A *jsonmask.SyntaxError or *jsonmask.MaskError gives its Detail,
// without the "jsonmask: " of its Error, so that a program that writes
// "jsonmask: " before the message says it once.
type studioError struct {
	where string
	err   error
}

func (e *studioError) Error() string {
	what := e.err.Error()
	switch err := e.err.(type) {
	case *jsonmask.SyntaxError:
		what = err.Detail()
	case *jsonmask.MaskError:
		what = err.Detail()
	}
	return "studio: " + e.where + ": " + what
}

func (e *studioError) Unwrap() error { return e.err }
