package toolresult

import (
	"bytes"
	"context"
	"encoding/hex"
	"errors"
	"io"
	"strconv"
	"strings"

	"github.com/jsonmask/jsonmask"
	"github.com/jsonmask/jsonmask/schema"
)

// DefaultBudget is the token budget unless WithBudget says otherwise (C1).
const DefaultBudget = 7000

// Processor turns tool responses into what a model sees (SPEC section 9). It
// is immutable and safe for concurrent use: an MCP proxy keeps one per tool
// (With derives them) and calls Process for every result, concurrently.
type Processor struct {
	budget   int
	tok      Tokenizer
	mask     *jsonmask.Mask
	store    Store
	name     string
	qlim     QueryLimits // Query's limits (query.go)
	location bool        // the note says where a variable lives (WithLocation)
}

// An Option configures a Processor.
type Option func(*Processor) error

// WithBudget sets the token budget: data of at most n tokens passes, larger
// structured data becomes a variable. n must be at least 1. Default:
// DefaultBudget.
func WithBudget(n int) Option {
	return func(p *Processor) error {
		if n < 1 {
			return errors.New("jsonmask: WithBudget: budget must be at least 1, got " + strconv.Itoa(n))
		}
		p.budget = n
		return nil
	}
}

// WithEncoding counts tokens with the named encoding (see NewTokenizer).
// Default: DefaultEncoding.
func WithEncoding(name string) Option {
	return func(p *Processor) error {
		t, err := NewTokenizer(name)
		p.tok = t
		return err
	}
}

// WithTokenizer counts tokens with t.
func WithTokenizer(t Tokenizer) Option {
	return func(p *Processor) error { p.tok = t; return nil }
}

// WithMask applies m to every response first (nil: none). The mask's
// options apply: WithStrict rejects bodies that are not objects, and so on.
func WithMask(m *jsonmask.Mask) Option {
	return func(p *Processor) error { p.mask = m; return nil }
}

// WithStore keeps variables in s. Default: a DirStore in
// $TMPDIR/jsonmask-variables, made when first needed.
func WithStore(s Store) Option {
	return func(p *Processor) error { p.store = s; return nil }
}

// WithName names the variable a response becomes, instead of var_ and the
// first 12 hex digits of its SHA-256 (C6). For one call: p.With(WithName(n)).
func WithName(name string) Option {
	return func(p *Processor) error {
		if name != "" && !validName(name) {
			return errors.New(`jsonmask: WithName: bad variable name "` + name + `": want 1 to 128 of a-z A-Z 0-9 _ - .`)
		}
		p.name = name
		return nil
	}
}

// New returns a Processor with the options applied over the defaults.
func New(opts ...Option) (*Processor, error) {
	return (&Processor{budget: DefaultBudget}).With(opts...)
}

// With returns a copy of p with opts applied; p is unchanged.
func (p *Processor) With(opts ...Option) (*Processor, error) {
	q := *p
	for _, o := range opts {
		if err := o(&q); err != nil {
			return nil, err
		}
	}
	if q.tok == nil {
		t, err := NewTokenizer(DefaultEncoding)
		if err != nil {
			return nil, err
		}
		q.tok = t
	}
	return &q, nil
}

// Budget returns the token budget.
func (p *Processor) Budget() int { return p.budget }

// Tokenizer returns the tokenizer p counts with.
func (p *Processor) Tokenizer() Tokenizer { return p.tok }

func (p *Processor) getStore() (Store, error) {
	if p.store != nil {
		return p.store, nil
	}
	return defaultStore()
}

// Process reads a tool's response from r, once, streaming, and returns what
// the model gets: the data as it is, a stored variable with a schema and a
// preview, or the text (SPEC C2 to C5, C11).
//
// The body's display_instructions_for_model members are taken out first,
// then the mask applies. Data that is a valid JSON object or array is
// structured: within the budget it passes, over it it is written to the
// store as it streams by, while its schema, a sample for the preview and the
// hints are gathered in the same pass; memory does not grow with the body
// past the budget's caps. Anything else is plaintext, held and returned
// whole. Errors are the mask's (*jsonmask.SyntaxError: the body is rejected,
// nothing of it is returned), r's, the store's, or ctx's; on error no
// variable is left behind.
func (p *Processor) Process(ctx context.Context, r io.Reader) (*Result, error) {
	return p.process(ctx, r, true)
}

