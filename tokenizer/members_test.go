package tokenizer

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestHeadNames: a MemberSpan.Head names one key for the life of the
// process, whichever Scanner gave it (the machine caches Lookup's answers by
// it), through Reset and across documents laid out alike with other keys.
func TestHeadNames(t *testing.T) {
	keyOf := map[uint64]string{}
	docs := []string{`"id":1,"xx":2`, `"xx":1,"id":2`, `"ab":1,"cd":2`, `"id":1,"xx":2`}
	for _, name := range []string{"first", "second"} {
		var s Scanner
		if name == "second" {
			slices.Reverse(docs) // which learns "xx" first
		}
		for _, members := range docs {
			s.Reset(0)
			doc := []byte(`[` + strings.TrimSuffix(strings.Repeat(`{`+members+`},`, 8), ",") + `]` + strings.Repeat(" ", 64))
			i := 0
			var spans [32]MemberSpan
			for {
				var ok bool
				if i, ok = nextObject(t, &s, doc, i); !ok {
					break
				}
				n, at, closed := s.Members(doc, i, spans[:], false, ^uint64(0), nil)
				if !closed {
					t.Fatalf("%s: Members did not read %s whole", name, doc[i:])
				}
				for _, sp := range spans[:n] {
					key := string(doc[sp.KeyStart:sp.KeyEnd])
					if sp.Head == 0 {
						continue
					}
					if k, ok := keyOf[sp.Head]; ok && k != key {
						t.Fatalf("%s scanner: head %d names %s, and %s before", name, sp.Head, key, k)
					}
					keyOf[sp.Head] = key
				}
				i = at
			}
		}
	}
	if len(keyOf) < 4 {
		t.Fatalf("only %d heads named: the test learns too little", len(keyOf))
	}
}

// TestWalkMembers checks the walk that BenchmarkMembers measures, Members,
// Element and Scalar as the machine drives them, against the oracle on
// JSONTestSuite's objects and arrays: it must accept exactly the valid ones.
func TestWalkMembers(t *testing.T) {
	eachKernelSet(t, func(t *testing.T) {
		for name, doc := range suiteFiles(t) {
			k := None
			if i := skipSpace(doc, 0); i < len(doc) {
				k = ValueKind(doc[i])
			}
			if k != ObjectStart && k != ArrayStart {
				continue
			}
			var s Scanner
			s.Reset(0)
			if err := walkMembers(&s, doc); (err == nil) != oracle(doc) {
				t.Errorf("%s: walk err %v, valid %v", name, err, oracle(doc))
			}
		}
	})
}

// TestOpenFast: OpenFast opens what Open would, leaving the scanner as Open
// does, or declines and leaves it as it was, so that Open gives the same
// error at the limit and grows the depth bits past a word of them.
func TestOpenFast(t *testing.T) {
	for _, limit := range []int{1, 3, 63, 64, 65, 130, 0} {
		for _, obj := range []bool{false, true} {
			c := byte('[')
			if obj {
				c = '{'
			}
			doc := []byte(strings.Repeat(string(c), 200))
			var fast, slow Scanner
			fast.Reset(limit)
			slow.Reset(limit)
			fast.state, slow.state = stValue, stValue
			for i := range doc {
				before := fast.doc
				var ferr error
				if !fast.OpenFast(obj) {
					if fast.doc != before {
						t.Fatalf("limit %d, obj %v, at %d: OpenFast declined and changed the scanner", limit, obj, i)
					}
					_, ferr = fast.Open(doc, i)
				}
				_, serr := slow.Open(doc, i)
				if (ferr == nil) != (serr == nil) || ferr != nil && ferr.Error() != serr.Error() {
					t.Fatalf("limit %d, obj %v, at %d: error %v, Open alone %v", limit, obj, i, ferr, serr)
				}
				if want := i == limit && limit > 0; (ferr != nil) != want { // limit 0: 10000
					t.Fatalf("limit %d, obj %v: opening container %d gave %v", limit, obj, i+1, ferr)
				}
				if serr != nil {
					break
				}
				if fast.doc != slow.doc || fast.inObject() != obj {
					t.Fatalf("limit %d, obj %v, at %d: scanner %+v, Open alone %+v", limit, obj, i, fast.doc, slow.doc)
				}
				fast.state, slow.state = stValue, stValue
			}
		}
	}
}

