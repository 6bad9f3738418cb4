package mcpproxy

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/jsonmask/jsonmask/internal/jsonwire"
	"github.com/jsonmask/jsonmask/tokenizer"
	"github.com/jsonmask/jsonmask/toolresult"
)

// Long lines: a line of the server longer than streamAt bytes is read as it
// comes, a window at a time, and not held whole (SPEC P1, P3; a result of
// 114 MB must not take a multiple of itself in memory).
//
// The map:
//
//	fromServer     lineReader.next hands over the line's head (its first
//	               streamAt bytes) and the reader; serverLong walks the rest.
//	walker.message the top-level object: its ids, method and result. A
//	               result whose one id, read before it, names a pending
//	               tools/call or tasks/result of a tool with a budget is
//	               walked (route); any other line is held whole (hold), up
//	               to maxHeldLine, and then read as a short line is.
//	walker.result  the result's content items and structuredContent: a
//	               text item's text, a structuredContent value, or the one
//	               string of a structuredContent wrapper, that grows past
//	               bigAt bytes becomes a big value: its bytes go to a
//	               bigValue (hashed, and the first JSON one also processed
//	               by the tool's processor as it streams by) instead of the
//	               skeleton, which holds a stub in its place.
//	serverLong     at the line's end, the skeleton (the line with stubs,
//	               small) is rewritten by rewriteCall as any result is; the
//	               stubs answer for their values (bigValues: first
//	               character, sameness by a hash of their tokens, the
//	               processing). A rewrite that would put a stub on the wire
//	               (it wants the value's bytes, which are not held) becomes
//	               an error result: nothing the mask drops reaches the
//	               client, and no stub does.
const (
	defaultStreamAt = 1 << 20
	defaultBigAt    = 256 << 10
	// maxHeldLine bounds a long line that must be held whole: one whose id
	// comes after its result, one that is not a result to rewrite (relayed
	// as it is, once whole), or the rest of a result around its big
	// values.
	maxHeldLine = 512 << 20
)

// keepSlack is what the walker holds past the limit for the ids and keys
// it reads on.
const keepSlack = 64 << 10

// errTooLong is the error of a line held past the session's limit
// (maxHeldLine).
var errTooLong = errors.New("the message is longer than the proxy holds of a message it cannot stream")

// tooLong says how long.
func tooLong(limit int) error {
	return fmt.Errorf("%w (%d MiB)", errTooLong, limit>>20)
}

// stubNonce makes the stubs of big values unguessable: a server cannot
// write one.
var stubNonce = func() string {
	var b [12]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}()

// stubPrefix starts every stub: a JSON string no server writes.
var stubPrefix = `"\u0000jsonmask-` + stubNonce + `-`

// bigValue is a value of a long line that the line's skeleton does not
// hold: its tokens are hashed as they stream by, and the first JSON one is
// processed by the tool's processor at the same time.
type bigValue struct {
	first byte // '{' or '['
	text  bool // the content of a JSON string (unescaped as it comes), else JSON as written
	un    escapeCarry
	hash  *tokenHash
	sum   []byte // the hash, once the value ended; nil when it is not valid JSON

	// The processed one: the pipe to the processor, and its result.
	pw   *io.PipeWriter
	dead bool // the processor stopped reading
	done chan struct{}
	res  *toolresult.Result
	err  error
}

// valueForm is how a big value comes: the content of a JSON string, or JSON
// as written.
type valueForm bool

const (
	stringContent valueForm = true
	asWritten     valueForm = false
)

// bigValues are the big values of one long line, by their stubs.
type bigValues struct {
	proc      *toolresult.Processor
	ctx       context.Context
	vals      []*bigValue
	processed *bigValue // nil for none
	// refused: the rewrite refused the processed value (it was processed
	// with another budget than the rewrite wants): it is not put back.
	refused bool
}

// add makes a big value, processed when it is the first; it returns the
// value and its stub.
func (bs *bigValues) add(form valueForm, first byte) (*bigValue, []byte) {
	bv := &bigValue{first: first, text: form == stringContent, hash: newTokenHash()}
	if bs.processed == nil {
		bs.processed = bv
		pr, pw := io.Pipe()
		bv.pw, bv.done = pw, make(chan struct{})
		go func() {
			defer close(bv.done)
			bv.res, bv.err = bs.proc.Process(bs.ctx, pr)
			pr.CloseWithError(errStopped) // the writer goes on without it
		}()
	}
	bs.vals = append(bs.vals, bv)
	stub := append([]byte(stubPrefix), strconv.Itoa(len(bs.vals)-1)...)
	return bv, append(stub, '"')
}

