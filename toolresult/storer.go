package toolresult

import (
	"crypto/sha256"
	"hash"
	"sync"
	"sync/atomic"
)

// storer writes a variable's data to its draft and hashes it (SPEC C6) on a
// goroutine of its own, so that the store's work and the schema's pass over
// the same bytes run side by side instead of one after the other: on 100 MiB
// of conversation items without a mask, SHA-256 and a DirStore's writes
// take about half as long as the schema, the sample and the hints together
// (bench/REPORT.md).
//
// Write copies the data into chunks and hands them over; at most
// storeChunks of them are in flight, so memory stays bounded and a slow
// store slows the caller down. A draft's error is returned by the next Write
// and by close; after it nothing more is written.
type storer struct {
	draft Draft
	sum   hash.Hash

	buf    []byte      // the chunk being filled
	work   chan []byte // chunks to hash and write, in order
	free   chan []byte // chunks written, to fill again
	done   chan struct{}
	failed atomic.Bool // err is set
	err    error       // the draft's error: written by run, read after done
	closed bool
}

// Chunks of the data in flight between Write and the goroutine.
const (
	storeChunk  = 64 << 10
	storeChunks = 8
)

// chunks keeps the chunks of storers that have ended.
var chunks = sync.Pool{New: func() any { return new([storeChunk]byte) }}

// newStorer starts the goroutine that writes to d.
func newStorer(d Draft) *storer {
	s := &storer{
		draft: d,
		sum:   sha256.New(),
		work:  make(chan []byte, storeChunks),
		free:  make(chan []byte, storeChunks),
		done:  make(chan struct{}),
	}
	for range storeChunks {
		s.free <- chunks.Get().(*[storeChunk]byte)[:0]
	}
	go s.run()
	return s
}

// run hashes and writes the chunks as they come, until work is closed.
func (s *storer) run() {
	defer close(s.done)
	for b := range s.work {
		if s.err == nil {
			s.sum.Write(b)
			if _, err := s.draft.Write(b); err != nil {
				s.err = err
				s.failed.Store(true)
			}
		}
		s.free <- b[:0]
	}
}

// Write hands p over to be hashed and written; p may be reused when it
// returns.
func (s *storer) Write(p []byte) error {
	if s.failed.Load() {
		return s.close()
	}
	for len(p) > 0 {
		if s.buf == nil {
			s.buf = <-s.free
		}
		n := copy(s.buf[len(s.buf):cap(s.buf)], p)
		s.buf, p = s.buf[:len(s.buf)+n], p[n:]
		if len(s.buf) == cap(s.buf) {
			s.work <- s.buf
			s.buf = nil
		}
	}
	return nil
}

// close hands over what is left, waits for the goroutine to write it, and
// returns the draft's error. Then the draft and the hash are the caller's
// again. It may be called more than once.
func (s *storer) close() error {
	if !s.closed {
		s.closed = true
		if len(s.buf) > 0 {
			s.work <- s.buf
		}
		s.buf = nil
		close(s.work)
		<-s.done
		for range storeChunks {
			chunks.Put((*[storeChunk]byte)((<-s.free)[:storeChunk]))
		}
	}
	return s.err
}
