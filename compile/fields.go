package compile

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/jsonmask/jsonmask/internal/jsonwire"
	"github.com/jsonmask/jsonmask/tokenizer"
)

// The text syntax of masks (SPEC T1), that of Google APIs' fields parameter
// and of json-mask:
//
//	mask  = list
//	list  = item { "," item }
//	item  = name [ "/" item | "(" list ")" ]
//	name  = "*" | one or more characters other than , / ( ) *, or \ and one of , / ( ) * \ space tab
//
// Blanks (space, tab, CR, LF) around names and punctuation are ignored; inside
// a name they are part of it, and an escaped blank is kept where a bare one
// would be trimmed. "*" standing alone is the wildcard (T2); a "*" inside a
// name is an error, so that a pattern such as "user_*" can be given a meaning
// later without changing what a mask that compiles today means (SPEC 13).
//
// Items merge into one tree, as the JSON form would be written: "a/b,a/c" is
// "a(b,c)"; a name kept whole and also selected into ("a,a/b") is kept whole;
// a name given twice is given once.

// textToken is a token of the text syntax: one of the punctuation bytes
// , / ( ), a name, or the end of the text (0).
type textToken struct {
	kind  byte   // ',', '/', '(', ')', 'n' for a name, 0 at the end
	start int    // offset of its first byte (of the name's first byte kept, blanks trimmed)
	end   int    // offset past it
	name  string // a name, unescaped
	wild  bool   // the name is the wildcard "*"
}

// nextText scans the token at text[i:], after blanks.
func nextText(text string, i int) (textToken, error) {
	for i < len(text) && isBlank(text[i]) {
		i++
	}
	if i == len(text) {
		return textToken{start: i, end: i}, nil
	}
	switch c := text[i]; c {
	case ',', '/', '(', ')':
		return textToken{kind: c, start: i, end: i + 1}, nil
	}
	var (
		b     []byte // the name so far, unescaped
		keep  int    // len(b) without trailing bare blanks
		star  = -1   // offset of an unescaped '*'
		start = i
	)
	for i < len(text) {
		c := text[i]
		switch {
		case c == ',' || c == '/' || c == '(' || c == ')':
			goto done
		case c == '\\':
			if i+1 == len(text) {
				return textToken{}, textError(i, "unfinished escape: '\\' ends the mask")
			}
			e := text[i+1]
			if !strings.ContainsRune(`,/()*\ `+"\t", rune(e)) {
				return textToken{}, textError(i, "invalid escape "+strconv.Quote(text[i:i+2])+
					` (\ escapes , / ( ) * \ and a blank)`)
			}
			b = append(b, e)
			keep = len(b)
			i += 2
			continue
		case c == '*':
			if star < 0 {
				star = i
			}
		case c >= utf8.RuneSelf:
			r, size := utf8.DecodeRuneInString(text[i:])
			if r == utf8.RuneError && size == 1 {
				return textToken{}, textError(i, "invalid UTF-8 byte "+tokenizer.QuoteChar(c)+" in a name")
			}
			b = append(b, text[i:i+size]...)
			keep = len(b)
			i += size
			continue
		}
		b = append(b, c)
		if !isBlank(c) {
			keep = len(b)
		}
		i++
	}
done:
	tok := textToken{kind: 'n', start: start, end: i, name: string(b[:keep])}
	if star >= 0 {
		if tok.name != "*" {
			return textToken{}, textError(star, "'*' inside a name: the wildcard stands alone; write \\* for the character")
		}
		tok.wild = true
	}
	return tok, nil
}

