package mcpproxy

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"time"

	"github.com/jsonmask/jsonmask"
	"github.com/jsonmask/jsonmask/internal/errs"
	"github.com/jsonmask/jsonmask/toolresult"
)

// DefaultGrace is how long the proxy waits for the server to exit after
// closing its standard input, and again after SIGTERM, before the next step.
// It is under a second so that the whole sequence (EOF, SIGTERM, SIGKILL)
// fits inside an MCP client's own (the SDKs': EOF, SIGTERM after 2 s,
// SIGKILL 2 s later): a stubborn server dies through the proxy as it would
// run directly.
const DefaultGrace = 900 * time.Millisecond

// Proxy is the compiled configuration of an MCP proxy: a mask and a
// toolresult.Processor per tool, and the store. It is immutable apart from
// what it remembers of the variables it made, and safe for concurrent use:
// each Run serves one client and one server.
type Proxy struct {
	tools   map[string]*tool
	def     *tool                 // a tool without an entry
	reader  *toolresult.Processor // reads variables that no tool of this proxy made
	readVar bool                  // read_variable is offered: some budget is on
	// listRewrites: tools/list results are rewritten (read_variable is
	// added, or some tool loses its outputSchema).
	listRewrites bool
	anyMask      bool // some tool has a mask: a task result that cannot be attributed is refused (P8)
	grace        time.Duration
	log          io.Writer

	mu   sync.Mutex
	vars map[string]*toolresult.Processor // the variables made, and the processor of the tool that made each
}

// tool is what the proxy does to one tool's results.
type tool struct {
	mask   *jsonmask.Mask
	proc   *toolresult.Processor // section 9 with the tool's mask and budget; nil when the budget is off
	arrays bool
	strict bool // a masked result whose payload the mask would pass is withheld
}

// rewrites reports whether the tool's results may be rewritten.
func (t *tool) rewrites() bool { return t.mask != nil || t.proc != nil }

// An Option configures a Proxy.
type Option func(*Proxy) error

// WithGrace sets how long the server is given to exit once its standard
// input is closed, and once it was sent SIGTERM, before it gets SIGTERM,
// and SIGKILL. It must be positive. Default: DefaultGrace.
func WithGrace(d time.Duration) Option {
	return func(p *Proxy) error {
		if d <= 0 {
			return errs.Errorf("WithGrace: the grace period must be positive, got %v", d)
		}
		p.grace = d
		return nil
	}
}

// WithLog writes the proxy's diagnostics to w, one line each: a message
// from the server that is not JSON and was dropped, a tool of the server
// hidden by read_variable, a result that could not be processed. They
// never hold content of a message. Default: none.
func WithLog(w io.Writer) Option {
	return func(p *Proxy) error { p.log = w; return nil }
}

// New compiles cfg: the masks, and a processor per tool on one store.
func New(cfg *Config, opts ...Option) (*Proxy, error) {
	p := &Proxy{tools: map[string]*tool{}, grace: DefaultGrace, log: io.Discard, vars: map[string]*toolresult.Processor{}}
	for _, o := range opts {
		if err := o(p); err != nil {
			return nil, err
		}
	}
	base := []toolresult.Option{}
	if cfg.Encoding != "" {
		base = append(base, toolresult.WithEncoding(cfg.Encoding))
	}
	if cfg.Store != "" {
		st, err := toolresult.OpenStore(context.Background(), cfg.Store)
		if err != nil {
			return nil, &configError{where: "store", err: err}
		}
		base = append(base, toolresult.WithStore(st))
	}
	base = append(base, toolresult.WithQueryLimits(cfg.Query), toolresult.WithLocation(cfg.VariableLocation))
	if cfg.Budget < 0 {
		return nil, errs.Errorf("config: budget must be at least 0, got %d", cfg.Budget)
	}
	readBudget := cfg.Budget
	if readBudget == 0 {
		readBudget = toolresult.DefaultBudget
	}
	reader, err := toolresult.New(append(base, toolresult.WithBudget(readBudget))...)
	if err != nil {
		return nil, &configError{err: err}
	}
	p.reader = reader
	if p.def, err = newTool(reader, nil, cfg.Budget, ToolConfig{}); err != nil {
		return nil, err
	}
	p.readVar = cfg.Budget > 0
	for name, tc := range cfg.Tools {
		budget := cfg.Budget
		if tc.Budget != nil {
			budget = *tc.Budget
		}
		if budget < 0 {
			return nil, errs.Errorf("config: tools.%s.budget must be at least 0, got %d", name, budget)
		}
		mask, err := tc.compile()
		if err != nil {
			return nil, errs.Errorf("config: tools.%s.%w", name, err)
		}
		tc.Strict = tc.Strict || cfg.Strict
		t, err := newTool(reader, mask, budget, tc)
		if err != nil {
			return nil, err
		}
		p.tools[name] = t
		p.readVar = p.readVar || budget > 0
		p.listRewrites = p.listRewrites || t.rewrites()
		p.anyMask = p.anyMask || mask != nil
	}
	p.listRewrites = p.listRewrites || p.readVar || p.def.rewrites()
	return p, nil
}