// TestMembersDrop checks Members' keep argument: the container of a member
// whose key has no escape and a length not in keep is skipped in the batch,
// with the span's ValueEnd after it; any other container ends the batch at
// its first byte. A skip that the window cuts, or that fails, ends the batch
// with ValueEnd -1, where it stopped, and DropErr says why. Each document is
// read from after its '{', whole and cut at every byte: the cut one goes on
// with SkipValue (SkipTrusted) in the next window, and must end the value
// where the whole one did, or give its error.
func TestMembersDrop(t *testing.T) {
	long := `"` + strings.Repeat("k", 70) + `"`
	for _, c := range []struct {
		name    string
		doc     string
		keep    uint64
		trusted bool
		want    string // the spans (key and ValueEnd), at and closed; or the error
	}{
		// A member that keep drops, read to its value's end, has no span
		// unless it is the batch's last (the one errors name).
		{"Skipped", `{"x":{"a":[1,{}]},"yy":[],"keep":{"b":1}}`, 1 << 4, false, `"keep":0 at=33`},
		{"KeepAll", `{"x":{"a":1},"keep":2}`, ^uint64(0), false, `"x":0 at=5`},
		{"KeepNone", `{"x":{},"keep":{"a":{}},"y":1}`, 0, false, `at=30 closed`},
		{"Pretty", "{\n  \"x\" : [ 1 ,\n 2 ] ,\n  \"y\": 3\n}", 1 << 4, false, `at=33 closed`},
		{"Escaped", `{"\u0078":{},"x":{}}`, 1 << 4, false, `"\u0078":0 at=10`},
		{"LongKept", `{` + long + `:{"a":1},"x":[]}`, 1 << 63, false, long + `:0 at=74`},
		{"LongDropped", `{` + long + `:{"a":1},"x":[]}`, 1 << 4, false, `at=89 closed`},
		{"Scalars", `{"x":1,"y":"s","z":[true]}`, 1 << 4, false, `at=26 closed`},
		{"ScalarsKept", `{"x":1,"yy":"s","zzz":[true]}`, 1 << 2, false, `"yy":15 at=29 closed`},
		{"LastDropped", `{"x":1,"yy":"s","zzz":[true] x`, 1 << 2, false, `"yy":15 "zzz":28 at=28`},
		{"LastDroppedCut", `{"x":1,"yy":"s","zzz":[true`, 1 << 2, false, `"yy":15 "zzz":-1 at=27`},
		{"Invalid", `{"x":{"a":tru},"y":1}`, 1 << 4, false, `"x":-1 at=13 err=invalid character '}' in literal true (expecting 'e') at offset 13`},
		{"InvalidTrusted", `{"x":{"a":tru},"y":1}`, 1 << 4, true, `at=21 closed`},
		{"Deep", `{"x":[[[[[1]]]]]}`, 1 << 4, false, `"x":-1 at=8 err=exceeded max depth 4 at offset 8`},
		// One level past the limit (4 with the object), and one at it.
		{"DeepByOne", `{"x":[[[[1]]]]}`, 1 << 4, false, `"x":-1 at=8 err=exceeded max depth 4 at offset 8`},
		{"DeepAtLimit", `{"x":[[[1]]],"y":1}`, 1 << 4, false, `at=19 closed`},
		{"Unclosed", `{"x":{"a":[1,2`, 1 << 4, false, `"x":-1 at=14`},
		{"UnclosedTrusted", `{"x":{"a":"[1,2`, 1 << 4, true, `"x":-1 at=15`},
	} {
		t.Run(c.name, func(t *testing.T) {
			doc := []byte(c.doc)
			var s Scanner
			read := func(src []byte) (string, int, []MemberSpan) {
				s.Reset(4)
				var spans [32]MemberSpan
				_, i, err := s.Next(src, 0)
				if err != nil {
					t.Fatal(err)
				}
				n, at, closed := s.Members(src, i, spans[:], c.trusted, c.keep, nil)
				var b strings.Builder
				for _, sp := range spans[:n] {
					b.WriteString(string(src[sp.KeyStart:sp.KeyEnd]) + ":" + strconv.Itoa(sp.ValueEnd) + " ")
				}
				b.WriteString("at=" + strconv.Itoa(at))
				if closed {
					b.WriteString(" closed")
				}
				if err := s.DropErr(); err != nil {
					b.WriteString(" err=" + err.Error())
				}
				return b.String(), at, spans[:n]
			}
			got, _, _ := read(doc)
			if got != c.want {
				t.Fatalf("got  %s\nwant %s", got, c.want)
			}
			ends, dropped := memberEnds(t, doc, c.trusted, c.keep)
			resumed := 0
			for cut := 2; cut < len(doc); cut++ {
				_, at, spans := read(doc[:cut])
				n := len(spans)
				if n == 0 || spans[n-1].ValueEnd >= 0 || s.DropErr() != nil {
					continue
				}
				// Cut inside a dropped value: the machine goes on with it.
				resumed++
				s.SetBase(int64(cut))
				skip := s.SkipValue
				if c.trusted {
					skip = s.SkipTrusted
				}
				j, done, err := skip(doc[cut:], at-cut)
				want := ends[spans[n-1].KeyStart] // -1: the whole read stopped too
				switch {
				case err != nil:
					if want != -1 || !strings.Contains(c.want, "err="+err.Error()) {
						t.Fatalf("cut at %d: the skip went on to %v; read whole: %s", cut, err, c.want)
					}
				case !done:
					if want != -1 || strings.Contains(c.want, "err=") {
						t.Fatalf("cut at %d: the skip did not end; read whole: %s", cut, c.want)
					}
				case j+cut != want:
					t.Fatalf("cut at %d: the skip ended at %d; read whole: %s", cut, j+cut, c.want)
				}
			}
			if dropped > 0 && resumed == 0 {
				t.Fatal("no cut fell in a dropped container: the test checks nothing")
			}
		})
	}
}