var errStopped = errors.New("the processor stopped")

// at returns the big value whose stub is the value v of msg, or nil.
func (bs *bigValues) at(msg []byte, v span) *bigValue {
	if bs == nil {
		return nil
	}
	raw := msg[v.start:v.end]
	if !bytes.HasPrefix(raw, []byte(stubPrefix)) || len(raw) < len(stubPrefix)+2 {
		return nil
	}
	i, err := strconv.Atoi(string(raw[len(stubPrefix) : len(raw)-1]))
	if err != nil || i < 0 || i >= len(bs.vals) {
		return nil
	}
	return bs.vals[i]
}

// write takes the next bytes of the value, as written.
func (bv *bigValue) write(p []byte) {
	if !bv.text {
		bv.pass(p)
		return
	}
	bv.un.write(p, bv.pass)
}

// pass hands the value's JSON to the hash and the processor.
func (bv *bigValue) pass(q []byte) {
	bv.hash.Write(q)
	if bv.pw != nil && !bv.dead {
		if _, err := bv.pw.Write(q); err != nil {
			bv.dead = true
		}
	}
}

// close ends the value: the processor gets its end.
func (bv *bigValue) close() {
	if bv.text {
		bv.un.flush(bv.pass)
	}
	bv.sum = bv.hash.sum()
	if bv.pw != nil {
		bv.pw.Close()
	}
}

// abort ends the value without an end: its processing fails, and leaves no
// variable behind.
func (bv *bigValue) abort() {
	if bv.pw != nil {
		bv.pw.CloseWithError(errors.New("the line was not read whole"))
		<-bv.done
	}
}

// wait waits for the processing of the processed value.
func (bs *bigValues) wait() {
	if bs != nil && bs.processed != nil {
		<-bs.processed.done
	}
}

// result returns the processing of the payload bv: the processed value's,
// when bv is it or holds the same JSON (a structuredContent that repeats a
// text, serialized twice by the server).
func (bs *bigValues) result(bv *bigValue) (*toolresult.Result, error) {
	p := bs.processed
	if bv == p {
		return p.res, p.err
	}
	if p == nil || bv.sum == nil || !bytes.Equal(p.sum, bv.sum) {
		return nil, errNotStreamed
	}
	return p.res, p.err
}

// errNotStreamed: the rewrite needs what the proxy did not keep of a long line.
var errNotStreamed = errors.New("the result is too long to hold whole, and its shape asks for more than one streaming pass")

// same reports whether the string value at v of the skeleton (a stub, or
// a text held whole) holds the same JSON as the payload p (SPEC P4).
func (bs *bigValues) same(msg []byte, v span, p *payloadOf) bool {
	sumOf := func() []byte {
		if bv := bs.at(msg, v); bv != nil {
			return bv.sum
		}
		return hashOf(textBytes(msg, v))
	}
	a := sumOf()
	var b []byte
	switch {
	case p.big != nil:
		b = p.big.sum
	case p.bytes() != nil:
		b = hashOf(p.bytes())
	}
	return a != nil && bytes.Equal(a, b)
}

// escapeCarry unescapes the content of a JSON string that comes in pieces,
// holding back an escape (or a surrogate pair of them) cut by a piece's end.
type escapeCarry struct {
	carry []byte
	join  []byte // the carry and the next piece
	buf   []byte
}

func (e *escapeCarry) write(p []byte, to func([]byte)) {
	data := p
	if len(e.carry) > 0 {
		e.join = append(append(e.join[:0], e.carry...), p...)
		data, e.carry = e.join, nil
	}
	cut := escapeCut(data)
	e.buf = tokenizer.AppendUnescaped(e.buf[:0], data[:cut])
	if len(e.buf) > 0 {
		to(e.buf)
	}
	if cut < len(data) {
		e.carry = append([]byte(nil), data[cut:]...)
	}
}

func (e *escapeCarry) flush(to func([]byte)) {
	if len(e.carry) > 0 {
		e.buf = tokenizer.AppendUnescaped(e.buf[:0], e.carry)
		e.carry = nil
		to(e.buf)
	}
}

