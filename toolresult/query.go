package toolresult

import (
	"bytes"
	"context"
	"errors"
	"io"
	"path/filepath"
	"runtime/metrics"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/itchyny/gojq"
	"github.com/jsonmask/jsonmask/internal/errs"
	"github.com/jsonmask/jsonmask/internal/jsonwire"
)

// Query is a jq program to run over a stored variable (SPEC C13): the
// arguments of the query_variable tool (P7).
type Query struct {
	// Name is the variable's name.
	Name string `json:"name"`
	// Program is the jq program (gojq's dialect).
	Program string `json:"program"`
	// Pointer is a JSON Pointer (RFC 6901) to the value the program runs
	// over; "" is the whole variable. Only that value is loaded.
	Pointer string `json:"pointer,omitempty"`
}

// QueryLimits bound what one query may cost (SPEC C13). A zero field
// takes its default.
type QueryLimits struct {
	// Load is the most bytes of the variable, or of the value at the
	// pointer, that a query loads. Default: DefaultQueryLoad.
	Load int64
	// Time is how long a query may take, loading included. Default:
	// DefaultQueryTime.
	Time time.Duration
	// Output is the most bytes of output (compact JSON, one value per
	// line) a query may produce. Default: DefaultQueryOutput.
	Output int64
	// Memory is the most the process's memory (what the Go runtime holds
	// from the system) may grow while the program runs, checked every few
	// milliseconds. Go cannot measure one
	// goroutine's memory, so this is the whole process's: other work
	// running at the same time counts too. Default: DefaultQueryMemory.
	Memory int64
}

// The limits' defaults, and the longest program.
const (
	DefaultQueryLoad   = 256 << 20
	DefaultQueryTime   = 10 * time.Second
	DefaultQueryOutput = 64 << 20
	DefaultQueryMemory = 1 << 30
	// MaxProgram is the longest jq program a query takes, in bytes.
	MaxProgram = 64 << 10
)

// WithQueryLimits bounds the queries of Query; zero fields keep their
// defaults (DefaultQueryLoad, DefaultQueryTime, DefaultQueryOutput).
// Negative values are an error.
func WithQueryLimits(l QueryLimits) Option {
	return func(p *Processor) error {
		if l.Load < 0 || l.Time < 0 || l.Output < 0 || l.Memory < 0 {
			return errs.New("WithQueryLimits: limits must be at least 0 (0: the default)")
		}
		p.qlim = l
		return nil
	}
}

// QueryLimits returns the limits of p's queries, defaults filled in.
func (p *Processor) QueryLimits() QueryLimits {
	l := p.qlim
	if l.Load == 0 {
		l.Load = DefaultQueryLoad
	}
	if l.Time == 0 {
		l.Time = DefaultQueryTime
	}
	if l.Output == 0 {
		l.Output = DefaultQueryOutput
	}
	if l.Memory == 0 {
		l.Memory = DefaultQueryMemory
	}
	return l
}

// ErrQueryLimit is wrapped by the error of a query that went past one of
// its limits; the error names the limit.
var ErrQueryLimit = errs.New("query limit")

// QueryError is the error of a jq program: its syntax (with the position),
// its compilation (an undefined function), its run (gojq's message, with
// the data it quotes left out), or a limit (wrapping ErrQueryLimit). It
// never quotes the variable's data.
type QueryError struct {
	// Kind is "syntax", "compile", "runtime" or "limit".
	Kind string
	// Limit names the limit a "limit" error went past: "program", "load",
	// "time", "output" or "memory".
	Limit string
	// Offset, Line and Column place a syntax error in the program (Line and
	// Column from 1; Column counts bytes).
	Offset, Line, Column int
	// Msg says what went wrong.
	Msg string
}

func (e *QueryError) Error() string { return errs.Prefix + e.Detail() }

// Detail is the message without its "jsonmask: " (errs.Detail).
func (e *QueryError) Detail() string {
	s := "query: "
	switch e.Kind {
	case "syntax":
		s += "syntax error at line " + strconv.Itoa(e.Line) + ", column " + strconv.Itoa(e.Column) + " (offset " + strconv.Itoa(e.Offset) + "): "
	case "limit":
		s += "limit " + e.Limit + ": "
	}
	return s + e.Msg
}

