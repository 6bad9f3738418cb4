package studio

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"unicode/utf8"

	"github.com/jsonmask/jsonmask"
)

// viewRequest is what the page asks for: the mask it holds (or text to
// read instead), an edit to make to it, the paths whose children it shows,
// and whether to count tokens, which takes longest.
type viewRequest struct {
	Mask   json.RawMessage `json:"mask"`   // absent or null: the mask the studio started with
	Fields *string         `json:"fields"` // a mask in the text syntax, read instead of Mask
	Edit   *struct {
		Path   string `json:"path"`   // a path of the samples, "*" for array elements
		Action string `json:"action"` // keep, mask or drop
	} `json:"edit"`
	Open   []string `json:"open"` // absent or null: the paths the mask recurses into
	Tokens bool     `json:"tokens"`
}

// view is what the page shows.
type view struct {
	Mask       string       `json:"mask"`        // the mask as JSON text
	Fields     string       `json:"fields"`      // the mask in the text syntax
	FieldsNote string       `json:"fields_note"` // why there is none
	Encoding   string       `json:"encoding"`
	Samples    []sampleInfo `json:"samples"`

	BytesIn   int64    `json:"bytes_in"`
	BytesOut  int64    `json:"bytes_out"`
	TokensIn  *int64   `json:"tokens_in,omitempty"`
	TokensOut *int64   `json:"tokens_out,omitempty"`
	Saved     *float64 `json:"saved,omitempty"` // the share of tokens saved

	Output     string `json:"output"`      // the masked samples, each ended by a newline, cut at outputCap
	OutputMore int64  `json:"output_more"` // bytes of output not in Output

	Open     []string  `json:"open"`     // the open paths: those asked for, or those the mask recurses into
	Rows     []*row    `json:"rows"`     // the paths shown: the root's children and those of the open paths, in tree order
	Tiles    []tile    `json:"tiles"`    // the treemap of the rows shown, by tokens when counted, else by bytes
	MapBy    string    `json:"map_by"`   // "tokens" or "bytes"
	Warnings []warning `json:"warnings"` // all of Explain's, with the paths they concern
}

type sampleInfo struct {
	Name   string `json:"name"`
	Bytes  int    `json:"bytes"`
	NDJSON bool   `json:"ndjson"`
}

// warning is one of Explain's findings (SPEC D1).
type warning struct {
	Kind  string `json:"kind"` // emptied, unmatched, scalars
	Path  string `json:"path"` // a path of the samples (emptied) or a mask entry
	Count int64  `json:"count"`
	Text  string `json:"text"`
}

// errBadRequest marks what the page got wrong (a mask that does not
// compile, an unknown action): the server answers 400 with its message.
var errBadRequest = errors.New("bad request")

// view computes what the page shows for req.
func (s *Studio) view(req *viewRequest) (*view, error) {
	m, tree, err := s.requestMask(req)
	if err != nil {
		return nil, err
	}
	if req.Edit != nil {
		if tree, err = edit(tree, maskPath(req.Edit.Path), req.Edit.Action, s.kids); err != nil {
			return nil, fmt.Errorf("%w: %w", errBadRequest, err)
		}
		if m, tree, err = compileMask(tree.appendJSON(nil)); err != nil {
			return nil, fmt.Errorf("%w: %w", errBadRequest, err)
		}
	}
	v := &view{Encoding: s.tk.Encoding(), Warnings: []warning{}}
	canon, err := m.MarshalJSON()
	if err != nil {
		return nil, fmt.Errorf("%w: %w", errBadRequest, err)
	}
	v.Mask = string(canon)
	if v.Fields, err = tree.fields(); err != nil {
		v.Fields, v.FieldsNote = "", err.Error()
	}
	outs, err := s.output(m, v)
	if err != nil {
		return nil, err
	}
	if err := s.explain(m, v); err != nil {
		return nil, err
	}
	rows, err := s.paths(m)
	if err != nil {
		return nil, err
	}
	v.Open = req.Open
	if v.Open == nil { // a mask loaded for editing shows what it chose
		v.Open = []string{}
		for _, r := range rows {
			if r.Mask == "masked" && r.Path != "" {
				v.Open = append(v.Open, r.Path)
			}
		}
	}
	v.Rows = visible(rows, v.Open)
	attachWarnings(v)
	v.MapBy = "bytes"
	if req.Tokens {
		if err := s.countTokens(v, string(canon), outs); err != nil {
			return nil, err
		}
		v.MapBy = "tokens"
	}
	v.Tiles = layoutTreemap(mapTree(v.Rows, v.MapBy == "tokens"))
	return v, nil
}

// requestMask compiles the mask the request holds.
func (s *Studio) requestMask(req *viewRequest) (*jsonmask.Mask, *maskNode, error) {
	src := []byte(req.Mask)
	switch {
	case req.Fields != nil:
		fm, err := jsonmask.CompileFields(*req.Fields)
		if err != nil {
			return nil, nil, fmt.Errorf("%w: %w", errBadRequest, err)
		}
		if src, err = fm.MarshalJSON(); err != nil {
			return nil, nil, fmt.Errorf("%w: %w", errBadRequest, err)
		}
	case len(src) == 0 || string(src) == "null":
		src = s.initial
	}
	m, tree, err := compileMask(src)
	if err != nil {
		return nil, nil, fmt.Errorf("%w: %w", errBadRequest, err)
	}
	return m, tree, nil
}

