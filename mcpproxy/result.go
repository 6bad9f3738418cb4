package mcpproxy

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"reflect"
	"strconv"

	"github.com/jsonmask/jsonmask/internal/jsonwire"
	"github.com/jsonmask/jsonmask/tokenizer"
	"github.com/jsonmask/jsonmask/toolresult"
)

// item is one element of a result's content.
type item struct {
	span
	text     span // the text of a text item, or of an embedded text resource; {0 0} for none
	jsonLike byte // '{' or '[' when the text starts like JSON, else 0
}

// rewriteCall returns a tools/call response as the client gets it (SPEC P3,
// P4, P6), or nil when the client cancelled it. msg is the response, res its
// result.
//
// The result's JSON payload is its structuredContent, or else the first text
// of its content that starts like a JSON object or array. The tool's mask
// and section 9 apply to the payload; the rewritten result holds one text
// content with the model text (after the instructions, if any), and
// structuredContent with the masked data when it is within the budget and
// an object. A tool without a mask keeps its other content items that are
// not the same JSON as the payload (images, prose); a masked tool's are
// dropped, since they could carry what the mask drops. The result's other
// members (isError, _meta, resultType) are kept; for a masked tool, members
// that MCP does not define are dropped, for the same reason.
//
// The result passes unchanged when it has no payload, when its payload is
// plaintext (C4), when it is not final (resultType input_required), and when
// the tool has no mask and its payload is within the budget and carries no
// instructions: then it is already what the model may see.
//
// Fail closed (P6): for a masked tool, a result that cannot be processed
// (the payload is not valid JSON, the result is malformed, a text holds
// other JSON than the payload) becomes an error result that says why.
//
// The steps, each a function: readResult reads the result's members and
// readItems its content items; choosePayload finds the payload; keptItems
// says which content items stay beside it; processPayload applies the mask
// and section 9; assemble writes the new result.
func (s *session) rewriteCall(ctx context.Context, c *call, msg, rawID []byte, res span) []byte {
	t := s.p.callTool(c)
	masked := t.mask != nil
	fail := func(why string) []byte {
		if !masked {
			s.p.logf("tools/call %q: the result passes as it is: %s", c.tool, why)
			return msg
		}
		return s.failure(msg, c, rawID, why)
	}
	var ps parser
	r, why := readResult(&ps, msg, res)
	if why != "" {
		return fail(why)
	}
	r.big = c.big
	if task, twice := find(r.ms, "task"); c.method == toolsCall && (task != nil || r.resultType == "task") {
		// A task created: in the tasks extension of later protocols
		// (resultType "task") the task's members are the result's own.
		return s.taskCreated(c, msg, res, r.ms, task, twice, fail)
	}
	if !t.rewrites() {
		return msg // a call noted for the task it might have created
	}
	if r.resultType != "" && r.resultType != "complete" {
		return msg // not final: it asks the client for input
	}
	if why := r.readItems(&ps); why != "" {
		return fail(why)
	}
	p := r.choosePayload(&ps, masked)
	if p.plain != nil {
		return s.plainWrapped(msg, res, r.ms, r.items, p.plain)
	}
	if masked {
		if why := unmaskedWhy(p.payload, t.arrays); why != "" {
			if t.strict {
				return fail("strict: " + why)
			}
			s.p.logf("tools/call %q: the result passes unmasked: %s", c.tool, why)
		}
	}
	if p.payload == nil && !(masked && r.undefined()) {
		return dropMembers(msg, res, r.ms, func(key string) bool { return p.repeated && key == "structuredContent" })
	}
	keep, why := r.keptItems(p, masked, t.arrays)
	if why != "" {
		return fail(why)
	}
	out, err := processPayload(ctx, t, r, p.payload, keep)
	switch {
	case ctx.Err() != nil:
		return nil
	case err != nil:
		return fail("its " + p.from + " could not be processed: " + message(err))
	case out != nil && out.Route == toolresult.Plaintext && p.unwrapped:
		return s.plainWrapped(msg, res, r.ms, r.items, out.Content) // the whole text: plaintext is held
	case out == nil || out.Route == toolresult.Plaintext:
		// C4: plaintext enters whole; a masked tool's result keeps only the
		// members MCP defines.
		return dropMembers(msg, res, r.ms, func(key string) bool {
			return masked && !defined(key) || p.repeated && key == "structuredContent"
		})
	case out.Route == toolresult.Passthrough && !masked && out.Instructions == "" && !p.unwrapped && !p.repeated:
		return msg
	case out.Route == toolresult.Variable:
		s.p.rememberVariable(out.Variable.Name, t.proc)
	}
	return r.assemble(out, keep, masked)
}

