package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jsonmask/jsonmask"
	"github.com/jsonmask/jsonmask/toolresult"
	tiktoken "github.com/tiktoken-go/tokenizer"
)

// The measurements of issue 19 (SPEC section 9, C10): what toolresult costs
// in tokens counted, throughput and memory. context.sh runs them; their
// figures are in REPORT.md.

// largeEnv names the environment variable that lets the benchmarks on
// 100 MiB bodies run: they take minutes and write 100 MiB files, so that
// `go test -bench .` leaves them out unless asked.
const largeEnv = "JSONMASK_BENCH_LARGE"

// itemsFile is the list whose elements make the bodies of this file.
const itemsFile = "conversation_items.json"

// countingTokenizer is a Tokenizer that counts the tokens a Processor asks
// the one it wraps to count. A call counts the whole text when it has no
// limit or when the text has at most limit tokens: it is charged the exact
// count. Otherwise the tokenizer stops early, having tokenized at most
// limit+1 tokens and the rest of the stretch it stopped in (its contract,
// which toolresult's TestCountEarlyExit checks with a counter inside the
// tokenizer): the call is charged limit+1, not its answer, which may be an
// estimate from the text's length far above what was tokenized.
//
// What this measures is thus the processor's side of SPEC C10: which texts
// it counts, how often, and with what limits.
type countingTokenizer struct {
	toolresult.Tokenizer
	// data is the length of the data: a call on a text of this length is
	// the passthrough decision (the data is counted nowhere else, and no
	// model text of these bodies has its length).
	data atomic.Int64

	calls, tokens              atomic.Int64
	decisionCalls, decisionTok atomic.Int64
}

func newCountingTokenizer(tb testing.TB) *countingTokenizer {
	tok, err := toolresult.NewTokenizer(toolresult.DefaultEncoding)
	if err != nil {
		tb.Fatal(err)
	}
	return &countingTokenizer{Tokenizer: tok}
}

func (c *countingTokenizer) Count(text []byte, limit int) int {
	n := c.Tokenizer.Count(text, limit)
	charged := n
	if limit >= 0 && n > limit {
		charged = limit + 1
	}
	c.calls.Add(1)
	c.tokens.Add(int64(charged))
	if int64(len(text)) == c.data.Load() {
		c.decisionCalls.Add(1)
		c.decisionTok.Add(int64(charged))
	}
	return n
}

func (c *countingTokenizer) reset(data int) {
	c.data.Store(int64(data))
	c.calls.Store(0)
	c.tokens.Store(0)
	c.decisionCalls.Store(0)
	c.decisionTok.Store(0)
}

// report reports the counts per call of Process, over ops calls.
func (c *countingTokenizer) report(b *testing.B, ops int) {
	per := func(v *atomic.Int64) float64 { return float64(v.Load()) / float64(ops) }
	b.ReportMetric(per(&c.decisionTok), "decision-tokens/op")
	b.ReportMetric(per(&c.tokens), "tokens/op")
	b.ReportMetric(per(&c.calls), "counts/op")
}

// countingReader counts the bytes read from it, for decidingStore.
type countingReader struct {
	r io.Reader
	n int64
}

func (r *countingReader) Read(p []byte) (int, error) {
	n, err := r.r.Read(p)
	r.n += int64(n)
	return n, err
}

// decidingStore is a Store that notes how much of the body was read when the
// processor decided that the data is a variable: when it began the draft.
type decidingStore struct {
	toolresult.Store
	body *countingReader
	at   int64 // bytes read at the decision; 0 when there was none
}

func (s *decidingStore) Create() (toolresult.Draft, error) {
	s.at = s.body.n
	return s.Store.Create()
}

// discardStore is a Store whose drafts keep nothing: with it, the variable
// route's time is its own work, without the disk's (a breakdown, next to
// the real DirStore).
type discardStore struct{}

