package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"syscall"

	"github.com/jsonmask/jsonmask/mcpproxy"
)

const mcpUsage = `usage: jsonmask mcp [-config FILE] [-grace DURATION] [--] COMMAND [ARG ...]

Runs COMMAND, an MCP server, as a child over stdio, and speaks MCP to the
client on standard input and output (SPEC section 10): the results of its
tools are masked and fitted to token budgets, large ones are stored as
variables, and a read_variable tool reads them. Every other message passes
unchanged; the server's standard error passes through. In an MCP client's
configuration the command becomes jsonmask, and the server's command goes
after "--" in its arguments (or, without "--", after jsonmask's own flags:
the first argument that is not one of them starts the command).

The configuration (default: a budget of 7000 tokens for every tool):

  {"budget": 25000, "encoding": "o200k_base", "store": "DIR", "strict": false,
   "tools": {"NAME": {"response_mask": {...}, "budget": 7000, "arrays": true,
                      "strict": true, "instructions": false}}}

A masked tool's result that its mask would pass unmasked (an array root
without "arrays", text that is not JSON) passes with a warning on standard
error, or with "strict" becomes an error result. "instructions" routes a
result's display_instructions_for_model to the model (off by default: it
is data, and the mask applies to it).

exit status: the server's (128+N when signal N ended it); 1 when it could
not be started; 2 usage or configuration.
`

// runMCP is the mcp subcommand (SPEC P1, P2).
func runMCP(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlagSet("jsonmask mcp")
	config := fs.String("config", "", "read the configuration from `FILE` (SPEC P2)")
	grace := fs.Duration("grace", mcpproxy.DefaultGrace, "give the server `DURATION` to exit when its input closes, and again after SIGTERM")
	// The flags stop at "--" or at the first argument that is not one of
	// them: the server's command and its own flags follow, as they are. (The
	// MCP Inspector's CLI drops the "--" of a command line.)
	err := fs.Parse(args)
	switch {
	case errors.Is(err, flag.ErrHelp):
		printUsage(stdout, fs, mcpUsage)
		return 0
	case err != nil:
		return usageError(stderr, "jsonmask mcp", err)
	case fs.NArg() == 0:
		return usageError(stderr, "jsonmask mcp", errors.New("the server's command is missing: jsonmask mcp [-config FILE] [--] COMMAND [ARG ...]"))
	}
	server := fs.Args()
	cfg := mcpproxy.DefaultConfig()
	if *config != "" {
		if cfg, err = mcpproxy.LoadConfig(*config); err != nil {
			return usageError(stderr, "jsonmask mcp", &located{"-config " + *config, err})
		}
	}
	p, err := mcpproxy.New(cfg, mcpproxy.WithGrace(*grace), mcpproxy.WithLog(stderr))
	if err != nil {
		return usageError(stderr, "jsonmask mcp", err)
	}
	cmd := exec.Command(server[0], server[1:]...)
	cmd.Stderr = stderr

	// SIGTERM, SIGINT and SIGHUP end the server (Run sends it SIGTERM) and
	// then the proxy, with the server's status. A client that closes its
	// end of standard output must not kill the proxy with SIGPIPE before
	// the server is ended: notified, SIGPIPE turns into write errors. (Not
	// signal.Ignore: an ignored signal stays ignored in the child.)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	pipe := make(chan os.Signal, 1)
	signal.Notify(pipe, syscall.SIGPIPE)
	defer signal.Stop(pipe)

	status, err := p.Run(ctx, cmd, stdin, stdout)
	if err != nil {
		fmt.Fprintln(stderr, errorLine("mcp: "+server[0], err))
		return 1
	}
	return status
}