// callResult is a tools/call result as rewriteCall reads it: the members of
// the result at res in msg, and its content items.
type callResult struct {
	msg        []byte
	res        span
	ms         []member
	content    *member // nil for none
	structured *member // nil for none, or null
	resultType string
	items      []item
	big        *bigValues // the values of a long line that msg holds as stubs; nil for none
}

// readResult reads the members of the result at res, or says why it cannot.
func readResult(ps *parser, msg []byte, res span) (*callResult, string) {
	if msg[res.start] != '{' {
		return nil, "the result is not a JSON object"
	}
	ms, err := ps.members(msg, res, trusted)
	if err != nil {
		return nil, "the result is not valid JSON: " + message(err)
	}
	r := &callResult{msg: msg, res: res, ms: ms}
	var twiceC, twiceS bool
	r.content, twiceC = find(ms, "content")
	r.structured, twiceS = find(ms, "structuredContent")
	if twiceC || twiceS {
		return nil, "the result has two content or structuredContent members"
	}
	if rt, _ := find(ms, "resultType"); rt != nil {
		r.resultType, _ = text(msg, rt.val)
	}
	if r.structured != nil && string(msg[r.structured.val.start:r.structured.val.end]) == "null" {
		r.structured = nil
	}
	return r, ""
}

// readItems reads the content items, or says why it cannot.
func (r *callResult) readItems(ps *parser) string {
	if r.content == nil {
		return ""
	}
	if r.msg[r.content.val.start] != '[' {
		return "its content is not an array"
	}
	els, err := ps.elements(r.msg, r.content.val, trusted)
	if err != nil {
		return "its content is not valid JSON: " + message(err)
	}
	for _, e := range els {
		it := readItem(ps, r.msg, e)
		if it.text != (span{}) {
			if bv := r.big.at(r.msg, it.text); bv != nil {
				it.jsonLike = bv.first
			}
		}
		r.items = append(r.items, it)
	}
	return ""
}

// undefined reports whether the result has a member that MCP does not
// define.
func (r *callResult) undefined() bool {
	for _, m := range r.ms {
		if !defined(m.key) {
			return true
		}
	}
	return false
}

// payloadChoice is the payload of a result and where it was found.
type payloadChoice struct {
	payload *payloadOf // nil for none
	from    string     // where, for messages
	item    int        // the content item that holds it, or -1
	// unwrapped: the payload is the text of a structuredContent wrapper;
	// repeated: structuredContent repeats the content items, and goes.
	unwrapped, repeated bool
	// plain is the text of a structuredContent wrapper around plain text,
	// for a tool without a mask (nil otherwise): it enters whole, once.
	plain []byte
}

// choosePayload finds the result's JSON payload: its structuredContent (or
// the JSON text it wraps), or else the first text of its content that
// starts like a JSON object or array.
func (r *callResult) choosePayload(ps *parser, masked bool) payloadChoice {
	p := payloadChoice{from: "structuredContent", item: -1}
	structured := r.structured
	if structured != nil {
		w := wrapped(ps, r.msg, structured.val, r.content)
		if w.text != (span{}) && r.big.at(r.msg, w.text) != nil {
			w.json = true // only text that starts like JSON is streamed
		}
		switch {
		case w.repeats && len(r.items) > 0:
			// structuredContent repeats the content items (media, say):
			// the content says it once (P3). An empty list repeats
			// nothing: {"k": []} is data, which the mask sees.
			structured, p.repeated = nil, true
		case w.text != (span{}) && w.json:
			p.payload, p.unwrapped, p.from = r.payloadAt(w.text), true, "structuredContent's text"
		case w.text != (span{}) && !masked:
			p.plain = textBytes(r.msg, w.text)
		default:
			p.payload = r.payloadAt(structured.val)
		}
	}
	if structured == nil {
		for i, it := range r.items {
			if it.jsonLike != 0 {
				p.payload, p.item, p.from = r.payloadAt(it.text), i, "text content"
				break
			}
		}
	}
	return p
}

