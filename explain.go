package jsonmask

import (
	"slices"

	"github.com/jsonmask/jsonmask/compile"
	"github.com/jsonmask/jsonmask/internal/jsonwire"
)

// Explanation is what a mask did to a document (SPEC D1): for every entry of
// the mask, how often it matched; every place where an object that had
// members became {}, which a mask should not do to the objects it keeps
// (keep the fields a reader decides on); and the sizes before and after.
type Explanation struct {
	// Masked is false when no document of the input was masked: each passed
	// through as it is (SPEC B3), and the counts below are all 0.
	Masked bool

	// BytesIn is the input's length; BytesOut that of the output, exactly
	// what Append returns for it.
	BytesIn, BytesOut int64

	// Entries are the mask's entries, in the order the mask wrote them,
	// each followed by those of its nested mask.
	Entries []EntryStats

	// Emptied are the paths of the objects that had members and that the
	// mask left empty, in the order first met.
	Emptied []EmptiedPath
}

// EntryStats is what one entry of a mask met in a document.
type EntryStats struct {
	// Pointer is the entry's JSON Pointer in the mask, such as
	// "/members/email"; a wildcard's last token is "*".
	Pointer  string
	Wildcard bool // the entry is a wildcard (SPEC T2)
	Nested   bool // the entry's value is a nested mask, not true

	// Matched counts the members the entry matched, in the objects its
	// parent mask applied to; Absent, those objects that had no member for
	// it (SPEC A2). A wildcard matches the members that no entry of their
	// own matched.
	Matched, Absent int64

	// Scalars counts the scalars that the entry's nested mask met, as a
	// member's value or an element of an array: kept as they are (SPEC A4),
	// or dropped with WithDropMismatched (A6).
	Scalars int64
}

// EmptiedPath is a place in a document where objects that had members
// became {}.
type EmptiedPath struct {
	Path  string // JSON Pointer of the objects, with "*" for every array index
	Count int64  // how many objects there became {}
}

// Explain masks doc, a whole input, and tells what the mask did to it, entry
// by entry (SPEC D1). It fails where Append fails, with the same error. It
// reads doc twice, once with the masker and once on a slower path of its own
// that counts, so that Append and Copy pay nothing for it (D3); it is meant
// for a mask's author, not for every request. That path checks every byte
// of a masked document: with WithTrustedInput it also rejects what Append
// lets through unchecked in dropped values. With WithNDJSON, the counts add
// up over the lines.
func (m *Mask) Explain(doc []byte) (*Explanation, error) {
	out, err := m.Append(nil, doc)
	if err != nil {
		return nil, err
	}
	x := &Explanation{BytesIn: int64(len(doc)), BytesOut: int64(len(out))}
	w := newWalker(m.prog, m.cfg.DropMismatched)
	err = splitDocs(doc, m.cfg.NDJSON, func(d []byte, base, line int64) error {
		if masked, _ := classify(d, m.cfg.Arrays); masked {
			x.Masked = true
			_, err := w.doc(d, base, line, true, m.cfg.MaxDepth)
			return err
		}
		return nil
	})
	if err != nil {
		return nil, err // doc is invalid where WithTrustedInput does not look
	}
	x.Entries = w.entryStats()
	for _, p := range w.emptiedOrder {
		x.Emptied = append(x.Emptied, EmptiedPath{Path: w.pointer(p), Count: w.emptied[p]})
	}
	return x, nil
}

// entryStats returns the Program's entries with their counts, depth first in
// mask order, without recursion.
func (w *walker) entryStats() []EntryStats {
	type open struct {
		entries []int32 // the node's entries still to go
		pointer string
	}
	var stats []EntryStats
	stack := []open{{slices.Collect(w.prog.Members(0)), ""}}
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if len(top.entries) == 0 {
			stack = stack[:len(stack)-1]
			continue
		}
		e := top.entries[0]
		top.entries = top.entries[1:]
		entry := w.prog.Entry(e)
		s := EntryStats{Pointer: top.pointer + "/" + jsonwire.EscapePointerToken(entry.Key), Wildcard: entry.Wildcard,
			Nested: entry.Node != compile.Keep, Matched: w.matched[e], Absent: w.absent[e], Scalars: w.scalars[e]}
		stats = append(stats, s)
		if s.Nested {
			stack = append(stack, open{slices.Collect(w.prog.Members(entry.Node)), s.Pointer})
		}
	}
	return stats
}