// process is Process; instructions says whether display_instructions_for_model
// members are taken out (C2), which ReadVariable does not want.
func (p *Processor) process(ctx context.Context, r io.Reader, instructions bool) (*Result, error) {
	sk := &sink{p: p, ctx: ctx}
	sk.in.SetObserver(&sk.smp)
	sk.smp = *newSampler(p.budget)
	var w io.Writer = sk
	var mw *jsonmask.Writer
	if p.mask != nil {
		mw = p.mask.NewWriter(sk)
		w = mw
	}
	var ex *extractor
	if instructions {
		ex = newExtractor(w, p.mask != nil)
		w = ex
	}
	buf := make([]byte, 32<<10)
	err := func() error {
		for {
			if err := ctx.Err(); err != nil {
				return err
			}
			n, rerr := r.Read(buf)
			if n > 0 {
				if _, err := w.Write(buf[:n]); err != nil {
					return err
				}
			}
			if rerr == io.EOF {
				break
			}
			if rerr != nil {
				return rerr
			}
		}
		if ex != nil {
			if err := ex.Close(); err != nil {
				return err
			}
		}
		if mw != nil {
			return mw.Close()
		}
		return nil
	}()
	if err == nil {
		err = sk.err
	}
	if err != nil {
		sk.discard()
		return nil, err
	}
	var instr []string
	if ex != nil {
		instr = ex.instr
	}
	return sk.finish(instr)
}

// ProcessBytes is Process for a body in memory. It reads body where it is,
// without a copy, and does not keep it.
func (p *Processor) ProcessBytes(ctx context.Context, body []byte) (*Result, error) {
	return p.Process(ctx, bytes.NewReader(body))
}

// sink receives the data (the body without instructions, masked) a window
// at a time.
type sink struct {
	p   *Processor
	ctx context.Context

	started    bool
	structured bool
	lead       int // bytes of a byte-order mark still to skip for the schema
	held       []byte
	n          int64 // bytes of data
	invalid    bool  // the data is not valid JSON

	in  schema.Inferrer
	smp sampler

	draft Draft
	st    *storer // writes and hashes what goes to draft
	err   error
}

func (s *sink) Write(p []byte) (int, error) {
	if s.err != nil {
		return 0, s.err
	}
	s.n += int64(len(p))
	if !s.started {
		s.classify(p)
	}
	if s.st != nil {
		// Handed over first: the store works while the schema reads.
		if err := s.st.Write(p); err != nil {
			s.err = err
			return 0, err
		}
	}
	if s.structured && !s.invalid {
		q := p
		for s.lead > 0 && len(q) > 0 {
			q, s.lead = q[1:], s.lead-1
		}
		if _, err := s.in.Write(q); err != nil {
			s.invalid = true
		}
	}
	if s.st != nil {
		return len(p), nil
	}
	s.held = append(s.held, p...)
	// Past this many bytes the data holds more than budget tokens, whatever
	// it is: it is a variable, unless it turns out not to be JSON.
	if s.structured && !s.invalid && len(s.held) > maxTokenBytes*(s.p.budget+1) {
		if err := s.spill(); err != nil {
			s.err = err
			return 0, err
		}
	}
	return len(p), nil
}

// classify looks at the data's first byte that is not whitespace (after a
// byte-order mark): '{' or '[' is structured, anything else plaintext.
func (s *sink) classify(p []byte) {
	all := append(s.held, p...)
	i := 0
	if len(all) >= 3 && string(all[:3]) == "\xEF\xBB\xBF" {
		i = 3
	} else if len(all) < 3 && string("\xEF\xBB\xBF"[:len(all)]) == string(all) {
		return
	}
	for i < len(all) && (all[i] == ' ' || all[i] == '\t' || all[i] == '\n' || all[i] == '\r') {
		i++
	}
	if i == len(all) {
		return
	}
	s.started = true
	s.structured = all[i] == '{' || all[i] == '['
	if s.structured {
		if i >= 3 && string(all[:3]) == "\xEF\xBB\xBF" {
			s.lead = 3
		}
		// What came before this window (whitespace, a mark) goes to the
		// schema first.
		if len(s.held) > 0 {
			q := s.held
			for s.lead > 0 && len(q) > 0 {
				q, s.lead = q[1:], s.lead-1
			}
			s.in.Write(q)
		}
	}
}