// escapeCut returns the length of the longest prefix of raw (string content
// as written, valid) that cuts no escape, nor a surrogate pair of escapes,
// that may go on past raw's end.
func escapeCut(raw []byte) int {
	i := 0
	for {
		j := bytes.IndexByte(raw[i:], '\\')
		if j < 0 {
			return len(raw)
		}
		i += j
		w := 2
		if i+1 < len(raw) && raw[i+1] == 'u' {
			w = 6
			if i+6 <= len(raw) && isHigh(raw[i:i+6]) {
				if i+12 > len(raw) {
					return i // its low half may follow
				}
				if raw[i+6] == '\\' && raw[i+7] == 'u' {
					w = 12
				}
			}
		}
		if i+w > len(raw) {
			return i
		}
		i += w
	}
}

// walker reads a long line of the server, a window at a time (the map is
// at the top of this file).
type walker struct {
	s     *session
	br    *bufio.Reader
	win   []byte // the current window
	i     int    // what of win is consumed
	last  bool   // win ends the line
	base  int64
	sc    tokenizer.Scanner
	sk    []byte    // the skeleton
	to    *bigValue // where consumed bytes go instead of sk; nil for sk
	raw   *rawBig   // a structuredContent that may grow big, as written
	bigAt int
	// over: the skeleton reached the session's limit (maxHeld): what is
	// read is dropped, but for ids and keys (keep).
	over, keep bool

	ids     []span // the values of the top-level ids, in sk
	method  bool
	results int
	call    *call // the call whose result is walked (route); nil for none
	callKey string
	ctx     context.Context
	big     *bigValues
	// broken says why the walked result cannot be rewritten ("" when it
	// can): a big string that turned out not to be a wrapper's.
	broken string
}

// rawBig is a value, as written, that becomes big past bigAt bytes.
type rawBig struct {
	start int // in sk
	bv    *bigValue
}

// window moves to the next window of the line: false at its end.
func (w *walker) window() bool {
	if w.last {
		return false
	}
	w.base += int64(len(w.win))
	w.sc.SetBase(w.base)
	line, err := w.br.ReadSlice('\n')
	if err != bufio.ErrBufferFull {
		w.last = true
	}
	w.win, w.i = line, 0
	return len(line) > 0
}

// emit consumes win[i:j]: into the skeleton, or the big value being read.
func (w *walker) emit(j int) error {
	b := w.win[w.i:j]
	w.i = j
	if w.to != nil {
		w.to.write(b)
		return nil
	}
	if w.over || len(w.sk)+len(b) > w.s.maxHeld {
		// Past the limit the line is read on, unheld, for its ids (and
		// the keys before them): the calls they name get errors.
		w.over = true
		switch {
		case !w.keep:
			return nil
		case len(w.sk)+len(b) > w.s.maxHeld+keepSlack:
			return tooLong(w.s.maxHeld)
		}
	}
	w.sk = append(w.sk, b...)
	if r := w.raw; r != nil && r.bv == nil && len(w.sk)-r.start > w.bigAt {
		bv, stub := w.big.add(asWritten, w.sk[r.start])
		bv.write(w.sk[r.start:])
		w.sk = append(w.sk[:r.start], stub...)
		r.bv, w.to = bv, bv
	}
	return nil
}

// peek returns the kind of the next token, having consumed what comes
// before it; None at the end of the line, after the top-level value.
func (w *walker) peek() (tokenizer.Kind, error) {
	for {
		k, j, err := w.sc.Peek(w.win, w.i)
		if err != nil {
			return tokenizer.None, err
		}
		if err := w.emit(j); err != nil {
			return tokenizer.None, err
		}
		if k != tokenizer.None {
			return k, nil
		}
		if !w.window() {
			return tokenizer.None, w.sc.End(len(w.win))
		}
	}
}

// token consumes the next token whole, and returns its kind and its span
// in sk (keys and brackets: small), which is no span when the token went to
// a big value.
func (w *walker) token() (tokenizer.Kind, span, error) {
	keep := w.keep
	w.keep = true
	defer func() { w.keep = keep }()
	k, err := w.peek()
	if err != nil || k == tokenizer.None {
		return k, span{}, err
	}
	start := len(w.sk)
	for {
		t, j, err := w.sc.Next(w.win, w.i)
		if err != nil {
			return tokenizer.None, span{}, err
		}
		if err := w.emit(j); err != nil {
			return tokenizer.None, span{}, err
		}
		if !t.More {
			if w.to != nil || start > len(w.sk) {
				return k, span{}, nil
			}
			return k, span{start, len(w.sk)}, nil
		}
		if !w.window() {
			return tokenizer.None, span{}, w.sc.End(len(w.win))
		}
	}
}

