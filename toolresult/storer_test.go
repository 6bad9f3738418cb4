package toolresult_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"

	"github.com/jsonmask/jsonmask"
	"github.com/jsonmask/jsonmask/toolresult"
)

// canary is in every member that the mask of TestStoreEnds drops.
const canary = "CANARY-7f3a"

// recordStore is a Store whose drafts record what is done to them, and
// whose writes fail once failAt bytes have been written (failAt < 0: never).
type recordStore struct {
	failAt     int
	failCommit bool // Commit fails
	mu         sync.Mutex
	drafts     []*recordDraft
}

var (
	errDraft  = errors.New("draft: disk full")
	errCommit = errors.New("draft: rename failed")
)

func (s *recordStore) Create() (toolresult.Draft, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	d := &recordDraft{failAt: s.failAt, failCommit: s.failCommit}
	s.drafts = append(s.drafts, d)
	return d, nil
}

func (s *recordStore) Open(string) (io.ReadCloser, int64, error) {
	return nil, 0, toolresult.ErrNoVariable
}

type recordDraft struct {
	mu                   sync.Mutex
	failAt               int
	failCommit           bool
	buf                  bytes.Buffer
	commits, discards    int
	writesAfterEnd, errs int
}

func (d *recordDraft) Write(p []byte) (int, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.commits+d.discards > 0 {
		d.writesAfterEnd++
	}
	if d.failAt >= 0 && d.buf.Len()+len(p) > d.failAt {
		d.errs++
		return 0, errDraft
	}
	return d.buf.Write(p)
}

func (d *recordDraft) ReadAt(p []byte, off int64) (int, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	return bytes.NewReader(d.buf.Bytes()).ReadAt(p, off)
}

func (d *recordDraft) Commit(string) (string, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.commits++
	if d.failCommit {
		return "", errCommit
	}
	return "", nil
}

func (d *recordDraft) Discard() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.discards++
	return nil
}

// endingReader reads body in odd-sized pieces and, once at bytes have been
// read, calls end (which may cancel a context) or returns err.
type endingReader struct {
	r   io.Reader
	n   int
	at  int
	end func()
	err error
}

func (r *endingReader) Read(p []byte) (int, error) {
	if r.at >= 0 && r.n >= r.at {
		if r.end != nil {
			r.end()
		}
		if r.err != nil {
			return 0, r.err
		}
	}
	n, err := r.r.Read(p[:min(len(p), 1+(r.n*7919)%9001)])
	r.n += n
	return n, err
}