// keptItems says which content items stay beside the model text: for a
// tool without a mask, those that are not the payload or the same JSON
// (P4); for a masked tool none (P3: other items, prose or images, could
// carry what the mask drops). A masked tool's text item that holds other
// JSON than the payload is a reason to fail.
func (r *callResult) keptItems(p payloadChoice, masked, arrays bool) ([]bool, string) {
	keep := make([]bool, len(r.items))
	for i, it := range r.items {
		keep[i] = i != p.item && !masked
		if i == p.item || it.jsonLike == 0 || p.payload == nil {
			continue
		}
		if r.same(it.text, p.payload) {
			keep[i] = false // P4: the same JSON once
			continue
		}
		if masked && (it.jsonLike == '{' || arrays) {
			return nil, "content item " + strconv.Itoa(i) + " holds JSON that is not the result's payload, which the mask would not see"
		}
	}
	return keep, ""
}

// processPayload applies the tool's mask and section 9 to the payload: nil
// for no payload (a masked tool's result with members to drop).
func processPayload(ctx context.Context, t *tool, r *callResult, payload *payloadOf, keep []bool) (*toolresult.Result, error) {
	switch {
	case payload == nil:
		return nil, nil
	case payload.big != nil:
		// A long line's value, processed as it streamed by: with the
		// tool's budget, so texts kept beside it cannot count.
		out, err := r.big.result(payload.big)
		if extra := keptTokens(t.proc, r.msg, r.items, keep); extra > 0 && err == nil &&
			!(out.Route == toolresult.Passthrough && out.Tokens.Context <= max(t.proc.Budget()-extra, 1)) {
			// The texts kept beside it leave it less than the budget it
			// was processed with: what it would have become is not known.
			r.big.refused = true
			return nil, errNotStreamed
		}
		return out, err
	case t.proc != nil:
		// The budget bounds the whole result (P3): the texts kept beside
		// the data count against it.
		proc := t.proc
		if extra := keptTokens(proc, r.msg, r.items, keep); extra > 0 {
			var err error
			if proc, err = proc.With(toolresult.WithBudget(max(proc.Budget()-extra, 1))); err != nil {
				return nil, err
			}
		}
		return proc.Process(ctx, payload.reader())
	}
	// The mask alone: the budget is off.
	out, err := t.mask.Append(nil, payload.bytes())
	if err != nil {
		return nil, err
	}
	return &toolresult.Result{Route: toolresult.Passthrough, Text: string(out), Content: out}, nil
}

// assemble returns the message with the new result: the model text, the
// items kept, the masked data, and the other members kept, in their order.
func (r *callResult) assemble(out *toolresult.Result, keep []bool, masked bool) []byte {
	b := []byte(`{"content":[{"type":"text","text":`)
	b = jsonwire.AppendQuote(b, out.ModelText())
	b = append(b, '}')
	for i, it := range r.items {
		if keep[i] {
			b = append(append(b, ','), r.msg[it.start:it.end]...)
		}
	}
	b = append(b, ']')
	if out.Route == toolresult.Passthrough {
		if data := jsonwire.Trim(out.Content); len(data) > 0 && data[0] == '{' {
			b = append(append(b, `,"structuredContent":`...), data...)
		}
	}
	for _, m := range r.ms {
		if m.key != "content" && m.key != "structuredContent" && (defined(m.key) || !masked) {
			b = append(append(b, ','), m.raw(r.msg)...)
		}
	}
	return splice(r.msg, r.res, append(b, '}'))
}

