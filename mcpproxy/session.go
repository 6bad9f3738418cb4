package mcpproxy

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"runtime"
	"strconv"
	"sync"

	"github.com/jsonmask/jsonmask/internal/jsonwire"
)

// session is one client and one server, connected by Run. Two goroutines
// pump messages: fromClient reads the client's lines and writes them to the
// server, fromServer reads the server's lines and writes them to the
// client. Results to be rewritten are processed by goroutines of their own,
// at most maxBusy at once, and written to the client when done.
//
// Order: messages go out in the order they came, in both directions (SPEC
// P1). A message that passes goes out as soon as it is read, unless a
// result before it from the server is still being processed: it then waits
// in line (package order.go), within bounds past which the server is not
// read until the result is done. A rewritten tools/list result is
// rewritten inline (it is small). The proxy's own answers (read_variable,
// errors for requests it refuses) go out when they are ready.
type session struct {
	p      *Proxy
	ctx    context.Context
	out    *clientWriter
	order  *ordered  // the server's messages to the client, in order
	server io.Writer // the server's stdin, written by fromClient only

	mu       sync.Mutex
	pending  map[string]*call              // requests sent to the server whose results are rewritten, by id
	busy     map[string]*call              // results being processed, by id
	own      map[string]context.CancelFunc // calls of the proxy's own tools being answered, by id: each ends its call's context
	work     sync.WaitGroup                // results being processed, and read_variable calls being answered
	stopping bool                          // Run is ending: no more work
	slots    chan struct{}                 // bounds how many results are processed at once
	tasks    map[string]string             // the tool of each task a tools/call created, by task id (SPEC P8)

	// A line of the server longer than streamAt is streamed, and its
	// values longer than bigAt are not held (longline.go).
	streamAt, bigAt int
	readSize        int // the server's reader's buffer
	maxHeld         int // the most held of a long line (maxHeldLine)
}

// call is a request of the client whose result the proxy rewrites.
type call struct {
	method string // "tools/list" or "tools/call"
	tool   string // the tool called
	first  bool   // tools/list: the first page (no cursor)
	// task: a tools/call that asks for a task (params.task), noted whatever
	// its tool, so that the proxy learns the task's id from its result.
	task bool
	// unattributed: a tasks/result of a task the proxy did not see created;
	// its result gets the default tool's budget (there is no mask then).
	unattributed bool
	cancelled    bool
	cancel       context.CancelFunc // while its result is processed
	// big: the values of a long line that its skeleton does not hold
	// (longline.go); nil for a line read whole.
	big *bigValues
}

const (
	toolsList   = "tools/list"
	toolsCall   = "tools/call"
	tasksResult = "tasks/result"
	tasksGet    = "tasks/get"
)

// maxTasks bounds the tasks remembered: past it they are forgotten, and a
// forgotten task's result is refused when some tool is masked.
const maxTasks = 1 << 16

// taskTool returns the tool whose tools/call created the task id.
func (s *session) taskTool(id string) (string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	tool, ok := s.tasks[id]
	return tool, ok
}

// taskMade remembers the tool of a task.
func (s *session) taskMade(id, tool string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.tasks) >= maxTasks {
		clear(s.tasks)
	}
	s.tasks[id] = tool
}

func newSession(p *Proxy, stdout, server io.Writer) *session {
	out := newClientWriter(stdout)
	return &session{
		p: p, ctx: context.Background(), out: out, order: newOrdered(out), server: server,
		pending: map[string]*call{}, busy: map[string]*call{}, own: map[string]context.CancelFunc{}, tasks: map[string]string{},
		slots:    make(chan struct{}, max(2, runtime.GOMAXPROCS(0))),
		streamAt: defaultStreamAt, bigAt: defaultBigAt, readSize: 64 << 10, maxHeld: maxHeldLine,
	}
}

// spawn runs f in a goroutine that wait waits for, unless the session is
// stopping: then f does not run, and spawn reports false.
func (s *session) spawn(f func()) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stopping {
		return false
	}
	s.work.Add(1)
	go func() {
		defer s.work.Done()
		f()
	}()
	return true
}

// process runs f, which rewrites a result, in a goroutine of its own once
// fewer than cap(slots) do: the caller (the server's pump) waits until
// then. What f returns takes the result's place in the line of the
// server's messages (nil: nothing is written), which the messages behind
// it wait for.
func (s *session) process(f func() []byte) {
	sl := s.order.reserve()
	s.slots <- struct{}{}
	if !s.spawn(func() {
		defer func() { <-s.slots }()
		s.order.fill(sl, f())
	}) {
		<-s.slots
		s.order.fill(sl, nil)
	}
}

// wait waits for the goroutines of spawn.
func (s *session) wait() { s.work.Wait() }

// stop makes spawn run nothing more, so that wait waits for what runs.
func (s *session) stop() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stopping = true
}

// clientWriter writes whole messages to the client, one at a time. After a
// write fails it writes nothing more and closes gone; after close it writes
// nothing.
type clientWriter struct {
	mu     sync.Mutex
	w      io.Writer
	failed bool
	closed bool
	gone   chan struct{}
}

