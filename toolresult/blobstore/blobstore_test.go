package blobstore_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"gocloud.dev/blob"
	"gocloud.dev/blob/memblob"

	"github.com/jsonmask/jsonmask"
	"github.com/jsonmask/jsonmask/internal/s3test"
	"github.com/jsonmask/jsonmask/toolresult"
	"github.com/jsonmask/jsonmask/toolresult/blobstore"
)

// canary is in the values the tests' mask drops.
const canary = "CANARY-blob-77ab"

func TestMain(m *testing.M) {
	// As a child process: store standard input as a variable in the store
	// at $BLOBSTORE_TEST_WRITE and print its name.
	if url := os.Getenv("BLOBSTORE_TEST_WRITE"); url != "" {
		st, err := toolresult.OpenStore(context.Background(), url)
		if err == nil {
			var p *toolresult.Processor
			if p, err = toolresult.New(toolresult.WithBudget(50), toolresult.WithStore(st)); err == nil {
				var res *toolresult.Result
				if res, err = p.Process(context.Background(), os.Stdin); err == nil {
					fmt.Print(res.Variable.Name)
					os.Exit(0)
				}
			}
		}
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Exit(m.Run())
}

// body is a JSON object of about n bytes whose items hold the canary in
// a field the tests' mask drops.
func body(n int) []byte {
	var b bytes.Buffer
	b.WriteString(`{"items":[`)
	for i := 0; b.Len() < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"id":"i%07d","amount":%d,"secret":"%s"}`, i, i%1000, canary)
	}
	b.WriteString(`]}`)
	return b.Bytes()
}

func noSecret(t *testing.T, s string) {
	t.Helper()
	if strings.Contains(s, s3test.Secret) {
		t.Fatalf("the secret key reached a message: %s", s)
	}
}

// TestS3 runs the store against a real S3-compatible server: variables
// written by one Store are read and queried through another opened on the
// same URL, a draft is never seen before its commit, and a discarded one
// leaves nothing.
func TestS3(t *testing.T) {
	srv := s3test.Start(t, t.TempDir(), "")
	ctx := context.Background()
	a, err := toolresult.OpenStore(ctx, srv.URL())
	if err != nil {
		t.Fatal(err)
	}
	b, err := blobstore.Open(ctx, srv.URL())
	if err != nil {
		t.Fatal(err)
	}
	m := jsonmask.MustCompile(`{"items":{"id":true,"amount":true}}`)
	pa, _ := toolresult.New(toolresult.WithBudget(100), toolresult.WithStore(a), toolresult.WithMask(m), toolresult.WithLocation(true))
	res, err := pa.ProcessBytes(ctx, body(3<<20))
	if err != nil {
		t.Fatal(err)
	}
	if res.Route != toolresult.Variable || res.Variable.Path != "s3://vars/"+res.Variable.Name+".json" {
		t.Fatalf("%s %+v", res.Route, res.Variable)
	}
	if !strings.Contains(res.Text, "s3://vars/"+res.Variable.Name+".json") {
		t.Fatalf("the note does not say where the variable is (C16): %.400s", res.Text)
	}
	noSecret(t, res.Text)

	t.Run("ReadByAnotherStore", func(t *testing.T) {
		rc, size, err := b.Open(res.Variable.Name)
		if err != nil {
			t.Fatal(err)
		}
		defer rc.Close()
		got, _ := io.ReadAll(rc)
		want, _ := m.Append(nil, body(3<<20))
		if !bytes.Equal(got, want) || size != int64(len(want)) {
			t.Fatalf("read back %d bytes (size %d), want %d", len(got), size, len(want))
		}
	})
	t.Run("QueryByAnotherStore", func(t *testing.T) {
		pb, _ := toolresult.New(toolresult.WithStore(b))
		q, err := pb.Query(ctx, toolresult.Query{Name: res.Variable.Name, Program: `[.items[] | select(.amount == 999)] | length`})
		if err != nil {
			t.Fatal(err)
		}
		if q.Text == "0" || strings.Contains(q.Text, canary) {
			t.Fatalf("got %q", q.Text)
		}
	})
	t.Run("DraftUnseenUntilCommit", func(t *testing.T) {
		d, err := a.Create()
		if err != nil {
			t.Fatal(err)
		}
		d.Write([]byte(`{"a":1}`))
		if _, _, err := b.Open("var_draft"); !errors.Is(err, toolresult.ErrNoVariable) {
			t.Fatalf("before commit: %v", err)
		}
		buf := make([]byte, 7)
		if n, err := d.ReadAt(buf, 0); n != 7 || string(buf) != `{"a":1}` {
			t.Fatalf("ReadAt: %d %v %q", n, err, buf)
		}
		if _, err := d.Commit("var_draft"); err != nil {
			t.Fatal(err)
		}
		rc, _, err := b.Open("var_draft")
		if err != nil {
			t.Fatalf("after commit: %v", err)
		}
		rc.Close()
		if n := tmpObjects(t, srv); n != 0 {
			t.Fatalf("%d temporary objects left", n)
		}
	})
	t.Run("Discard", func(t *testing.T) {
		for _, readBack := range []bool{false, true} {
			d, _ := a.Create()
			d.Write(body(1 << 20))
			if readBack {
				d.ReadAt(make([]byte, 10), 0)
			}
			if err := d.Discard(); err != nil {
				t.Fatal(err)
			}
		}
		if n := tmpObjects(t, srv); n != 0 {
			t.Fatalf("%d temporary objects left", n)
		}
	})
	t.Run("Missing", func(t *testing.T) {
		for _, name := range []string{"var_000000000000", "../x", ".tmp"} {
			if _, _, err := b.Open(name); !errors.Is(err, toolresult.ErrNoVariable) {
				t.Fatalf("%s: %v", name, err)
			}
		}
	})
	t.Run("TwoProcesses", func(t *testing.T) {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), "BLOBSTORE_TEST_WRITE="+srv.URL())
		cmd.Stdin = bytes.NewReader(body(200 << 10))
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("%v: %s", err, stderr.String())
		}
		name := string(out)
		pb, _ := toolresult.New(toolresult.WithStore(b))
		q, err := pb.Query(ctx, toolresult.Query{Name: name, Program: `.items | length`, Pointer: ""})
		if err != nil || q.Text == "0" {
			t.Fatalf("%v %q", err, q.Text)
		}
	})
}

// tmpObjects counts the temporary objects on the server's disk.
func tmpObjects(t *testing.T, srv *s3test.Server) int {
	n := 0
	filepath.WalkDir(srv.Dir, func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.Contains(path, ".tmp") && !strings.Contains(path, "metadata") {
			n++
		}
		return nil
	})
	return n
}

// TestS3KilledMidWrite: the server killed while a variable is written
// fails the write, and once the server is back no variable is there.
func TestS3KilledMidWrite(t *testing.T) {
	dir := t.TempDir()
	srv := s3test.Start(t, dir, "")
	st, err := blobstore.Open(context.Background(), srv.URL())
	if err != nil {
		t.Fatal(err)
	}
	p, _ := toolresult.New(toolresult.WithBudget(50), toolresult.WithStore(st))
	data := body(32 << 20)
	// The server dies once 12 MiB have been read: past the first parts.
	r := &killAt{r: bytes.NewReader(data), at: 12 << 20, kill: srv.Stop}
	_, err = p.Process(context.Background(), r)
	if err == nil {
		t.Fatal("the write did not fail")
	}
	noSecret(t, err.Error())
	t.Log(err)

	srv2 := s3test.Start(t, dir, srv.Addr)
	st2, _ := blobstore.Open(context.Background(), srv2.URL())
	var names []string
	filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".json") && !strings.Contains(path, ".tmp") && !strings.Contains(path, "metadata") {
			names = append(names, path)
		}
		return nil
	})
	if len(names) > 0 {
		t.Fatalf("variables left: %v", names)
	}
	// The store works again.
	p2, _ := toolresult.New(toolresult.WithBudget(50), toolresult.WithStore(st2))
	if _, err := p2.ProcessBytes(context.Background(), body(100<<10)); err != nil {
		t.Fatal(err)
	}
}

// killAt reads r and calls kill once at bytes have been read.
type killAt struct {
	r      io.Reader
	n, at  int
	kill   func()
	killed bool
}

func (k *killAt) Read(p []byte) (int, error) {
	if k.n >= k.at && !k.killed {
		k.killed = true
		k.kill()
	}
	n, err := k.r.Read(p)
	k.n += n
	return n, err
}

// TestOpenErrors: a bad URL's error names the bucket without the query,
// where credentials could be.
func TestOpenErrors(t *testing.T) {
	_, err := toolresult.OpenStore(context.Background(), "s3://vars?endpoint=http://127.0.0.1:1&region=us-east-1&secret_access_key="+s3test.Secret)
	if err == nil {
		t.Fatal("no error")
	}
	noSecret(t, err.Error())
	st, err := toolresult.OpenStore(context.Background(), "mem://")
	if err != nil {
		t.Fatal(err)
	}
	p, _ := toolresult.New(toolresult.WithBudget(50), toolresult.WithStore(st))
	res, err := p.ProcessBytes(context.Background(), body(10<<10))
	if err != nil || res.Route != toolresult.Variable {
		t.Fatal(err)
	}
	// A server that is not there: the error says which store, not the key.
	unreachable, err := blobstore.Open(context.Background(), "s3://vars?endpoint=http://127.0.0.1:1&region=us-east-1&use_path_style=true")
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("AWS_ACCESS_KEY_ID", "jsonmask-test")
	t.Setenv("AWS_SECRET_ACCESS_KEY", s3test.Secret)
	_, _, err = unreachable.Open("var_000000000000")
	if err == nil || !strings.Contains(err.Error(), "s3://vars") {
		t.Fatalf("got %v", err)
	}
	noSecret(t, err.Error())
}

// TestS3Large writes a variable of $JSONMASK_S3_LARGE bytes (made as it is
// read, never held) to the S3 server and reads it back, and logs the
// process's peak resident set: memory must not grow with the variable. Not
// run by default (1 GiB takes a minute and 2 GiB of disk).
func TestS3Large(t *testing.T) {
	size, _ := strconv.ParseInt(os.Getenv("JSONMASK_S3_LARGE"), 10, 64)
	if size == 0 {
		t.Skip("set JSONMASK_S3_LARGE=BYTES to run")
	}
	srv := s3test.Start(t, t.TempDir(), "")
	st, err := blobstore.Open(context.Background(), srv.URL())
	if err != nil {
		t.Fatal(err)
	}
	p, _ := toolresult.New(toolresult.WithStore(st))
	start := time.Now()
	res, err := p.Process(context.Background(), &genReader{size: size})
	if err != nil {
		t.Fatal(err)
	}
	wrote := time.Since(start)
	t.Logf("after the write: peak RSS %s", vmHWM())
	rc, n, err := st.Open(res.Variable.Name)
	if err != nil {
		t.Fatal(err)
	}
	h := sha256.New()
	if _, err := io.Copy(h, rc); err != nil {
		t.Fatal(err)
	}
	rc.Close()
	if hex.EncodeToString(h.Sum(nil)) != res.Variable.SHA256 || n != res.Variable.Bytes {
		t.Fatal("read back other bytes")
	}
	t.Logf("%d bytes: written in %v, read back in %v; peak RSS %s", n, wrote, time.Since(start)-wrote, vmHWM())
}

// genReader makes {"items":[...]} of about size bytes as it is read.
type genReader struct {
	size, made int64
	i          int
	buf        []byte
	done       bool
}

func (g *genReader) Read(p []byte) (int, error) {
	for len(g.buf) < len(p) && !g.done {
		before := len(g.buf)
		switch {
		case g.made == 0:
			g.buf = append(g.buf, `{"items":[`...)
		case g.made+200 >= g.size:
			g.buf = append(g.buf, `{"id":0}]}`...)
			g.done = true
		default:
			g.buf = fmt.Appendf(g.buf, `{"id":"i%09d","amount":%d,"note":"a generated item with a few words"},`, g.i, g.i%1000)
			g.i++
		}
		g.made += int64(len(g.buf) - before)
	}
	n := copy(p, g.buf)
	g.buf = g.buf[n:]
	if n == 0 && g.done {
		return 0, io.EOF
	}
	return n, nil
}

// vmHWM is the process's peak resident set, from /proc/self/status.
func vmHWM() string {
	b, _ := os.ReadFile("/proc/self/status")
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, "VmHWM:") {
			return strings.TrimSpace(strings.TrimPrefix(line, "VmHWM:"))
		}
	}
	return "?"
}

// TestTampered: a variable whose object was replaced or corrupted in the
// store after it was written is refused on every read path, with an error
// that wraps toolresult.ErrChanged and names the variable, never served
// (C6): against the real S3-compatible server, a mem:// bucket, and the
// file store (file://, a DirStore, which checks before it reads).
func TestTampered(t *testing.T) {
	ctx := context.Background()
	srv := s3test.Start(t, t.TempDir(), "")
	mem := memblob.OpenBucket(nil)
	dir := t.TempDir()
	for _, tc := range []struct {
		name   string
		open   func(t *testing.T) toolresult.Store
		tamper func(t *testing.T, name string, b []byte)
	}{
		{"S3", func(t *testing.T) toolresult.Store {
			st, err := toolresult.OpenStore(ctx, srv.URL())
			if err != nil {
				t.Fatal(err)
			}
			return st
		}, func(t *testing.T, name string, b []byte) {
			bk, err := blob.OpenBucket(ctx, srv.URL())
			if err != nil {
				t.Fatal(err)
			}
			defer bk.Close()
			if err := bk.WriteAll(ctx, name+".json", b, nil); err != nil {
				t.Fatal(err)
			}
		}},
		{"Mem", func(t *testing.T) toolresult.Store { return blobstore.New(mem, "mem://") },
			func(t *testing.T, name string, b []byte) {
				if err := mem.WriteAll(ctx, name+".json", b, nil); err != nil {
					t.Fatal(err)
				}
			}},
		{"File", func(t *testing.T) toolresult.Store {
			st, err := toolresult.OpenStore(ctx, "file://"+dir)
			if err != nil {
				t.Fatal(err)
			}
			return st
		}, func(t *testing.T, name string, b []byte) {
			if err := os.WriteFile(filepath.Join(dir, name+".json"), b, 0o600); err != nil {
				t.Fatal(err)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := tc.open(t)
			p, _ := toolresult.New(toolresult.WithBudget(100), toolresult.WithStore(st))
			orig := body(200 << 10)
			res, err := p.ProcessBytes(ctx, orig)
			if err != nil || res.Route != toolresult.Variable {
				t.Fatal(err, res.Route)
			}
			name := res.Variable.Name
			reads := []struct {
				name string
				read func() error
			}{
				{"Open", func() error {
					rc, _, err := st.Open(name)
					if err != nil {
						return err
					}
					defer rc.Close()
					_, err = io.ReadAll(rc)
					return err
				}},
				{"ReadVariable", func() error {
					_, err := p.ReadVariable(ctx, toolresult.Selection{Name: name})
					return err
				}},
				// The pointed value is at the start: the rest is read
				// past to check it.
				{"ReadVariablePointer", func() error {
					_, err := p.ReadVariable(ctx, toolresult.Selection{Name: name, Pointer: "/items/0"})
					return err
				}},
				{"Query", func() error {
					_, err := p.Query(ctx, toolresult.Query{Name: name, Program: ".items | length"})
					return err
				}},
				{"QueryPointer", func() error {
					_, err := p.Query(ctx, toolresult.Query{Name: name, Program: ".", Pointer: "/items/0/id"})
					return err
				}},
			}
			for _, r := range reads {
				if err := r.read(); err != nil {
					t.Fatalf("%s before tampering: %v", r.name, err)
				}
			}
			for _, tm := range []struct {
				name string
				b    []byte
			}{
				// The same shape, one value changed, near the end.
				{"Replaced", bytes.Replace(orig, []byte(`"amount":999`), []byte(`"amount":998`), 1)},
				{"Truncated", orig[:len(orig)/2]},
				{"Appended", append(bytes.Clone(orig), " TAMPERED"...)},
				{"Other", []byte(`{"items":[{"id":"TAMPERED"}]}`)},
			} {
				tc.tamper(t, name, tm.b)
				for _, r := range reads {
					t.Run(tm.name+"/"+r.name, func(t *testing.T) {
						err := r.read()
						if !errors.Is(err, toolresult.ErrChanged) || !strings.Contains(err.Error(), name) {
							t.Fatalf("got %v, want ErrChanged naming %s", err, name)
						}
						if strings.Contains(err.Error(), "TAMPERED") || strings.Contains(err.Error(), canary) {
							t.Fatalf("the error quotes data: %v", err)
						}
					})
				}
			}
			// Put back, it reads again.
			tc.tamper(t, name, orig)
			for _, r := range reads {
				if err := r.read(); err != nil {
					t.Fatalf("%s put back: %v", r.name, err)
				}
			}
		})
	}
}

// TestSilentServerEnds: an S3 endpoint that takes connections and never
// answers holds the storing of a variable, a query or a read only until
// their context ends (toolresult.ContextStore); Create and Open without a
// context waited for good.
func TestSilentServerEnds(t *testing.T) {
	url := s3test.Silent(t)
	st, err := blobstore.Open(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	p, err := toolresult.New(toolresult.WithBudget(50), toolresult.WithStore(st))
	if err != nil {
		t.Fatal(err)
	}
	const name = "var_0123456789abcdef"
	for _, tc := range []struct {
		name string
		call func(ctx context.Context) error
	}{
		{"ProcessSmall", func(ctx context.Context) error {
			_, err := p.ProcessBytes(ctx, body(1<<10))
			return err
		}},
		{"ProcessParts", func(ctx context.Context) error {
			_, err := p.ProcessBytes(ctx, body(9<<20)) // past one part
			return err
		}},
		{"Query", func(ctx context.Context) error {
			_, err := p.Query(ctx, toolresult.Query{Name: name, Program: `length`})
			return err
		}},
		{"ReadVariable", func(ctx context.Context) error {
			_, err := p.ReadVariable(ctx, toolresult.Selection{Name: name})
			return err
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), time.Second)
			defer cancel()
			done := make(chan error, 1)
			go func() { done <- tc.call(ctx) }()
			select {
			case err := <-done:
				if err == nil {
					t.Fatal("no error from a server that never answers")
				}
				noSecret(t, err.Error())
			case <-time.After(20 * time.Second):
				t.Fatal("still waiting on the server 20 s after the context ended")
			}
		})
	}
}
