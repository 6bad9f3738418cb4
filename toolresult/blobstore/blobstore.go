// Package blobstore keeps variables (SPEC C5, C6) in a bucket of
// gocloud.dev/blob, chosen by URL (SPEC C15): s3:// (AWS S3, or any
// S3-compatible server with ?endpoint=...&use_path_style=true), gs://,
// azblob:// and mem:// (file:// stays a toolresult.DirStore). Importing it
// registers those schemes with toolresult.OpenStore; it is a package of its
// own so that only programs that import it link the cloud SDKs.
//
// A variable NAME is the object NAME.json. A draft streams to a temporary
// object under .tmp/ as the data comes (the driver uploads it in parts; no
// whole variable is held in memory); Commit copies it to its name (a
// server-side copy on S3 and GCS) and deletes the temporary object, so that
// a reader sees the whole variable or none: an upload that fails, or a
// process or server that dies mid-write, leaves no variable, at most a
// temporary object that a bucket lifecycle rule can expire. Variables are
// named by their content, so instances that share a bucket share them, and
// writing one twice writes the same bytes. Since others write to the
// bucket too, a variable is checked against its name as it is read, and a
// corrupted or replaced object is refused (toolresult.CheckContent).
//
// Credentials come from the environment, as each driver reads them (for
// S3: AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_PROFILE, ...); errors
// and locations name a bucket by its URL without its query or user
// information.
//
// A Store is safe for concurrent use.
package blobstore

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"io"
	"net/url"
	"strings"
	"sync"

	"gocloud.dev/blob"
	_ "gocloud.dev/blob/azureblob" // azblob://
	_ "gocloud.dev/blob/gcsblob"   // gs://
	_ "gocloud.dev/blob/memblob"   // mem://
	_ "gocloud.dev/blob/s3blob"    // s3://
	"gocloud.dev/gcerrors"

	"github.com/jsonmask/jsonmask/internal/errs"
	"github.com/jsonmask/jsonmask/toolresult"
)

func init() {
	for _, scheme := range []string{"s3", "gs", "azblob", "mem"} {
		toolresult.RegisterStore(scheme, func(ctx context.Context, rawURL string) (toolresult.Store, error) {
			return Open(ctx, rawURL)
		})
	}
}

// Store is a toolresult.Store in a bucket.
type Store struct {
	b    *blob.Bucket
	base string // the bucket's URL without query, for locations and messages
}

// Open opens the bucket a URL names (gocloud.dev/blob's URL syntax).
func Open(ctx context.Context, rawURL string) (*Store, error) {
	b, err := blob.OpenBucket(ctx, rawURL)
	if err != nil {
		return nil, errs.Errorf("store %s: %w", toolresult.RedactURL(rawURL), scrub(err, rawURL))
	}
	return New(b, rawURL), nil
}

// New returns a store in an open bucket; rawURL names it in locations and
// messages (its query and user information are left out).
func New(b *blob.Bucket, rawURL string) *Store {
	base := rawURL
	if u, err := url.Parse(rawURL); err == nil {
		u.RawQuery, u.User = "", nil
		base = u.String()
	}
	return &Store{b: b, base: strings.TrimSuffix(base, "/")}
}

// Close closes the bucket.
func (s *Store) Close() error { return s.b.Close() }

// Location returns the URL of the variable called name (SPEC C16).
func (s *Store) Location(name string) string { return s.base + "/" + name + ".json" }

// Open opens the variable called name. A variable named by its content is
// checked against its name as it is read (toolresult.CheckContent): at its
// end, a Read reports a corrupted or replaced object with an error wrapping
// toolresult.ErrChanged.
func (s *Store) Open(name string) (io.ReadCloser, int64, error) {
	return s.OpenContext(context.Background(), name)
}

// OpenContext is Open under ctx (toolresult.ContextStore): when ctx ends,
// the request, and a Read waiting on the server, end with it.
func (s *Store) OpenContext(ctx context.Context, name string) (io.ReadCloser, int64, error) {
	if !toolresult.ValidName(name) {
		return nil, 0, toolresult.ErrNoVariable
	}
	r, err := s.b.NewReader(ctx, name+".json", nil)
	if gcerrors.Code(err) == gcerrors.NotFound {
		return nil, 0, toolresult.ErrNoVariable
	}
	if err != nil {
		return nil, 0, s.err(err)
	}
	// A bucket may be shared: what is read is checked against the name
	// (C6) as it streams, and a mismatch is an error at its end.
	return toolresult.CheckContent(name, s.Location(name), r), r.Size(), nil
}

