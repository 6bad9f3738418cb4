package schema

import (
	"math/bits"
	"strings"

	"github.com/jsonmask/jsonmask/internal/jsonwire"
)

// Schema is an inferred schema: a snapshot, immutable, of what an Inferrer
// had read when [Inferrer.Schema] was called.
type Schema struct {
	root *node
	docs int
}

// Schema returns the schema of the documents read whole so far.
func (in *Inferrer) Schema() *Schema {
	if in.root == nil {
		return &Schema{root: &node{}}
	}
	return &Schema{root: in.root.clone(), docs: in.docs}
}

func (n *node) clone() *node {
	if n == nil {
		return nil
	}
	c := *n
	c.slots, c.lead = nil, nil // for inference only
	c.props = make([]*prop, len(n.props))
	for i, p := range n.props {
		q := *p
		q.n, q.after = p.n.clone(), nil
		c.props[i] = &q
	}
	c.items = n.items.clone()
	c.enum = append([]string(nil), n.enum...)
	return &c
}

// Documents returns the number of documents the schema was inferred from.
func (s *Schema) Documents() int { return s.docs }

// JSON returns the schema as a JSON Schema 2020-12 document.
func (s *Schema) JSON() []byte {
	b := []byte(`{"$schema":"https://json-schema.org/draft/2020-12/schema"`)
	b = s.root.appendJSON(b, true)
	return append(b, '}')
}

// appendJSON appends n's keywords; inner says that b already holds a
// keyword of the same object, so the first one needs a comma.
func (n *node) appendJSON(b []byte, inner bool) []byte {
	sep := func() {
		if inner {
			b = append(b, ',')
		}
		inner = true
	}
	if n.cut != "" {
		sep()
		b = append(b, `"description":`...)
		return jsonwire.AppendQuote(b, n.cut)
	}
	if types := n.typeBits(); types != 0 {
		sep()
		b = appendTypes(b, types)
	}
	if n.types&tObject != 0 && len(n.props) > 0 {
		sep()
		b = append(b, `"properties":{`...)
		for i, p := range n.props {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(jsonwire.AppendQuote(b, p.name), ":{"...)
			b = append(p.n.appendJSON(b, false), '}')
		}
		b = append(b, '}')
		if req := n.required(); len(req) > 0 {
			sep()
			b = append(b, `"required":[`...)
			for i, p := range req {
				if i > 0 {
					b = append(b, ',')
				}
				b = jsonwire.AppendQuote(b, p.name)
			}
			b = append(b, ']')
		}
	}
	if n.types&tArray != 0 && n.items != nil {
		sep()
		b = append(b, `"items":{`...)
		b = append(n.items.appendJSON(b, false), '}')
	}
	if f := n.format(); f != "" {
		sep()
		b = jsonwire.AppendQuote(append(b, `"format":`...), f)
	}
	if enum := n.enumValues(); enum != nil {
		sep()
		b = appendStrings(append(b, `"enum":[`...), enum)
		if n.types&tNull != 0 {
			b = append(b, ",null"...)
		}
		b = append(b, ']')
	}
	return b
}

// appendStrings appends ss as the elements of a JSON array: quoted, with
// commas between them.
func appendStrings(b []byte, ss []string) []byte {
	for i, s := range ss {
		if i > 0 {
			b = append(b, ',')
		}
		b = jsonwire.AppendQuote(b, s)
	}
	return b
}

// typeBits are the types the node is given: integer only without number,
// which includes it.
func (n *node) typeBits() uint8 {
	if n.types&tNumber != 0 {
		return n.types &^ tInteger
	}
	return n.types
}

// appendTypes appends the keyword "type" of the types: one name, or an
// array of them.
func appendTypes(b []byte, types uint8) []byte {
	b = append(b, `"type":`...)
	many := bits.OnesCount8(types) > 1
	if many {
		b = append(b, '[')
	}
	first := true
	for _, t := range typeOrder {
		if types&t.bit != 0 {
			if !first {
				b = append(b, ',')
			}
			b, first = append(b, t.quoted...), false
		}
	}
	if many {
		b = append(b, ']')
	}
	return b
}