// rewriteTask returns a tasks/get response as the client gets it. A task
// (MCP 2025-11-25) carries no result and passes as it is; the tasks
// extension of later protocols puts the finished task's result inline, as
// the member result, which gets the task's tool's mask and budget as a
// tools/call result would. When the task cannot be attributed and some tool
// is masked, that result is withheld.
func (s *session) rewriteTask(ctx context.Context, c *call, msg, rawID []byte, res span) []byte {
	var ps parser
	if msg[res.start] != '{' {
		return msg
	}
	ms, err := ps.members(msg, res, trusted)
	inner, twice := find(ms, "result")
	switch {
	case err != nil && s.p.anyMask:
		return s.failure(msg, c, rawID, "the server's task is not valid JSON: "+message(err))
	case inner == nil:
		return msg
	case twice || c.unattributed && s.p.anyMask:
		why := "the task's result cannot be attributed to a tool, and some tool is masked"
		if twice {
			why = "the task has two results"
		}
		s.p.logf("%s %q: %s", c.method, c.tool, why)
		return splice(msg, inner.val, errorResult(c.tool, why))
	}
	out := s.rewriteCall(ctx, c, msg, rawID, inner.val)
	return out
}

// taskCreated handles a tools/call result that created a task (SPEC P8,
// MCP's CreateTaskResult): the proxy remembers the task's tool, so that
// tasks/result gets that tool's mask and budget, and passes the result on
// with its task as it is. A masked tool's result loses the members MCP does
// not define for it. One whose task has no id cannot be attributed: for a
// masked tool it becomes an error result.
func (s *session) taskCreated(c *call, msg []byte, res span, ms []member, task *member, twice bool, fail func(string) []byte) []byte {
	if twice {
		return fail("the result has two task members")
	}
	var ps parser
	var id string
	ok := false
	tms := ms // the task's members: the result's own, without a task member
	if task != nil {
		tms = nil
		if msg[task.val.start] == '{' {
			tms, _ = ps.members(msg, task.val, trusted)
		}
	}
	if tid, twice := find(tms, "taskId"); tid != nil && !twice {
		id, ok = text(msg, tid.val)
	}
	if !ok {
		return fail("the task it created has no taskId")
	}
	s.taskMade(id, c.tool)
	if s.p.callTool(c).mask == nil {
		return msg
	}
	return dropMembers(msg, res, ms, func(key string) bool { return !taskMember(key, task == nil) })
}

// wrap is what a result's structuredContent is to its content.
type wrap struct {
	// text is the string of a one-member object such as server-filesystem's
	// {"content": "<text>"}, as written; json says it starts like a JSON
	// object or array.
	text span
	json bool
	// repeats: a one-member object whose array is the result's content
	// itself, such as {"content": [<the content's items>]}.
	repeats bool
}

// wrapped reads structuredContent at v, beside the result's content member
// (nil for none).
func wrapped(ps *parser, msg []byte, v span, content *member) wrap {
	if msg[v.start] != '{' {
		return wrap{}
	}
	ms, err := ps.members(msg, v, trusted)
	if err != nil || len(ms) != 1 {
		return wrap{}
	}
	val := ms[0].val
	switch msg[val.start] {
	case '"':
		c := jsonwire.StringLead(msg[val.start+1 : val.end-1])
		return wrap{text: val, json: c == '{' || c == '['}
	case '[':
		if content != nil && sameValue(msg[val.start:val.end], msg[content.val.start:content.val.end]) {
			return wrap{repeats: true}
		}
	}
	return wrap{}
}

// sameValue reports whether a and b are the same JSON value, objects'
// members in any order (a server may serialize its content items twice
// with two serializers); numbers are compared as written.
func sameValue(a, b []byte) bool {
	if sameJSON(a, b) {
		return true
	}
	decode := func(raw []byte) (any, bool) {
		d := json.NewDecoder(bytes.NewReader(raw))
		d.UseNumber()
		var v any
		return v, d.Decode(&v) == nil
	}
	va, okA := decode(a)
	vb, okB := decode(b)
	return okA && okB && reflect.DeepEqual(va, vb)
}