// Create begins a variable in a temporary object.
func (s *Store) Create() (toolresult.Draft, error) {
	return s.CreateContext(context.Background())
}

// CreateContext is Create under ctx (toolresult.ContextStore): once ctx is
// done, the upload is aborted, and writes, reads and the commit fail.
func (s *Store) CreateContext(ctx context.Context) (toolresult.Draft, error) {
	var id [16]byte
	rand.Read(id[:])
	key := ".tmp/" + hex.EncodeToString(id[:]) + ".json"
	ctx, cancel := context.WithCancel(ctx)
	w, err := s.b.NewWriter(ctx, key, &blob.WriterOptions{ContentType: "application/json", BufferSize: partSize, MaxConcurrency: parts})
	if err != nil {
		cancel()
		return nil, s.err(err)
	}
	return &draft{s: s, key: key, ctx: ctx, w: w, cancel: cancel}, nil
}

func (s *Store) err(err error) error {
	return errs.Errorf("store %s: %w", s.base, scrub(err, s.base))
}

// scrub keeps a driver's error from repeating a URL's query, where
// credentials could be.
func scrub(err error, rawURL string) error {
	if u, perr := url.Parse(rawURL); perr == nil && u.RawQuery != "" && strings.Contains(err.Error(), u.RawQuery) {
		return errors.New(strings.ReplaceAll(err.Error(), u.RawQuery, "…"))
	}
	return err
}

// draft is a variable being written to a temporary object.
type draft struct {
	s      *Store
	key    string
	ctx    context.Context // the upload's, the read-back's and the commit's
	mu     sync.Mutex
	w      *blob.Writer // nil once closed
	cancel context.CancelFunc
	err    error // of closing w
}

func (d *draft) Write(p []byte) (int, error) {
	n, err := d.w.Write(p)
	if err != nil {
		err = d.s.err(err)
	}
	return n, err
}

// finish ends the upload of the temporary object.
func (d *draft) finish() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.w != nil {
		if err := d.w.Close(); err != nil {
			d.err = d.s.err(err)
		}
		d.w = nil
	}
	return d.err
}

// ReadAt reads back what was written: the upload is ended first, and no
// more can be written.
func (d *draft) ReadAt(p []byte, off int64) (int, error) {
	if err := d.finish(); err != nil {
		return 0, err
	}
	r, err := d.s.b.NewRangeReader(d.ctx, d.key, off, int64(len(p)), nil)
	if err != nil {
		return 0, d.s.err(err)
	}
	defer r.Close()
	n, err := io.ReadFull(r, p)
	if err == io.ErrUnexpectedEOF {
		err = io.EOF
	}
	return n, err
}

// Commit ends the upload and copies the temporary object to NAME.json.
func (d *draft) Commit(name string) (string, error) {
	if !toolresult.ValidName(name) {
		d.Discard()
		return "", errs.New(`bad variable name "` + name + `"`)
	}
	if err := d.finish(); err != nil {
		d.Discard()
		return "", err
	}
	// Under the draft's context: once it is done, the copy fails and the
	// temporary object stays, for a lifecycle rule to expire.
	err := d.s.b.Copy(d.ctx, name+".json", d.key, nil)
	d.s.b.Delete(d.ctx, d.key)
	d.cancel()
	if err != nil {
		return "", d.s.err(err)
	}
	return d.s.Location(name), nil
}

// Discard aborts the upload, or deletes the temporary object.
func (d *draft) Discard() error {
	d.mu.Lock()
	w := d.w
	d.w = nil
	d.mu.Unlock()
	if w != nil {
		d.cancel() // a writer closed after its context is done aborts the upload
		w.Close()
		return nil
	}
	defer d.cancel()
	if err := d.s.b.Delete(d.ctx, d.key); err != nil && gcerrors.Code(err) != gcerrors.NotFound {
		return d.s.err(err)
	}
	return nil
}

// A draft's upload goes in parts of partSize bytes, at most parts of them
// at once: the memory a draft holds (the drivers' defaults held 150 MiB of
// parts for S3).
const (
	partSize = 8 << 20
	parts    = 2
)