// spill moves the data held so far to a new draft in the store.
func (s *sink) spill() error {
	st, err := s.p.getStore()
	if err != nil {
		return err
	}
	d, err := st.Create()
	if err != nil {
		return err
	}
	s.draft, s.st = d, newStorer(d)
	err = s.st.Write(s.held)
	s.held = nil
	return err
}

// stored waits until the data handed to the draft is written, and returns
// the draft's error.
func (s *sink) stored() error {
	if s.st == nil {
		return nil
	}
	return s.st.close()
}

func (s *sink) discard() {
	s.stored()
	if s.draft != nil {
		s.draft.Discard()
		s.draft = nil
	}
}

// finish decides the route once the data has ended.
func (s *sink) finish(instr []string) (*Result, error) {
	p := s.p
	res := &Result{Tokens: Tokens{Budget: p.budget}}
	if len(instr) > 0 {
		res.Instructions = strings.Join(instr, "\n")
		res.Tokens.Instructions = p.tok.Count([]byte(res.Instructions), -1)
	}
	if s.structured && !s.invalid {
		if err := s.in.End(); err != nil {
			s.invalid = true
		}
	}
	if !s.structured || s.invalid {
		// Plaintext: the whole data, read back from the draft if it was
		// spilled before it turned out not to be JSON.
		if s.draft != nil {
			if err := s.stored(); err != nil {
				s.discard()
				return nil, err
			}
			s.held = make([]byte, s.n)
			if _, err := s.draft.ReadAt(s.held, 0); err != nil && err != io.EOF {
				s.discard()
				return nil, err
			}
			s.discard()
		}
		res.Route, res.Content, res.Text = Plaintext, s.held, string(s.held)
		res.Tokens.Context = p.tok.Count(s.held, -1)
		if res.Tokens.Context > p.budget {
			res.OverBudget = true
			res.Note = "The text is over the budget (" + strconv.Itoa(res.Tokens.Context) + " tokens of " + strconv.Itoa(p.budget) + "): it enters the context whole, as plaintext does."
			res.Hints = append(res.Hints, Hint{Pointer: "", Hint: "the response is plaintext: as a JSON object or array it would be stored as a variable, with a schema and a preview, instead of entering the context whole"})
		}
		return res, nil
	}
	if s.draft == nil {
		// Structured and held: count it, with an early exit past the
		// budget. Data of at most budget bytes holds at most budget
		// tokens: it passes whatever the count.
		n := p.tok.Count(s.held, p.budget)
		if n <= p.budget {
			res.Route, res.Content, res.Text = Passthrough, s.held, string(s.held)
			res.Tokens.Context = n
			res.Hints = s.hints()
			return res, nil
		}
		if err := s.spill(); err != nil {
			s.discard()
			return nil, err
		}
	}
	return s.variable(res)
}

func (s *sink) hints() []Hint {
	h := s.smp.hints
	if s.smp.dropped > 0 {
		h = append(h, Hint{Pointer: "", Hint: strconv.Itoa(s.smp.dropped) + " more strings hold JSON text"})
	}
	return h
}

