package toolresult

import (
	"bytes"
	"context"
	"encoding/hex"
	"errors"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/jsonmask/jsonmask"
	"github.com/jsonmask/jsonmask/internal/errs"
	"github.com/jsonmask/jsonmask/internal/jsonwire"
	"github.com/jsonmask/jsonmask/schema"
	"github.com/jsonmask/jsonmask/tokenizer"
)

// DefaultBudget is the token budget unless WithBudget says otherwise (C1).
const DefaultBudget = 7000

// Processor turns tool responses into what a model sees (SPEC section 9). It
// is immutable and safe for concurrent use: an MCP proxy keeps one per tool
// (With derives them) and calls Process for every result, concurrently.
type Processor struct {
	budget int
	tok    Tokenizer
	mask   *jsonmask.Mask
	store  Store
	name   string
	qlim   QueryLimits // Query's limits (query.go)
	// location: the note says where a variable lives (WithLocation).
	location bool
	// noInstructions: display_instructions_for_model is data (C2's routing
	// is off).
	noInstructions bool
	// jsonStrings: strings that hold JSON text are read as JSON (WithJSONStrings).
	jsonStrings bool
}

// MaxInstructionTokens caps the instructions a response carries (C2):
// past it they are cut, at a character boundary.
const MaxInstructionTokens = 2000

// An Option configures a Processor.
type Option func(*Processor) error