func newClientWriter(w io.Writer) *clientWriter {
	return &clientWriter{w: w, gone: make(chan struct{})}
}

// write writes msg, and a newline after it unless it ends with one.
func (c *clientWriter) write(msg []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.failed || c.closed {
		return
	}
	_, err := c.w.Write(msg)
	if err == nil && (len(msg) == 0 || msg[len(msg)-1] != '\n') {
		_, err = c.w.Write([]byte{'\n'})
	}
	if err != nil {
		c.failed = true
		close(c.gone)
	}
}

func (c *clientWriter) close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.closed = true
}

// readLine returns the next line of r, with its '\n' (the last line may have
// none): the reader's own buffer when the line fits in it, valid until the
// next read, or else buf, made to hold it. A long line is gathered in
// pieces and copied into buf once, sized to it: growing one slice as it
// comes would copy it over and over, and hold up to twice its size while
// it grows.
//
// With a limit over 0, a line longer than limit is not read whole: readLine
// returns its first pieces, at least limit bytes, and errLongLine; the rest
// is still to be read from r.
func readLine(r *bufio.Reader, buf *[]byte, limit int) ([]byte, error) {
	line, err := r.ReadSlice('\n')
	if err != bufio.ErrBufferFull {
		return line, err
	}
	pieces := [][]byte{bytes.Clone(line)}
	n := len(line)
	for err == bufio.ErrBufferFull {
		if limit > 0 && n >= limit {
			err = errLongLine
			break
		}
		line, err = r.ReadSlice('\n')
		pieces = append(pieces, bytes.Clone(line))
		n += len(line)
	}
	b := (*buf)[:0]
	if cap(b) < n {
		b = make([]byte, 0, n)
	}
	for i, p := range pieces {
		b = append(b, p...)
		pieces[i] = nil
	}
	*buf = b
	return b, err
}

// errLongLine: readLine stopped in a line longer than its limit.
var errLongLine = errors.New("a long line")

// firstByte returns the first byte of line that is not JSON whitespace, or 0.
func firstByte(line []byte) byte {
	for _, c := range line {
		if !jsonwire.IsSpace(c) {
			return c
		}
	}
	return 0
}

// fromClient reads the client's messages until its input ends, and writes
// to the server those that are for it.
func (s *session) fromClient(r io.Reader) {
	lr := newLineReader(r)
	var ps parser
	for {
		line, _, err := lr.next()
		if len(line) > 0 {
			if fwd := s.clientLine(&ps, line); fwd != nil {
				if _, werr := s.server.Write(fwd); werr != nil {
					return
				}
			}
		}
		if err != nil {
			return
		}
	}
}

// fromServer reads the server's messages until its output ends, and writes
// them to the client, rewritten where they are results to rewrite.
func (s *session) fromServer(r io.Reader) {
	lr := &lineReader{br: bufio.NewReaderSize(r, s.readSize), limit: s.streamAt}
	var ps parser
	for {
		line, owned, err := lr.next()
		if err == errLongLine {
			s.serverLong(&ps, line, lr.br)
			lr.kept()
			continue
		}
		if len(line) > 0 && s.serverLineOwned(&ps, line, owned) {
			lr.kept()
		}
		if err != nil {
			return
		}
	}
}

// lineReader reads the lines of a peer (readLine), into a buffer that it
// reuses unless it grew past 1 MiB: it does not keep the largest message's
// memory.
type lineReader struct {
	br    *bufio.Reader
	buf   []byte
	limit int // lines longer than this are left to the caller (readLine); 0: none
}

func newLineReader(r io.Reader) *lineReader {
	return &lineReader{br: bufio.NewReaderSize(r, 64<<10)}
}

// next returns the next line, and whether it is owned: read into the
// buffer (not the reader's own), so that the caller may keep it, and then
// says so with kept.
func (lr *lineReader) next() (line []byte, owned ownership, err error) {
	if cap(lr.buf) > 1<<20 {
		lr.buf = nil
	}
	line, err = readLine(lr.br, &lr.buf, lr.limit)
	owned = ownership(len(line) > 0 && len(lr.buf) > 0 && &line[0] == &lr.buf[0])
	return line, owned, err
}

// kept says that the caller keeps the line that next returned: the next
// line gets a buffer of its own.
func (lr *lineReader) kept() { lr.buf = nil }

// Error codes of JSON-RPC 2.0.
const (
	codeParse          = -32700
	codeInvalidRequest = -32600
)

// replyError writes a JSON-RPC error response to the client.
func (s *session) replyError(id []byte, code int, msg string) {
	if id == nil {
		id = []byte("null")
	}
	b := append([]byte(`{"jsonrpc":"2.0","id":`), id...)
	b = append(b, `,"error":{"code":`...)
	b = strconv.AppendInt(b, int64(code), 10)
	b = append(b, `,"message":`...)
	b = jsonwire.AppendQuote(b, msg)
	b = append(b, "}}\n"...)
	s.out.write(b)
}
