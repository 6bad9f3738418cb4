package mcpproxy

import "bytes"

// rewriteList returns a tools/list response as the client gets it: the
// tools whose results the proxy rewrites lose their outputSchema (SPEC P3:
// their results no longer follow it), and the first page gains the
// read_variable tool (P5). A tool of the server called read_variable is
// taken out, since the proxy answers calls of that name itself. A result
// the proxy cannot read as a list of tools passes as it is.
func (s *session) rewriteList(c *call, msg []byte, res span) []byte {
	var ps parser
	if msg[res.start] != '{' {
		return msg
	}
	ms, err := ps.members(msg, res, trusted)
	if err != nil {
		return msg
	}
	tools, _ := find(ms, "tools")
	if tools == nil || msg[tools.val.start] != '[' {
		return msg
	}
	els, err := ps.elements(msg, tools.val, trusted)
	if err != nil {
		return msg
	}
	changed := false
	var out [][]byte
	for _, e := range els {
		el := msg[e.start:e.end]
		if el[0] != '{' {
			out = append(out, el)
			continue
		}
		tms, err := ps.members(msg, e, trusted)
		if err != nil {
			out = append(out, el)
			continue
		}
		name := ""
		if n, _ := find(tms, "name"); n != nil {
			name, _ = text(msg, n.val)
		}
		if ownToolNamed(name) != nil && s.p.readVar {
			s.p.logf("the server's tool %s is hidden: the proxy answers calls of that name", name)
			changed = true
			continue
		}
		schema, _ := find(tms, "outputSchema")
		if schema == nil || !s.p.toolFor(name).rewrites() {
			out = append(out, el)
			continue
		}
		b := []byte{'{'}
		for _, m := range tms {
			if m.key == "outputSchema" {
				continue
			}
			if len(b) > 1 {
				b = append(b, ',')
			}
			b = append(b, m.raw(msg)...)
		}
		out = append(out, append(b, '}'))
		changed = true
	}
	if c.first && s.p.readVar {
		for _, t := range ownTools {
			out = append(out, []byte(t.def))
		}
		changed = true
	}
	if !changed {
		return msg
	}
	b := append([]byte{'['}, bytes.Join(out, []byte{','})...)
	return splice(msg, tools.val, append(b, ']'))
}
