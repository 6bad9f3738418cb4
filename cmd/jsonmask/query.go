package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/jsonmask/jsonmask/toolresult"
	// Stores by URL (s3, gs, azblob, mem) for -store (SPEC C15).
	_ "github.com/jsonmask/jsonmask/toolresult/blobstore"
)

const queryUsage = `usage: jsonmask query [-store DIR|URL] [-budget N] [-encoding NAME] [-pointer P]
                      [-time D] [-format json|text] NAME PROGRAM

Runs the jq PROGRAM over the stored variable NAME (or over the value at the
JSON Pointer P in it, the rest not decoded) and prints its output as
jsonmask context prints a tool's response (SPEC C13, C17): within the budget
as it is, over it as a new variable with a schema and a preview.

exit status: 0 done, 1 the query failed (no such variable, a program error,
a limit), 2 usage.
`

// runQuery is the query subcommand (SPEC C17).
func runQuery(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlagSet("jsonmask query")
	budget := fs.Int("budget", toolresult.DefaultBudget, "the token `budget`")
	encoding := fs.String("encoding", toolresult.DefaultEncoding, "the tokenizer's encoding: o200k_base or cl100k_base")
	store := fs.String("store", "", "the store: a `DIR` or a URL: file://, s3://, gs://, azblob://, mem:// (default: $TMPDIR/jsonmask-variables)")
	pointer := fs.String("pointer", "", "run the program over the value at this JSON `Pointer` only")
	limit := fs.Duration("time", toolresult.DefaultQueryTime, "stop the query after this `duration`")
	format := fs.String("format", "json", "print the result as json, or the model text as text")
	operands, status, done := parseCommand(fs, args, queryUsage, stdout, stderr)
	switch {
	case done:
		return status
	case len(operands) != 2:
		return usageError(stderr, "jsonmask query", fmt.Errorf("want NAME and PROGRAM, got %d operands", len(operands)))
	case *format != "json" && *format != "text":
		return usageError(stderr, "jsonmask query", fmt.Errorf("-format must be json or text, got %q", *format))
	case *limit <= 0:
		return usageError(stderr, "jsonmask query", fmt.Errorf("-time must be positive, got %v", *limit))
	}
	st, err := toolresult.OpenStore(context.Background(), *store)
	if err != nil {
		fmt.Fprintln(stderr, errorLine("-store", err))
		return 1
	}
	p, err := toolresult.New(toolresult.WithBudget(*budget), toolresult.WithEncoding(*encoding), toolresult.WithStore(st),
		toolresult.WithQueryLimits(toolresult.QueryLimits{Time: *limit}))
	if err != nil {
		return usageError(stderr, "jsonmask query", err)
	}
	res, err := p.Query(context.Background(), toolresult.Query{Name: operands[0], Program: operands[1], Pointer: *pointer})
	if err != nil {
		fmt.Fprintln(stderr, errorLine("", err))
		return 1
	}
	if *format == "text" {
		fmt.Fprint(stdout, res.Text)
		if n := len(res.Text); n == 0 || res.Text[n-1] != '\n' {
			fmt.Fprintln(stdout)
		}
		return 0
	}
	out, _ := json.Marshal(res)
	fmt.Fprintf(stdout, "%s\n", out)
	return 0
}