func (e *QueryError) Unwrap() error {
	if e.Kind == "limit" {
		return ErrQueryLimit
	}
	return nil
}

// Query runs a jq program over a stored variable, or over the value at a
// JSON Pointer in it, and returns its output as Process returns a tool's
// response (SPEC C13): within the budget as it is (several outputs one per
// line), over it as a new variable with its schema and a preview (several
// outputs gathered in an array, a scalar in an array of one). The mask and
// name of p do not apply: the variable holds data as masked when it was
// stored, so no query reaches what the mask dropped.
//
// Only the value at the pointer is loaded, found by streaming the variable
// (the rest is read past, not decoded). The program runs on gojq without
// access to the environment, files or input beyond the value; the limits of
// p (WithQueryLimits) bound its load, time and output.
//
// Errors: *QueryError for the program and the limits; ErrNoVariable
// (wrapped, with the name) for a name that is not stored (a variable being
// written is not stored until it is whole); a bad pointer, or one that
// names no value; the store's, or ctx's.
func (p *Processor) Query(ctx context.Context, q Query) (*Result, error) {
	code, err := compileQuery(q.Program)
	if err != nil {
		return nil, err
	}
	lim := p.QueryLimits()
	qctx, cancel := context.WithTimeout(ctx, lim.Time)
	defer cancel()
	doc, err := p.load(qctx, q.Name, q.Pointer, lim.Load)
	if err != nil {
		return nil, timeLimit(qctx, ctx, err, lim.Time)
	}
	v, err := decodeValue(doc, 0)
	if err != nil {
		return nil, errs.New("query: the variable " + strconv.Quote(q.Name) + " is not valid JSON: " + err.Error())
	}
	if err := qctx.Err(); err != nil {
		return nil, timeLimit(qctx, ctx, err, lim.Time)
	}
	rctx, stop := watchHeap(qctx, lim.Memory)
	outs, err := run(rctx, code, v, q.Program, lim)
	overHeap := stop()
	if err != nil {
		if overHeap {
			return nil, &QueryError{Kind: "limit", Limit: "memory", Msg: "the process's memory grew by more than " + strconv.FormatInt(lim.Memory, 10) + " bytes while the program ran"}
		}
		return nil, timeLimit(qctx, ctx, err, lim.Time)
	}
	return p.queryResult(ctx, outs)
}

// compileQuery parses and compiles a program, without the environment
// ($ENV is empty) or modules.
func compileQuery(prog string) (*gojq.Code, error) {
	if len(prog) > MaxProgram {
		return nil, &QueryError{Kind: "limit", Limit: "program", Msg: "the program is " + strconv.Itoa(len(prog)) + " bytes, over the limit of " + strconv.Itoa(MaxProgram)}
	}
	parsed, err := gojq.Parse(prog)
	if err != nil {
		var pe *gojq.ParseError
		if errors.As(err, &pe) {
			line, col := position(prog, pe.Offset)
			return nil, &QueryError{Kind: "syntax", Offset: pe.Offset, Line: line, Column: col, Msg: pe.Error()}
		}
		return nil, &QueryError{Kind: "syntax", Msg: err.Error()}
	}
	code, err := gojq.Compile(parsed)
	if err != nil {
		// Compile errors concern the program only (a function or variable
		// it does not define).
		return nil, &QueryError{Kind: "compile", Msg: err.Error()}
	}
	return code, nil
}

// position returns the line and column (from 1, in bytes) of offset in s.
// gojq's offset is just past the token at fault; the column is of its
// last byte.
func position(s string, offset int) (line, col int) {
	offset = min(max(offset, 1), len(s)+1)
	line, start := 1, 0
	for i := 0; i < offset-1 && i < len(s); i++ {
		if s[i] == '\n' {
			line, start = line+1, i+1
		}
	}
	return line, offset - start
}

