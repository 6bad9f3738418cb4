package studio

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/jsonmask/jsonmask"
	"github.com/jsonmask/jsonmask/internal/jsonwire"
)

// maskNode is one object of a mask being edited: its members in the order
// written, each kept whole (sub nil) or recursed into (sub, its nested
// mask). The studio edits this tree and gives it back to the library as
// JSON; the library compiles it and says what it does.
type maskNode struct {
	keys []string
	subs []*maskNode
}

// compileMask compiles a JSON mask as the studio reads every mask: "*" is
// the wildcard (SPEC T2), so that the JSON form and the text form say the
// same. It returns the mask and its tree, read from the library's own
// printing of it (MarshalJSON), so that what the page edits is what the
// library compiled.
func compileMask(src []byte) (*jsonmask.Mask, *maskNode, error) {
	m, err := jsonmask.Compile(src, jsonmask.WithWildcards(true), jsonmask.WithArrays(true))
	if err != nil {
		return nil, nil, err
	}
	canon, err := m.MarshalJSON()
	if err != nil {
		return nil, nil, err
	}
	n, err := parseMask(canon)
	if err != nil {
		return nil, nil, err
	}
	return m, n, nil
}

// parseMask reads a mask as MarshalJSON prints it: an object whose
// members are true or objects, with no whitespace. Keys are unescaped as
// the library unescapes them (SPEC M5: an escaped lone surrogate becomes
// the three bytes of its code point), which encoding/json does not do.
func parseMask(src []byte) (*maskNode, error) {
	bad := func(i int) error { return fmt.Errorf("studio: unexpected mask text at offset %d", i) }
	if len(src) < 2 || src[0] != '{' {
		return nil, bad(0)
	}
	root := &maskNode{}
	stack := []*maskNode{root}
	i := 1
	for len(stack) > 0 {
		top := stack[len(stack)-1]
		if i < len(src) && src[i] == '}' {
			stack = stack[:len(stack)-1]
			i++
			continue
		}
		if len(top.keys) > 0 {
			if i >= len(src) || src[i] != ',' {
				return nil, bad(i)
			}
			i++
		}
		key, n, err := unquote(src[i:])
		if err != nil {
			return nil, bad(i)
		}
		i += n
		if i >= len(src) || src[i] != ':' {
			return nil, bad(i)
		}
		i++
		switch {
		case bytes.HasPrefix(src[i:], []byte("true")):
			top.keys, top.subs = append(top.keys, key), append(top.subs, nil)
			i += 4
		case i < len(src) && src[i] == '{':
			sub := &maskNode{}
			top.keys, top.subs = append(top.keys, key), append(top.subs, sub)
			stack = append(stack, sub)
			i++
		default:
			return nil, bad(i)
		}
	}
	if i != len(src) {
		return nil, bad(i)
	}
	return root, nil
}

// unquote reads the JSON string at the start of b and returns its
// unescaped bytes and its length; a lone surrogate escape becomes the three
// bytes of its code point (WTF-8), as in the library.
func unquote(b []byte) (string, int, error) {
	errString := errors.New("not a JSON string")
	if len(b) == 0 || b[0] != '"' {
		return "", 0, errString
	}
	var out []byte
	for i := 1; i < len(b); {
		c := b[i]
		switch {
		case c == '"':
			return string(out), i + 1, nil
		case c < 0x20:
			return "", 0, errString
		case c != '\\':
			out = append(out, c)
			i++
			continue
		}
		if i+1 >= len(b) {
			return "", 0, errString
		}
		switch e := b[i+1]; e {
		case '"', '\\', '/':
			out = append(out, e)
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
			r, ok := jsonwire.ParseHex4(b[i+2:])
			if !ok {
				return "", 0, errString
			}
			i += 6
			if utf16.IsSurrogate(r) && r < 0xDC00 && len(b) > i+1 && b[i] == '\\' && b[i+1] == 'u' {
				if r2, ok := jsonwire.ParseHex4(b[i+2:]); ok && r2 >= 0xDC00 && r2 <= 0xDFFF {
					out = utf8.AppendRune(out, utf16.DecodeRune(r, r2))
					i += 6
					continue
				}
			}
			if utf16.IsSurrogate(r) {
				out = append(out, 0xE0|byte(r>>12), 0x80|byte(r>>6)&0x3F, 0x80|byte(r)&0x3F)
			} else {
				out = utf8.AppendRune(out, r)
			}
			continue
		default:
			return "", 0, errString
		}
		i += 2
	}
	return "", 0, errString
}