// kids returns the keys found below the mask path keys in the samples.
func (s *Studio) kids(keys []string) []string { return s.kidKeys[joinPointer(keys)] }

// output masks every sample with Append, and puts the sizes and the start
// of the output in v. It returns the outputs.
func (s *Studio) output(m *jsonmask.Mask, v *view) ([][]byte, error) {
	var outs [][]byte
	for i := range s.samples {
		sm := &s.samples[i]
		ms, err := sm.maskFor(m)
		if err != nil {
			return nil, err
		}
		out, err := ms.Append(nil, sm.data)
		if err != nil {
			return nil, fmt.Errorf("studio: %s: %w", sm.name, err)
		}
		outs = append(outs, out)
		v.Samples = append(v.Samples, sampleInfo{sm.name, len(sm.data), sm.ndjson})
		v.BytesIn += int64(len(sm.data))
		v.BytesOut += int64(len(out))
		room := outputCap - len(v.Output)
		if len(out) > 0 && out[len(out)-1] != '\n' {
			out = append(out[:len(out):len(out)], '\n')
		}
		if len(out) <= room {
			v.Output += string(out)
			continue
		}
		cut := room
		for cut > 0 && !utf8.RuneStart(out[cut]) {
			cut--
		}
		v.Output += string(out[:cut])
		v.OutputMore += int64(len(out) - cut)
	}
	return outs, nil
}

// explain gathers Explain's findings over the samples into v.Warnings:
// objects emptied to {}, entries that never match, nested masks that meet
// scalars.
func (s *Studio) explain(m *jsonmask.Mask, v *view) error {
	emptied := map[string]int64{}
	var emptiedOrder []string
	type entry struct {
		matched, scalars int64
		nested           bool
	}
	entries := map[string]*entry{}
	var entryOrder []string
	masked := false
	for i := range s.samples {
		sm := &s.samples[i]
		ms, err := sm.maskFor(m)
		if err != nil {
			return err
		}
		x, err := ms.Explain(sm.data)
		if err != nil {
			return fmt.Errorf("studio: %s: %w", sm.name, err)
		}
		masked = masked || x.Masked
		for _, e := range x.Emptied {
			if _, ok := emptied[e.Path]; !ok {
				emptiedOrder = append(emptiedOrder, e.Path)
			}
			emptied[e.Path] += e.Count
		}
		for _, e := range x.Entries {
			en := entries[e.Pointer]
			if en == nil {
				en = &entry{nested: e.Nested}
				entries[e.Pointer] = en
				entryOrder = append(entryOrder, e.Pointer)
			}
			en.matched += e.Matched
			en.scalars += e.Scalars
		}
	}
	for _, p := range emptiedOrder {
		n := emptied[p]
		v.Warnings = append(v.Warnings, warning{"emptied", p, n,
			plural(n, "object") + " here had members and become {}: keep a field of each, or drop them"})
	}
	for _, p := range entryOrder {
		e := entries[p]
		switch {
		case masked && e.matched == 0:
			v.Warnings = append(v.Warnings, warning{"unmatched", p, 0, "this entry of the mask never matches"})
		case e.nested && e.scalars > 0:
			v.Warnings = append(v.Warnings, warning{"scalars", p, e.scalars,
				"its nested mask met " + plural(e.scalars, "scalar") + ", kept as they are"})
		}
	}
	return nil
}

func plural(n int64, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.FormatInt(n, 10) + " " + what + "s"
}

// visible returns the rows the page shows: the root's children, and the
// children of every open path that is shown itself.
func visible(rows []*row, open []string) []*row {
	isOpen := map[string]bool{"": true}
	for _, p := range open {
		isOpen[p] = true
	}
	shown := map[string]bool{"": true}
	out := []*row{}
	for _, r := range rows {
		if r.Path == "" {
			continue
		}
		if shown[r.Parent] && isOpen[r.Parent] {
			shown[r.Path] = true
			r.Open = isOpen[r.Path] && r.HasChildren
			out = append(out, r)
		}
	}
	return out
}

// attachWarnings puts each warning beside the rows it concerns: an emptied
// object's path, or the paths a mask entry applies at.
func attachWarnings(v *view) {
	for _, r := range v.Rows {
		for _, w := range v.Warnings {
			if w.Kind == "emptied" && w.Path == r.Path || w.Kind != "emptied" && w.Path == r.Entry {
				r.Warnings = append(r.Warnings, w.Text)
			}
		}
	}
}

// mapTree is the tree of the rows shown, for the treemap.
func mapTree(rows []*row, byTokens bool) []*mapNode {
	nodes := map[string]*mapNode{}
	var top []*mapNode
	for _, r := range rows {
		n := &mapNode{row: r, weight: float64(r.Bytes)}
		if byTokens && r.Tokens != nil {
			n.weight = float64(*r.Tokens)
		}
		nodes[r.Path] = n
		if p := nodes[r.Parent]; p != nil {
			p.kids = append(p.kids, n)
		} else {
			top = append(top, n)
		}
	}
	return top
}