// load reads the variable, or the value at ptr in it, compact, up to limit
// bytes.
func (p *Processor) load(ctx context.Context, name, ptr string, limit int64) ([]byte, error) {
	path, err := parsePointer(ptr)
	if err != nil {
		return nil, err
	}
	st, err := p.getStore()
	if err != nil {
		return nil, err
	}
	rc, size, err := openVariable(ctx, st, name)
	if errors.Is(err, ErrNoVariable) {
		return nil, &noVariableError{name: name}
	}
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	r := &ctxReader{ctx: ctx, r: rc}
	if len(path) == 0 {
		if size > limit {
			return nil, loadLimit(size, limit)
		}
		doc := make([]byte, 0, size+1)
		w := &capWriter{buf: bytes.NewBuffer(doc), max: limit}
		if _, err := io.Copy(w, r); err != nil {
			if errors.Is(err, errOverCap) {
				return nil, loadLimit(w.n, limit)
			}
			return nil, err
		}
		return w.buf.Bytes(), nil
	}
	w := &capWriter{buf: new(bytes.Buffer), max: limit}
	sl := &selector{name: name, path: path, w: w}
	// The rest of the variable is read past the value too, when the store
	// checks it as it is read (CheckContent).
	if err := checkRest(ctx, rc, sl.run(ctx, r, 32<<10)); err != nil {
		if errors.Is(err, errOverCap) {
			return nil, &QueryError{Kind: "limit", Limit: "load", Msg: "the value at " + strconv.Quote(ptr) + " is over the limit of " + strconv.FormatInt(limit, 10) + " bytes"}
		}
		return nil, err
	}
	return w.buf.Bytes(), nil
}

func loadLimit(n, limit int64) error {
	return &QueryError{Kind: "limit", Limit: "load", Msg: "the variable is " + strconv.FormatInt(n, 10) + " bytes, over the limit of " + strconv.FormatInt(limit, 10) + ": query a part of it with a JSON Pointer"}
}

// watchHeap returns a context that is cancelled when the process's heap
// grows by more than limit bytes from now, and a function that stops the
// watch and reports whether it cancelled.
func watchHeap(ctx context.Context, limit int64) (context.Context, func() bool) {
	ctx, cancel := context.WithCancel(ctx)
	// What the runtime holds from the system (heap, stacks, its own
	// structures), less what it gave back: close to the resident set.
	sample := []metrics.Sample{{Name: "/memory/classes/total:bytes"}, {Name: "/memory/classes/heap/released:bytes"}}
	heap := func() int64 {
		metrics.Read(sample)
		if sample[0].Value.Kind() != metrics.KindUint64 || sample[1].Value.Kind() != metrics.KindUint64 {
			return 0
		}
		return int64(sample[0].Value.Uint64()) - int64(sample[1].Value.Uint64())
	}
	base := heap()
	done := make(chan struct{})
	var over atomic.Bool
	go func() {
		t := time.NewTicker(5 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case <-t.C:
				if heap()-base > limit {
					over.Store(true)
					cancel()
					return
				}
			}
		}
	}()
	return ctx, func() bool {
		close(done)
		cancel()
		return over.Load()
	}
}

// timeLimit turns the end of the query's own deadline into the time
// limit's error; the caller's cancellation stays ctx's error.
func timeLimit(qctx, ctx context.Context, err error, d time.Duration) error {
	if qctx.Err() != nil && ctx.Err() == nil && (errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled)) {
		return &QueryError{Kind: "limit", Limit: "time", Msg: "the query took longer than " + d.String()}
	}
	return err
}

// errOverCap is a capWriter's error past its cap.
var errOverCap = errs.New("query: over the load limit")

// capWriter is a buffer that takes at most max bytes.
type capWriter struct {
	buf *bytes.Buffer
	max int64
	n   int64
}

func (w *capWriter) Write(p []byte) (int, error) {
	w.n += int64(len(p))
	if w.n > w.max {
		return 0, errOverCap
	}
	return w.buf.Write(p)
}

// ctxReader stops reading when ctx is done, or when r gives 0 bytes and no
// error jsonwire.MaxEmptyReads times in a row (io.ErrNoProgress).
type ctxReader struct {
	ctx   context.Context
	r     io.Reader
	empty int // reads in a row that gave nothing
}