func (discardStore) Create() (toolresult.Draft, error) { return discardDraft{}, nil }
func (discardStore) Open(string) (io.ReadCloser, int64, error) {
	return nil, 0, toolresult.ErrNoVariable
}

type discardDraft struct{}

func (discardDraft) Write(p []byte) (int, error)       { return len(p), nil }
func (discardDraft) ReadAt([]byte, int64) (int, error) { return 0, io.EOF }
func (discardDraft) Commit(string) (string, error)     { return "", nil }
func (discardDraft) Discard() error                    { return nil }

// loadItems reads the elements of itemsFile.
func loadItems(tb testing.TB) *Items {
	tb.Helper()
	it, err := LoadItems(testdataDir, itemsFile)
	if err != nil {
		tb.Fatal(err)
	}
	return it
}

// workloadMask returns the mask of the workload called name.
func workloadMask(tb testing.TB, name string) *jsonmask.Mask {
	tb.Helper()
	ws, err := LoadWorkloads(testdataDir)
	if err != nil {
		tb.Fatal(err)
	}
	for i := range ws {
		if ws[i].Name == name {
			m, err := compile(&ws[i])
			if err != nil {
				tb.Fatal(err)
			}
			return m
		}
	}
	tb.Fatalf("no workload %q", name)
	return nil
}

// itemsDecisionFields is the workload whose mask the benchmarks apply to
// lists of conversation items.
const itemsDecisionFields = "conversation-items/decision-fields"

// budgetBody returns a list of conversation items whose token count is
// exactly tokens: as many items as fit, and a string member padded with
// one-token words to make up the rest.
func budgetBody(tb testing.TB, it *Items, tok toolresult.Tokenizer, tokens int) []byte {
	tb.Helper()
	build := func(items, pad int) []byte {
		var b bytes.Buffer
		b.Write(it.Head)
		for i := range items {
			if i > 0 {
				b.WriteByte(',')
			}
			b.Write(it.Elements[i%len(it.Elements)])
		}
		b.WriteString(`],"padding":"`)
		b.WriteString(strings.Repeat(" x", pad))
		b.WriteByte('"')
		b.Write(it.Tail[1:]) // after data's ']'
		return b.Bytes()
	}
	items := 0
	for tok.Count(build(items+1, 0), -1) <= tokens {
		items++
	}
	pad := 0
	for range 50 {
		body := build(items, pad)
		n := tok.Count(body, -1)
		if n == tokens {
			return body
		}
		pad += tokens - n
		if pad < 0 {
			tb.Fatalf("cannot pad %d items to %d tokens", items, tokens)
		}
	}
	tb.Fatalf("cannot pad %d items to exactly %d tokens", items, tokens)
	return nil
}

// tinyBody returns a list of as many conversation items as fit in n bytes.
func tinyBody(it *Items, n int) []byte {
	body := append([]byte(nil), it.Head...)
	for i, e := range it.Elements {
		if len(body)+1+len(e)+len(it.Tail) > n {
			break
		}
		if i > 0 {
			body = append(body, ',')
		}
		body = append(body, e...)
	}
	return append(body, it.Tail...)
}

// decisionBody is a body of the passthrough decision and its route.
type decisionBody struct {
	name  string
	body  []byte
	route toolresult.Route
}

// decisionBodies are the bodies of the passthrough decision at the default
// budget: tiny (at most budget bytes: no count is needed to pass it, C10),
// under (exactly budget tokens: passes), over (budget+1 tokens: a variable).
func decisionBodies(tb testing.TB, it *Items, tok toolresult.Tokenizer) []decisionBody {
	budget := toolresult.DefaultBudget
	return []decisionBody{
		{"tiny", tinyBody(it, budget), toolresult.Passthrough},
		{"under", budgetBody(tb, it, tok, budget), toolresult.Passthrough},
		{"over", budgetBody(tb, it, tok, budget+1), toolresult.Variable},
	}
}

