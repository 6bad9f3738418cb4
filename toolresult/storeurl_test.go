package toolresult

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// resetDefault forgets the default store, and sets $TMPDIR for the test.
func resetDefault(t *testing.T) string {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	defaultMu.Lock()
	defaultDir = nil
	defaultMu.Unlock()
	t.Cleanup(func() {
		defaultMu.Lock()
		defaultDir = nil
		defaultMu.Unlock()
	})
	return tmp
}

func TestDefaultStore(t *testing.T) {
	t.Run("Made0700", func(t *testing.T) {
		tmp := resetDefault(t)
		st, err := defaultStore()
		if err != nil {
			t.Fatal(err)
		}
		fi, err := os.Lstat(filepath.Join(tmp, "jsonmask-variables"))
		if err != nil || fi.Mode().Perm() != 0o700 || st.Dir() != filepath.Join(tmp, "jsonmask-variables") {
			t.Fatalf("%v %v", fi.Mode(), err)
		}
	})
	t.Run("OpenMadePrivate", func(t *testing.T) {
		tmp := resetDefault(t)
		dir := filepath.Join(tmp, "jsonmask-variables")
		os.Mkdir(dir, 0o755)
		os.Chmod(dir, 0o755)
		if _, err := defaultStore(); err != nil {
			t.Fatal(err)
		}
		if fi, _ := os.Lstat(dir); fi.Mode().Perm() != 0o700 {
			t.Fatalf("mode %v", fi.Mode())
		}
	})
	t.Run("SymlinkRefused", func(t *testing.T) {
		tmp := resetDefault(t)
		other := t.TempDir()
		if err := os.Symlink(other, filepath.Join(tmp, "jsonmask-variables")); err != nil {
			t.Fatal(err)
		}
		_, err := defaultStore()
		if err == nil || !strings.Contains(err.Error(), "symbolic link") || !strings.Contains(err.Error(), tmp) {
			t.Fatalf("got %v", err)
		}
	})
	t.Run("FileRefused", func(t *testing.T) {
		tmp := resetDefault(t)
		os.WriteFile(filepath.Join(tmp, "jsonmask-variables"), nil, 0o600)
		if _, err := defaultStore(); err == nil || !strings.Contains(err.Error(), "not a directory") {
			t.Fatalf("got %v", err)
		}
	})
	t.Run("OtherOwnerRefused", func(t *testing.T) {
		if os.Geteuid() != 0 {
			t.Skip("needs root to make a directory owned by another user")
		}
		tmp := resetDefault(t)
		dir := filepath.Join(tmp, "jsonmask-variables")
		os.Mkdir(dir, 0o700)
		if err := os.Chown(dir, 65534, 65534); err != nil {
			t.Fatal(err)
		}
		if _, err := defaultStore(); err == nil || !strings.Contains(err.Error(), "another user") {
			t.Fatalf("got %v", err)
		}
	})
}

// TestDirStoreChanged: a variable named by its content whose file was
// edited on disk is refused, and read again once put back.
func TestDirStoreChanged(t *testing.T) {
	dir := t.TempDir()
	st, err := NewDirStore(dir)
	if err != nil {
		t.Fatal(err)
	}
	p, _ := New(WithBudget(10), WithStore(st))
	body := `{"items":[` + strings.Repeat(`{"id":"abcdef","n":12345},`, 50) + `{"id":"x"}]}`
	res, err := p.ProcessBytes(context.Background(), []byte(body))
	if err != nil || res.Route != Variable {
		t.Fatal(err, res.Route)
	}
	path := res.Variable.Path
	read := func(st Store) error {
		rc, _, err := st.Open(res.Variable.Name)
		if err != nil {
			return err
		}
		defer rc.Close()
		b, err := io.ReadAll(rc)
		if err == nil && string(b) != body {
			t.Fatal("read back other bytes")
		}
		return err
	}
	if err := read(st); err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(body, "12345", "99999", 1)
	if err := os.WriteFile(path, []byte(edited), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, s := range []*DirStore{st, {dir: dir}} { // the store that wrote it, and another
		err := read(s)
		if !errors.Is(err, ErrChanged) || !strings.Contains(err.Error(), path) {
			t.Fatalf("got %v", err)
		}
		if _, err := p.ReadVariable(context.Background(), Selection{Name: res.Variable.Name}); !errors.Is(err, ErrChanged) {
			t.Fatalf("read_variable: %v", err)
		}
		if _, err := p.Query(context.Background(), Query{Name: res.Variable.Name, Program: "."}); !errors.Is(err, ErrChanged) {
			t.Fatalf("query: %v", err)
		}
	}
	os.WriteFile(path, []byte(body), 0o600)
	if err := read(&DirStore{dir: dir}); err != nil {
		t.Fatal(err)
	}
}

func TestOpenStore(t *testing.T) {
	dir := t.TempDir()
	for _, u := range []string{dir, "file://" + dir} {
		st, err := OpenStore(context.Background(), u)
		if err != nil {
			t.Fatal(err)
		}
		if ds, ok := st.(*DirStore); !ok || ds.Dir() != dir {
			t.Fatalf("%s: %#v", u, st)
		}
	}
	_, err := OpenStore(context.Background(), "nosuch://bucket?secret_key=HUSH")
	if err == nil || strings.Contains(err.Error(), "HUSH") || !strings.Contains(err.Error(), "blobstore") {
		t.Fatalf("got %v", err)
	}
	if _, err := OpenStore(context.Background(), "file://host/x"); err == nil {
		t.Fatal("file://host/x taken")
	}
	if got := RedactURL("s3://user:pw@bucket?endpoint=http://x&secret=1"); strings.Contains(got, "pw") || strings.Contains(got, "secret") {
		t.Fatalf("Redact: %s", got)
	}
}