func newTool(base *toolresult.Processor, mask *jsonmask.Mask, budget int, tc ToolConfig) (*tool, error) {
	t := &tool{mask: mask, arrays: tc.Arrays, strict: tc.Strict}
	if budget > 0 {
		var err error
		// P3: a string member that holds JSON is read as JSON.
		opts := []toolresult.Option{toolresult.WithBudget(budget), toolresult.WithMask(mask), toolresult.WithInstructions(tc.Instructions), toolresult.WithJSONStrings(true)}
		if t.proc, err = base.With(opts...); err != nil {
			return nil, &configError{err: err}
		}
	}
	return t, nil
}

// configError is an error of the library or of toolresult in the
// configuration that New was given. It says "jsonmask: config: ", where
// (when a key is to blame), and the cause's errs.Detail: the prefix is said
// once. errors.Is and errors.As see the
// cause (a *jsonmask.MaskError, say).
type configError struct {
	where string // such as tools.NAME.response_mask, or ""
	err   error
}

func (e *configError) Error() string { return errs.Prefix + e.Detail() }

// Detail is the message without its "jsonmask: " (errs.Detail).
func (e *configError) Detail() string {
	msg := errs.Detail(e.err)
	if e.where != "" {
		msg = e.where + ": " + msg
	}
	return "config: " + msg
}

func (e *configError) Unwrap() error { return e.err }

// toolFor returns what the proxy does to the results of the tool called
// name.
func (p *Proxy) toolFor(name string) *tool {
	if t, ok := p.tools[name]; ok {
		return t
	}
	return p.def
}

// callTool returns what the proxy does to the result of a call: its
// tool's, or the default for a task result that cannot be attributed.
func (p *Proxy) callTool(c *call) *tool {
	if c.unattributed {
		return p.def
	}
	return p.toolFor(c.tool)
}

// rememberVariable remembers that a tool's processor made a variable, so that
// read_variable reads it under that tool's budget.
func (p *Proxy) rememberVariable(name string, proc *toolresult.Processor) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.vars) >= 1<<16 {
		clear(p.vars) // a bound on memory; a forgotten variable is read under the default budget
	}
	p.vars[name] = proc
}

// readerOf returns the processor that reads the variable called name.
func (p *Proxy) readerOf(name string) *toolresult.Processor {
	p.mu.Lock()
	defer p.mu.Unlock()
	if proc, ok := p.vars[name]; ok {
		return proc
	}
	return p.reader
}

// logf writes one diagnostic line.
func (p *Proxy) logf(format string, args ...any) {
	fmt.Fprintf(p.log, "jsonmask mcp: "+format+"\n", args...)
}

