package bench

import (
	"bytes"
	"errors"
	"fmt"
)

// A masker masks one body: it appends the masked form of doc to dst and
// returns the extended slice. Implementations keep reusable state (parsers,
// buffers), so a masker is not safe for concurrent use.
type masker interface {
	Mask(dst, doc []byte) ([]byte, error)
}

// impl is one implementation under benchmark.
type impl struct {
	name string
	// masks is false for the limits (sonic-valid, jsonmask-valid, copy),
	// whose output is not a masked document and which TestPeersAgree does
	// not compare.
	masks bool
	new   func(w *Workload) (masker, error)
}

// impls lists the implementations in the order of the report's columns:
// jsonmask's modes, the peers, then the limits.
var impls = []impl{
	{"jsonmask", true, newJSONMask},
	{"jsonmask-trusted", true, newJSONMaskTrusted},
	{"jsonmask-stream", true, newJSONMaskStream},
	{"stdlib", true, peer(newStdlib)},
	{"sonic", true, peer(newSonic)},
	{"fastjson", true, peer(newFastjson)},
	{"jsontext", true, peer(newJSONText)},
	{"jx", true, peer(newJX)},
	{"simdjson-go", true, newSimdjsonGoImpl},
	{"sonic-valid", false, peer(newSonicValid)},
	{"jsonmask-valid", false, peer(newJSONMaskValid)},
	{"copy", false, newCopy},
}

// errUnsupported is the error of an impl's constructor where the machine
// cannot run that implementation: its benchmark and test are skipped.
var errUnsupported = errors.New("not supported on this machine")

// peer turns the constructor of a one-document masker into an impl
// constructor: the peers are written for the common case, a body that is an
// object (or an array under the arrays option), and this wraps them with the
// rest of jsonmask's contract, as a gateway using that library would have to.
func peer(newDoc func(t tree) masker) func(w *Workload) (masker, error) {
	return func(w *Workload) (masker, error) {
		t, err := parseTree(w.Mask)
		if err != nil {
			return nil, fmt.Errorf("workload %s: %w", w.Name, err)
		}
		var m masker = passthrough{newDoc(t), w.Options.Arrays}
		if w.Options.NDJSON {
			m = ndjson{m}
		}
		return m, nil
	}
}

// passthrough masks a body that is an object, or an array when arrays is
// set, and copies any other body as it is (SPEC B1 to B4).
type passthrough struct {
	doc    masker
	arrays bool
}

func (p passthrough) Mask(dst, doc []byte) ([]byte, error) {
	if !isMasked(doc, p.arrays) {
		return append(dst, doc...), nil
	}
	return p.doc.Mask(dst, doc)
}

var bom = []byte("\xef\xbb\xbf")

// isMasked reports whether a body is masked, from its first byte that is not
// JSON whitespace after an optional byte-order mark (SPEC B1).
func isMasked(doc []byte, arrays bool) bool {
	for _, c := range bytes.TrimPrefix(doc, bom) {
		switch c {
		case ' ', '\t', '\r', '\n':
			continue
		case '{':
			return true
		case '[':
			return arrays
		default:
			return false
		}
	}
	return false
}

// ndjson masks each line of doc on its own and ends each output line with
// '\n' (SPEC S3). The '\n' that ends the last line does not start another.
type ndjson struct{ line masker }

func (n ndjson) Mask(dst, doc []byte) ([]byte, error) {
	for len(doc) > 0 {
		line, rest, _ := bytes.Cut(doc, []byte{'\n'})
		var err error
		if dst, err = n.line.Mask(dst, line); err != nil {
			return dst, err
		}
		dst = append(dst, '\n')
		doc = rest
	}
	return dst, nil
}