// index is the place of key among n's members, or -1.
func (n *maskNode) index(key string) int {
	for i, k := range n.keys {
		if k == key {
			return i
		}
	}
	return -1
}

func (n *maskNode) set(key string, sub *maskNode) {
	if i := n.index(key); i >= 0 {
		n.subs[i] = sub
		return
	}
	n.keys, n.subs = append(n.keys, key), append(n.subs, sub)
}

func (n *maskNode) remove(key string) {
	if i := n.index(key); i >= 0 {
		n.keys = append(n.keys[:i], n.keys[i+1:]...)
		n.subs = append(n.subs[:i], n.subs[i+1:]...)
	}
}

// appendJSON appends n as a JSON mask.
func (n *maskNode) appendJSON(dst []byte) []byte {
	dst = append(dst, '{')
	for i, k := range n.keys {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = jsonwire.AppendQuote(dst, k) // as MarshalJSON writes keys
		dst = append(dst, ':')
		if n.subs[i] == nil {
			dst = append(dst, "true"...)
		} else {
			dst = n.subs[i].appendJSON(dst)
		}
	}
	return append(dst, '}')
}

// errNoText says that a mask has no text form (SPEC T1): it holds {} (an
// object kept with none of its members), or a key the text syntax cannot
// write.
var errNoText = errors.New("this mask has no text form")

// fields returns n in the text syntax (SPEC T1): "a,b(c,d)", a single
// nested member as a path, "a/b".
func (n *maskNode) fields() (string, error) {
	if len(n.keys) == 0 {
		return "", fmt.Errorf("%w: it keeps nothing", errNoText)
	}
	var b strings.Builder
	if err := n.writeFields(&b, ""); err != nil {
		return "", err
	}
	return b.String(), nil
}

func (n *maskNode) writeFields(b *strings.Builder, at string) error {
	for i, k := range n.keys {
		if i > 0 {
			b.WriteByte(',')
		}
		ptr := at + "/" + escapePointer(k)
		if err := writeName(b, k); err != nil {
			return fmt.Errorf("%w: the key at %s", errNoText, strconv.Quote(ptr))
		}
		sub := n.subs[i]
		switch {
		case sub == nil:
		case len(sub.keys) == 0:
			return fmt.Errorf("%w: %s is {}", errNoText, strconv.Quote(ptr))
		case len(sub.keys) == 1:
			b.WriteByte('/')
			if err := sub.writeFields(b, ptr); err != nil {
				return err
			}
		default:
			b.WriteByte('(')
			if err := sub.writeFields(b, ptr); err != nil {
				return err
			}
			b.WriteByte(')')
		}
	}
	return nil
}

// writeName writes a key as a name of the text syntax: the wildcard "*" as
// it is, the characters of the syntax escaped, and blanks at its ends too,
// which the syntax would otherwise trim.
func writeName(b *strings.Builder, k string) error {
	if k == "*" {
		b.WriteByte('*')
		return nil
	}
	if k == "" || !utf8.ValidString(k) || strings.ContainsAny(k[:1]+k[len(k)-1:], "\r\n") {
		return errNoText
	}
	for i := 0; i < len(k); i++ {
		c := k[i]
		switch {
		case strings.IndexByte(`,/()*\`, c) >= 0,
			(c == ' ' || c == '\t') && (i == 0 || strings.TrimRight(k[i:], " \t") == ""):
			b.WriteByte('\\')
		}
		b.WriteByte(c)
	}
	return nil
}

// escapePointer escapes a key as a token of a JSON Pointer (RFC 6901).
func escapePointer(key string) string { return pointerEscaper.Replace(key) }

var pointerEscaper = strings.NewReplacer("~", "~0", "/", "~1")

// splitPointer returns the keys of a JSON Pointer, unescaped: "" is the
// root, with none.
func splitPointer(p string) []string {
	if p == "" {
		return nil
	}
	segs := strings.Split(p[1:], "/")
	for i, s := range segs {
		segs[i] = strings.ReplaceAll(strings.ReplaceAll(s, "~1", "/"), "~0", "~")
	}
	return segs
}

// maskPath is the keys of the mask entry that applies at a document's path:
// its array levels ("*") taken out, since arrays are transparent to a mask
// (SPEC A3). A key named "*" is taken for an array level too.
func maskPath(docPath string) []string {
	var keys []string
	for _, s := range splitPointer(docPath) {
		if s != "*" {
			keys = append(keys, s)
		}
	}
	return keys
}

func joinPointer(keys []string) string {
	var b strings.Builder
	for _, k := range keys {
		b.WriteByte('/')
		b.WriteString(escapePointer(k))
	}
	return b.String()
}
