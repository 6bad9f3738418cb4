package mcpproxy

import (
	"bytes"
	"context"

	"github.com/jsonmask/jsonmask/internal/jsonwire"
)

// serverLine reads one line of the server and writes what the client gets:
// the line as it is, or rewritten (now, or when its processing ends).
//
// A line that is not valid JSON is not a message (MCP: a server writes
// nothing else to its output) and is dropped, with a diagnostic: the proxy
// cannot tell whether it holds a result to rewrite. When its id was read
// before the error and names a call whose result is rewritten, the client
// gets an error for that call instead.
func (s *session) serverLine(ps *parser, line []byte) { s.serverLineOwned(ps, line, borrowed) }

// ownership says whether a line may be kept by who is given it: borrowed,
// it is the reader's buffer (a copy is kept); given, it is the taker's.
type ownership bool

const (
	borrowed ownership = false
	given    ownership = true
)

// serverLineOwned is serverLine for a line that the caller may give away
// (owned): a result processed after the call keeps it instead of a copy
// (a result of 100 MB is not held twice). It reports whether it kept it.
func (s *session) serverLineOwned(ps *parser, line []byte, owned ownership) (kept bool) {
	switch firstByte(line) {
	case 0:
		s.order.put(line)
	case '{':
		ms, err := ps.members(line, span{0, len(line)}, untrusted)
		if err != nil {
			s.badMessage(line, ms, err)
			return
		}
		c, key, ambiguous := s.answeredCall(line, ms)
		switch {
		case ambiguous:
			s.p.logf("dropped a response from the server with two ids, one of a call whose result is rewritten")
		case c == nil:
			s.order.put(line)
		case (c.method == toolsCall || c.method == tasksResult) && s.hasResult(ms):
			// Processed on its own, so that reading the server goes on.
			msg := line
			if kept = owned == given; !kept {
				msg = bytes.Clone(line)
			}
			ctx := s.busyCall(key, c)
			s.process(func() []byte { return s.answer(key, c, s.respond(ctx, c, msg, ms)) })
		default:
			s.send(key, c, s.respond(s.ctx, c, line, ms))
		}
	case '[':
		s.serverBatch(ps, line)
	default:
		s.p.logf("dropped %d bytes of output from the server that are not a JSON-RPC message", len(line))
	}
	return kept
}

// hasResult reports whether a response has one result and no error.
func (s *session) hasResult(ms []member) bool {
	r, twice := find(ms, "result")
	e, _ := find(ms, "error")
	return r != nil && !twice && e == nil
}

// answeredCall returns the call that a response of the server answers, when its
// result is to be rewritten, and takes it from the pending calls. A
// response with two ids, one of which names such a call, is ambiguous:
// the calls it may answer get errors.
func (s *session) answeredCall(line []byte, ms []member) (c *call, key string, ambiguous bool) {
	if m, _ := find(ms, "method"); m != nil {
		return nil, "", false // a request or a notification of the server
	}
	var ids []member
	for _, m := range ms {
		if m.key == "id" {
			ids = append(ids, m)
		}
	}
	if len(ids) > 1 {
		for _, id := range ids {
			raw := line[id.val.start:id.val.end]
			if k, ok := idKey(raw); ok {
				if c := s.pendingToBusy(k); c != nil {
					s.send(k, c, s.failure(nil, c, raw, "the server's response has two ids"))
					ambiguous = true
				}
			}
		}
		if ambiguous {
			return nil, "", true
		}
		return nil, "", false
	}
	if len(ids) == 0 {
		return nil, "", false
	}
	key, ok := idKey(line[ids[0].val.start:ids[0].val.end])
	if !ok {
		return nil, "", false
	}
	return s.pendingToBusy(key), key, false
}

// pendingToBusy moves a pending call to the busy ones: its result is being answered.
func (s *session) pendingToBusy(key string) *call {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.pending[key]
	if c != nil {
		delete(s.pending, key)
		s.busy[key] = c
	}
	return c
}

// busyCall returns the context that the processing of a call's result runs
// in: cancelled when the client cancels the call.
func (s *session) busyCall(key string, c *call) context.Context {
	s.mu.Lock()
	defer s.mu.Unlock()
	ctx, cancel := context.WithCancel(s.ctx)
	c.cancel = cancel
	if c.cancelled {
		cancel()
	}
	return ctx
}

// send writes the response to a call, unless the client cancelled it or
// there is none, and forgets the call.
func (s *session) send(key string, c *call, msg []byte) {
	if msg = s.answer(key, c, msg); msg != nil {
		s.order.put(msg)
	}
}

// answer forgets a call, and returns its response unless the client
// cancelled it.
func (s *session) answer(key string, c *call, msg []byte) []byte {
	if s.finish(key, c) {
		return nil
	}
	return msg
}

// finish forgets a call, and reports whether the client cancelled it.
func (s *session) finish(key string, c *call) (cancelled bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.busy[key] == c {
		delete(s.busy, key)
	}
	if c.cancel != nil {
		c.cancel()
	}
	return c.cancelled
}

