package toolresult

import (
	"strconv"
	"strings"

	"github.com/jsonmask/jsonmask/internal/jsonwire"
	"github.com/jsonmask/jsonmask/tokenizer"
)

// previewer builds the preview (SPEC C8) from the sample, within a number of
// tokens. It counts each piece it adds once, alone, and adds the counts: the
// caller counts the text it ends up with once, exactly, and asks again for
// less when the pieces' sum was short of the truth.
//
// It adds in rounds, breadth first: in round r every array shows up to 2^r
// elements and every string up to 32·2^r characters; within a round, level
// by level from the root, scalars before containers, so that shallow scalars
// (ids, statuses, counts: the decision fields) come before deep detail. A
// container is added with its first member or element (and so on down), so
// that an object that had members is never shown as {} while the budget
// holds one of them.
type previewer struct {
	tok  Tokenizer
	root *snode
	left int
	max  int            // the sampler's caps, where rounds stop
	keys map[string]int // the tokens of `"key":`, by key as written: a key repeats in every item of a list
}

// count returns the tokens of s when they are at most limit, and otherwise
// some number over limit, having counted about limit+1 of them (a negative
// limit counts all): what does not fit is not counted whole.
func (pv *previewer) count(s string, limit int) int { return pv.tok.Count([]byte(s), limit) }

func isContainer(n *snode) bool {
	return n.kind == tokenizer.ObjectStart || n.kind == tokenizer.ArrayStart
}

func reset(n *snode) {
	n.shown, n.showChars = false, 0
	for _, k := range n.kids {
		reset(k)
	}
}

// build shows what fits in target tokens, from nothing.
func (pv *previewer) build(target int) {
	reset(pv.root)
	pv.root.shown = true
	pv.left = target - 1
	for r := 0; r < 24 && pv.left > 0; r++ {
		items, chars := 1<<r, 32<<min(r, 20)
		if !pv.round(items, chars) && items > pv.max && chars > pv.max {
			break
		}
	}
	pv.fill()
}

// round adds what the round's limits allow, level by level. It reports
// whether it added anything.
func (pv *previewer) round(items, chars int) bool {
	added := false
	level := []*snode{pv.root}
	for len(level) > 0 && pv.left > 0 {
		var next []*snode
		for pass := range 2 { // scalars, then containers
			for _, n := range level {
				lim := len(n.kids)
				if n.kind == tokenizer.ArrayStart {
					lim = min(lim, items)
				}
				for i := 0; i < lim; i++ {
					k := n.kids[i]
					if isContainer(k) != (pass == 1) {
						continue
					}
					if n.kind == tokenizer.ArrayStart && i > 0 && !n.kids[i-1].shown {
						break // arrays show a prefix
					}
					switch {
					case !k.shown:
						if !pv.add(k, chars) {
							if n.kind == tokenizer.ArrayStart {
								i = lim
							}
							continue
						}
						added = true
					case k.kind == tokenizer.String && k.showChars < min(chars, k.chars):
						if pv.extend(k, min(chars, k.chars)) {
							added = true
						}
					}
					if isContainer(k) && k.shown {
						next = append(next, k)
					}
				}
			}
		}
		level = next
	}
	return added
}

// cost returns the tokens of n shown with chars characters (a string), with
// its key and the comma that follows it: exactly when they are at most
// limit, and otherwise some number over limit (a negative limit: exactly).
// Callers pass the tokens left, so that a long string that cannot fit is not
// counted whole.
//
// A string's costs are kept (see costMemo): the preview is built several
// times, and tries the same lengths each time.
func (pv *previewer) cost(n *snode, chars, limit int) int {
	if n.key != nil && n.keyCost < 0 {
		c, ok := pv.keys[string(n.key)]
		if !ok {
			c = pv.count(`"`+string(n.key)+`":`, -1)
			if pv.keys == nil {
				pv.keys = make(map[string]int)
			}
			pv.keys[string(n.key)] = c
		}
		n.keyCost = c
	}
	if n.kind == tokenizer.String {
		for _, m := range n.costs {
			if m.chars == chars && (m.exact || limit >= 0 && limit <= m.limit) {
				return m.cost
			}
		}
		c := pv.valueCost(n, chars, limit)
		n.costs = append(n.costs, costMemo{chars: chars, cost: c, limit: limit, exact: limit < 0 || c <= limit})
		return c
	}
	return pv.valueCost(n, chars, limit)
}

// costMemo is a cost of a string counted: exact, or over limit.
type costMemo struct {
	chars, cost, limit int
	exact              bool
}

