package mcpproxy

import (
	"bytes"
	"errors"
	"strings"

	"github.com/jsonmask/jsonmask"
	"github.com/jsonmask/jsonmask/internal/errs"
)

// clientLine reads one line of the client and returns what goes to the
// server: the line as it is, a batch without the elements the proxy
// answers itself, or nil.
//
// What the proxy cannot read exactly is not forwarded, and is answered
// with a JSON-RPC error instead: a line that is not valid JSON (a lenient
// server might still read it as a call whose result would then pass
// unmasked), a request with two "id", "method" or "params" members, a
// tools/call with two names or a name that is not a string (the server
// might read another one), a tools/call or tools/list without a string or
// number id, and a request whose id is in use by one in flight (its result
// would be taken for the other's).
func (s *session) clientLine(ps *parser, line []byte) []byte {
	switch firstByte(line) {
	case 0:
		return line // a blank line
	case '{':
		ms, err := ps.members(line, span{0, len(line)}, untrusted)
		if err != nil {
			s.replyError(nil, codeParse, "jsonmask: "+err.Error())
			return nil
		}
		if s.clientMessage(ps, line, ms) {
			return line
		}
		return nil
	case '[':
		return s.clientBatch(ps, line)
	}
	if _, err := ps.elements(line, span{0, len(line)}, untrusted); err != errShape {
		s.replyError(nil, codeParse, "jsonmask: "+err.Error())
	} else {
		s.replyError(nil, codeInvalidRequest, "jsonmask: a message must be a JSON object or an array of them")
	}
	return nil
}

// clientBatch is clientLine for a batch: the elements the proxy answers or
// refuses are taken out of it.
func (s *session) clientBatch(ps *parser, line []byte) []byte {
	els, err := ps.elements(line, span{0, len(line)}, untrusted)
	if err != nil {
		s.replyError(nil, codeParse, "jsonmask: "+err.Error())
		return nil
	}
	var keep [][]byte
	for _, e := range els {
		if line[e.start] != '{' {
			keep = append(keep, line[e.start:e.end]) // the server answers it
			continue
		}
		ms, _ := ps.members(line, e, trusted)
		if s.clientMessage(ps, line, ms) {
			keep = append(keep, line[e.start:e.end])
		}
	}
	switch len(keep) {
	case len(els):
		return line
	case 0:
		return nil
	}
	out := append([]byte{'['}, bytes.Join(keep, []byte{','})...)
	return append(out, "]\n"...)
}

// clientMessage reads one message of the client, notes the requests whose
// results are to be rewritten, and answers read_variable. It reports
// whether the message goes to the server.
func (s *session) clientMessage(ps *parser, line []byte, ms []member) bool {
	method, twiceM := find(ms, "method")
	id, twiceI := find(ms, "id")
	params, twiceP := find(ms, "params")
	var rawID []byte
	if id != nil && !twiceI {
		if _, ok := idKey(line[id.val.start:id.val.end]); ok {
			rawID = line[id.val.start:id.val.end]
		}
	}
	if twiceM || twiceI || twiceP {
		s.replyError(rawID, codeInvalidRequest, `jsonmask: a message with two "id", "method" or "params" members is ambiguous: not forwarded`)
		return false
	}
	if method == nil {
		return true // a response to a request of the server
	}
	name, _ := text(line, method.val)
	var pm []member
	if params != nil && line[params.val.start] == '{' {
		pm, _ = ps.members(line, params.val, trusted)
	}
	switch name {
	case toolsCall, toolsList:
	case tasksResult, tasksGet:
		return s.taskResultCall(name, line, rawID, id, pm)
	case "notifications/cancelled":
		if rid, _ := find(pm, "requestId"); rid != nil {
			if key, ok := idKey(line[rid.val.start:rid.val.end]); ok {
				s.cancelCall(key)
			}
		}
		return true
	default:
		return true
	}
	if id == nil {
		// A notification, which the server must not answer: if it did, the
		// answer would pass unrewritten.
		s.p.logf("dropped a %s without an id from the client", name)
		return false
	}
	key, ok := idKey(line[id.val.start:id.val.end])
	if !ok {
		s.replyError(nil, codeInvalidRequest, "jsonmask: the id of a "+name+" must be a string or a number")
		return false
	}
	c := &call{method: name}
	if name == toolsCall {
		tn, twice := find(pm, "name")
		if twice {
			s.replyError(rawID, codeInvalidRequest, `jsonmask: a tools/call with two "name" members is ambiguous: not forwarded`)
			return false
		}
		if tn != nil {
			var ok bool
			if c.tool, ok = text(line, tn.val); !ok {
				s.replyError(rawID, codeInvalidRequest, "jsonmask: the name of the tool must be a string: not forwarded")
				return false
			}
		}
		if t := ownToolNamed(c.tool); t != nil && s.p.readVar {
			s.answerOwn(t, key, rawID, line, pm)
			return false
		}
		if task, _ := find(pm, "task"); task != nil {
			c.task = true // its result may create a task, whose id the proxy learns
		} else if !s.p.toolFor(c.tool).rewrites() {
			return true
		}
	} else {
		if !s.p.listRewrites {
			return true
		}
		cur, _ := find(pm, "cursor")
		c.first = cur == nil || string(line[cur.val.start:cur.val.end]) == "null"
	}
	return s.track(key, rawID, c)
}

