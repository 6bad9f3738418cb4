package toolresult

import (
	"container/heap"
	"sync"
	"unicode"
	"unicode/utf8"
)

// tiktoken-go v0.10.0 splits a run of whitespace that holds newlines with
// non-newline whitespace between them wrongly: its generated matcher for
// tiktoken's \s*[\r\n]+ ends the piece at the first newline (and those
// right after it), where tiktoken's expression, \s* greedy and then giving
// back, ends it at the last newline of the run: "x \n \nabc" is x, " \n \n",
// abc (3 tokens), not x, " \n", " \n", abc (4). The code below finds those
// pieces itself, as tiktoken's expression would, and merges them with the
// encoding's ranks (BPE); the text around them goes to the codec, cut where
// pieces end, so that it splits it as tiktoken does
// (TestWhitespaceCounts).

// isSpaceAt reports whether a whitespace character (\s) starts at s[i],
// and its length.
func isSpaceAt(s []byte, i int) (bool, int) {
	if c := s[i]; c < utf8.RuneSelf {
		return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f', 1
	}
	r, n := utf8.DecodeRune(s[i:])
	return r != utf8.RuneError && unicode.IsSpace(r), n
}

// spaceBefore is isSpaceAt for the character that ends at s[i].
func spaceBefore(s []byte, i int) (bool, int) {
	if c := s[i-1]; c < utf8.RuneSelf {
		return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f', 1
	}
	r, n := utf8.DecodeLastRune(s[:i])
	return r != utf8.RuneError && unicode.IsSpace(r), n
}

// newlinePiece returns the first piece of s, at or after from, that is a
// run of whitespace holding a newline after other whitespace that itself
// follows a newline (" \n \n", "\n\t\n"): the pieces the codec gets wrong.
func newlinePiece(s []byte, from int) (start, end int, ok bool) {
	for i := from; i < len(s); i++ {
		if s[i] != '\n' && s[i] != '\r' {
			continue
		}
		a, b := i, i
		for a > 0 {
			sp, n := spaceBefore(s, a)
			if !sp {
				break
			}
			a -= n
		}
		for b < len(s) {
			sp, n := isSpaceAt(s, b)
			if !sp {
				break
			}
			b += n
		}
		i = b
		q := a
		if a > 0 && punctuation(s[:a]) {
			// The piece before, ` ?[^\s\p{L}\p{N}]+[\r\n/]*`, took the
			// newlines that start the run.
			for q < b && (s[q] == '\n' || s[q] == '\r') {
				q++
			}
		}
		last := b - 1
		for last >= q && s[last] != '\n' && s[last] != '\r' {
			last--
		}
		if last < q {
			continue
		}
		// The codec is right when the piece is whitespace then newlines.
		j := q
		for j <= last && s[j] != '\n' && s[j] != '\r' {
			j++
		}
		for j <= last && (s[j] == '\n' || s[j] == '\r') {
			j++
		}
		if j <= last {
			return q, last + 1, true
		}
	}
	return 0, 0, false
}

// punctuation reports whether the last character of s is neither a letter,
// a mark, a number nor whitespace: the piece it ends takes the newlines
// after it.
func punctuation(s []byte) bool {
	r, _ := utf8.DecodeLastRune(s)
	return !unicode.IsLetter(r) && !unicode.IsMark(r) && !unicode.IsNumber(r) && !unicode.IsSpace(r)
}

// wsByte tells the bytes that whitespace is written with in UTF-8: a
// token of a whitespace piece is made of them alone.
var wsByte = func() (t [256]bool) {
	add := func(lo, hi, stride rune) {
		for r := lo; r <= hi; r += stride {
			for _, c := range []byte(string(r)) {
				t[c] = true
			}
		}
	}
	for _, r := range unicode.White_Space.R16 {
		add(rune(r.Lo), rune(r.Hi), rune(r.Stride))
	}
	for _, r := range unicode.White_Space.R32 {
		add(rune(r.Lo), rune(r.Hi), rune(r.Stride))
	}
	return t
}()

// ranks are the ranks of an encoding's tokens made of the bytes of
// whitespace only (wsByte), built from the codec's vocabulary when first
// needed.
type ranks struct {
	once sync.Once
	m    map[string]int
}

func (t *bpe) wsRanks() map[string]int {
	t.ws.once.Do(func() {
		t.ws.m = map[string]int{}
		for id := 0; id < 1<<18; id++ {
			s, err := t.codec.Decode([]uint{uint(id)})
			if err != nil || s == "" || len(s) > maxTokenBytes {
				continue
			}
			all := true
			for i := 0; i < len(s) && all; i++ {
				all = wsByte[s[i]]
			}
			if all {
				if _, seen := t.ws.m[s]; !seen {
					t.ws.m[s] = id
				}
			}
		}
	})
	return t.ws.m
}

// countWhitespace returns the tokens of a piece of whitespace: byte
// pair merging with the encoding's ranks, lowest rank first (leftmost among
// equals), as tiktoken merges; O(n log n).
func (t *bpe) countWhitespace(piece []byte) int {
	rk := t.wsRanks()
	if _, ok := rk[string(piece)]; ok {
		return 1
	}
	n := len(piece)
	// Parts as a linked list of byte offsets; a heap of candidate merges.
	start := make([]int, n)
	next := make([]int, n)
	prev := make([]int, n)
	alive := make([]bool, n)
	for i := range n {
		start[i], next[i], prev[i], alive[i] = i, i+1, i-1, true
	}
	end := func(i int) int {
		if next[i] < n {
			return start[next[i]]
		}
		return n
	}
	h := &mergeHeap{}
	push := func(i int) {
		if i < 0 || next[i] >= n {
			return
		}
		j := next[i]
		if r, ok := rk[string(piece[start[i]:end(j)])]; ok {
			heap.Push(h, merge{rank: r, at: start[i], left: i, right: j, endAt: end(j)})
		}
	}
	for i := range n - 1 {
		push(i)
	}
	count := n
	for h.Len() > 0 {
		m := heap.Pop(h).(merge)
		// Stale: a side was merged away since.
		if !alive[m.left] || !alive[m.right] || next[m.left] != m.right || end(m.right) != m.endAt {
			continue
		}
		alive[m.right] = false
		next[m.left] = next[m.right]
		if next[m.right] < n {
			prev[next[m.right]] = m.left
		}
		count--
		push(prev[m.left])
		push(m.left)
	}
	return count
}

type merge struct {
	rank, at    int
	left, right int
	endAt       int
}

type mergeHeap []merge

func (h mergeHeap) Len() int { return len(h) }
func (h mergeHeap) Less(i, j int) bool {
	return h[i].rank < h[j].rank || h[i].rank == h[j].rank && h[i].at < h[j].at
}
func (h mergeHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *mergeHeap) Push(x any)   { *h = append(*h, x.(merge)) }
func (h *mergeHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// countCodec counts a chunk: the pieces newlinePiece finds by merging them
// here, the rest with the codec.
func (t *bpe) countCodec(s []byte) int {
	total := 0
	for {
		a, b, ok := newlinePiece(s, 0)
		if !ok {
			if len(s) > 0 {
				c, _ := t.codec.Count(string(s))
				total += c
			}
			return total
		}
		if a > 0 {
			c, _ := t.codec.Count(string(s[:a]))
			total += c
		}
		total += t.countWhitespace(s[a:b])
		s = s[b:]
	}
}
