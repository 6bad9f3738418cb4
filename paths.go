package jsonmask

import (
	"cmp"
	"slices"
)

// PathStats is one path of a document (SPEC D2): where the bytes are, and
// whether the mask keeps them.
type PathStats struct {
	// Path is a JSON Pointer (RFC 6901) with "*" for every array index:
	// "/items/*/id". The root is "".
	Path string

	Count int64    // how many values the document has at Path
	Types []string // the JSON types seen there, of "object", "array", "string", "number", "boolean", "null", in that order

	// Bytes is the size of the values at Path, each as compact JSON text
	// (strings and numbers as written, whitespace removed, SPEC O1 and O2),
	// and Share its part of the size of the document's root(s).
	Bytes int64
	Share float64

	// Mask says what the mask does at Path: "kept" (whole), "masked" (a
	// nested mask applies), or "dropped". A body that passes through
	// unmasked (SPEC B3) is kept. KeptBytes is how many bytes of the values
	// at Path are in the output.
	Mask      string
	KeptBytes int64
}

// Paths returns every path of doc, a whole input, with what is there and
// what m does to it, the heaviest first (by Bytes, then by Path). It shows a
// mask's author where the bytes, and so the tokens, of a document go, and
// which of them the mask keeps. For the paths of a document without a mask
// of your own, use the mask "*" (CompileFields), which keeps everything.
//
// It fails where Append fails, with the same error, on a body that is not
// JSON even where Append passes it through (SPEC B3), and, as Explain, on
// what WithTrustedInput lets through unchecked. Like Explain, it
// runs on a path of its own, holds doc in memory and a row per distinct path,
// and is meant for a mask's author, not for every request. With WithNDJSON,
// the paths of every line are counted together.
func (m *Mask) Paths(doc []byte) ([]PathStats, error) {
	if _, err := m.Append(nil, doc); err != nil {
		return nil, err
	}
	w := newWalker(m.prog, m.cfg.DropMismatched)
	err := splitDocs(doc, m.cfg.NDJSON, func(d []byte, base, line int64) error {
		masked, blank := classify(d, m.cfg.Arrays)
		if blank {
			return nil // an empty body or line: no value, no path
		}
		_, err := w.doc(d, base, line, masked, m.cfg.MaxDepth)
		return err
	})
	if err != nil {
		return nil, err
	}
	rows := make([]PathStats, 0, len(w.paths))
	total := w.paths[0].bytes
	for p, r := range w.paths {
		if r.count == 0 {
			continue
		}
		s := PathStats{Path: w.pointer(int32(p)), Count: r.count, Bytes: r.bytes, KeptBytes: r.kept,
			Mask: [...]string{modeDrop: "dropped", modeKeep: "kept", modeMask: "masked"}[r.mode]}
		if total > 0 {
			s.Share = float64(r.bytes) / float64(total)
		}
		for t, name := range typeNames {
			if r.types&(1<<t) != 0 {
				s.Types = append(s.Types, name)
			}
		}
		rows = append(rows, s)
	}
	slices.SortFunc(rows, func(a, b PathStats) int {
		return cmp.Or(cmp.Compare(b.Bytes, a.Bytes), cmp.Compare(a.Path, b.Path))
	})
	return rows, nil
}