// memberEnds reads doc's root object whole, as the machine does where it keeps
// every key: Members, and the caller's skip for each container. It returns
// every member's value's end by its key's start (-1 where the skip stopped
// short), and how many containers keep drops before the first it keeps.
func memberEnds(t *testing.T, doc []byte, trusted bool, keep uint64) (ends map[int]int, dropped int) {
	var s Scanner
	s.Reset(4)
	skip := s.SkipValue
	if trusted {
		skip = s.SkipTrusted
	}
	_, i, err := s.Next(doc, 0)
	if err != nil {
		t.Fatal(err)
	}
	ends = map[int]int{}
	counting := true
	for {
		var spans [32]MemberSpan
		n, at, closed := s.Members(doc, i, spans[:], trusted, ^uint64(0), nil)
		for _, sp := range spans[:n] {
			ends[sp.KeyStart] = sp.ValueEnd
		}
		if closed || n == 0 || spans[n-1].ValueEnd != 0 {
			return ends, dropped
		}
		last := spans[n-1]
		if keep>>min(last.KeyEnd-last.KeyStart-2, 63)&1 == 0 && !last.Escaped {
			if counting {
				dropped++
			}
		} else {
			counting = false
		}
		j, done, err := skip(doc, at)
		if err != nil || !done {
			ends[last.KeyStart] = -1
			return ends, dropped
		}
		ends[last.KeyStart], i = j, j
	}
}

