package toolresult

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"sync"
)

// A Store keeps variables: the data of responses too large for the context
// (SPEC C5, C6). Implementations must be safe for concurrent use.
type Store interface {
	// Create begins a variable, to be written as the data streams by and
	// then committed under its name, or discarded.
	Create() (Draft, error)
	// Open opens the variable called name for reading, with its size.
	Open(name string) (io.ReadCloser, int64, error)
}

// A Draft is a variable being written. Commit or Discard ends it. Its
// methods are called one at a time, but not all from the goroutine that
// called Process: the data is written and the draft committed on
// goroutines of the Processor's own, beside the schema's pass.
type Draft interface {
	io.Writer
	// ReaderAt reads back what was written so far.
	io.ReaderAt
	// Commit makes what was written the variable called name, atomically: a
	// reader of the store sees the whole variable or none. It returns where
	// the variable is, for people (a path), or "".
	Commit(name string) (string, error)
	// Discard drops what was written.
	Discard() error
}

// ErrNoVariable is returned by Store.Open for a name that is not stored.
var ErrNoVariable = errors.New("jsonmask: no such variable")

// validName reports whether name may name a variable: 1 to 128 letters,
// digits, '_', '-' or '.', not starting with '.'.
func validName(name string) bool {
	if name == "" || len(name) > 128 || name[0] == '.' {
		return false
	}
	for _, c := range []byte(name) {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.') {
			return false
		}
	}
	return true
}

// DirStore is a Store in a directory: the variable NAME is the file
// DIR/NAME.json, written to a temporary file in DIR and renamed, so that it
// appears whole or not at all.
type DirStore struct{ dir string }

// NewDirStore returns a store in dir, creating it if needed.
func NewDirStore(dir string) (*DirStore, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	return &DirStore{dir: dir}, nil
}

// Dir returns the store's directory.
func (s *DirStore) Dir() string { return s.dir }

// Create begins a variable in a temporary file.
func (s *DirStore) Create() (Draft, error) {
	f, err := os.CreateTemp(s.dir, ".var-*.tmp")
	if err != nil {
		return nil, err
	}
	return &fileDraft{f: f, dir: s.dir, wb: writeback{f: f}}, nil
}

// Open opens DIR/NAME.json.
func (s *DirStore) Open(name string) (io.ReadCloser, int64, error) {
	if !validName(name) {
		return nil, 0, ErrNoVariable
	}
	f, err := os.Open(filepath.Join(s.dir, name+".json"))
	if errors.Is(err, os.ErrNotExist) {
		return nil, 0, ErrNoVariable
	}
	if err != nil {
		return nil, 0, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, 0, err
	}
	return f, st.Size(), nil
}

type fileDraft struct {
	f   *os.File
	dir string
	wb  writeback
}

func (d *fileDraft) Write(p []byte) (int, error) {
	n, err := d.f.Write(p)
	d.wb.wrote(n)
	return n, err
}

func (d *fileDraft) ReadAt(p []byte, off int64) (int, error) { return d.f.ReadAt(p, off) }

func (d *fileDraft) Commit(name string) (string, error) {
	if !validName(name) {
		d.Discard()
		return "", errors.New(`jsonmask: bad variable name "` + name + `": want 1 to 128 of a-z A-Z 0-9 _ - .`)
	}
	d.wb.stop()
	if err := d.f.Sync(); err != nil {
		d.Discard()
		return "", err
	}
	if err := d.f.Close(); err != nil {
		os.Remove(d.f.Name())
		return "", err
	}
	path := filepath.Join(d.dir, name+".json")
	if err := os.Rename(d.f.Name(), path); err != nil {
		os.Remove(d.f.Name())
		return "", err
	}
	return path, nil
}

func (d *fileDraft) Discard() error {
	d.wb.stop()
	d.f.Close()
	return os.Remove(d.f.Name())
}

// MemStore is a Store in memory, for tests and short-lived processes.
type MemStore struct {
	mu   sync.Mutex
	vars map[string][]byte
}

// Create begins a variable in memory.
func (s *MemStore) Create() (Draft, error) { return &memDraft{s: s}, nil }

// Open returns a reader of the variable called name.
func (s *MemStore) Open(name string) (io.ReadCloser, int64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	b, ok := s.vars[name]
	if !ok {
		return nil, 0, ErrNoVariable
	}
	return io.NopCloser(bytes.NewReader(b)), int64(len(b)), nil
}

type memDraft struct {
	s   *MemStore
	buf bytes.Buffer
}

func (d *memDraft) Write(p []byte) (int, error) { return d.buf.Write(p) }
func (d *memDraft) ReadAt(p []byte, off int64) (int, error) {
	return bytes.NewReader(d.buf.Bytes()).ReadAt(p, off)
}

func (d *memDraft) Commit(name string) (string, error) {
	if !validName(name) {
		return "", errors.New(`jsonmask: bad variable name "` + name + `"`)
	}
	d.s.mu.Lock()
	defer d.s.mu.Unlock()
	if d.s.vars == nil {
		d.s.vars = map[string][]byte{}
	}
	d.s.vars[name] = bytes.Clone(d.buf.Bytes())
	return "", nil
}

func (d *memDraft) Discard() error { d.buf = bytes.Buffer{}; return nil }