// Run starts cmd, the MCP server, and proxies between it and the client on
// stdin and stdout until either side ends (SPEC P1). cmd must not be
// started, nor have its Stdin or Stdout set; its Stderr is the caller's to
// set (os.Stderr passes the server's through). On Unix the server runs in
// a process group of its own, which is signalled as a whole: a server
// started through a wrapper (npx, sh -c) ends with it.
//
// When the client's stdin ends (or writing to stdout fails), the server's
// standard input is closed; a server that has not exited after the grace
// period gets SIGTERM, and after another one SIGKILL. When ctx is done (the
// proxy itself was told to stop), at any time, the server's input is
// closed and it gets SIGTERM at once, and SIGKILL after the grace period.
// When the server ends its output, Run waits for the results it is
// processing to be written, closes the server's input and waits for it to
// exit, with the same grace periods. Every wait is bounded: once the
// server has exited, what it started gets the grace period to close the
// server's output, then SIGKILL, then the output is closed. Run returns
// the server's exit status: its exit code, or 128 plus the number of the
// signal that ended it; an error only when the server could not be
// started.
//
// A stdin that has a SetReadDeadline method (an *os.File pipe, a
// net.Conn) is interrupted when the server ends, so that Run leaves no
// goroutine behind; reading any other stdin ends when it next returns.
func (p *Proxy) Run(ctx context.Context, cmd *exec.Cmd, stdin io.Reader, stdout io.Writer) (int, error) {
	// Pipes of our own rather than cmd's: cmd.Wait then waits for the
	// process alone, and reading its output is ours to bound.
	serverIn, toServer, err := os.Pipe()
	if err != nil {
		return 0, err
	}
	fromServer, serverOut, err := os.Pipe()
	if err != nil {
		serverIn.Close()
		toServer.Close()
		return 0, err
	}
	cmd.Stdin, cmd.Stdout = serverIn, serverOut
	ownGroup(cmd)
	err = cmd.Start()
	serverIn.Close()
	serverOut.Close()
	if err != nil {
		toServer.Close()
		fromServer.Close()
		return 0, err
	}
	exited := make(chan struct{})
	var waitErr error
	go func() {
		waitErr = cmd.Wait()
		close(exited)
	}()
	s := newSession(p, stdout, toServer)
	s.ctx = ctx

	serverDone := make(chan struct{})
	go func() {
		s.fromServer(fromServer)
		close(serverDone)
	}()
	clientDone := make(chan struct{})
	go func() {
		s.fromClient(stdin)
		close(clientDone)
	}()

	var stopper sync.WaitGroup
	select {
	case <-serverDone:
	case <-clientDone:
	case <-s.out.gone:
	case <-ctx.Done():
	}
	// The server ended its output, the client went away, or the proxy was
	// told to stop: either way the server gets no more input.
	toServer.Close()
	stopper.Go(func() { p.terminate(ctx, cmd, exited) })
	p.drain(cmd, serverDone, exited, fromServer)
	s.stop()
	s.wait() // the results being processed are written
	<-exited
	stopper.Wait()
	fromServer.Close()
	s.out.close()
	// Stop reading the client, where that is possible.
	if d, ok := stdin.(interface{ SetReadDeadline(time.Time) error }); ok {
		if d.SetReadDeadline(time.Unix(1, 0)) == nil {
			<-clientDone
		}
	}
	var ee *exec.ExitError
	if waitErr != nil && !errors.As(waitErr, &ee) {
		return 0, waitErr
	}
	return exitStatus(cmd.ProcessState), nil
}

// drain waits for the server's output to end. Once the server has exited,
// what it started and still holds its output gets the grace period, then
// SIGKILL (its group), then another grace period, and then the output is
// closed under the reader.
func (p *Proxy) drain(cmd *exec.Cmd, serverDone, exited <-chan struct{}, fromServer *os.File) {
	select {
	case <-serverDone:
		return
	case <-exited:
	}
	for step := 0; ; step++ {
		t := time.NewTimer(p.grace)
		select {
		case <-serverDone:
			t.Stop()
			return
		case <-t.C:
		}
		if step == 1 {
			fromServer.Close()
			<-serverDone
			return
		}
		signalGroup(cmd, syscall.SIGKILL)
	}
}

// terminate ends the server unless it exits by itself: after the grace
// period (or at once, when ctx is done: the proxy was told to stop)
// SIGTERM, after another one SIGKILL, each to the server's process group.
func (p *Proxy) terminate(ctx context.Context, cmd *exec.Cmd, exited <-chan struct{}) {
	t := time.NewTimer(p.grace)
	defer t.Stop()
	select {
	case <-exited:
		return
	case <-t.C:
	case <-ctx.Done():
	}
	signalGroup(cmd, syscall.SIGTERM)
	t.Reset(p.grace)
	select {
	case <-exited:
		return
	case <-t.C:
	}
	signalGroup(cmd, syscall.SIGKILL)
}

// exitStatus is the status a shell would report for the process.
func exitStatus(ps *os.ProcessState) int {
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return 128 + int(ws.Signal())
	}
	return ps.ExitCode()
}
