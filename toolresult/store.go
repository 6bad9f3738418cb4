package toolresult

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"os"
	"path/filepath"
	"sync"

	"github.com/jsonmask/jsonmask/internal/errs"
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

// A ContextStore is a Store that reads and writes a variable under a
// context: a store across a network (blobstore's S3, say) that does not
// answer would hold Open and the reads after it, or a draft's writes and
// commit, for good. Process, Query and ReadVariable go through
// CreateContext and OpenContext where a store has them, so that their
// context (a query's time limit, a caller's cancellation) ends the wait.
type ContextStore interface {
	Store
	// CreateContext is Create; ctx bounds the draft's writes, reads and
	// commit: once it is done they fail, and nothing is committed.
	CreateContext(ctx context.Context) (Draft, error)
	// OpenContext is Open; ctx bounds the open and every read of the
	// variable.
	OpenContext(ctx context.Context, name string) (io.ReadCloser, int64, error)
}

// openVariable opens the variable called name in st, under ctx where st is
// a ContextStore.
func openVariable(ctx context.Context, st Store, name string) (io.ReadCloser, int64, error) {
	if cs, ok := st.(ContextStore); ok {
		return cs.OpenContext(ctx, name)
	}
	return st.Open(name)
}

// createDraft begins a variable in st, under ctx where st is a
// ContextStore.
func createDraft(ctx context.Context, st Store) (Draft, error) {
	if cs, ok := st.(ContextStore); ok {
		return cs.CreateContext(ctx)
	}
	return st.Create()
}

// ErrNoVariable is returned by Store.Open for a name that is not stored.
var ErrNoVariable = errs.New("no such variable")

// ValidName reports whether name may name a variable: 1 to 128 letters,
// digits, '_', '-' or '.', not starting with '.'. A Store refuses others,
// so that a name cannot reach outside it.
func ValidName(name string) bool { return validName(name) }

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
// appears whole or not at all. A variable named by its content (var_ and
// the first 12 hex digits of its SHA-256, C6) is checked against its name
// when it is opened, so that a file edited on disk is refused rather than
// served; the check is remembered while the file stays as it was.
type DirStore struct {
	dir string

	mu       sync.Mutex
	verified map[string]fileStamp // variables whose content matched their name
}

// fileStamp is what says a file is still the one that was checked.
type fileStamp struct {
	size    int64
	modTime int64
	ino     uint64
}

// NewDirStore returns a store in dir, creating it (0700) if needed.
func NewDirStore(dir string) (*DirStore, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, errs.Errorf("store %s: %w", dir, err)
	}
	return &DirStore{dir: dir}, nil
}

// Dir returns the store's directory.
func (s *DirStore) Dir() string { return s.dir }

// Create begins a variable in a temporary file.
func (s *DirStore) Create() (Draft, error) {
	f, err := os.CreateTemp(s.dir, ".var-*.tmp")
	if err != nil {
		return nil, errs.Errorf("store %s: %w", s.dir, err)
	}
	return &fileDraft{f: f, s: s, wb: writeback{f: f}}, nil
}

// Open opens DIR/NAME.json. A variable named by its content whose content
// does not match its name is an error that wraps ErrChanged.
func (s *DirStore) Open(name string) (io.ReadCloser, int64, error) {
	if !validName(name) {
		return nil, 0, ErrNoVariable
	}
	path := filepath.Join(s.dir, name+".json")
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, 0, ErrNoVariable
	}
	if err != nil {
		return nil, 0, errs.Errorf("store: %w", err)
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, 0, errs.Errorf("store: %w", err)
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, 0, errs.Errorf("store: %s is not a regular file", path)
	}
	if err := s.verify(f, name, st); err != nil {
		f.Close()
		return nil, 0, err
	}
	return f, st.Size(), nil
}

// ErrChanged is wrapped by the error of opening a variable whose content no
// longer matches its name (C6): its file was changed after it was stored.
var ErrChanged = errs.New("the variable's content does not match its name")

// verify checks that a variable named by its content still holds it,
// unless the file is as it was when last checked. It reads the whole file
// once, and leaves f at its start.
func (s *DirStore) verify(f *os.File, name string, st os.FileInfo) error {
	want, ok := contentName(name)
	if !ok {
		return nil
	}
	stamp := stampOf(st)
	s.mu.Lock()
	seen, known := s.verified[name]
	s.mu.Unlock()
	if known && seen == stamp {
		return nil
	}
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return errs.Errorf("store: %w", err)
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return errs.Errorf("store: %w", err)
	}
	if hex.EncodeToString(h.Sum(nil))[:12] != want {
		return fmt.Errorf("%w: %s was changed after it was stored", ErrChanged, f.Name())
	}
	s.remember(name, stamp)
	return nil
}