// track notes a request whose result the proxy rewrites, and reports
// whether it goes to the server: a request whose id is in use by one in
// flight is refused.
func (s *session) track(key string, rawID []byte, c *call) bool {
	s.mu.Lock()
	_, inUse := s.pending[key]
	if _, busy := s.busy[key]; busy || s.own[key] != nil {
		inUse = true
	}
	if !inUse {
		s.pending[key] = c
	}
	s.mu.Unlock()
	if inUse {
		s.replyError(rawID, codeInvalidRequest, "jsonmask: the id is in use by a request in flight: not forwarded")
		return false
	}
	return true
}

// taskResultCall reads a tasks/result or tasks/get request (SPEC P8): the
// result of a task that a tools/call created is that tool's result, and
// gets its mask and budget. A task the proxy did not see created cannot be
// attributed to a tool: when some tool is masked, a tasks/result is
// refused, since it could be that tool's (fail closed), and a tasks/get
// goes but loses the result that it may carry inline (the tasks extension
// of later protocols); without masks the result gets the default budget.
// It reports whether the request goes to the server.
func (s *session) taskResultCall(method string, line, rawID []byte, id *member, pm []member) bool {
	if id == nil {
		s.p.logf("dropped a %s without an id from the client", method)
		return method == tasksGet // a notification: nothing comes back
	}
	key, ok := idKey(line[id.val.start:id.val.end])
	if !ok {
		s.replyError(nil, codeInvalidRequest, "jsonmask: the id of a "+method+" must be a string or a number")
		return false
	}
	tid, twice := find(pm, "taskId")
	var tool string
	attributed := false
	if tid != nil && !twice {
		if taskID, isText := text(line, tid.val); isText {
			tool, attributed = s.taskTool(taskID)
		}
	}
	if !attributed && s.p.anyMask && method == tasksResult {
		s.replyError(rawID, codeInvalidRequest, "jsonmask: tasks/result of a task that the proxy did not see a tools/call create: "+
			"not forwarded, since it may be the result of a masked tool")
		return false
	}
	c := &call{method: method, tool: tool, unattributed: !attributed}
	if !s.p.callTool(c).rewrites() && !(c.unattributed && s.p.anyMask) {
		return true
	}
	return s.track(key, rawID, c)
}

// cancelCall notes that the client cancelled a request (MCP's
// notifications/cancelled): its result, once received, is neither processed
// nor sent (the client ignores it), and its processing, if it has begun,
// stops.
func (s *session) cancelCall(key string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if c := s.pending[key]; c != nil {
		c.cancelled = true
	}
	if c := s.busy[key]; c != nil {
		c.cancelled = true
		if c.cancel != nil {
			c.cancel()
		}
	}
	if cancel := s.own[key]; cancel != nil {
		cancel() // read_variable or query_variable: its store read and query stop
	}
}

// message is err's text for a text that says "jsonmask: " itself: its
// errs.Detail, with a SyntaxError in its chain redacted (a pointer past
// what the mask keeps is cut: SPEC G5), as jsonmask.Redact does.
func message(err error) string {
	d := errs.Detail(err)
	var se *jsonmask.SyntaxError
	if !errors.As(err, &se) {
		return d
	}
	if full := se.Detail(); strings.Contains(d, full) {
		return strings.Replace(d, full, se.RedactedDetail(), 1)
	}
	return se.RedactedDetail()
}
