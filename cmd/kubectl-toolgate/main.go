// Command kubectl-toolgate is toolgate's kubectl plugin. Installed on the PATH it runs as
// `kubectl toolgate ...`; it also runs on its own.
//
//	kubectl toolgate test -f FILE... [flags]    decide an AgentToolCall offline, as the webhook would
//	kubectl toolgate explain PLAN [-n NS]      the profile a plan is locked to, and why
//	kubectl toolgate ledger verify DIR         check every chain of the audit ledger in DIR
//	kubectl toolgate ledger tail DIR [-n N]    print the newest records as JSON lines
//	kubectl toolgate approve PLAN --tool T     approve, as yourself, calls that need human approval
//	kubectl toolgate replay --ledger DIR       re-decide the ledger's decisions under candidate policies
//	kubectl toolgate completion SHELL          the shell completion script
//
// The commands are cobra commands with kubectl's connection flags (cli-runtime's ConfigFlags) and
// kubectl's -o printers; root.go lists them, one file each.
//
// Exit status: 0 success (an admitted call, a locked plan, a verified ledger), 1 the check ran and
// failed (a denied call, an unlocked plan, a broken ledger), 2 usage, input or I/O error.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/spf13/cobra"
)

const (
	exitOK     = 0
	exitFailed = 1 // the check ran and failed
	exitUsage  = 2 // bad arguments, or the check could not run
)

// completionName is the name kubectl (v1.26 and later) runs to complete a plugin's arguments:
// `kubectl toolgate <TAB>` runs `kubectl_complete-toolgate ARGS...`. The plugin answers to it
// when installed (or linked) under that name, as `kubectl-toolgate __complete ARGS...`.
const completionName = "kubectl_complete-toolgate"

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	args := os.Args[1:]
	if filepath.Base(os.Args[0]) == completionName {
		args = append([]string{cobra.ShellCompRequestCmd}, args...)
	}
	code := runWith(ctx, args, os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// run runs the plugin with args and returns the exit status; standard input is empty.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	return runWith(ctx, args, strings.NewReader(""), stdout, stderr)
}

// runWith runs the plugin with args, with stdin for the commands that read it, and returns the
// exit status.
func runWith(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	root := newRootCommand(&cli{stdin: stdin, stdout: stdout, stderr: stderr})
	root.SetArgs(args)
	cmd, err := root.ExecuteContextC(ctx)
	var status exitStatus
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &status):
		return int(status)
	}
	// cobra's own errors: an unknown command or flag, a flag's bad value, the wrong number of
	// arguments. They are usage errors, exit 2, whatever cobra would make of them.
	if cmd == root && strings.HasPrefix(err.Error(), "unknown command") {
		// cobra takes the word after an unknown flag for its value ("--bogus explain p" is
		// the command "p"): the unknown flag is the problem to name.
		if flagErr := root.ParseFlags(args); flagErr != nil {
			err = flagErr
		}
	}
	sayf(stderr, "error: %v\nRun '%s --help' for usage.\n", err, cmd.CommandPath())
	return exitUsage
}

// exitStatus is how a command that has said what went wrong ends with status 1 or 2.
type exitStatus int

func (s exitStatus) Error() string { return fmt.Sprintf("exit status %d", int(s)) }

// status is the error a command's RunE returns for an exit code: nil for 0.
func status(code int) error {
	if code == exitOK {
		return nil
	}
	return exitStatus(code)
}

// sayf, sayln and say write output a user reads. A failed write to a terminal or pipe
// has no better place to be reported, so they ignore it, like fmt.Printf.
func sayf(w io.Writer, format string, args ...any) { _, _ = fmt.Fprintf(w, format, args...) }

func sayln(w io.Writer, args ...any) { _, _ = fmt.Fprintln(w, args...) }

func say(w io.Writer, args ...any) { _, _ = fmt.Fprint(w, args...) }

// writeJSON writes v as indented JSON without HTML escaping, so commands and paths read as typed.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}
