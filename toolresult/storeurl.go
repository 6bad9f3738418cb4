package toolresult

import (
	"context"
	"errors"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/jsonmask/jsonmask/internal/errs"
)

// OpenStore returns the store that a URL names (SPEC C15): "" is the
// default store (a DirStore in $TMPDIR/jsonmask-variables); a path or a
// file:// URL is a DirStore in that directory; any other scheme (s3, gs,
// azblob, mem) is opened by the package registered for it: a program that
// wants those links github.com/jsonmask/jsonmask/toolresult/blobstore in,
// which registers them, so that only such programs link the cloud SDKs.
// Errors name the store without the URL's query or user information, where
// credentials could be.
func OpenStore(ctx context.Context, rawURL string) (Store, error) {
	if rawURL == "" {
		return defaultStore()
	}
	scheme, _, ok := strings.Cut(rawURL, "://")
	if !ok || len(scheme) == 1 { // a path, or a Windows drive letter
		return NewDirStore(rawURL)
	}
	if scheme == "file" {
		u, err := url.Parse(rawURL)
		if err != nil || u.Host != "" && u.Host != "localhost" {
			return nil, errs.Errorf("store %s: want file:///absolute/path", RedactURL(rawURL))
		}
		return NewDirStore(filepath.FromSlash(u.Path))
	}
	openersMu.RLock()
	open := openers[scheme]
	openersMu.RUnlock()
	if open == nil {
		return nil, errs.Errorf("store %s: no store for the scheme %q in this program (link github.com/jsonmask/jsonmask/toolresult/blobstore for s3, gs, azblob and mem)", RedactURL(rawURL), scheme)
	}
	return open(ctx, rawURL)
}

// RegisterStore makes OpenStore open URLs of a scheme with open. It is
// meant for a package's init (toolresult/blobstore's); a scheme registered
// twice panics.
func RegisterStore(scheme string, open func(ctx context.Context, rawURL string) (Store, error)) {
	openersMu.Lock()
	defer openersMu.Unlock()
	if openers == nil {
		openers = map[string]func(context.Context, string) (Store, error){}
	}
	if _, dup := openers[scheme]; dup || scheme == "file" {
		panic("jsonmask: RegisterStore: the scheme " + scheme + " is registered twice")
	}
	openers[scheme] = open
}

var (
	openersMu sync.RWMutex
	openers   map[string]func(context.Context, string) (Store, error)
)

// RedactURL returns a store URL fit for messages and logs: without its query
// and user information, where credentials could be.
func RedactURL(rawURL string) string {
	u, err := url.Parse(rawURL)
	if err != nil {
		if i := strings.IndexAny(rawURL, "?@"); i >= 0 {
			return rawURL[:i] + "…"
		}
		return rawURL
	}
	if u.User != nil {
		u.User = nil
	}
	if u.RawQuery != "" {
		u.RawQuery = ""
		return u.String() + "?…"
	}
	return u.String()
}

// The default store, made once.
var (
	defaultMu  sync.Mutex
	defaultDir *DirStore
)

// defaultStore returns the DirStore in $TMPDIR/jsonmask-variables, made
// 0700 on first use. A directory there that is a symbolic link, not a
// directory, or owned by another user is refused: in a shared $TMPDIR
// another user could read or plant variables.
func defaultStore() (*DirStore, error) {
	defaultMu.Lock()
	defer defaultMu.Unlock()
	if defaultDir != nil {
		return defaultDir, nil
	}
	dir := filepath.Join(os.TempDir(), "jsonmask-variables")
	if err := os.Mkdir(dir, 0o700); err != nil && !errors.Is(err, os.ErrExist) {
		return nil, errs.Errorf("store %s: %w", dir, err)
	}
	st, err := os.Lstat(dir)
	if err != nil {
		return nil, errs.Errorf("store %s: %w", dir, err)
	}
	switch {
	case st.Mode()&os.ModeSymlink != 0:
		return nil, errs.Errorf("store %s: a symbolic link, refused as the default store (set a store of your own)", dir)
	case !st.IsDir():
		return nil, errs.Errorf("store %s: not a directory", dir)
	case ownedByOther(st):
		return nil, errs.Errorf("store %s: owned by another user, refused as the default store (set a store of your own)", dir)
	case st.Mode().Perm()&0o077 != 0:
		// Made by an older version, or by hand: ours, so made private.
		if err := os.Chmod(dir, 0o700); err != nil {
			return nil, errs.Errorf("store %s: %w", dir, err)
		}
	}
	defaultDir = &DirStore{dir: dir}
	return defaultDir, nil
}