// CheckContent returns rc, the variable called name as a store reads it,
// checked as it is read (C6): when the name is made from the content (var_
// and the first 12 hex digits of its SHA-256), the bytes are hashed as they
// pass, and at their end Read returns an error wrapping ErrChanged, naming
// the variable and where (a path or URL), instead of io.EOF if they are not
// what the name says; a store shared with others (a bucket) can hold an
// object that was corrupted or replaced. Other names pass unchecked.
//
// The check ends with the content: until Read reports the end, what was
// read is not known to be the variable. ReadVariable and Query read a
// checked variable to its end, even past the value a pointer names, before
// they hand anything on.
func CheckContent(name, where string, rc io.ReadCloser) io.ReadCloser {
	want, ok := contentName(name)
	if !ok {
		return rc
	}
	return &checkedReader{rc: rc, h: sha256.New(), want: want, name: name, where: where}
}

// checkedReader is a variable's reader that checks its content against its
// name at the end (CheckContent).
type checkedReader struct {
	rc          io.ReadCloser
	h           hash.Hash
	want        string
	name, where string
	err         error // sticky: io.EOF once checked, or the first error
}

func (r *checkedReader) Read(p []byte) (int, error) {
	if r.err != nil {
		return 0, r.err
	}
	n, err := r.rc.Read(p)
	r.h.Write(p[:n])
	switch {
	case err == io.EOF && hex.EncodeToString(r.h.Sum(nil))[:12] != r.want:
		err = fmt.Errorf("%w: %s (%s) was changed after it was stored", ErrChanged, r.name, r.where)
		r.err = err
	case err != nil:
		r.err = err
	}
	return n, err
}

func (r *checkedReader) Close() error { return r.rc.Close() }

// checkRest reads what is left of a variable's reader rc, after its reader
// stopped with err (nil: done), so that a checked one (CheckContent)
// compares what it served with the variable's name. A mismatch comes
// before err, which may only be its consequence (a document cut short, or
// not JSON). After ctx is done, or a limit, nothing is read and err stays.
func checkRest(ctx context.Context, rc io.Reader, err error) error {
	c, ok := rc.(*checkedReader)
	var limit *QueryError
	if !ok || ctx.Err() != nil || errors.As(err, &limit) || errors.Is(err, errOverCap) || errors.Is(err, errStopped) {
		return err
	}
	if _, rerr := io.Copy(io.Discard, &ctxReader{ctx: ctx, r: c}); rerr != nil && (err == nil || errors.Is(rerr, ErrChanged)) {
		return rerr
	}
	return err
}

func (s *DirStore) remember(name string, stamp fileStamp) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.verified == nil || len(s.verified) >= 1<<16 {
		s.verified = map[string]fileStamp{} // a bound on memory: the rest are checked again
	}
	s.verified[name] = stamp
}

// contentName returns the 12 hex digits of a name made from its content
// (var_ and the first 12 hex digits of its SHA-256).
func contentName(name string) (string, bool) {
	if len(name) != 16 || name[:4] != "var_" {
		return "", false
	}
	for _, c := range []byte(name[4:]) {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return "", false
		}
	}
	return name[4:], true
}

type fileDraft struct {
	f  *os.File
	s  *DirStore
	wb writeback
}

func (d *fileDraft) Write(p []byte) (int, error) {
	n, err := d.f.Write(p)
	d.wb.wrote(n)
	if err != nil {
		err = errs.Errorf("store: %w", err)
	}
	return n, err
}

func (d *fileDraft) ReadAt(p []byte, off int64) (int, error) { return d.f.ReadAt(p, off) }

func (d *fileDraft) Commit(name string) (string, error) {
	if !validName(name) {
		d.Discard()
		return "", errs.New(`bad variable name "` + name + `": want 1 to 128 of a-z A-Z 0-9 _ - .`)
	}
	d.wb.stop()
	if err := d.f.Sync(); err != nil {
		d.Discard()
		return "", errs.Errorf("store: %w", err)
	}
	st, serr := d.f.Stat()
	if err := d.f.Close(); err != nil {
		os.Remove(d.f.Name())
		return "", errs.Errorf("store: %w", err)
	}
	path := filepath.Join(d.s.dir, name+".json")
	if err := os.Rename(d.f.Name(), path); err != nil {
		os.Remove(d.f.Name())
		return "", errs.Errorf("store: %w", err)
	}
	if _, ok := contentName(name); ok && serr == nil {
		// Named by the hash of what was just written: no need to check it
		// again while the file stays as it is.
		d.s.remember(name, stampOf(st))
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
		return "", errs.New(`bad variable name "` + name + `"`)
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
