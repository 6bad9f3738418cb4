package studio

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"

	"github.com/jsonmask/jsonmask/toolresult"
)

// pathTokens counts, for each path of targets, the tokens of the values
// found there in doc (one JSON document that the library accepted), each
// value counted as compact JSON text, as PathStats measures its bytes. The
// counts are added to counts. A path below another target is counted in
// that target's compact text, walked again.
//
// The walk reads the document with encoding/json: the library has no
// public walker of values by path, and the tokenizer (6 MB/s) is what the
// time goes to. Keys are compared as encoding/json decodes them, which
// differs from the library (SPEC M5) only for escaped lone surrogates: a
// path through one is not counted.
func pathTokens(doc []byte, root string, skipRoot bool, targets map[string]bool, prefixes map[string]bool,
	tk toolresult.Tokenizer, counts map[string]int64) error {
	doc = bytes.TrimPrefix(doc, []byte("\xEF\xBB\xBF")) // a byte-order mark, which the library skips (SPEC B1)
	if len(bytes.TrimSpace(doc)) == 0 {
		return nil // an empty body: no value, no path
	}
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	type frame struct {
		path  string
		array bool
	}
	var (
		stack []frame
		buf   bytes.Buffer
		raw   json.RawMessage
	)
	p := root
	for {
		// A value at p is next.
		switch {
		case targets[p] && !(skipRoot && p == root && len(stack) == 0):
			if err := dec.Decode(&raw); err != nil {
				return err
			}
			buf.Reset()
			if err := json.Compact(&buf, raw); err != nil {
				return err
			}
			counts[p] += int64(tk.Count(buf.Bytes(), -1))
			if prefixes[p] {
				sub := bytes.Clone(buf.Bytes())
				if err := pathTokens(sub, p, true, targets, prefixes, tk, counts); err != nil {
					return err
				}
			}
		case prefixes[p]:
			tok, err := dec.Token()
			if err != nil {
				return err
			}
			switch tok {
			case json.Delim('{'):
				stack = append(stack, frame{p, false})
			case json.Delim('['):
				stack = append(stack, frame{p, true})
			}
		default:
			if err := dec.Decode(&raw); err != nil {
				return err
			}
		}
		// Find the next value, closing what ends before it.
		for {
			if len(stack) == 0 {
				if _, err := dec.Token(); err != io.EOF {
					return errors.New("more than one value in a document")
				}
				return nil
			}
			top := stack[len(stack)-1]
			if !dec.More() {
				if _, err := dec.Token(); err != nil {
					return err
				}
				stack = stack[:len(stack)-1]
				continue
			}
			if top.array {
				p = top.path + "/*"
				break
			}
			tok, err := dec.Token()
			if err != nil {
				return err
			}
			key, _ := tok.(string)
			p = top.path + "/" + escapePointer(key)
			break
		}
	}
}

// prefixesOf returns every path that holds one of paths below it.
func prefixesOf(paths map[string]bool) map[string]bool {
	pre := map[string]bool{}
	for p := range paths {
		for i := len(p) - 1; i >= 0; i-- {
			if p[i] == '/' {
				pre[p[:i]] = true
			}
		}
	}
	return pre
}