// variable stores the data and writes the model text within the budget.
func (s *sink) variable(res *Result) (*Result, error) {
	p := s.p
	if err := s.stored(); err != nil {
		s.discard()
		return nil, err
	}
	sum := s.st.sum.Sum(nil)
	name := p.name
	if name == "" {
		name = "var_" + hex.EncodeToString(sum)[:12]
	}
	// The commit (a DirStore syncs the file to disk) and the fitting of the
	// model text, which needs only the name, run side by side.
	type committed struct {
		path string
		err  error
	}
	done := make(chan committed, 1)
	go func(d Draft) {
		path, err := d.Commit(name)
		done <- committed{path, err}
	}(s.draft)
	s.draft = nil
	res.Route = Variable
	res.Variable = &StoredVariable{Name: name, Bytes: s.n, SHA256: hex.EncodeToString(sum)}
	res.Schema = s.in.Schema()
	res.Hints = s.hints()
	res.Note = "The response (" + strconv.FormatInt(s.n, 10) + " bytes, over the " + strconv.Itoa(p.budget) +
		"-token budget) is stored as the variable " + name + ": its schema, a preview and what the preview omits follow." +
		" Read more with the read_variable tool (name, optional JSON Pointer, offset and limit for arrays)." +
		p.queryNote(name)
	fitText(p, res, s.smp.root, s.smp.maxChars)
	c := <-done
	if c.err != nil {
		return nil, c.err
	}
	res.Variable.Path = c.path
	return res, nil
}

// fitText writes res.Text, res.Content and res.Omitted: the note, the schema
// at the deepest depth that takes at most a quarter of the budget, and the
// largest preview that keeps the text within the budget. Only the final
// text is counted whole, once per try.
func fitText(p *Processor, res *Result, root *snode, maxChars int) {
	depth := res.Schema.Depth()
	for depth > 1 && p.tok.Count([]byte(res.Schema.Compact(depth)), p.budget/4) > p.budget/4 {
		depth--
	}
	// A preview under half the budget (C8) gets room from the schema.
	for ; ; depth-- {
		fitPreview(p, res, root, maxChars, depth)
		if depth <= 1 || res.OverBudget || p.tok.Count(res.Content, p.budget/2) >= p.budget/2 || !previewCut(res.Omitted) {
			return
		}
	}
}

// previewCut reports whether the preview left anything out.
func previewCut(o []Omission) bool { return len(o) > 0 }

// fitPreview is fitText with the schema at a given depth.
func fitPreview(p *Processor, res *Result, root *snode, maxChars, depth int) {
	budget := p.budget
	pv := &previewer{tok: p.tok, root: root, max: max(maxChars, 1<<20)}
	compact := res.Schema.Compact(depth)
	res.SchemaDepth = depth
	if depth >= res.Schema.Depth() {
		res.SchemaDepth = 0
	}
	assemble := func() string {
		preview := render(nil, root)
		res.Content = preview
		res.Omitted = omissions(nil, root, "")
		var b strings.Builder
		b.WriteString(res.Note)
		b.WriteString("\n\nSchema:\n")
		b.WriteString(compact)
		b.WriteString("\n\nPreview:\n")
		b.Write(preview)
		if len(res.Omitted) > 0 {
			b.WriteString("\n\nOmitted from the preview (kept of total):\n")
			b.WriteString(omissionLines(res.Omitted))
		}
		return b.String()
	}
	fixed := p.tok.Count([]byte(res.Note+compact), -1) + 16
	target := budget - fixed
	best, bestN, bestTarget := "", 0, 0
	for try := 0; try < 8 && target > 0; try++ {
		pv.build(target)
		text := assemble()
		n := p.tok.Count([]byte(text), -1)
		if n <= budget {
			best, bestN, bestTarget = text, n, target
			if budget-n < budget/20+8 || try >= 4 {
				break
			}
			target += (budget - n) * 3 / 4 // room left: ask for more
			continue
		}
		if best != "" {
			break
		}
		target -= n - budget + target/50 + 1
	}
	if best == "" {
		// The smallest rendering: the schema at depth 1, an empty preview.
		reset(root)
		compact = res.Schema.Compact(1)
		res.SchemaDepth = 1
		best = assemble()
		bestN = p.tok.Count([]byte(best), -1)
		res.OverBudget = bestN > budget
		if res.OverBudget {
			res.Note += " Even this shortest form is over the budget."
			best = assemble()
			bestN = p.tok.Count([]byte(best), -1)
		}
	} else {
		// Build again what was kept (build is deterministic), so that
		// Content and Omitted match the text.
		pv.build(bestTarget)
		best = assemble()
	}
	res.Text, res.Tokens.Context = best, bestN
}