// key consumes a key and the colon after it, or the object's end ("" and
// false).
func (w *walker) key() (string, bool, error) {
	k, ks, err := w.token()
	if err != nil || k != tokenizer.String {
		return "", false, err
	}
	key := ""
	if w.to == nil { // else it went to a big value, unread
		key = unquote(w.sk[ks.start:ks.end])
	}
	_, err = w.peek()
	return key, true, err
}

// skip consumes a whole value, and returns its span in sk.
func (w *walker) skip() (span, error) {
	if _, err := w.peek(); err != nil {
		return span{}, err
	}
	start := len(w.sk)
	for {
		j, done, err := w.sc.SkipValue(w.win, w.i)
		if err != nil {
			return span{}, err
		}
		if err := w.emit(j); err != nil {
			return span{}, err
		}
		if done {
			return span{start, len(w.sk)}, nil
		}
		if !w.window() {
			return span{}, w.sc.End(len(w.win))
		}
	}
}

// hold consumes the rest of the line into the skeleton, unread.
func (w *walker) hold() error {
	for {
		if err := w.emit(len(w.win)); err != nil {
			return err
		}
		if !w.window() {
			return nil
		}
	}
}

// message walks the top-level object; held reports that the line was held
// whole, unread (not an object).
func (w *walker) message() (held bool, err error) {
	k, _, err := w.token()
	if err != nil {
		return false, err
	}
	if k != tokenizer.ObjectStart {
		err := w.hold()
		if err == nil && w.over {
			err = tooLong(w.s.maxHeld)
		}
		return true, err
	}
	for {
		key, ok, err := w.key()
		if err != nil {
			return false, err
		}
		if !ok {
			_, err := w.peek() // nothing but whitespace to the end
			if err == nil && w.over {
				err = tooLong(w.s.maxHeld)
			}
			return false, err
		}
		switch key {
		case "id":
			w.keep = true
			v, err := w.skip()
			w.keep = false
			if err != nil {
				return false, err
			}
			w.ids = append(w.ids, v)
			continue
		case "method":
			w.method = true
		case "result":
			w.results++
			if w.route() {
				if err := w.result(); err != nil {
					return false, err
				}
				continue
			}
		}
		if _, err := w.skip(); err != nil {
			return false, err
		}
	}
}

// route reports whether the result that follows is walked: its message's
// one id, read before it, names a pending tools/call or tasks/result of a
// tool with a budget. It takes the call.
func (w *walker) route() bool {
	if w.method || len(w.ids) != 1 || w.results != 1 {
		return false
	}
	s := w.s
	key, ok := idKey(w.sk[w.ids[0].start:w.ids[0].end])
	if !ok {
		return false
	}
	s.mu.Lock()
	c := s.pending[key]
	s.mu.Unlock()
	if c == nil || c.method != toolsCall && c.method != tasksResult {
		return false
	}
	t := s.p.callTool(c)
	if t.proc == nil {
		return false
	}
	w.call, w.callKey = s.pendingToBusy(key), key
	w.ctx = s.busyCall(key, w.call)
	w.big = &bigValues{proc: t.proc, ctx: w.ctx}
	return true
}

// result walks a result: its content and structuredContent.
func (w *walker) result() error {
	return w.object(func(key string) error {
		switch key {
		case "content":
			return w.content()
		case "structuredContent":
			return w.structured()
		}
		_, err := w.skip()
		return err
	})
}

// object walks an object (anything else is skipped), calling member for
// each member's value, which member consumes.
func (w *walker) object(member func(key string) error) error {
	k, err := w.peek()
	if err != nil {
		return err
	}
	if k != tokenizer.ObjectStart {
		_, err := w.skip()
		return err
	}
	if _, _, err := w.token(); err != nil {
		return err
	}
	for {
		key, ok, err := w.key()
		if err != nil || !ok {
			return err
		}
		if err := member(key); err != nil {
			return err
		}
	}
}