// hostileBody is a body made to defeat an early exit. onePiece marks one
// that is a single BPE piece, which no tokenizer can count in parts.
type hostileBody struct {
	name     string
	body     []byte
	onePiece bool
}

// hostileBodies are structured bodies on which counting with an early exit
// is hardest: where BPE pieces are few or long. Each is held whole before
// its count (under 128 bytes per budget token).
func hostileBodies() []hostileBody {
	b64 := make([]byte, 96<<10)
	for i := range b64 {
		b64[i] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"[(i*7919+i/64)%64]
	}
	return []hostileBody{
		// No quote or space after a letter or digit anywhere.
		{"numbers", []byte("[" + strings.Repeat("1,", 64<<10) + "1]"), false},
		{"floats", []byte(`{"x":[` + strings.Repeat("0.125,", 16<<10) + "1]}"), false},
		{"base64", []byte(`{"blob":"` + string(b64) + `"}`), false},
		{"nested", []byte(strings.Repeat("[", 10000) + strings.Repeat("]", 10000)), true},
	}
}

// TestContextDecisionTokens proves the processor's side of the cost rule of
// SPEC C10 for the passthrough decision: the data is counted at most once,
// and with at most budget+1 tokens asked (see countingTokenizer), for bodies
// just under and just over the budget and for bodies built to defeat an
// early exit; and a passthrough's count is exact. A body that is one BPE
// piece is counted once, whole.
func TestContextDecisionTokens(t *testing.T) {
	it := loadItems(t)
	tok := newCountingTokenizer(t)
	budget := toolresult.DefaultBudget
	p, err := toolresult.New(toolresult.WithTokenizer(tok), toolresult.WithStore(&toolresult.MemStore{}))
	if err != nil {
		t.Fatal(err)
	}
	type tcase struct {
		name     string
		body     []byte
		route    toolresult.Route
		onePiece bool
	}
	var bodies []tcase
	for _, b := range decisionBodies(t, it, tok.Tokenizer) {
		bodies = append(bodies, tcase{b.name, b.body, b.route, false})
	}
	for _, h := range hostileBodies() {
		bodies = append(bodies, tcase{"hostile/" + h.name, h.body, "", h.onePiece})
	}
	for _, b := range bodies {
		t.Run(b.name, func(t *testing.T) {
			tok.reset(len(b.body))
			res, err := p.Process(context.Background(), bytes.NewReader(b.body))
			if err != nil {
				t.Fatal(err)
			}
			if b.route != "" && res.Route != b.route {
				t.Errorf("route %s, want %s", res.Route, b.route)
			}
			if n := tok.decisionCalls.Load(); n > 1 {
				t.Errorf("the data was counted %d times, want at most once", n)
			}
			if n := tok.decisionTok.Load(); n > int64(budget+1) && !b.onePiece {
				t.Errorf("the decision counted %d tokens, want at most budget+1 = %d", n, budget+1)
			}
			if res.Route == toolresult.Passthrough {
				if want := tok.Tokenizer.Count(b.body, -1); res.Tokens.Context != want {
					t.Errorf("tokens.context %d, counted whole %d", res.Tokens.Context, want)
				}
			}
		})
	}
}

// TestItemsReader proves that the bodies the large benchmarks and ctxrss
// read are lists of conversation items of the size asked, the same bytes at
// any read size.
func TestItemsReader(t *testing.T) {
	it := loadItems(t)
	for _, size := range []int64{0, 3 << 10, 5 << 20} {
		t.Run(strconv.FormatInt(size, 10), func(t *testing.T) {
			body := it.Bytes(size)
			if !json.Valid(body) {
				t.Fatal("not valid JSON")
			}
			var list struct {
				Data []json.RawMessage `json:"data"`
			}
			if err := json.Unmarshal(body, &list); err != nil {
				t.Fatal(err)
			}
			if len(list.Data) == 0 || !bytes.Equal(list.Data[0], it.Elements[0]) {
				t.Fatal("want the items, first to last, repeated")
			}
			if len(list.Data) > 1 && int64(len(body)) > size {
				t.Errorf("%d bytes, want at most %d", len(body), size)
			}
			if last := it.Elements[len(it.Elements)-1]; size > 0 && int64(len(body)) < size-int64(len(last)+len(it.Tail)) {
				t.Errorf("%d bytes, want about %d", len(body), size)
			}
			for _, chunk := range []int{1, 7, 4096} {
				got, err := io.ReadAll(&limitedReads{r: it.Reader(size), n: chunk})
				if err != nil || !bytes.Equal(got, body) {
					t.Fatalf("read %d bytes at a time: differs", chunk)
				}
			}
		})
	}
}

