package bench

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
)

// Items are the elements of the data array of a list response such as
// testdata/conversation_items.json, each as written in the file, and the
// list's other members, so that a list of any size can be made from them.
type Items struct {
	// Head is the list up to the first element of data, as written:
	// `{"object":"list","data":[`.
	Head []byte
	// Elements are data's elements as written, without the commas.
	Elements [][]byte
	// Tail is the list after the last element of data, as written:
	// `],"has_more":true,...}`.
	Tail []byte
}

// LoadItems reads the list in dir/name, a JSON object whose "data" member is
// an array of objects. The file must be compact, as conversation_items.json
// is, so that Head and Tail can be cut from it at data's brackets.
func LoadItems(dir, name string) (*Items, error) {
	doc, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		return nil, err
	}
	var list struct {
		Data []json.RawMessage `json:"data"`
	}
	if err := json.Unmarshal(doc, &list); err != nil {
		return nil, err
	}
	if len(list.Data) == 0 {
		return nil, errors.New(name + ": no data elements")
	}
	first, last := list.Data[0], list.Data[len(list.Data)-1]
	// RawMessage holds copies: find the first element where it is written.
	start := bytes.Index(doc, []byte(`"data":[`+string(first)))
	end := bytes.LastIndex(doc, append(append([]byte(nil), last...), ']'))
	if start < 0 || end < 0 {
		return nil, errors.New(name + `: want a compact file, with "data":[ and its elements as written`)
	}
	start += len(`"data":[`)
	end += len(last)
	it := &Items{Head: doc[:start], Tail: doc[end:]}
	for _, e := range list.Data {
		it.Elements = append(it.Elements, []byte(e))
	}
	return it, nil
}

// Reader returns the list with its elements repeated, in order, until the
// body has about size bytes: no more than size, unless a single element does
// not fit. The body is made as it is read, never held whole, so that it can
// be larger than memory. Every read returns at most 32 KiB, as a network
// body would.
func (it *Items) Reader(size int64) io.Reader {
	return &itemsReader{it: it, size: size, part: it.Head, n: int64(len(it.Head))}
}

// Bytes returns the body of Reader(size), in memory.
func (it *Items) Bytes(size int64) []byte {
	b := bytes.NewBuffer(make([]byte, 0, size+int64(len(it.Tail))))
	if _, err := b.ReadFrom(it.Reader(size)); err != nil {
		panic(err) // itemsReader never fails
	}
	return b.Bytes()
}

type itemsReader struct {
	it    *Items
	size  int64  // bytes wanted
	n     int64  // bytes made so far, part included
	next  int    // the element to come
	count int    // elements made so far
	part  []byte // what is left of the piece being read
	comma bool   // part is a comma: its element comes next
	done  bool   // part is the tail
}

var comma = []byte{','}

func (r *itemsReader) Read(p []byte) (int, error) {
	p = p[:min(len(p), readChunk)]
	k := 0
	for k < len(p) {
		if len(r.part) == 0 {
			if r.done {
				break
			}
			r.advance()
			continue
		}
		c := copy(p[k:], r.part)
		r.part = r.part[c:]
		k += c
	}
	if k == 0 {
		return 0, io.EOF
	}
	return k, nil
}

// advance makes part the next piece: an element, the comma before one, or
// the tail when one more element would pass the size.
func (r *itemsReader) advance() {
	e := r.it.Elements[r.next]
	switch {
	case r.comma:
		r.part, r.comma = e, false
		r.n += int64(len(e))
		r.count++
		r.next = (r.next + 1) % len(r.it.Elements)
	case r.count == 0:
		r.part, r.comma = comma[:0], true // no comma before the first
	case r.n+int64(1+len(e)+len(r.it.Tail)) > r.size:
		r.part, r.done = r.it.Tail, true
		r.n += int64(len(r.it.Tail))
	default:
		r.part, r.comma = comma, true
		r.n++
	}
}