// content walks the content items: a text item's text may be big.
func (w *walker) content() error {
	k, err := w.peek()
	if err != nil {
		return err
	}
	if k != tokenizer.ArrayStart {
		_, err := w.skip()
		return err
	}
	if _, _, err := w.token(); err != nil {
		return err
	}
	for {
		k, err := w.peek()
		if err != nil {
			return err
		}
		if k == tokenizer.ArrayEnd {
			_, _, err := w.token()
			return err
		}
		typ := ""
		err = w.object(func(key string) error {
			if key == "text" && typ == "text" {
				k, err := w.peek()
				if err != nil {
					return err
				}
				if k == tokenizer.String {
					_, err := w.bigString()
					return err
				}
			}
			v, err := w.skip()
			if key == "type" && err == nil {
				typ, _ = text(w.sk, v)
			}
			return err
		})
		if err != nil {
			return err
		}
	}
}

// structured walks structuredContent: a one-member object whose value is a
// string (a wrapper such as {"content": "<text>"}) may have that string
// big; any other value may be big as a whole.
func (w *walker) structured() error {
	k, err := w.peek()
	if err != nil {
		return err
	}
	start := len(w.sk)
	if k != tokenizer.ObjectStart {
		return w.rawValue(start, func() error { _, err := w.skip(); return err })
	}
	if _, _, err := w.token(); err != nil {
		return err
	}
	key, ok, err := w.key()
	if err != nil || !ok {
		return err
	}
	_ = key
	if k, err := w.peek(); err != nil {
		return err
	} else if k == tokenizer.String {
		bigStr, err := w.bigString()
		if err != nil {
			return err
		}
		if bigStr && w.broken == "" {
			w.broken = "its structuredContent holds a long string beside other members"
		}
		// The rest of the object: held.
		for more := false; ; more = true {
			_, ok, err := w.key()
			if err != nil || !ok {
				if err == nil && bigStr && !more {
					w.broken = "" // a wrapper after all
				}
				return err
			}
			if _, err := w.skip(); err != nil {
				return err
			}
		}
	}
	return w.rawValue(start, func() error {
		if _, err := w.skip(); err != nil {
			return err
		}
		for {
			_, ok, err := w.key()
			if err != nil || !ok {
				return err
			}
			if _, err := w.skip(); err != nil {
				return err
			}
		}
	})
}

// rawValue runs read, which consumes the rest of a value that began at
// start in sk, letting it become big as written.
func (w *walker) rawValue(start int, read func() error) error {
	w.raw = &rawBig{start: start}
	err := read()
	if bv := w.raw.bv; bv != nil {
		w.to = nil
		if err == nil {
			bv.close()
		}
	}
	w.raw = nil
	return err
}

// bigString consumes a string value, which becomes big when it grows past
// bigAt bytes and its text starts like a JSON object or array. It reports
// whether it did.
func (w *walker) bigString() (bool, error) {
	start := len(w.sk)
	var bv *bigValue
	looked := false // at its first character, once it was long enough
	for {
		t, j, err := w.sc.Next(w.win, w.i)
		if err != nil {
			return false, err
		}
		switch {
		case bv == nil:
			if err := w.emit(j); err != nil {
				return false, err
			}
			if t.More && !looked && len(w.sk)-start > w.bigAt {
				looked = true // once: the string may be long, and stay held
				if c := jsonwire.StringLead(w.sk[start+1 : start+w.bigAt]); c == '{' || c == '[' {
					var stub []byte
					bv, stub = w.big.add(stringContent, c)
					bv.write(w.sk[start+1:])
					w.sk = append(w.sk[:start], stub...)
					w.to = bv
				}
			}
		case t.More:
			w.emit(j)
		default: // the last piece: its closing quote is not the text's
			w.emit(j - 1)
			w.i = j
			w.to = nil
			bv.close()
		}
		if !t.More {
			return bv != nil, nil
		}
		if !w.window() {
			return false, w.sc.End(len(w.win))
		}
	}
}

// abort ends the big values of a line that was not read whole.
func (w *walker) abort() {
	if w.big == nil {
		return
	}
	for _, bv := range w.big.vals {
		bv.abort()
	}
}

// drain reads the rest of the line, dropping it.
func (w *walker) drain() {
	for w.window() {
	}
}