func (r *ctxReader) Read(p []byte) (int, error) {
	if err := r.ctx.Err(); err != nil {
		return 0, err
	}
	n, err := r.r.Read(p)
	if len(p) == 0 { // nothing asked: nothing to count
		r.empty = 0
		return n, err
	}
	r.empty, err = jsonwire.Progress(n, err, r.empty)
	return n, err
}

// run runs code over v and returns its outputs, each as compact JSON.
func run(ctx context.Context, code *gojq.Code, v any, prog string, lim QueryLimits) ([][]byte, error) {
	var outs [][]byte
	var total int64
	iter := code.RunWithContext(ctx, v)
	for {
		out, ok := iter.Next()
		if !ok {
			return outs, nil
		}
		if err, ok := out.(error); ok {
			var h *gojq.HaltError
			if errors.As(err, &h) && h.Value() == nil {
				return outs, nil // halt: the outputs so far
			}
			if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
				return nil, err
			}
			return nil, &QueryError{Kind: "runtime", Msg: runtimeMessage(err, prog)}
		}
		b, err := gojq.Marshal(out)
		if err != nil {
			return nil, &QueryError{Kind: "runtime", Msg: "an output cannot be written as JSON"}
		}
		total += int64(len(b)) + 1
		if total > lim.Output {
			return nil, &QueryError{Kind: "limit", Limit: "output", Msg: "the output is over the limit of " + strconv.FormatInt(lim.Output, 10) + " bytes (after " + strconv.Itoa(len(outs)) + " outputs)"}
		}
		outs = append(outs, b)
		if err := ctx.Err(); err != nil {
			return nil, err
		}
	}
}

// queryResult fits a query's outputs to the budget.
func (p *Processor) queryResult(ctx context.Context, outs [][]byte) (*Result, error) {
	q := *p
	q.mask, q.name = nil, ""
	if len(outs) == 1 && (outs[0][0] == '{' || outs[0][0] == '[') {
		return q.process(ctx, bytes.NewReader(outs[0]), instructionsAsData)
	}
	// No output, a scalar, or several: one per line when they fit; else
	// stored as an array.
	lines := bytes.Join(outs, []byte{'\n'})
	n := 0
	if len(lines) > p.budget {
		n = p.tok.Count(lines, p.budget)
	} else if len(lines) > 0 {
		n = p.tok.Count(lines, -1)
	}
	arr := append(append([]byte{'['}, bytes.Join(outs, []byte{','})...), ']')
	if n <= p.budget {
		// Content is JSON: the one output, or the outputs in an array.
		content := arr
		if len(outs) == 1 {
			content = outs[0]
		}
		return &Result{Route: Passthrough, Text: string(lines), Content: content, Tokens: Tokens{Budget: p.budget, Context: n}}, nil
	}
	return q.process(ctx, bytes.NewReader(arr), instructionsAsData)
}

// WithLocation makes the model text of a variable name where it lives (SPEC
// C16): its file's path, or its object's URL, for a code interpreter
// outside the process to load (json.load in Python). Off by default: a
// path tells about the machine, and a reader that can open it reads the
// data outside the budget.
func WithLocation(on bool) Option {
	return func(p *Processor) error { p.location = on; return nil }
}

// A Locator is a Store that can say where a variable lives, for WithLocation.
type Locator interface {
	// Location returns the path or URL at which the variable called name
	// can be read, or "".
	Location(name string) string
}

// Location returns DIR/NAME.json.
func (s *DirStore) Location(name string) string {
	p, err := filepath.Abs(filepath.Join(s.dir, name+".json"))
	if err != nil {
		return ""
	}
	return p
}

// queryNote is what the note of a variable says about queries (C14) and,
// with WithLocation, where the variable lives (C16).
func (p *Processor) queryNote(name string) string {
	s := " Query all of it in one step (counts, sums, group-bys) with the query_variable tool and a jq program."
	if p.location {
		if st, err := p.getStore(); err == nil {
			if l, ok := st.(Locator); ok {
				if loc := l.Location(name); loc != "" {
					s += " Its JSON is at " + loc + "."
				}
			}
		}
	}
	return s
}
