package toolresult_test

import (
	"context"
	"io"
	"testing"
	"time"

	"github.com/jsonmask/jsonmask/toolresult"
)

// stuckStore holds one variable, "v", whose reader gives the start of a
// document and then nothing more: 0 bytes and no error, for ever (a store
// that breaks io.Reader's advice, as a buggy one may).
type stuckStore struct{ toolresult.MemStore }

func (s *stuckStore) Open(name string) (io.ReadCloser, int64, error) {
	return io.NopCloser(&stuckReader{head: []byte(`{"a":[1,2,`)}), 1 << 20, nil
}

type stuckReader struct{ head []byte }

func (r *stuckReader) Read(p []byte) (int, error) {
	n := copy(p, r.head)
	r.head = r.head[n:]
	return n, nil
}

// TestStuckStoreEnds: reading a variable whose store's reader makes no
// progress (0 bytes, no error, for ever), or processing such a body, ends
// when the caller's context does, or the query's time limit, or after 100
// empty reads in a row. ReadVariable used to spin for good: the selector
// read its windows with io.ReadFull, which asks such a reader again for
// ever and never looks at the context; without a deadline, so did Process.
func TestStuckStoreEnds(t *testing.T) {
	p, err := toolresult.New(toolresult.WithStore(&stuckStore{}), toolresult.WithBudget(100000),
		toolresult.WithQueryLimits(toolresult.QueryLimits{Time: 200 * time.Millisecond}))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		run  func(ctx context.Context) error
	}{
		{"ReadVariable", func(ctx context.Context) error {
			_, err := p.ReadVariable(ctx, toolresult.Selection{Name: "v"})
			return err
		}},
		{"ReadVariablePointer", func(ctx context.Context) error {
			_, err := p.ReadVariable(ctx, toolresult.Selection{Name: "v", Pointer: "/a/5"})
			return err
		}},
		{"Query", func(ctx context.Context) error {
			_, err := p.Query(context.Background(), toolresult.Query{Name: "v", Program: "."})
			return err
		}},
		{"QueryPointer", func(ctx context.Context) error {
			_, err := p.Query(context.Background(), toolresult.Query{Name: "v", Pointer: "/a", Program: "."})
			return err
		}},
		{"Process", func(ctx context.Context) error {
			_, err := p.Process(ctx, &stuckReader{head: []byte(`{"a":[1,2,`)})
			return err
		}},
	} {
		// With a deadline, and without one: then the source is given up
		// after 100 empty reads in a row, as bufio.Reader does.
		for _, deadline := range []bool{true, false} {
			name := tc.name + "/NoDeadline"
			if deadline {
				name = tc.name + "/Deadline"
			}
			t.Run(name, func(t *testing.T) {
				ctx := context.Background()
				if deadline {
					var cancel context.CancelFunc
					ctx, cancel = context.WithTimeout(ctx, 200*time.Millisecond)
					defer cancel()
				}
				done := make(chan error, 1)
				go func() { done <- tc.run(ctx) }()
				select {
				case err := <-done:
					if err == nil {
						t.Fatal("no error for a read that never ended")
					}
				case <-time.After(10 * time.Second):
					t.Fatal("still reading a store that gives nothing")
				}
			})
		}
	}
}