// TestStoreEnds checks each way a variable's draft can end, now that the
// draft is written and hashed on a goroutine of its own: committed once
// when the route is a variable; discarded once, never committed, when the
// draft fails (at its first byte, in the middle, at its last), when the
// context is cancelled or the body fails after the data was found to be a
// variable, and when the data turns out not to be JSON; never written after
// it ended; the error the draft's or the reader's. No byte of a member the
// mask drops reaches the draft, the result or the error.
func TestStoreEnds(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"data":[`)
	for i := range 20000 {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"id":"item_%05d","secret":"%s %d","text":"some words of text"}`, i, canary, i)
	}
	b.WriteString(`]}`)
	body := []byte(b.String())
	mask := jsonmask.MustCompile(`{"data":{"id":true,"text":true}}`)
	data, err := mask.Append(nil, body)
	if err != nil {
		t.Fatal(err)
	}
	invalid := append(bytes.Clone(body[:len(body)-1]), '!') // valid up to its last byte
	for _, tc := range []struct {
		name      string
		body      []byte
		failAt    int   // the draft fails past this many bytes; -1: never; -2: its Commit fails
		readErrAt int   // the body fails, or ctx is cancelled, after this many bytes; -1: never
		cancel    bool  // cancel ctx rather than fail the body
		want      error // nil: a variable; else errors.Is
		plaintext bool
	}{
		{"Committed", body, -1, -1, false, nil, false},
		{"DraftFailsAtOnce", body, 0, -1, false, errDraft, false},
		{"DraftFailsMidway", body, len(data) / 2, -1, false, errDraft, false},
		{"DraftFailsAtTheEnd", body, len(data) - 1, -1, false, errDraft, false},
		{"CommitFails", body, -2, -1, false, errCommit, false},
		{"Cancelled", body, -1, len(body) / 2, true, context.Canceled, false},
		{"BodyFails", body, -1, len(body) / 2, false, io.ErrUnexpectedEOF, false},
		{"TurnsPlaintext", invalid, -1, -1, false, nil, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := &recordStore{failAt: tc.failAt, failCommit: tc.failAt == -2}
			p, err := toolresult.New(toolresult.WithBudget(500), toolresult.WithStore(st))
			if err != nil {
				t.Fatal(err)
			}
			if !tc.plaintext {
				p, _ = p.With(toolresult.WithMask(mask))
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			r := &endingReader{r: bytes.NewReader(tc.body), at: tc.readErrAt}
			if tc.cancel {
				r.end = cancel
			} else if tc.readErrAt >= 0 {
				r.err = io.ErrUnexpectedEOF
			}
			res, err := p.Process(ctx, r)
			if len(st.drafts) != 1 {
				t.Fatalf("%d drafts, want 1 (the data is past the budget)", len(st.drafts))
			}
			d := st.drafts[0]
			switch {
			case tc.want != nil:
				if !errors.Is(err, tc.want) {
					t.Fatalf("error %v, want %v", err, tc.want)
				}
				if tc.want == errCommit {
					if d.commits != 1 || d.discards != 0 {
						t.Errorf("%d commits and %d discards, want 1 and 0", d.commits, d.discards)
					}
				} else if d.commits != 0 || d.discards != 1 {
					t.Errorf("%d commits and %d discards, want 0 and 1", d.commits, d.discards)
				}
			case tc.plaintext:
				if err != nil || res.Route != toolresult.Plaintext || !bytes.Equal(res.Content, tc.body) {
					t.Fatalf("route %v, error %v: want the body back as plaintext", res.Route, err)
				}
				if d.commits != 0 || d.discards != 1 {
					t.Errorf("%d commits and %d discards, want 0 and 1", d.commits, d.discards)
				}
			default:
				if err != nil || res.Route != toolresult.Variable {
					t.Fatalf("route %v, error %v", res.Route, err)
				}
				if d.commits != 1 || d.discards != 0 || !bytes.Equal(d.buf.Bytes(), data) {
					t.Errorf("%d commits, %d discards, %d bytes: want the data committed once", d.commits, d.discards, d.buf.Len())
				}
				if want := fmt.Sprintf("%x", sha(data)); res.Variable.SHA256 != want {
					t.Errorf("sha256 %s, want %s", res.Variable.SHA256, want)
				}
			}
			if d.writesAfterEnd > 0 {
				t.Errorf("%d writes after the draft ended", d.writesAfterEnd)
			}
			if d.errs > 1 {
				t.Errorf("written %d times after its first error", d.errs-1)
			}
			if !tc.plaintext {
				leak := bytes.Contains(d.buf.Bytes(), []byte(canary)) || err != nil && strings.Contains(err.Error(), canary)
				if res != nil {
					js, _ := res.MarshalJSON()
					leak = leak || bytes.Contains(js, []byte(canary)) || strings.Contains(res.Text, canary)
				}
				if leak {
					t.Error("a dropped member got out")
				}
			}
		})
	}
}

// TestHintsPastTheSample checks that hints are found and named where the
// sample does not reach: the sampler then tells the schema's pass to leave
// out members whose values are short scalars (schema.QuietObserver), and
// must still see every string long enough to be a hint, and every
// container on the way to one.
func TestHintsPastTheSample(t *testing.T) {
	inner, _ := json.Marshal(map[string]any{"rows": strings.Split(strings.Repeat("row,", 300), ",")})
	text, _ := json.Marshal(string(inner))
	var b strings.Builder
	b.WriteString(`{"items":[`)
	for i := range 3000 {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"id":%d,"small":"{\"a\":1}","t":"some words"`, i)
		switch i {
		case 2900:
			fmt.Fprintf(&b, `,"payload":%s`, text)
		case 2950:
			fmt.Fprintf(&b, `,"deep":{"x":[1,{"y/~":%s}]}`, text)
		}
		b.WriteByte('}')
	}
	b.WriteString(`]}`)
	for _, budget := range []int{100, 2000} {
		// Read in 32 KiB windows (ProcessBytes), where most members are
		// whole, and in odd pieces (process), where many are cut.
		p, err := toolresult.New(toolresult.WithBudget(budget), toolresult.WithStore(&toolresult.MemStore{}))
		if err != nil {
			t.Fatal(err)
		}
		whole, err := p.ProcessBytes(ctx, []byte(b.String()))
		if err != nil {
			t.Fatal(err)
		}
		cut, _ := process(t, []byte(b.String()), toolresult.WithBudget(budget))
		for _, res := range []*toolresult.Result{whole, cut} {
			var ptrs []string
			for _, h := range res.Hints {
				ptrs = append(ptrs, h.Pointer)
			}
			if got, want := strings.Join(ptrs, " "), "/items/2900/payload /items/2950/deep/x/1/y~1~0"; got != want {
				t.Fatalf("budget %d (%s): hints at %q, want %q", budget, res.Route, got, want)
			}
		}
	}
}