func isBlank(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

// textError is a text mask that does not parse, at offset.
func textError(offset int, what string) *Error {
	return &Error{Offset: int64(offset), Msg: "invalid fields mask: " + what + " at offset " + strconv.Itoa(offset)}
}

// textFrame is a node of the tree being read that the parser is inside.
type textFrame struct {
	node  int32 // in textTree.nodes, or discard
	group bool  // opened by '(' (closed by ')'), not by '/' (closed by the item's end)
	open  int   // offset of its '(' or '/'
	key   string
}

// discard is the node that takes what is selected inside a name kept whole
// ("a,a/b"): read, checked, and forgotten.
const discard int32 = -2

// textTree is the mask being read: per node its members in the order first
// written, and where each (key, wildcard) is among them.
type textTree struct {
	nodes [][]member
	index []map[textKey]int
}

type textKey struct {
	key  string
	wild bool
}

func (t *textTree) newNode() int32 {
	t.nodes, t.index = append(t.nodes, nil), append(t.index, map[textKey]int{})
	return int32(len(t.nodes) - 1)
}

// add merges the name tok into node: kept whole when keep, else selected
// into. It returns the node that what is selected inside it goes to.
func (t *textTree) add(node int32, tok textToken, keep bool) int32 {
	if node == discard {
		return discard
	}
	k := textKey{tok.name, tok.wild}
	j, seen := t.index[node][k]
	if !seen {
		m := member{key: tok.name, node: Keep, offset: int64(tok.start), wild: tok.wild}
		if !keep {
			m.node = t.newNode()
		}
		t.index[node][k] = len(t.nodes[node])
		t.nodes[node] = append(t.nodes[node], m)
		return m.node
	}
	m := &t.nodes[node][j]
	switch {
	case m.node == Keep: // kept whole already: that wins
		return discard
	case keep: // kept whole now: that wins over what was selected in it
		m.node = Keep
		return discard
	}
	return m.node
}

// CompileFields reads text, a mask in the text syntax (SPEC T1), and builds
// the Program that the equivalent JSON mask compiles to. The wildcard "*" is
// always read as one (T2), whatever o.Wildcards says. An error (T3) is an
// *Error with the offset in text of the byte at fault.
//
// The parser is a loop over tokens with a stack of the nodes it is inside; it
// does not recurse, and the stack is bounded by o.MaxDepth. Its states:
//
//	expect a name: at the start, and after ',' '/' '('
//	after a name:  '/' or '(' open the name as a node and expect a name;
//	               ',' ')' or the end keep the name whole, close the nodes that
//	               '/' opened, and then, for ')', the node that '(' opened
//	after ')':     ',' expects a name; ')' closes one more node; the end ends
func CompileFields(text string, o Options) (*Program, error) {
	maxDepth := o.MaxDepth
	if maxDepth <= 0 {
		maxDepth = tokenizer.DefaultMaxDepth
	}
	var (
		tree   textTree
		frames = []textFrame{{node: tree.newNode(), group: true}} // the root, closed by the end
		name   textToken                                          // the name read, in the after-a-name state
		prev   textToken                                          // the last token read, for messages
		state  = stTextName
	)
	// closeItem closes the nodes that '/' opened since the innermost '('.
	closeItem := func() {
		for !frames[len(frames)-1].group {
			frames = frames[:len(frames)-1]
		}
	}
	for i := 0; ; {
		tok, err := nextText(text, i)
		if err != nil {
			return nil, withPointer(err.(*Error), frames)
		}
		before := prev
		i, prev = tok.end, tok
		switch state {
		case stTextName:
			if tok.kind != 'n' {
				return nil, emptyName(text, tok, before, frames)
			}
			name, state = tok, stTextAfterName
		case stTextAfterName:
			cur := frames[len(frames)-1].node
			switch tok.kind {
			case '/', '(':
				if len(frames) >= maxDepth {
					e := textError(tok.start, "exceeded max depth "+strconv.Itoa(maxDepth))
					e.Err = tokenizer.ErrMaxDepth
					return nil, withPointer(e, frames)
				}
				child := tree.add(cur, name, false)
				frames = append(frames, textFrame{node: child, group: tok.kind == '(', open: tok.start, key: name.name})
				state = stTextName
				continue
			}
			tree.add(cur, name, true)
			closeItem()
			fallthrough
		case stTextAfterGroup:
			switch tok.kind {
			case ',':
				state = stTextName
			case ')':
				if len(frames) == 1 {
					return nil, withPointer(textError(tok.start, "unbalanced parentheses: ')' closes nothing"), frames)
				}
				frames = frames[:len(frames)-1]
				closeItem()
				state = stTextAfterGroup
			case 0:
				if len(frames) > 1 {
					f := frames[len(frames)-1]
					return nil, withPointer(textError(f.open, "unbalanced parentheses: '(' is not closed"), frames[:len(frames)-1])
				}
				return tree.build()
			default:
				return nil, withPointer(textError(tok.start, "expected ',' or ')' after ')', got "+describeText(text, tok)), frames)
			}
		}
	}
}

// States of CompileFields.
const (
	stTextName       = iota // a name must come next
	stTextAfterName         // a name was read
	stTextAfterGroup        // a ')' was read
)

// emptyName is the error for tok where a name must come, after prev.
func emptyName(text string, tok, prev textToken, frames []textFrame) *Error {
	switch {
	case tok.kind == 0 && prev.kind == ',':
		return withPointer(textError(prev.start, "trailing comma"), frames)
	case tok.kind == 0 && prev.kind == '(':
		return withPointer(textError(prev.start, "unbalanced parentheses: '(' is not closed"), frames[:len(frames)-1])
	case tok.kind == 0 && prev.kind == 0:
		return textError(tok.start, "empty mask")
	case tok.kind == 0:
		return withPointer(textError(tok.start, "empty name at the end, after "+describeText(text, prev)), frames)
	}
	return withPointer(textError(tok.start, "empty name before "+describeText(text, tok)), frames)
}

// describeText names tok in a message.
func describeText(text string, tok textToken) string {
	if tok.kind == 'n' {
		return "name " + strconv.Quote(tok.name)
	}
	return tokenizer.QuoteChar(text[tok.start])
}

// withPointer sets e's Pointer to that of the node the parser is inside, as
// frames say, and adds it to the message.
func withPointer(e *Error, frames []textFrame) *Error {
	var b strings.Builder
	for _, f := range frames[1:] {
		b.WriteByte('/')
		b.WriteString(jsonwire.EscapePointerToken(f.key))
	}
	if e.Pointer = b.String(); e.Pointer != "" {
		q := jsonwire.QuotePointer(e.Pointer) // one line, safe to log, shortened (SPEC V3)
		e.Msg += " (" + q[1:len(q)-1] + ")"
	}
	return e
}

// build turns the tree into a Program: its nodes numbered from the root in
// the order they were first written, those under a name kept whole left out.
func (t *textTree) build() (*Program, error) {
	var (
		members = [][]member{nil}
		paths   = []string{""}
		todo    = []int32{0} // tree nodes, in the order of their new numbers
	)
	for n := 0; n < len(todo); n++ {
		for _, m := range t.nodes[todo[n]] {
			if m.node != Keep {
				todo = append(todo, m.node)
				key := m.key
				if m.wild {
					key = "*"
				}
				paths = append(paths, paths[n]+"/"+jsonwire.EscapePointerToken(key))
				members = append(members, nil)
				m.node = int32(len(members) - 1)
			}
			members[n] = append(members[n], m)
		}
	}
	return build(members, paths)
}