// serverLong handles a line longer than streamAt, of which head is read
// (map at the top of the file).
func (s *session) serverLong(ps *parser, head []byte, br *bufio.Reader) {
	w := &walker{s: s, br: br, win: head, bigAt: s.bigAt}
	w.sc.Reset(0)
	w.last = head[len(head)-1] == '\n'
	held, err := w.message()
	if err == nil && w.call != nil && w.to != nil {
		err = errors.New("a big value did not end") // cannot happen: the scanner ends values
	}
	if err != nil {
		w.drain()
		w.abort()
		s.longFailed(w, err)
		return
	}
	if held || w.call == nil {
		s.serverLineOwned(ps, w.sk, given)
		return
	}
	w.big.wait()
	msg := w.sk
	ms, err := ps.members(msg, span{0, len(msg)}, untrusted)
	c, key := w.call, w.callKey
	rawID := msg[w.ids[0].start:w.ids[0].end]
	switch {
	case err != nil: // cannot happen: the walker read it all
		s.send(key, c, s.failure(nil, c, rawID, "the server's response is not valid JSON: "+message(err)))
		return
	case len(w.ids) > 1:
		s.send(key, c, s.failure(nil, c, rawID, "the server's response has two ids"))
		s.answeredCall(msg, ms) // the other ids' calls get errors too
		s.p.logf("dropped a response from the server with two ids, one of a call whose result is rewritten")
		return
	}
	c.big = w.big
	broken := w.broken
	s.process(func() []byte {
		return s.answer(key, c, s.respondLong(w.ctx, c, msg, ms, rawID, broken))
	})
}

// respondLong is respond for a long line's skeleton: a rewrite that would
// put a stub on the wire becomes an error result.
func (s *session) respondLong(ctx context.Context, c *call, msg []byte, ms []member, rawID []byte, broken string) []byte {
	if broken != "" && !s.isCancelled(c) {
		return s.failure(nil, c, rawID, "the result is too long to hold whole, and "+broken)
	}
	out := s.respond(ctx, c, msg, ms)
	if out != nil && bytes.Contains(out, []byte(stubNonce)) {
		out = s.unstub(c, out)
	}
	if out != nil && bytes.Contains(out, []byte(stubNonce)) {
		return s.failure(nil, c, rawID, errNotStreamed.Error())
	}
	return out
}

// unstub puts back the processed value of a long line where the rewrite
// passes it as it is, which its processing held whole: a plaintext (C4),
// or a tool's unmasked data within the budget without instructions (C3).
func (s *session) unstub(c *call, out []byte) []byte {
	p := c.big.processed
	if p == nil || c.big.refused || p.err != nil || p.res == nil || p.res.Instructions != "" {
		return out
	}
	switch {
	case p.res.Route == toolresult.Plaintext:
	case p.res.Route == toolresult.Passthrough && s.p.callTool(c).mask == nil:
	default:
		return out
	}
	stub := append([]byte(stubPrefix), '0', '"') // the processed value is the first
	repl := p.res.Content
	if p.text {
		repl = jsonwire.AppendQuote(nil, p.res.Text)
	}
	return bytes.ReplaceAll(out, stub, repl)
}

// longFailed handles a long line that could not be read: not valid JSON,
// or held past maxHeldLine. The calls its ids name get errors; a response
// to a call the proxy does not rewrite gets a JSON-RPC error, since its
// requester would wait for ever.
func (s *session) longFailed(w *walker, err error) {
	why := "the server's response is not valid JSON: " + message(err)
	if errors.Is(err, errTooLong) {
		why = "the server's response is too long: " + err.Error()
	}
	answered := false
	for _, id := range w.ids {
		raw := w.sk[id.start:id.end]
		key, ok := idKey(raw)
		if !ok {
			continue
		}
		c := w.call
		if key != w.callKey || c == nil {
			c = s.pendingToBusy(key)
		}
		if c != nil {
			s.send(key, c, s.failure(nil, c, raw, why))
			answered = true
		}
	}
	if !answered && !w.method && len(w.ids) == 1 && errors.Is(err, errTooLong) {
		b := append([]byte(`{"jsonrpc":"2.0","id":`), w.sk[w.ids[0].start:w.ids[0].end]...)
		b = append(b, `,"error":{"code":-32603,"message":`...)
		b = jsonwire.AppendQuote(b, "jsonmask: "+why)
		s.order.put(append(b, "}}\n"...))
	}
	s.p.logf("dropped %d bytes of output from the server: %s", w.base+int64(len(w.win)), why)
}
