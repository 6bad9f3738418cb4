package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/jsonmask/jsonmask/toolresult"
)

const contextUsage = `usage: jsonmask context [-mask JSON | -mask-file FILE] [-budget N] [-encoding NAME]
                        [-store DIR|URL] [-variable-location] [-name NAME]
                        [-format json|text] [FILE]

Prints what a tool's response (FILE, or standard input) becomes before a model
sees it (SPEC section 9): the data within the budget, a stored variable with a
schema and a preview, or the whole text. -format text prints exactly the model
text, after the instructions if any (a top-level display_instructions_for_model,
capped at 2,000 tokens and counted in the budget). -budget 0 turns the budget
off: all data passes. -variable-location makes a variable's note name its file
path or object URL, for a code interpreter to read (SPEC C16; off by default).

exit status: 0 done, 1 the input could not be read or was rejected, 2 usage.
`

// runContext is the context subcommand (SPEC C12).
func runContext(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlagSet("jsonmask context")
	var mf maskFlags
	mf.register(fs, maskOnly)
	budget := fs.Int("budget", toolresult.DefaultBudget, "the token `budget` (0: off, all data passes)")
	encoding := fs.String("encoding", toolresult.DefaultEncoding, "the tokenizer's encoding: o200k_base or cl100k_base")
	store := fs.String("store", "", "keep variables in `DIR` or at a URL: file://, s3://, gs://, azblob://, mem:// (default: $TMPDIR/jsonmask-variables)")
	location := fs.Bool("variable-location", false, "name a variable's file path or object URL in the model text (SPEC C16)")
	name := fs.String("name", "", "name the variable `NAME` instead of var_ and its SHA-256")
	format := fs.String("format", "json", "print the result as json, or the model text as text")
	files, status, done := parseCommand(fs, args, contextUsage, stdout, stderr)
	switch {
	case done:
		return status
	case len(files) > 1:
		return usageError(stderr, "jsonmask context", fmt.Errorf("one FILE at most, got %d", len(files)))
	case *budget < 0:
		return usageError(stderr, "jsonmask context", fmt.Errorf("-budget must be at least 0 (0: off), got %d", *budget))
	case *format != "json" && *format != "text":
		return usageError(stderr, "jsonmask context", fmt.Errorf("-format must be json or text, got %q", *format))
	}
	opts := []toolresult.Option{toolresult.WithBudget(*budget), toolresult.WithEncoding(*encoding), toolresult.WithName(*name), toolresult.WithLocation(*location)}
	if mf.given() {
		m, err := mf.compile()
		if err != nil {
			return usageError(stderr, "jsonmask context", err)
		}
		if status, done := mf.printMask(stdout, stderr, "jsonmask context", m); done {
			return status
		}
		opts = append(opts, toolresult.WithMask(m))
	} else if _, err := mf.options(); err != nil {
		return usageError(stderr, "jsonmask context", err)
	}
	if *store != "" {
		st, err := toolresult.OpenStore(context.Background(), *store)
		if err != nil {
			fmt.Fprintln(stderr, errorLine("-store", err))
			return 1
		}
		opts = append(opts, toolresult.WithStore(st))
	}
	p, err := toolresult.New(opts...)
	if err != nil {
		return usageError(stderr, "jsonmask context", err)
	}
	in, inName := stdin, "-"
	if len(files) == 1 && files[0] != "-" {
		f, err := os.Open(files[0])
		if err != nil {
			fmt.Fprintln(stderr, errorLine(files[0], err))
			return 1
		}
		defer f.Close()
		in, inName = f, files[0]
	}
	res, err := p.Process(context.Background(), in)
	if err != nil {
		// Redacted: a pointer past what the mask keeps is cut (SPEC G5).
		fmt.Fprintln(stderr, redactedLine(displayName(inName), err))
		return 1
	}
	if *format == "text" {
		text := res.ModelText()
		fmt.Fprint(stdout, text)
		if n := len(text); n == 0 || text[n-1] != '\n' {
			fmt.Fprintln(stdout)
		}
		return 0
	}
	out, _ := json.Marshal(res)
	fmt.Fprintf(stdout, "%s\n", out)
	return 0
}