// limitedReads reads at most n bytes per Read.
type limitedReads struct {
	r io.Reader
	n int
}

func (l *limitedReads) Read(p []byte) (int, error) { return l.r.Read(p[:min(len(p), l.n)]) }

// BenchmarkContextDecision runs Process on the decision bodies at the
// default budget, with a real DirStore, and reports the tokens counted on
// the data (decision-tokens/op) and in all (tokens/op: with the model text
// of a variable).
func BenchmarkContextDecision(b *testing.B) {
	it := loadItems(b)
	tok := newCountingTokenizer(b)
	for _, d := range decisionBodies(b, it, tok.Tokenizer) {
		b.Run("body="+d.name, func(b *testing.B) {
			benchmarkProcess(b, tok, nil, d.body, d.route, nil)
		})
	}
}

// BenchmarkContextLarge runs the variable route on 100 MiB of conversation
// items against Append alone on the same input, without and with the
// decision-fields mask; without a mask, Append's mask keeps every member of
// the list (it validates and copies all of it, as toolresult's schema reads
// and its store writes all of it). Run only when JSONMASK_BENCH_LARGE is set.
func BenchmarkContextLarge(b *testing.B) {
	if os.Getenv(largeEnv) == "" {
		b.Skip("set " + largeEnv + "=1 to run the benchmarks on 100 MiB bodies")
	}
	it := loadItems(b)
	body := it.Bytes(100 << 20)
	tok := newCountingTokenizer(b)
	keepAll := jsonmask.MustCompile(`{"object":true,"data":true,"has_more":true,"first_id":true,"last_id":true}`)
	for _, mk := range []struct {
		name   string
		mask   *jsonmask.Mask // for toolresult
		append *jsonmask.Mask // for Append
	}{
		{"none", nil, keepAll},
		{"decision-fields", workloadMask(b, itemsDecisionFields), workloadMask(b, itemsDecisionFields)},
	} {
		b.Run("mask="+mk.name+"/impl=toolresult", func(b *testing.B) {
			benchmarkProcess(b, tok, mk.mask, body, toolresult.Variable, nil)
		})
		b.Run("mask="+mk.name+"/impl=toolresult-nostore", func(b *testing.B) {
			benchmarkProcess(b, tok, mk.mask, body, toolresult.Variable, discardStore{})
		})
		b.Run("mask="+mk.name+"/impl=append", func(b *testing.B) {
			dst, err := mk.append.Append(nil, body)
			if err != nil {
				b.Fatal(err)
			}
			b.SetBytes(int64(len(body)))
			b.ReportAllocs()
			cpu := startCPU()
			for b.Loop() {
				if dst, err = mk.append.Append(dst[:0], body); err != nil {
					b.Fatal(err)
				}
			}
			cpu.report(b, len(body))
		})
	}
}