// plainWrapped is a result whose structuredContent wraps plain text (C4, P3):
// the text enters whole, once, as a text item; structuredContent goes.
func (s *session) plainWrapped(msg []byte, res span, ms []member, items []item, text []byte) []byte {
	for _, it := range items {
		if it.text != (span{}) && bytes.Equal(textBytes(msg, it.text), text) {
			return dropMembers(msg, res, ms, func(key string) bool { return key == "structuredContent" })
		}
	}
	b := jsonwire.AppendQuote([]byte(`{"content":[{"type":"text","text":`), string(text))
	b = append(b, '}')
	for _, it := range items {
		b = append(append(b, ','), msg[it.start:it.end]...)
	}
	b = append(b, ']')
	for _, m := range ms {
		if m.key != "content" && m.key != "structuredContent" {
			b = append(append(b, ','), m.raw(msg)...)
		}
	}
	return splice(msg, res, append(b, '}'))
}

// dropMembers returns msg with the members of the result at res for which
// drop is true taken out (msg itself when there are none).
func dropMembers(msg []byte, res span, ms []member, drop func(key string) bool) []byte {
	b := []byte{'{'}
	dropped := false
	for _, m := range ms {
		if drop(m.key) {
			dropped = true
			continue
		}
		if len(b) > 1 {
			b = append(b, ',')
		}
		b = append(b, m.raw(msg)...)
	}
	if !dropped {
		return msg
	}
	return splice(msg, res, append(b, '}'))
}

// keptTokens counts the tokens of the text items kept beside the model
// text, up to the budget (media are not text, and not counted).
func keptTokens(proc *toolresult.Processor, msg []byte, items []item, keep []bool) int {
	n := 0
	for i, it := range items {
		if keep[i] && it.text != (span{}) && n <= proc.Budget() {
			n += proc.Tokenizer().Count(textBytes(msg, it.text), proc.Budget())
		}
	}
	return n
}

// payloadOf is a result's JSON payload: JSON as the message holds it
// (structuredContent), or the content of a JSON string in it (a text),
// unescaped only when needed: section 9 reads it through an unescaping
// reader, so that a payload of 100 MB is not held twice.
type payloadOf struct {
	msg  []byte
	text span   // the JSON string, when the payload is a text
	b    []byte // the payload's bytes, once needed
	// big: a long line's value that msg holds as a stub, processed as it
	// streamed by; its bytes are not held (bytes returns nil).
	big *bigValue
}

// payloadAt is the payload at v in the result: the JSON that a string
// holds, JSON as written, or a long line's big value.
func (r *callResult) payloadAt(v span) *payloadOf {
	if bv := r.big.at(r.msg, v); bv != nil {
		return &payloadOf{big: bv}
	}
	if r.msg[v.start] == '"' {
		return &payloadOf{msg: r.msg, text: v}
	}
	return &payloadOf{b: r.msg[v.start:v.end]}
}

// same reports whether the text at v holds the same JSON as the payload
// (SPEC P4).
func (r *callResult) same(v span, p *payloadOf) bool {
	if r.big != nil {
		return r.big.same(r.msg, v, p)
	}
	return sameJSON(textBytes(r.msg, v), p.bytes())
}

// bytes returns the payload's bytes, unescaping a text the first time.
func (p *payloadOf) bytes() []byte {
	if p.b == nil && p.text != (span{}) {
		p.b = textBytes(p.msg, p.text)
	}
	return p.b
}

// reader reads the payload: a text unescaped as it is read.
func (p *payloadOf) reader() io.Reader {
	if p.b != nil || p.text == (span{}) {
		return bytes.NewReader(p.b)
	}
	return &unescaper{raw: p.msg[p.text.start+1 : p.text.end-1]}
}

// first returns the payload's first character that is not whitespace or
// a byte-order mark (0 for none, or no payload).
func (p *payloadOf) first() byte {
	switch {
	case p == nil:
		return 0
	case p.big != nil:
		return p.big.first
	case p.b == nil && p.text != (span{}):
		return jsonwire.StringLead(p.msg[p.text.start+1 : p.text.end-1])
	}
	if b := jsonwire.TrimLead(p.b); len(b) > 0 {
		return b[0]
	}
	return 0
}