// typeOrder is the order in which a schema names a node's types: JSON's
// kinds, and JSON Schema's integer before number. The names are JSON
// strings already, as a schema writes them.
var typeOrder = [...]struct {
	bit    uint8
	quoted string
}{
	{tObject, quoted(jsonwire.KindName('{'))}, {tArray, quoted(jsonwire.KindName('['))},
	{tString, quoted(jsonwire.KindName('"'))}, {tInteger, quoted("integer")},
	{tNumber, quoted(jsonwire.KindName('0'))}, {tBoolean, quoted(jsonwire.KindName('t'))},
	{tNull, quoted(jsonwire.KindName('n'))},
}

func quoted(s string) string { return string(jsonwire.AppendQuote(nil, s)) }

// required returns the keys present in every object seen at n.
func (n *node) required() []*prop {
	var req []*prop
	for _, p := range n.props {
		if p.present == n.objects {
			req = append(req, p)
		}
	}
	return req
}

func (n *node) format() string {
	if n.types&tString == 0 || n.formats == 0 {
		return ""
	}
	for _, f := range formatNames {
		if n.formats&f.bit != 0 {
			return f.name
		}
	}
	return ""
}

// enumValues returns the strings of an enum, when the place holds only
// strings (and nulls), few distinct ones seen many times; else nil.
func (n *node) enumValues() []string {
	if n.noEnum || len(n.enum) == 0 || n.types&^(tString|tNull) != 0 {
		return nil
	}
	if n.strings < 10 || n.strings < 3*len(n.enum) {
		return nil
	}
	return n.enum
}

// Compact renders the schema for a model, TypeScript-like:
//
//	{id: string; tags?: Array<string>; status: "open" | "closed"}
//
// A key marked "?" is not in every object. Below depth levels (depth < 1:
// no limit) objects render as {…} and arrays as Array<…>.
func (s *Schema) Compact(depth int) string {
	var b strings.Builder
	s.root.compact(&b, 0, depth)
	return b.String()
}

// Depth returns the number of levels the schema describes: Compact with
// this depth or more renders it whole.
func (s *Schema) Depth() int { return s.root.levels() }

func (n *node) levels() int {
	d := 1
	for _, p := range n.props {
		d = max(d, 1+p.n.levels())
	}
	if n.items != nil {
		d = max(d, 1+n.items.levels())
	}
	return d
}

func (n *node) compact(b *strings.Builder, level, depth int) {
	if n.cut != "" {
		b.WriteString("any")
		return
	}
	if n.types == 0 {
		b.WriteString("never")
		return
	}
	parts := 0
	part := func() {
		if parts > 0 {
			b.WriteString(" | ")
		}
		parts++
	}
	deep := depth > 0 && level+1 >= depth
	if n.types&tObject != 0 {
		part()
		switch {
		case len(n.props) == 0:
			b.WriteString("{}")
		case deep:
			b.WriteString("{…}")
		default:
			b.WriteByte('{')
			for i, p := range n.props {
				if i > 0 {
					b.WriteString("; ")
				}
				writeKey(b, p.name)
				if p.present < n.objects {
					b.WriteByte('?')
				}
				b.WriteString(": ")
				p.n.compact(b, level+1, depth)
			}
			b.WriteByte('}')
		}
	}
	if n.types&tArray != 0 {
		part()
		switch {
		case n.items == nil:
			b.WriteString("Array<never>")
		case deep:
			b.WriteString("Array<…>")
		default:
			b.WriteString("Array<")
			n.items.compact(b, level+1, depth)
			b.WriteByte('>')
		}
	}
	if n.types&tString != 0 {
		if enum := n.enumValues(); enum != nil {
			for _, e := range enum {
				part()
				b.Write(jsonwire.AppendQuote(nil, e))
			}
		} else {
			part()
			b.WriteString("string")
			if f := n.format(); f != "" {
				b.WriteString(" /*" + f + "*/")
			}
		}
	}
	if n.types&(tInteger|tNumber) != 0 {
		part()
		b.WriteString("number")
	}
	if n.types&tBoolean != 0 {
		part()
		b.WriteString("boolean")
	}
	if n.types&tNull != 0 {
		part()
		b.WriteString("null")
	}
}

// writeKey writes a key bare when it is an identifier, else quoted.
func writeKey(b *strings.Builder, k string) {
	ident := k != ""
	for i, c := range k {
		if !(c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			ident = false
			break
		}
	}
	if ident {
		b.WriteString(k)
		return
	}
	b.Write(jsonwire.AppendQuote(nil, k))
}
