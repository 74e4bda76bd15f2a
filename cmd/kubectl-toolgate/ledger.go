package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/toolgate/toolgate/internal/ledger"
)

const ledgerUsage = `Usage:
  kubectl toolgate ledger verify DIR [--public-key FILE] [--heads FILE | --heads-from-cluster] [-v] [--json]
      Check every writer's chain in DIR (the ledger volume, or one writer's directory):
      each record's hash, each link, sequence continuity, segment links and seals, live and
      gzip segments, and that only retention removed old segments. With the operator's public
      key (ed25519.pub of the toolgate-ledger-signing-key Secret), every sealed segment's
      signature; with the published heads (AuditLedger status.signedHeads, from a file written
      by "kubectl get auditledger default -o yaml" or read from the cluster), that no records
      were cut from the end and no chain was re-hashed. Prints one summary line, then one
      "cannot prove:" line for each anchor it was not given; exits 1 and names the first bad
      record if anything does not verify.
  kubectl toolgate ledger tail DIR [-n N] [--follow]
      Print the newest N records (all writers, in time order) as JSON lines; with --follow,
      keep printing records as they are appended.
`

func runLedger(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		say(stderr, ledgerUsage)
		return exitUsage
	}
	switch args[0] {
	case "verify":
		return ledgerVerify(args[1:], stdout, stderr)
	case "tail":
		return ledgerTail(ctx, args[1:], stdout, stderr)
	case "-h", "-help", "--help", "help":
		say(stdout, ledgerUsage)
		return exitOK
	}
	sayf(stderr, "unknown ledger command %q\n\n%s", args[0], ledgerUsage)
	return exitUsage
}

func ledgerVerify(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("ledger verify", stderr)
	verbose := fs.Bool("v", false, "list every chain with its gaps and notes")
	asJSON := fs.Bool("json", false, "print the full report as JSON instead of the summary")
	var a anchorFlags
	a.register(fs)
	dir, ok := oneDir(fs, args, stderr)
	if !ok {
		return exitUsage
	}
	opts, err := a.options()
	if err != nil {
		sayln(stderr, "error:", err)
		return exitUsage
	}
	rep, err := ledger.VerifyWith(dir, opts)
	if err != nil && !errors.Is(err, ledger.ErrBroken) {
		sayln(stderr, "error:", err)
		return exitUsage
	}
	if *asJSON {
		if err := writeJSON(stdout, rep); err != nil {
			sayln(stderr, "error:", err)
			return exitUsage
		}
	} else {
		sayln(stdout, rep.Summary())
		for _, l := range rep.Limits {
			sayln(stdout, "cannot prove:", l)
		}
		if *verbose {
			for _, c := range rep.Chains {
				sayln(stdout, c)
			}
		}
	}
	if !rep.OK() {
		return exitFailed
	}
	return exitOK
}

func ledgerTail(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("ledger tail", stderr)
	n := fs.Int("n", 10, "how many of the newest records to print")
	follow := fs.Bool("follow", false, "keep printing records as they are appended (until interrupted)")
	fs.BoolVar(follow, "f", false, "shorthand for --follow")
	interval := fs.Duration("interval", time.Second, "how often --follow looks for new records")
	dir, ok := oneDir(fs, args, stderr)
	if !ok {
		return exitUsage
	}
	if *n < 0 || *interval <= 0 {
		sayln(stderr, "error: -n must not be negative and --interval must be positive")
		return exitUsage
	}
	emit := func(line json.RawMessage) error {
		_, err := fmt.Fprintf(stdout, "%s\n", line)
		return err
	}
	var err error
	if *follow {
		err = ledger.Follow(ctx, dir, *n, *interval, emit)
	} else {
		var lines []json.RawMessage
		if lines, err = ledger.Tail(dir, *n); err == nil && *n > 0 {
			for _, l := range lines {
				if err = emit(l); err != nil {
					break
				}
			}
		}
	}
	if err != nil {
		sayln(stderr, "error:", err)
		return exitUsage
	}
	return exitOK
}

func newFlagSet(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		say(stderr, ledgerUsage, "\nFlags:\n")
		fs.PrintDefaults()
	}
	return fs
}

// oneDir parses flags before and after the one DIR argument (the flag package alone stops at
// the first argument that is not a flag).
func oneDir(fs *flag.FlagSet, args []string, stderr io.Writer) (string, bool) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return "", false
		}
		args = fs.Args()
		if len(args) == 0 {
			break
		}
		pos, args = append(pos, args[0]), args[1:]
	}
	if len(pos) != 1 {
		sayf(stderr, "%s: want exactly one DIR, got %d arguments\n\n", fs.Name(), len(pos))
		fs.Usage()
		return "", false
	}
	return pos[0], true
}
