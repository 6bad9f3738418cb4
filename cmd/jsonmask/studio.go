package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/jsonmask/jsonmask"
	"github.com/jsonmask/jsonmask/studio"
	"github.com/jsonmask/jsonmask/toolresult"
)

const studioUsage = `usage: jsonmask studio [-mask JSON | -mask-file FILE | -fields TEXT] [-encoding NAME] [-listen ADDR] FILE...

Serves the mask studio (SPEC section 13) for writing a mask against the
sample responses FILE... (JSON objects, arrays of them, or NDJSON; "-" is
standard input): a page that shows where their bytes and tokens go, keeps or
drops a path at a click, and shows the masked output, the tokens saved, the
warnings of explain, and the mask as JSON and as text, ready to copy. A mask
given is loaded for editing. It prints its URL and opens nothing; it listens
on loopback only and answers only its own page. Ctrl-C stops it.

exit status: 0 stopped, 1 a sample unreadable or not JSON, 2 usage.
`

// runStudio is the studio subcommand: it serves until interrupted.
func runStudio(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return serveStudio(ctx, args, stdin, stdout, stderr)
}

// serveStudio is runStudio until ctx is done.
func serveStudio(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	const cmd = "jsonmask studio"
	fs := newFlagSet(cmd)
	var (
		maskText = fs.String("mask", "", "the mask to start with, as JSON `text`")
		maskFile = fs.String("mask-file", "", "read the mask to start with from `FILE`")
		fields   = fs.String("fields", "", "the mask to start with in the text syntax, such as 'id,items(id,price)' (SPEC T1)")
		encoding = fs.String("encoding", toolresult.DefaultEncoding, "the tokenizer: o200k_base or cl100k_base")
		listen   = fs.String("listen", "127.0.0.1:0", "listen on `ADDR`, a loopback address (a free port with :0)")
	)
	files, status, done := parseCommand(fs, args, studioUsage, stdout, stderr)
	if done {
		return status
	}
	if len(files) == 0 {
		return usageError(stderr, cmd, errors.New("give one or more sample files"))
	}
	mask, err := studioMask(*maskText, *maskFile, *fields)
	if err != nil {
		return usageError(stderr, cmd, err)
	}
	if _, err := toolresult.NewTokenizer(*encoding); err != nil {
		return usageError(stderr, cmd, &located{"-encoding", err})
	}
	ln, err := studio.Listen(*listen)
	if err != nil {
		return usageError(stderr, cmd, &located{"-listen", err})
	}
	defer ln.Close()
	cfg := studio.Config{Mask: mask, Encoding: *encoding}
	for _, name := range files {
		data, err := readInput(name, stdin, &maskFlags{})
		if err != nil {
			return inputFailed(stderr, name, err)
		}
		cfg.Samples = append(cfg.Samples, studio.Sample{Name: displayName(name), Data: data})
	}
	s, err := studio.New(cfg)
	if err != nil {
		fmt.Fprintln(stderr, errorLine("", err))
		return 1
	}
	srv := &http.Server{Handler: s.Handler(ln.Addr().String()), ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintf(stdout, "jsonmask studio: http://%s/\n", ln.Addr())
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	select {
	case <-ctx.Done():
		shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		srv.Shutdown(shut)
		return 0
	case err := <-served:
		fmt.Fprintln(stderr, errorLine("studio", err))
		return 1
	}
}

// studioMask reads the mask flags into the JSON mask the studio starts
// with (nil: none), checked here so that a bad one is a usage error.
func studioMask(text, file, fields string) ([]byte, error) {
	var src []byte
	switch {
	case countGiven(text, file, fields) > 1:
		return nil, errors.New("give one of -mask, -mask-file and -fields")
	case fields != "":
		m, err := jsonmask.CompileFields(fields)
		if err != nil {
			return nil, err // it names the fields mask
		}
		return m.MarshalJSON()
	case text != "":
		src = []byte(text)
	case file != "":
		var err error
		if src, err = os.ReadFile(file); err != nil {
			return nil, &located{"-mask-file", err}
		}
	default:
		return nil, nil
	}
	if _, err := jsonmask.Compile(src, jsonmask.WithWildcards(true)); err != nil {
		return nil, err
	}
	return src, nil
}