// unescaper reads the content of a JSON string unescaped, a window at a
// time, never cutting an escape (or a surrogate pair of them) in two.
type unescaper struct {
	raw   []byte // what is left to read, as written
	buf   []byte // unescaped, not yet read
	store []byte // buf's memory
}

func (u *unescaper) Read(p []byte) (int, error) {
	for len(u.buf) == 0 {
		if len(u.raw) == 0 {
			return 0, io.EOF
		}
		end := min(len(u.raw), 32<<10)
		i := 0
		for i < end {
			if u.raw[i] != '\\' {
				i++
				continue
			}
			w := 2
			if i+1 < len(u.raw) && u.raw[i+1] == 'u' {
				w = 6
				if i+12 <= len(u.raw) && u.raw[i+6] == '\\' && u.raw[i+7] == 'u' && isHigh(u.raw[i:i+6]) {
					w = 12 // a surrogate pair: together
				}
			}
			if i+w > end && end < len(u.raw) {
				break
			}
			i += w
		}
		i = min(i, len(u.raw))
		u.store = tokenizer.AppendUnescaped(u.store[:0], u.raw[:i])
		u.buf = u.store
		u.raw = u.raw[i:]
	}
	n := copy(p, u.buf)
	u.buf = u.buf[n:]
	return n, nil
}

// isHigh reports whether a \uXXXX escape is a high surrogate's.
func isHigh(esc []byte) bool {
	h, _ := jsonwire.ParseHex4(esc[2:])
	return h >= 0xD800 && h < 0xDC00
}

// unmaskedWhy says why a masked tool's payload would pass its mask
// unmasked (SPEC B3), or "" when the mask applies to it.
func unmaskedWhy(payload *payloadOf, arrays bool) string {
	switch payload.first() {
	case '{':
		return ""
	case '[':
		if arrays {
			return ""
		}
		return "its payload is a JSON array, which the mask masks only with the tool's \"arrays\" option"
	}
	if payload == nil {
		return "it holds no JSON object to mask"
	}
	return "its payload is not a JSON object"
}

// taskMember reports whether MCP defines a member of a result that created
// a task: its task, or, flat (the tasks extension), the task's own members.
func taskMember(key string, flat bool) bool {
	switch key {
	case "_meta", "resultType":
		return true
	case "task":
		return !flat
	case "taskId", "status", "statusMessage", "createdAt", "lastUpdatedAt", "ttl", "pollInterval":
		return flat
	}
	return false
}

// defined reports whether MCP defines a member of a tools/call result.
func defined(key string) bool {
	switch key {
	case "content", "structuredContent", "isError", "_meta", "resultType":
		return true
	}
	return false
}

// readItem reads a content item: its text, or its embedded resource's text,
// and whether that starts like JSON.
func readItem(ps *parser, msg []byte, e span) item {
	it := item{span: e}
	if msg[e.start] != '{' {
		return it
	}
	ms, err := ps.members(msg, e, trusted)
	if err != nil {
		return it
	}
	typ, _ := find(ms, "type")
	kind := ""
	if typ != nil {
		kind, _ = text(msg, typ.val)
	}
	var t *member
	switch kind {
	case "text":
		t, _ = find(ms, "text")
	case "resource":
		if r, _ := find(ms, "resource"); r != nil && msg[r.val.start] == '{' {
			rms, err := ps.members(msg, r.val, trusted)
			if err == nil {
				if rt, _ := find(rms, "text"); rt != nil {
					t = &member{val: rt.val}
				}
			}
		}
	}
	if t != nil && msg[t.val.start] == '"' {
		it.text = t.val
		if c := jsonwire.StringLead(msg[t.val.start+1 : t.val.end-1]); c == '{' || c == '[' {
			it.jsonLike = c
		}
	}
	return it
}

// errorResult is the result of a call whose result is withheld (SPEC P6).
func errorResult(tool, why string) []byte {
	return toolError("jsonmask: the result of the tool " + strconv.Quote(tool) + " is withheld: " + why)
}