// TestMembersSiblings: with SetSiblings, Members reads on from an object
// that closes in an array to the next element when that is an object laid
// out as the last one was, with a span whose KeyStart is -1 between them.
// Walked as the machine walks the masked levels, every document must give
// the same members, containers and errors as without, and the documents
// made of arrays of objects must take fewer calls.
func TestMembersSiblings(t *testing.T) {
	docs := map[string][]byte{
		"jobs":    []byte(`{"jobs":[{"n":"a","u":1},{"n":"b","u":2},{"n":"c","u":3},{},{},{"n":"d"},5,{"n":[{"x":1},{"y":2},{"z":3}]}],"k":1}`),
		"pretty":  []byte("[\n  {\n    \"a\" : 1\n  },\n  {\n    \"a\" : 2\n  },\n  {\n    \"a\" : 3\n  },\n  {\n    \"a\" : 4\n  }\n]"),
		"strings": []byte(`{"a":["x","y","z"],"a":[{"b":1},"w",{"c":2},"v",{"d":3},{"e":4}]}` + strings.Repeat(" ", 16)),
		"error":   []byte(`[{"a":1},{"a":2},{"a":3},{"a":tru}]`),
		"key":     []byte(`[{"a":1},{"a":2},{"a":3},{1:2}]`),
		"cut":     []byte(`[{"a":1},{"a":2},{"a":3},{"a":4`),
		// Close heads: the run from the last value to the '}' and on to
		// the next '{', learned, then met where it means something else.
		"inObject":  []byte(`{"a":[{"b":1},{"b":1},{"b":1},[[[[[[[{"c":{"b":1},{"b":1}}]]]]]]]],"k":"` + strings.Repeat("p", 40) + `"}`),
		"inArrays":  []byte(`{"a":[{"b":1},{"b":1},{"b":1},[[[[[[[[{"b":1},{"b":1}]]]]]]]],{"b":1}],"k":"` + strings.Repeat("p", 40) + `"}`),
		"closes":    []byte(`[{"b":1},{"b":1},{"b":1},{"b":1,"c":2},{"b":1 },{"b":1]},{"b":1},1,{"b":1},[{"b":1}],{"b":1}]` + strings.Repeat(" ", 40)),
		"lastClose": []byte(`[[{"b":1},{"b":1},{"b":1}],[{"b":1},{"b":1}],[{"b":1}],{"b":1},{"b":1}}]` + strings.Repeat(" ", 40)),
	}
	saves := map[string]bool{"jobs": true, "pretty": true, "strings": true, "error": true, "key": true, "inArrays": true}
	maps.Copy(docs, suiteFiles(t))
	for name, doc := range docs {
		var s Scanner
		off, offCalls, offErr := traceMembers(&s, doc, false)
		on, onCalls, onErr := traceMembers(&s, doc, true)
		if on != off || fmt.Sprint(onErr) != fmt.Sprint(offErr) {
			t.Fatalf("%s: with siblings\n%s %v\nwithout\n%s %v", name, on, onErr, off, offErr)
		}
		if onCalls > offCalls || onCalls == offCalls && saves[name] {
			t.Errorf("%s: %d calls with siblings, %d without", name, onCalls, offCalls)
		}
	}
}

// TestMembersDescents: with Descents that name a member's Head, Members
// goes down into that member's object, a span with ValueEnd SpanOpened, and
// back up, a span with KeyStart SpanClose. Walked as the machine walks the
// masked levels, naming the Head of every object it opens, every document
// must give the same members, containers and errors as without, from a
// Scanner that has read it before (heads learned) and with siblings on or
// off; and the documents of alike objects holding objects must take fewer
// calls.
func TestMembersDescents(t *testing.T) {
	el := `{"distance":{"text":"1 m","value":1},"duration":{"text":"2 s","value":{"v":2}},"status":"OK","e":{}}`
	docs := map[string][]byte{
		"rows":     []byte(`{"rows":[` + strings.Repeat(el+`,`, 5) + el + `]}`),
		"pretty":   []byte("[\n" + strings.Repeat("  {\n    \"a\" : {\n      \"b\" : 1\n    },\n    \"c\" : { }\n  },\n", 5) + "  {\n    \"a\" : {\n      \"b\" : 1\n    }\n  }\n]"),
		"deep":     []byte(`[` + strings.Repeat(`{"a":{"b":{"c":{"d":1}},"e":2},"f":3},`, 5) + `{}]`),
		"error":    []byte(`[` + strings.Repeat(`{"a":{"b":1}},`, 5) + `{"a":{"b":tru}}]`),
		"key":      []byte(`[` + strings.Repeat(`{"a":{"b":1}},`, 5) + `{"a":{1:2}}]`),
		"unclosed": []byte(`[` + strings.Repeat(`{"a":{"b":1}},`, 5) + `{"a":{"b":1`),
		"array":    []byte(`[` + strings.Repeat(`{"a":{"b":1}},`, 5) + `{"a":[{"b":1}]},{"a":"s"}]`),
	}
	saves := map[string]bool{"rows": true, "pretty": true, "deep": true}
	maps.Copy(docs, suiteFiles(t))
	for name, doc := range docs {
		for _, siblings := range []bool{false, true} {
			var s Scanner
			off, offCalls, offErr := traceMembers(&s, doc, siblings)
			var d Descents
			traceMembers(&s, doc, siblings, &d) // learns the heads
			on, onCalls, onErr := traceMembers(&s, doc, siblings, &d)
			if on != off || fmt.Sprint(onErr) != fmt.Sprint(offErr) {
				t.Fatalf("%s (siblings %v): going down\n%s %v\nnot\n%s %v", name, siblings, on, onErr, off, offErr)
			}
			if onCalls > offCalls || onCalls == offCalls && saves[name] {
				t.Errorf("%s (siblings %v): %d calls going down, %d not", name, siblings, onCalls, offCalls)
			}
		}
	}
}