// valueCost is cost, counted.
func (pv *previewer) valueCost(n *snode, chars, limit int) int {
	var v string
	switch n.kind {
	case tokenizer.ObjectStart:
		v = "{},"
	case tokenizer.ArrayStart:
		v = "[],"
	case tokenizer.String:
		v = `"` + string(prefixChars(n.raw, chars)) + `",`
	default:
		v = string(n.raw) + ","
	}
	k := max(n.keyCost, 0)
	if limit >= 0 {
		// v is at least one token: with no room left past the key, a
		// limit of 0 answers "over" at once.
		limit = max(limit-k, 0)
	}
	return k + pv.count(v, limit)
}

// add shows n when it fits: an object with all its scalar members, or else
// with its first member; an array with its first element, and so on down to
// a scalar. A string shows chars characters, or fewer (at least 16) to fit.
func (pv *previewer) add(n *snode, chars int) bool {
	if n.kind == tokenizer.Number && n.chars < 0 {
		return false // too long to show
	}
	if n.kind == tokenizer.ObjectStart && pv.addScalars(n, chars) {
		return true
	}
	chain := []*snode{n}
	for c := n; isContainer(c) && len(c.kids) > 0; {
		c = c.kids[0]
		if c.kind == tokenizer.Number && c.chars < 0 {
			break
		}
		chain = append(chain, c)
	}
	// Costs are noted as they are counted: nothing under n is shown yet.
	total := 0
	for _, c := range chain[:len(chain)-1] {
		c.cost = pv.cost(c, 0, -1)
		total += c.cost
	}
	last := chain[len(chain)-1]
	if isContainer(last) && last.total > 0 {
		return false // its members were not sampled: it would show as {}
	}
	show := 0
	if last.kind == tokenizer.String {
		show = min(chars, last.chars)
		if wholeOnly(last) {
			show = last.chars // an id or a URL: whole or not at all
		}
		last.cost = pv.cost(last, show, max(pv.left-total, 0))
		for total+last.cost > pv.left && show > 16 && !wholeOnly(last) {
			show = max(16, show/2)
			last.cost = pv.cost(last, show, max(pv.left-total, 0))
		}
	} else {
		last.cost = pv.cost(last, 0, -1)
	}
	total += last.cost
	if total > pv.left {
		return false
	}
	for _, c := range chain {
		c.shown = true
	}
	last.showChars = show
	pv.left -= total
	return true
}

// addScalars shows object n with all its scalar members, when they fit and
// there are some.
func (pv *previewer) addScalars(n *snode, chars int) bool {
	n.cost = pv.cost(n, 0, -1)
	total, some := n.cost, false
	for _, k := range n.kids {
		if !isContainer(k) && !(k.kind == tokenizer.Number && k.chars < 0) {
			k.cost = pv.cost(k, scalarChars(k, chars), max(pv.left-total, 0))
			total += k.cost
			some = true
		}
	}
	if !some || total > pv.left {
		return false
	}
	n.shown = true
	for _, k := range n.kids {
		if !isContainer(k) && !(k.kind == tokenizer.Number && k.chars < 0) {
			k.shown = true
			if k.kind == tokenizer.String {
				k.showChars = scalarChars(k, chars)
			}
		}
	}
	pv.left -= total
	return true
}

// scalarChars is how many characters of a string a round that shows chars
// shows: an id or a URL whole.
func scalarChars(n *snode, chars int) int {
	if n.kind == tokenizer.String && wholeOnly(n) {
		return n.chars
	}
	return min(chars, n.chars)
}

// wholeOnly reports whether a string is shown whole or not at all: an id, a
// URL, a word (no whitespace, sampled whole, at most 128 characters, or 2048
// for a URL). Cut, it would read as another id.
func wholeOnly(n *snode) bool {
	if n.kind != tokenizer.String || n.chars != n.total || n.chars > 2048 {
		return false
	}
	for i, c := range n.raw {
		if c == ' ' || c == '\\' && i+1 < len(n.raw) && (n.raw[i+1] == 'n' || n.raw[i+1] == 't' || n.raw[i+1] == 'r') {
			return false
		}
	}
	return n.chars <= 128 || isURL(n.raw)
}