// benchmarkProcess runs Process on body, streamed from memory, into store
// (nil: a DirStore in a temporary directory), and reports the tokens counted
// and the bytes read when the data was found to be a variable
// (decided-at-bytes; 0 for a passthrough).
func benchmarkProcess(b *testing.B, tok *countingTokenizer, m *jsonmask.Mask, body []byte, route toolresult.Route, store toolresult.Store) {
	if store == nil {
		dir, err := toolresult.NewDirStore(b.TempDir())
		if err != nil {
			b.Fatal(err)
		}
		store = dir
	}
	st := &decidingStore{Store: store, body: &countingReader{}}
	p, err := toolresult.New(toolresult.WithTokenizer(tok), toolresult.WithStore(st), toolresult.WithMask(m))
	if err != nil {
		b.Fatal(err)
	}
	data := body
	if m != nil {
		if data, err = m.Append(nil, body); err != nil {
			b.Fatal(err)
		}
	}
	tok.reset(len(data))
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	ops := 0
	var decided int64
	cpu := startCPU()
	for b.Loop() {
		st.body.r, st.body.n, st.at = bytes.NewReader(body), 0, 0
		res, err := p.Process(context.Background(), st.body)
		if err != nil {
			b.Fatal(err)
		}
		if res.Route != route {
			b.Fatalf("route %s, want %s", res.Route, route)
		}
		ops++
		decided += st.at
	}
	cpu.report(b, len(body))
	tok.report(b, ops)
	b.ReportMetric(float64(decided)/float64(ops), "decided-at-bytes")
}

// cpuClock measures the CPU time of the process (every thread: the
// garbage collector's too) over a benchmark's loop. On a machine shared with
// other work, input bytes per CPU second vary less than per wall second.
type cpuClock struct{ start time.Duration }

func startCPU() cpuClock { return cpuClock{cpuTime()} }

// report reports the input's MB per CPU second, as cpu-MB/s.
func (c cpuClock) report(b *testing.B, size int) {
	if d := cpuTime() - c.start; d > 0 {
		b.ReportMetric(float64(size)*float64(b.N)/1e6/d.Seconds(), "cpu-MB/s")
	}
}

// BenchmarkContextCorpus runs Process on conversation_items.json at the
// default budget, as `jsonmask context` does, so that a CPU profile shows
// where its time goes.
func BenchmarkContextCorpus(b *testing.B) {
	doc, err := os.ReadFile(testdataDir + "/" + itemsFile)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("file=conversation-items/budget=7000", func(b *testing.B) {
		benchmarkProcess(b, newCountingTokenizer(b), nil, doc, toolresult.Variable, nil)
	})
}

// BenchmarkTokenizer counts the tokens of conversation_items.json whole:
// toolresult's tokenizer (a chunk at a time) and tiktoken-go's codec (the
// whole text in one call), for the tokenizer's own MB/s.
func BenchmarkTokenizer(b *testing.B) {
	doc, err := os.ReadFile(testdataDir + "/" + itemsFile)
	if err != nil {
		b.Fatal(err)
	}
	for _, enc := range []struct {
		name string
		tk   tiktoken.Encoding
	}{{toolresult.O200kBase, tiktoken.O200kBase}, {toolresult.Cl100kBase, tiktoken.Cl100kBase}} {
		tok, err := toolresult.NewTokenizer(enc.name)
		if err != nil {
			b.Fatal(err)
		}
		codec, err := tiktoken.Get(enc.tk)
		if err != nil {
			b.Fatal(err)
		}
		want, _ := codec.Count(string(doc))
		b.Run("encoding="+enc.name+"/impl=toolresult", func(b *testing.B) {
			b.SetBytes(int64(len(doc)))
			b.ReportAllocs()
			for b.Loop() {
				if n := tok.Count(doc, -1); n != want {
					b.Fatalf("counted %d tokens, tiktoken-go %d", n, want)
				}
			}
			b.ReportMetric(float64(want), "tokens")
		})
		b.Run("encoding="+enc.name+"/impl=tiktoken", func(b *testing.B) {
			text := string(doc)
			b.SetBytes(int64(len(doc)))
			b.ReportAllocs()
			for b.Loop() {
				codec.Count(text)
			}
			b.ReportMetric(float64(want), "tokens")
		})
	}
}