// traceMembers walks doc as walkMembers does, with Members reading on to
// sibling objects when siblings is true, and returns what it read: each
// container's brackets, each member's key and value, each scalar element,
// and how many calls of Members and Element it took.
//
// With desc, it names there the Head of every member whose value is an
// object it opened (as the machine does for a masked child object), so that
// Members goes down into those objects next time.
func traceMembers(s *Scanner, doc []byte, siblings bool, desc ...*Descents) (string, int, error) {
	var d *Descents
	if len(desc) > 0 {
		d = desc[0]
	}
	s.Reset(0)
	s.SetSiblings(siblings)
	var (
		b     strings.Builder
		spans [32]MemberSpan
		calls int
	)
	open := make([]bool, 0, 64) // per open container: an object
	k, i, err := s.Peek(doc, 0)
	if err != nil || k != ObjectStart && k != ArrayStart {
		return "", 0, err
	}
	for {
		if k == ObjectStart || k == ArrayStart {
			if i, err = s.Open(doc, i); err != nil {
				return b.String(), calls, err
			}
			open = append(open, k == ObjectStart)
			b.WriteByte(byte(k))
		}
		if len(open) == 0 {
			_, _, err = s.Peek(doc, i)
			if err == nil {
				err = s.End(len(doc))
			}
			return b.String(), calls, err
		}
		if open[len(open)-1] {
			calls++
			n, at, closed := s.Members(doc, i, spans[:], false, ^uint64(0), d)
			for _, sp := range spans[:n] {
				switch {
				case sp.KeyStart == SpanClose:
					open = open[:len(open)-1]
					b.WriteByte('}')
					continue
				case sp.KeyStart < 0:
					b.WriteString("}{")
					continue
				}
				b.Write(doc[sp.KeyStart:sp.KeyEnd])
				b.WriteByte(':')
				if sp.ValueEnd == SpanOpened {
					if d == nil || doc[sp.ValueStart] != '{' {
						return b.String(), calls, fmt.Errorf("a span opened %q without Descents", doc[sp.KeyStart:sp.KeyEnd])
					}
					open = append(open, true)
					b.WriteByte('{')
				}
				if sp.ValueEnd > 0 {
					b.Write(doc[sp.ValueStart:sp.ValueEnd])
					b.WriteByte(' ')
				}
			}
			i = at
			if closed {
				open, k = open[:len(open)-1], None
				b.WriteByte('}')
				continue
			}
			if n == 0 || spans[n-1].ValueEnd != 0 {
				var tok Token
				if tok, i, err = s.Next(doc, i); err != nil {
					return b.String(), calls, err
				}
				if tok.Kind == ObjectEnd {
					open, k = open[:len(open)-1], None
					b.WriteByte('}')
					continue
				}
				b.Write(doc[tok.Start:tok.End])
				b.WriteByte(':')
				if k, i, err = s.Peek(doc, i); err != nil {
					return b.String(), calls, err
				}
			} else {
				if k = ValueKind(doc[i]); k == ObjectStart && d != nil && spans[n-1].Head != 0 {
					d.Learn(spans[n-1].Head, ^uint64(0))
				}
			}
		} else {
			var at int
			calls++
			if k, at = s.Element(doc, i); k == None {
				if k, i, err = s.Peek(doc, i); err != nil {
					return b.String(), calls, err
				}
				at = i
				if k == ArrayEnd {
					_, at, _ = s.Next(doc, i)
				}
			}
			if i = at; k == ArrayEnd {
				open, k = open[:len(open)-1], None
				b.WriteByte(']')
				continue
			}
		}
		if k == None { // the document ended
			return b.String(), calls, s.End(len(doc))
		}
		if k != ObjectStart && k != ArrayStart {
			j, ok := s.Scalar(doc, i, false)
			if !ok {
				if j, _, err = s.SkipValue(doc, i); err != nil {
					return b.String(), calls, err
				}
			}
			b.Write(doc[i:j])
			b.WriteByte(' ')
			i, k = j, None
		}
	}
}