// isCancelled reports whether the client cancelled a call.
func (s *session) isCancelled(c *call) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return c.cancelled
}

// respond returns the response to a call as the client gets it, or nil for
// none.
func (s *session) respond(ctx context.Context, c *call, msg []byte, ms []member) []byte {
	if s.isCancelled(c) {
		return nil
	}
	res, twiceR := find(ms, "result")
	e, twiceE := find(ms, "error")
	id, _ := find(ms, "id")
	rawID := msg[id.val.start:id.val.end]
	switch {
	case twiceR || twiceE || res != nil && e != nil:
		return s.failure(msg, c, rawID, "the server's response has two results or errors")
	case res == nil:
		return msg // a JSON-RPC error: its message and data are the server's, not the tool's result
	case c.method == toolsList:
		return s.rewriteList(c, msg, res.val)
	case c.method == tasksGet:
		return s.rewriteTask(ctx, c, msg, rawID, res.val)
	}
	return s.rewriteCall(ctx, c, msg, rawID, res.val)
}

// badMessage handles a line of the server that is not valid JSON; ms are
// the members read before the error.
func (s *session) badMessage(line []byte, ms []member, err error) {
	for _, m := range ms {
		if m.key != "id" {
			continue
		}
		raw := line[m.val.start:m.val.end]
		if key, ok := idKey(raw); ok {
			if c := s.pendingToBusy(key); c != nil {
				s.send(key, c, s.failure(nil, c, raw, "the server's response is not valid JSON: "+message(err)))
			}
		}
	}
	s.p.logf("dropped %d bytes of output from the server that are not JSON: %s", len(line), message(err))
}

// failure returns the answer to a call whose response cannot be rewritten:
// for tools/call an error result (SPEC P6), for tools/list a JSON-RPC error.
// msg is the response, whose envelope is kept, or nil for a new one.
func (s *session) failure(msg []byte, c *call, rawID []byte, why string) []byte {
	s.p.logf("%s %q: %s", c.method, c.tool, why)
	if c.method == toolsList {
		b := append([]byte(`{"jsonrpc":"2.0","id":`), rawID...)
		b = append(b, `,"error":{"code":-32603,"message":`...)
		b = jsonwire.AppendQuote(b, "jsonmask: "+why)
		return append(b, "}}\n"...)
	}
	res := errorResult(c.tool, why)
	if msg != nil {
		ms, err := (&parser{}).members(msg, span{0, len(msg)}, trusted)
		if r, _ := find(ms, "result"); err == nil && r != nil {
			return splice(msg, r.val, res)
		}
	}
	b := append([]byte(`{"jsonrpc":"2.0","id":`), rawID...)
	b = append(append(b, `,"result":`...), res...)
	return append(b, "}\n"...)
}

// serverBatch is serverLine for a batch: the results to rewrite in it are
// processed, in turn, and the batch is written when they are done.
func (s *session) serverBatch(ps *parser, line []byte) {
	els, err := ps.elements(line, span{0, len(line)}, untrusted)
	if err != nil {
		s.p.logf("dropped %d bytes of output from the server that are not JSON: %s", len(line), message(err))
		return
	}
	type job struct {
		c   *call
		key string
		ms  []member
	}
	jobs := make([]job, len(els))
	some := false
	for i, e := range els {
		if line[e.start] != '{' {
			continue
		}
		ms, _ := ps.members(line, e, trusted)
		c, key, ambiguous := s.answeredCall(line, ms)
		if ambiguous {
			jobs[i].c = &call{} // dropped: its calls got errors
			some = true
		} else if c != nil {
			jobs[i] = job{c, key, ms}
			some = true
		}
	}
	if !some {
		s.order.put(line)
		return
	}
	msg := bytes.Clone(line)
	s.process(func() []byte {
		var out [][]byte
		for i, e := range els {
			j := jobs[i]
			if j.c == nil {
				out = append(out, msg[e.start:e.end])
				continue
			}
			if j.key == "" {
				continue // ambiguous: dropped
			}
			ctx := s.busyCall(j.key, j.c)
			// The element alone: respond splices into what it is given.
			el := msg[e.start:e.end]
			ms := shift(j.ms, -e.start)
			r := s.respond(ctx, j.c, el, ms)
			if !s.finish(j.key, j.c) && r != nil {
				out = append(out, bytes.TrimRight(r, "\n"))
			}
		}
		if len(out) == 0 {
			return nil
		}
		b := append([]byte{'['}, bytes.Join(out, []byte{','})...)
		return append(b, "]\n"...)
	})
}

// shift moves members' spans by d bytes.
func shift(ms []member, d int) []member {
	out := make([]member, len(ms))
	for i, m := range ms {
		out[i] = member{key: m.key, start: m.start + d, val: span{m.val.start + d, m.val.end + d}}
	}
	return out
}

// splice returns msg with the span v replaced by repl.
func splice(msg []byte, v span, repl []byte) []byte {
	out := make([]byte, 0, len(msg)-(v.end-v.start)+len(repl))
	out = append(out, msg[:v.start]...)
	out = append(out, repl...)
	return append(out, msg[v.end:]...)
}
