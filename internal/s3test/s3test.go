// Package s3test starts an S3-compatible server for tests: gofakes3
// (github.com/johannesboyne/gofakes3, installed by .ci/run with go install
// from the Go module proxy) on 127.0.0.1, with its buckets on disk so that
// they outlive a restart. Without the binary a test skips, except in CI
// (CI=true), where it fails. It is for tests only.
package s3test

import (
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// Install is how to install the server.
const Install = "go install github.com/johannesboyne/gofakes3/cmd/gofakes3@v1.2.0"

// Secret is the secret key the tests' credentials use (set in the
// environment by Start): no message or output may hold it.
const Secret = "SECRET-s3-4c1d9e"

// Server is a running gofakes3 with a bucket "vars".
type Server struct {
	cmd  *exec.Cmd
	Addr string // host:port
	Dir  string // where its buckets are
}

// Start starts a server with its buckets in dir, on addr ("" for a free
// port of 127.0.0.1), stopped when the test ends. It sets the AWS
// credentials of the environment for the test.
func Start(t testing.TB, dir, addr string) *Server {
	t.Helper()
	bin := binary(t)
	if addr == "" {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		addr = l.Addr().String()
		l.Close()
	}
	cmd := exec.Command(bin, "-host", addr, "-backend", "fs", "-fs.path", dir, "-fs.create", "-initialbucket", "vars", "-quiet")
	cmd.Stdout, cmd.Stderr = io.Discard, io.Discard
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s := &Server{cmd: cmd, Addr: addr, Dir: dir}
	t.Cleanup(s.Stop)
	for start := time.Now(); ; {
		c, err := net.DialTimeout("tcp", addr, 100*time.Millisecond)
		if err == nil {
			c.Close()
			break
		}
		if time.Since(start) > 10*time.Second {
			t.Fatalf("gofakes3 does not listen on %s", addr)
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Setenv("AWS_ACCESS_KEY_ID", "jsonmask-test")
	t.Setenv("AWS_SECRET_ACCESS_KEY", Secret)
	return s
}

// Stop kills the server (as a crash would) and waits for it.
func (s *Server) Stop() {
	if s.cmd.Process != nil && s.cmd.ProcessState == nil {
		s.cmd.Process.Kill()
		s.cmd.Wait()
	}
}

// URL is the store URL of the bucket "vars".
func (s *Server) URL() string {
	return "s3://vars?endpoint=http://" + s.Addr + "&region=us-east-1&use_path_style=true&disable_https=true"
}

// binary finds gofakes3 on $PATH or in ~/go/bin.
func binary(t testing.TB) string {
	if p, err := exec.LookPath("gofakes3"); err == nil {
		return p
	}
	if home, err := os.UserHomeDir(); err == nil {
		p := filepath.Join(home, "go", "bin", "gofakes3")
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	msg := "no S3-compatible server: install it with " + Install + " (as .ci/run does)"
	if os.Getenv("CI") == "true" {
		t.Fatal(msg)
	}
	t.Skip(msg)
	return ""
}

// Silent starts an endpoint on 127.0.0.1 that takes connections and never
// answers, as a hung S3 server would, stopped when the test ends, and
// returns its store URL (the bucket "vars"). It sets the AWS credentials
// of the environment for the test, as Start does.
func Silent(t testing.TB) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	go func() {
		var held []net.Conn // open, never answered, until the listener closes
		defer func() {
			for _, c := range held {
				c.Close()
			}
		}()
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			held = append(held, c)
		}
	}()
	t.Setenv("AWS_ACCESS_KEY_ID", "jsonmask-test")
	t.Setenv("AWS_SECRET_ACCESS_KEY", Secret)
	return "s3://vars?endpoint=http://" + l.Addr().String() + "&region=us-east-1&use_path_style=true"
}
