package mcpproxy

import "sync"

// Bounds on what the server's messages behind a result being processed may
// hold in memory: past either, the proxy stops reading the server until
// the result is done.
const (
	maxHeldMessages = 4096
	maxHeldBytes    = 64 << 20
)

// ordered writes the server's messages to the client in the order the
// server sent them (SPEC P1). A message that passes goes out at once,
// unless a result before it is still being processed: then it waits in
// line behind that result, and goes out when the result does.
type ordered struct {
	out *clientWriter

	mu    sync.Mutex
	space sync.Cond // signalled when the line gets shorter
	line  []*slot   // the messages not yet written, in order; the first is being processed
	bytes int       // the bytes of the messages in line
}

// slot is a place in line: a message, or a result being processed.
type slot struct {
	msg  []byte
	done bool
}

func newOrdered(out *clientWriter) *ordered {
	o := &ordered{out: out}
	o.space.L = &o.mu
	return o
}

// put writes msg, or puts it in line. It waits while the line is full.
func (o *ordered) put(msg []byte) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.waitSpace()
	if len(o.line) == 0 { // nothing before it, or no more once there was room
		o.out.write(msg)
		return
	}
	// Held: msg may be the reader's buffer.
	o.line = append(o.line, &slot{msg: append([]byte(nil), msg...), done: true})
	o.bytes += len(msg)
}

// reserve returns a place in line for a result to be processed; fill
// gives it its message. It waits while the line is full.
func (o *ordered) reserve() *slot {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.waitSpace()
	sl := &slot{}
	o.line = append(o.line, sl)
	return sl
}

func (o *ordered) waitSpace() {
	for len(o.line) >= maxHeldMessages || o.bytes >= maxHeldBytes {
		o.space.Wait()
	}
}

// fill gives a reserved place its message (nil for none), and writes the
// messages at the head of the line that are done.
func (o *ordered) fill(sl *slot, msg []byte) {
	o.mu.Lock()
	defer o.mu.Unlock()
	sl.msg, sl.done = msg, true
	o.bytes += len(msg)
	n := 0
	for n < len(o.line) && o.line[n].done {
		if m := o.line[n].msg; m != nil {
			o.out.write(m)
		}
		o.bytes -= len(o.line[n].msg)
		o.line[n] = nil
		n++
	}
	if n > 0 {
		o.line = o.line[n:]
		if len(o.line) == 0 {
			o.line = nil
		}
		o.space.Broadcast()
	}
}