// TestMembersMaxTokenHeads: a key longer than the limit on tokens is not
// read by Members, also where the heads learned without a limit (the same
// Scanner, an earlier document) would match it: Members takes no head where
// the limit is below 32, and the member is left to Next, which reports it.
func TestMembersMaxTokenHeads(t *testing.T) {
	doc := []byte(`[` + strings.TrimSuffix(strings.Repeat(`{"abcdef":1,"xy":"ab","abcdefghij":{"k":1}},`, 6), ",") + `]` + strings.Repeat(" ", 64))
	var s Scanner
	for _, limit := range []int{0, 12, 8, 7, 4} {
		s.Reset(0)
		s.SetMaxToken(limit)
		i, objects := 0, 0
		var spans [32]MemberSpan
		for {
			tok, j, err := s.Next(doc, i)
			if err != nil || tok.Kind == None || s.state == stDone {
				break
			}
			i = j
			if tok.Kind != ObjectStart {
				continue
			}
			objects++
			n, at, _ := s.Members(doc, i, spans[:], false, ^uint64(0), nil)
			for _, sp := range spans[:n] {
				if sp.KeyStart >= 0 && limit > 0 && sp.KeyEnd-sp.KeyStart > limit {
					t.Fatalf("limit %d: Members read the key %s", limit, doc[sp.KeyStart:sp.KeyEnd])
				}
			}
			i = at
		}
		if objects < 1 {
			t.Fatalf("limit %d: %d objects read", limit, objects)
		}
	}
}

// TestHeadKeyNames: where objects of two kinds take turns at one depth, so
// that the head at a member's place misses every other time, a key that
// keep keeps still gets a Head (named by its bytes), the same one each time,
// and no Head names two keys.
func TestHeadKeyNames(t *testing.T) {
	doc := []byte(`[` + strings.TrimSuffix(strings.Repeat(`{"id":1,"abcdefghijkl":2,"x":3},{"abcdefghijkl":1,"id":2,"yy":[1]},`, 8), ",") + `]` + strings.Repeat(" ", 64))
	var s Scanner
	s.Reset(0)
	keyOf, headOf := map[uint64]string{}, map[string]uint64{}
	i, unnamed := 0, 0
	var spans [32]MemberSpan
	for {
		var ok bool
		if i, ok = nextObject(t, &s, doc, i); !ok {
			break
		}
		n, at, _ := s.Members(doc, i, spans[:], false, 1<<2|1<<12, nil)
		for _, sp := range spans[:n] {
			if sp.KeyStart < 0 {
				continue
			}
			key := string(doc[sp.KeyStart:sp.KeyEnd])
			if sp.Head == 0 {
				unnamed++
				continue
			}
			if k, ok := keyOf[sp.Head]; ok && k != key {
				t.Fatalf("head %d names %s, and %s before", sp.Head, key, k)
			}
			keyOf[sp.Head] = key
			if h, ok := headOf[key]; ok && h != sp.Head {
				t.Fatalf("%s has head %d, and %d before", key, sp.Head, h)
			}
			headOf[key] = sp.Head
		}
		i = at
	}
	if unnamed > 0 || len(headOf) != 3 {
		t.Fatalf("%d spans without a head; keys named: %v", unnamed, headOf)
	}
}