// WithBudget sets the token budget: data of at most n tokens passes, larger
// structured data becomes a variable. 0 turns the budget off (as in the MCP
// proxy's configuration): all data passes, counted, held whole. Default:
// DefaultBudget.
func WithBudget(n int) Option {
	return func(p *Processor) error {
		if n < 0 {
			return errs.New("the budget must be at least 0 (0: off), got " + strconv.Itoa(n))
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

// WithInstructions says whether a top-level display_instructions_for_model
// member is taken out and returned as the instructions (SPEC C2), which
// reach the model whatever the mask keeps. Off, the member is data like
// any other, and the mask applies to it. Default: on.
func WithInstructions(on bool) Option {
	return func(p *Processor) error { p.noInstructions = !on; return nil }
}

// WithStore keeps variables in s. Default: a DirStore in
// $TMPDIR/jsonmask-variables, made when first needed.
func WithStore(s Store) Option {
	return func(p *Processor) error { p.store = s; return nil }
}

// WithName names the variable a response becomes, instead of var_ and the
// first 12 hex digits of its SHA-256 (C6). For one call: p.With(WithName(n)).
// A named response over the budget is always a variable, even when it costs
// fewer tokens than the note about it.
func WithName(name string) Option {
	return func(p *Processor) error {
		if name != "" && !validName(name) {
			return errs.New(`WithName: bad variable name "` + name + `": want 1 to 128 of a-z A-Z 0-9 _ - .`)
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
// nothing of it is returned), r's (io.ErrNoProgress when r gives 0 bytes
// and no error 100 times in a row), the store's, or ctx's; on error no
// variable is left behind.
func (p *Processor) Process(ctx context.Context, r io.Reader) (*Result, error) {
	route := takeInstructions
	if p.noInstructions {
		route = instructionsAsData
	}
	return p.process(ctx, r, route)
}

// instructionRoute says what process does with display_instructions_for_model
// members (C2): takes them out, or leaves them in the data (as ReadVariable
// and queries want: what was stored is data).
type instructionRoute bool

const (
	takeInstructions   instructionRoute = true
	instructionsAsData instructionRoute = false
)

// process is Process, with the instructions' route.
func (p *Processor) process(ctx context.Context, r io.Reader, instructions instructionRoute) (*Result, error) {
	sk := &dataWriter{p: p, ctx: ctx}
	sk.in.SetObserver(&sk.smp)
	sk.smp = *newSampler(p.budget)
	var w io.Writer = sk
	var js *jsonStrings
	if p.jsonStrings {
		js = newJSONStrings(sk, 0)
		w = js
		sk.restore = js.restore
	}
	var mw *jsonmask.Writer
	if p.mask != nil {
		mw = p.mask.NewWriter(w)
		w = mw
	}
	var ex *extractor
	if instructions == takeInstructions {
		ex = newExtractor(w, p.mask != nil)
		w = ex
	}
	buf := make([]byte, 32<<10)
	in := &ctxReader{ctx: ctx, r: r} // a source that gives nothing is given up
	err := func() error {
		for {
			if err := ctx.Err(); err != nil {
				return err
			}
			n, rerr := in.Read(buf)
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
			if err := mw.Close(); err != nil {
				return err
			}
		}
		if js != nil {
			return js.Close()
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

// dataWriter receives the data (the body without instructions, masked) a window
// at a time.
type dataWriter struct {
	p   *Processor
	ctx context.Context

	started    bool
	structured bool
	lead       int // bytes of a byte-order mark still to skip for the schema
	held       []byte
	n          int64 // bytes of data
	invalid    bool  // the data is not valid JSON
	invalidErr error // why, when it starts like JSON
	bom        bool  // the data starts with a byte-order mark

	in  schema.Inferrer
	smp sampler

	draft Draft
	st    *storer // writes and hashes what goes to draft
	err   error
	// restore undoes what jsonStrings did to data that turns out to be
	// plaintext (nil: nothing to undo).
	restore func([]byte) []byte
}

func (s *dataWriter) Write(p []byte) (int, error) {
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
			s.invalid, s.invalidErr = true, err
		}
	}
	if s.st != nil {
		return len(p), nil
	}
	s.held = append(s.held, p...)
	// Past this many bytes the data holds more than budget tokens, whatever
	// it is: it is a variable, unless it turns out not to be JSON.
	if s.structured && !s.invalid && s.p.budget > 0 && len(s.held) > maxTokenBytes*(s.p.budget+1) {
		if err := s.spill(); err != nil {
			s.err = err
			return 0, err
		}
	}
	return len(p), nil
}

// classify looks at the data's first byte that is not whitespace (after a
// byte-order mark): '{' or '[' is structured, anything else plaintext.
func (s *dataWriter) classify(p []byte) {
	all := append(s.held, p...)
	if jsonwire.CutBOM(all) {
		return // read on: this may be the start of a byte-order mark
	}
	i := jsonwire.LeadLen(all)
	if i == len(all) {
		return
	}
	s.started = true
	s.structured = all[i] == '{' || all[i] == '['
	if s.structured {
		if i >= len(jsonwire.BOM) && string(all[:len(jsonwire.BOM)]) == jsonwire.BOM {
			s.lead, s.bom = len(jsonwire.BOM), true
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
func (s *dataWriter) spill() error {
	st, err := s.p.getStore()
	if err != nil {
		return err
	}
	d, err := createDraft(s.ctx, st)
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
func (s *dataWriter) stored() error {
	if s.st == nil {
		return nil
	}
	return s.st.close()
}

func (s *dataWriter) discard() {
	s.stored()
	if s.draft != nil {
		s.draft.Discard()
		s.draft = nil
	}
}

// finish decides the route once the data has ended.
func (s *dataWriter) finish(instr []string) (*Result, error) {
	p := s.p
	res := &Result{Tokens: Tokens{Budget: p.budget}}
	if len(instr) > 0 {
		// The instructions count against the budget (C2): the data gets
		// what they leave, at least 1 token.
		res.Instructions, res.Tokens.Instructions = capTokens(p.tok, strings.Join(instr, "\n"), MaxInstructionTokens)
		if left := p.budget - res.Tokens.Instructions; left != p.budget && p.budget > 0 {
			q := *p
			q.budget = max(left, 1)
			s.p, p = &q, &q
		}
	}
	if s.structured && !s.invalid {
		if err := s.in.End(); err != nil {
			s.invalid, s.invalidErr = true, err
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
		if s.restore != nil {
			s.held = s.restore(s.held) // strings read as JSON go back to what they were
		}
		res.Route, res.Content, res.Text = Plaintext, s.held, string(s.held)
		res.Tokens.Context = p.tok.Count(s.held, -1)
		over := res.Tokens.Context > p.budget && p.budget > 0
		if over {
			res.OverBudget = true
			res.Note = "The text is over the budget (" + strconv.Itoa(res.Tokens.Context) + " tokens of " + strconv.Itoa(p.budget) + "): it enters the context whole, as plaintext does."
		}
		switch {
		case s.invalid:
			// It starts like JSON: say that it is not, and where.
			why := "the response starts like JSON but is not valid JSON"
			// The schema's error wraps the tokenizer's, whose message
			// says what and where without a prefix.
			var te *tokenizer.Error
			if errors.As(s.invalidErr, &te) {
				why += ": " + te.Error()
				if s.bom {
					why += " (offsets after the byte-order mark)"
				}
			}
			res.Hints = append(res.Hints, Hint{Pointer: "", Hint: why})
		case over:
			res.Hints = append(res.Hints, Hint{Pointer: "", Hint: "the response is plaintext: as a JSON object or array it would be stored as a variable, with a schema and a preview, instead of entering the context whole"})
		}
		return res, nil
	}
	if s.draft == nil {
		// Structured and held: count it, with an early exit past the
		// budget. Data of at most budget bytes holds at most budget
		// tokens: it passes whatever the count.
		limit := p.budget
		if limit == 0 {
			limit = -1 // off: counted whole, and passes
		}
		n := p.tok.Count(s.held, limit)
		if n <= p.budget || p.budget == 0 {
			res.Route, res.Content, res.Text = Passthrough, s.held, string(s.held)
			res.Tokens.Context = n
			res.Hints = s.hints()
			return res, nil
		}
		data := s.held
		if err := s.spill(); err != nil {
			s.discard()
			return nil, err
		}
		r, err := s.variable(res)
		if err == nil && r.OverBudget && p.name == "" {
			// With a budget smaller than any note, data that costs no more
			// than the note about it passes as it is (C8), unless the
			// caller named the variable. It stays stored too, masked as it
			// is.
			if n := p.tok.Count(data, r.Tokens.Context); n <= r.Tokens.Context {
				return cheaper(r, data, n), nil
			}
		}
		return r, err
	}
	return s.variable(res)
}

// cheaper is the passthrough result of data that costs n tokens, no more
// than the variable result r would.
func cheaper(r *Result, data []byte, n int) *Result {
	out := &Result{Route: Passthrough, Content: data, Text: string(data), Instructions: r.Instructions, Tokens: r.Tokens, Hints: r.Hints}
	out.Tokens.Context = n
	if n > r.Tokens.Budget-r.Tokens.Instructions {
		out.OverBudget = true
		out.Note = "The data (" + strconv.Itoa(n) + " tokens) is over the budget, but costs fewer tokens than a note about it: it enters the context as it is."
	}
	return out
}

// capTokens returns s cut, at a character boundary, to at most limit
// tokens, and its count.
func capTokens(tok Tokenizer, s string, limit int) (string, int) {
	limit = max(limit, 0)
	n := tok.Count([]byte(s), limit)
	if n <= limit {
		return s, n
	}
	// The longest prefix within the limit: a binary search on its length.
	lo, hi := 0, len(s)
	for lo < hi {
		mid := (lo + hi + 1) / 2
		cut := mid
		for cut > 0 && !utf8.RuneStart(s[cut]) && cut < len(s) {
			cut--
		}
		if tok.Count([]byte(s[:cut]), limit) <= limit {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	for lo > 0 && lo < len(s) && !utf8.RuneStart(s[lo]) {
		lo--
	}
	return s[:lo], tok.Count([]byte(s[:lo]), -1)
}

func (s *dataWriter) hints() []Hint {
	h := s.smp.hints
	if s.smp.dropped > 0 {
		h = append(h, Hint{Pointer: "", Hint: strconv.Itoa(s.smp.dropped) + " more strings hold JSON text"})
	}
	return h
}

// variable stores the data and writes the model text within the budget.
func (s *dataWriter) variable(res *Result) (*Result, error) {
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