// isURL reports whether s starts with a URL scheme and "://".
func isURL(s []byte) bool {
	for i, c := range s {
		switch {
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
		case i > 0 && (c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.'):
		case i > 0 && c == ':':
			return len(s) > i+2 && s[i+1] == '/' && s[i+2] == '/'
		default:
			return false
		}
	}
	return false
}

// fill extends the strings shown and cut, breadth first, each to the most
// characters that fit (C8: a cut at any length, not only where a round
// stops), until nothing is left.
func (pv *previewer) fill() {
	level := []*snode{pv.root}
	for len(level) > 0 && pv.left > 0 {
		var next []*snode
		for _, n := range level {
			for _, k := range n.kids {
				if !k.shown {
					continue
				}
				if isContainer(k) {
					next = append(next, k)
				} else if k.kind == tokenizer.String && k.showChars < k.chars && !wholeOnly(k) && pv.left > 0 {
					pv.stretch(k)
				}
			}
		}
		level = next
	}
}

// stretch extends a string shown to the most characters that fit in what
// is left: a few counts, each guessed from the characters per token so far.
func (pv *previewer) stretch(n *snode) {
	lo, hi := n.showChars, n.chars // lo fits; past hi nothing is sampled
	for try := 0; try < 6 && lo < hi; try++ {
		perToken := float64(max(lo, 1)) / float64(max(n.cost-max(n.keyCost, 0), 1))
		guess := lo + int(float64(pv.left)*perToken*0.9)
		if try > 0 || guess >= hi {
			guess = min(guess, (lo+hi+1)/2+(hi-lo)/4)
		}
		guess = max(lo+1, min(guess, hi))
		if pv.extend(n, guess) {
			lo = guess
		} else {
			hi = guess - 1
		}
	}
}

// extend shows more of a string shown: chars characters, when they fit.
func (pv *previewer) extend(n *snode, chars int) bool {
	after := pv.cost(n, chars, n.cost+pv.left)
	if after-n.cost > pv.left {
		return false
	}
	pv.left -= after - n.cost
	n.showChars, n.cost = chars, after
	return true
}

// render appends the preview as JSON.
func render(b []byte, n *snode) []byte {
	switch n.kind {
	case tokenizer.ObjectStart, tokenizer.ArrayStart:
		b = append(b, byte(n.kind))
		first := true
		for _, k := range n.kids {
			if !k.shown {
				continue
			}
			if !first {
				b = append(b, ',')
			}
			first = false
			if n.kind == tokenizer.ObjectStart {
				b = append(append(append(b, '"'), k.key...), `":`...)
			}
			b = render(b, k)
		}
		return append(b, byte(n.kind)+2) // '}' is '{'+2, ']' is '['+2
	case tokenizer.String:
		return append(append(append(b, '"'), prefixChars(n.raw, n.showChars)...), '"')
	}
	return append(b, n.raw...)
}

// omissions lists every cut of the preview under n, at pointer ptr.
func omissions(list []Omission, n *snode, ptr string) []Omission {
	switch n.kind {
	case tokenizer.ObjectStart, tokenizer.ArrayStart:
		kept := 0
		for i, k := range n.kids {
			if !k.shown {
				continue
			}
			kept++
			seg := strconv.Itoa(i)
			if n.kind == tokenizer.ObjectStart {
				seg = jsonwire.EscapePointerToken(string(tokenizer.AppendUnescaped(nil, k.key)))
			}
			list = omissions(list, k, ptr+"/"+seg)
		}
		if kept < n.total {
			kind := "items"
			if n.kind == tokenizer.ObjectStart {
				kind = "members"
			}
			list = append(list, Omission{Pointer: ptr, Kind: kind, Kept: kept, Total: n.total})
		}
	case tokenizer.String:
		if n.showChars < n.total {
			list = append(list, Omission{Pointer: ptr, Kind: "chars", Kept: n.showChars, Total: n.total})
		}
	}
	return list
}

// omissionLines renders the omissions for the model, grouped: places that
// differ only in array indexes make one line.
func omissionLines(list []Omission) string {
	type group struct {
		pattern, kind string
		n             int
		first         Omission
	}
	var groups []*group
	byKey := map[string]*group{}
	for _, o := range list {
		segs := strings.Split(o.Pointer, "/")
		for i, s := range segs {
			if s != "" && strings.Trim(s, "0123456789") == "" {
				segs[i] = "*" // an array index, most likely
			}
		}
		pat := strings.Join(segs, "/")
		k := pat + " " + o.Kind
		g := byKey[k]
		if g == nil {
			g = &group{pattern: pat, kind: o.Kind, first: o}
			byKey[k] = g
			groups = append(groups, g)
		}
		g.n++
	}
	var b strings.Builder
	for _, g := range groups {
		p := g.pattern
		if p == "" {
			p = "(root)"
		}
		if g.n == 1 {
			p = g.first.Pointer
			if p == "" {
				p = "(root)"
			}
			b.WriteString(p + ": " + strconv.Itoa(g.first.Kept) + " of " + strconv.Itoa(g.first.Total) + " " + g.kind + " shown\n")
			continue
		}
		b.WriteString(p + ": " + g.kind + " cut in " + strconv.Itoa(g.n) + " places\n")
	}
	return b.String()
}
