// Command kubectl-toolgate is toolgate's kubectl plugin. Installed on the PATH it runs as
// `kubectl toolgate ...`; it also runs on its own.
//
//	kubectl toolgate test -f FILE... [flags]    decide an AgentToolCall offline, as the webhook would
//	kubectl toolgate explain PLAN [-n NS]      the profile a plan is locked to, and why
//	kubectl toolgate ledger verify DIR         check every chain of the audit ledger in DIR
//	kubectl toolgate ledger tail DIR [-n N]    print the newest records as JSON lines
//	kubectl toolgate approve PLAN --tool T     approve, as yourself, calls that need human approval
//
// Exit status: 0 success (an admitted call, a locked plan, a verified ledger), 1 the check ran and
// failed (a denied call, an unlocked plan, a broken ledger), 2 usage, input or I/O error.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
)

const (
	exitOK     = 0
	exitFailed = 1 // the check ran and failed
	exitUsage  = 2 // bad arguments, or the check could not run
)

// command is one top-level subcommand. Each lives in its own file (test.go, explain.go,
// ledger.go).
type command struct {
	name    string
	summary string
	run     func(ctx context.Context, args []string, stdout, stderr io.Writer) int
}

func commands(stdin io.Reader) []command {
	return []command{
		{name: "test", summary: "decide an AgentToolCall offline, from YAML, as the admission webhook would",
			run: func(ctx context.Context, args []string, stdout, stderr io.Writer) int {
				return runTest(ctx, args, stdin, stdout, stderr)
			}},
		{name: "explain", summary: "explain the profile a plan is locked to, and why", run: runExplain},
		{name: "ledger", summary: "verify and read the audit ledger", run: runLedger},
		{name: "approve", summary: "approve, as yourself, tool calls that need human approval", run: runApprove},
	}
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := runWith(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// run dispatches to a subcommand and returns the exit status; standard input is empty.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	return runWith(ctx, args, strings.NewReader(""), stdout, stderr)
}

// runWith dispatches to a subcommand, with stdin for the commands that read it.
func runWith(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		usage(stderr)
		return exitUsage
	}
	if isHelp(args[0]) {
		usage(stdout)
		return exitOK
	}
	for _, c := range commands(stdin) {
		if c.name == args[0] {
			return c.run(ctx, args[1:], stdout, stderr)
		}
	}
	sayf(stderr, "unknown command %q\n\n", args[0])
	usage(stderr)
	return exitUsage
}

// sayf, sayln and say write output a user reads. A failed write to a terminal or pipe
// has no better place to be reported, so they ignore it, like fmt.Printf.
func sayf(w io.Writer, format string, args ...any) { _, _ = fmt.Fprintf(w, format, args...) }

func sayln(w io.Writer, args ...any) { _, _ = fmt.Fprintln(w, args...) }

func say(w io.Writer, args ...any) { _, _ = fmt.Fprint(w, args...) }

// isHelp reports whether arg asks for usage.
func isHelp(arg string) bool {
	switch arg {
	case "-h", "-help", "--help", "help":
		return true
	}
	return false
}

func usage(w io.Writer) {
	sayln(w, "Usage: kubectl toolgate COMMAND [ARGS]")
	sayln(w)
	sayln(w, "Commands:")
	for _, c := range commands(nil) {
		sayf(w, "  %-10s %s\n", c.name, c.summary)
	}
	sayln(w)
	sayln(w, "Run 'kubectl toolgate COMMAND -h' for a command's usage.")
}

// writeJSON writes v as indented JSON without HTML escaping, so commands and paths read as typed.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}