// TestMembersLongHeads: members whose heads are over 32 bytes (a long key in
// an indented object, `,\n      "profile_background_color": `) are read by
// long heads from the key's quote: each span is the member's, wherever
// objects of two kinds take turns, the run before the key or the colon's
// differs, or maxToken is below the key; and a long key keeps its Head.
func TestMembersLongHeads(t *testing.T) {
	type member struct{ key, value string }
	kinds := [][]member{
		{{"id", "1"}, {"profile_background_color", `"C0DEED"`}, {"profile_link_color_is_long", "true"}, {"x", "2"}},
		{{"id", "2"}, {"profile_background_colr2", `"FFFFFF"`}, {"profile_link_color_is_long", "false"}, {"x", "3"}},
		{{"id", "3"}, {"profile_background_color", `"ABC"`}, {"profile_link_color_is_long", "null"}, {"x", "4"}},
	}
	var objects [][]member
	var b strings.Builder
	b.WriteString("[\n")
	for k := range 24 {
		members := kinds[k%len(kinds)]
		if k >= 12 {
			members = kinds[k/4%2] // runs of the same kind
		}
		objects = append(objects, members)
		if k > 0 {
			b.WriteString(",\n")
		}
		b.WriteString("  {\n")
		for m, mb := range members {
			if m > 0 {
				b.WriteString(",\n")
			}
			indent, colon := "      ", ": "
			if k == 17 && m == 2 {
				indent = "     " // another run before the key
			}
			if k == 20 && m == 1 {
				colon = " :  " // another colon run
			}
			b.WriteString(indent + strconv.Quote(mb.key) + colon + mb.value)
		}
		b.WriteString("\n  }")
	}
	b.WriteString("\n]" + strings.Repeat(" ", 64))
	doc := []byte(b.String())
	var s Scanner // one for both limits: the heads learned stay
	for _, limit := range []int{0, 27} {
		s.Reset(0)
		s.SetMaxToken(limit)
		keyOf, heads := map[uint64]string{}, map[uint64]bool{}
		i, o := 0, 0
		var spans [32]MemberSpan
		for {
			var ok bool
			if i, ok = nextObject(t, &s, doc, i); !ok {
				break
			}
			want := objects[o]
			o++
			var got []member
			for {
				n, at, closed := s.Members(doc, i, spans[:], false, ^uint64(0), nil)
				for _, sp := range spans[:n] {
					key := string(doc[sp.KeyStart:sp.KeyEnd])
					if limit > 0 && len(key) > limit {
						t.Fatalf("limit %d: Members read the key %s", limit, key)
					}
					if sp.ValueEnd <= 0 {
						t.Fatalf("object %d: %s's value not read", o-1, key)
					}
					got = append(got, member{key, string(doc[sp.ValueStart:sp.ValueEnd])})
					if k, ok := keyOf[sp.Head]; ok && k != key {
						t.Fatalf("object %d: head %d names %s, and %s before", o-1, sp.Head, key, k)
					}
					keyOf[sp.Head] = key
					if key == `"profile_link_color_is_long"` {
						heads[sp.Head] = true
					}
				}
				i = at
				if closed {
					break
				}
				// What Members left: the next member by Next, as the
				// caller would, up to the value.
				var tok Token
				var err error
				if tok, i, err = s.Next(doc, i); err != nil {
					if limit > 0 && o == 1 && len(got) == 2 {
						break // the key over the limit
					}
					t.Fatal(err)
				}
				if tok.Kind == ObjectEnd {
					break
				}
				key := string(doc[tok.Start:tok.End])
				if tok, i, err = s.Next(doc, i); err != nil {
					t.Fatal(err)
				}
				got = append(got, member{key, string(doc[tok.Start:tok.End])})
			}
			if limit > 0 {
				if len(got) != 2 || got[1].value != `"C0DEED"` {
					t.Fatalf("limit %d: got %v", limit, got)
				}
				break
			}
			for m := range got {
				got[m].key, _ = strconv.Unquote(got[m].key)
			}
			if !slices.Equal(got, want) {
				t.Fatalf("limit %d, object %d: got %v, want %v", limit, o-1, got, want)
			}
		}
		if limit == 0 && o != len(objects) {
			t.Fatalf("limit %d: %d objects read", limit, o)
		}
		// Named by a long head where it hits: a few names, not one a span.
		if limit == 0 && len(heads) > 4 {
			t.Fatalf("profile_link_color_is_long has %d heads", len(heads))
		}
	}
}

// nextObject reads doc with s from i up to the next object's '{' and returns
// the index after it, or false where the document ends.
func nextObject(t *testing.T, s *Scanner, doc []byte, i int) (int, bool) {
	t.Helper()
	for {
		tok, j, err := s.Next(doc, i)
		if err != nil {
			t.Fatal(err)
		}
		if i = j; tok.Kind == None || s.state == stDone {
			return i, false
		}
		if tok.Kind == ObjectStart {
			return i, true
		}
	}
}
