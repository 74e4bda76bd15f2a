package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/toolgate/toolgate/internal/ledger"
	"github.com/toolgate/toolgate/internal/policy"
)

const ledgerLong = `Verify and read the audit ledger: the directory of the ledger volume (or one writer's directory),
read as files; no cluster is needed, except for ledger verify --heads-from-cluster.`

func newLedgerCommand(c *cli) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "ledger",
		Short: "verify and read the audit ledger",
		Long:  ledgerLong,
		// A subcommand it does not have is a usage error, not a reason to print help and succeed.
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			say(c.stderr, cmd.UsageString())
			return exitStatus(exitUsage)
		},
	}
	cmd.AddCommand(newLedgerVerifyCommand(c), newLedgerTailCommand(c))
	return cmd
}

const ledgerVerifyLong = `Check every writer's chain in DIR (the ledger volume, or one writer's directory): each
record's hash, each link, sequence continuity, segment links and seals, live and gzip segments, and that only
retention removed old segments. With the operator's public key (ed25519.pub of the
toolgate-ledger-signing-key Secret), every sealed segment's signature; with the published heads
(AuditLedger status.signedHeads, from a file written by "kubectl get auditledger default -o yaml"
or read from the cluster), that no records were cut from the end and no chain was re-hashed.

Prints one summary line, then one "cannot prove:" line for each anchor it was not given.

Exit status: 0 the ledger verifies, 1 it does not (the first bad record is named), 2 usage error,
or DIR cannot be read.`

func newLedgerVerifyCommand(c *cli) *cobra.Command {
	var verbose bool
	var out *reportOutput
	a := anchorFlags{kube: c.kube}
	cmd := &cobra.Command{
		Use:   "verify DIR",
		Short: "check every chain of the audit ledger in DIR",
		Long:  ledgerVerifyLong,
		Args:  oneDir,
		RunE: func(_ *cobra.Command, args []string) error {
			asJSON, err := out.asJSON(c.stderr)
			if err != nil {
				return err
			}
			return status(ledgerVerify(args[0], &a, verbose, asJSON, c.stdout, c.stderr))
		},
	}
	cmd.Flags().BoolVarP(&verbose, "verbose", "v", false, "list every chain with its gaps and notes")
	out = addReportOutput(cmd)
	a.register(cmd.Flags())
	return cmd
}

func ledgerVerify(dir string, a *anchorFlags, verbose, asJSON bool, stdout, stderr io.Writer) int {
	opts, err := a.options()
	if err != nil {
		sayVisible(stderr, "error: "+err.Error())
		return exitUsage
	}
	rep, err := ledger.VerifyWith(dir, opts)
	if err != nil && !errors.Is(err, ledger.ErrBroken) {
		sayVisible(stderr, "error: "+err.Error())
		return exitUsage
	}
	if asJSON {
		if err := writeJSON(stdout, rep); err != nil {
			sayVisible(stderr, "error: "+err.Error())
			return exitUsage
		}
	} else {
		sayVisible(stdout, rep.Summary())
		sayLimits(stdout, rep.Limits)
		if verbose {
			for _, c := range rep.Chains {
				sayVisible(stdout, c.String())
			}
		}
	}
	if !rep.OK() {
		return exitFailed
	}
	return exitOK
}

const ledgerTailLong = `Print the newest N records of the ledger in DIR (all writers, in time order) as JSON lines; with
--follow, keep printing records as they are appended, until interrupted.

Here -n is the number of records, as for tail(1): ledger tail reads files and takes none of the
kubectl connection flags.`

// newLedgerTailCommand parses its own flags: its -n, the number of records, cannot live beside
// the global -n/--namespace in cobra's flag sets (they would share the shorthand).
func newLedgerTailCommand(c *cli) *cobra.Command {
	cmd := &cobra.Command{
		Use:                "tail DIR [-n N] [--follow]",
		Short:              "print the newest records as JSON lines",
		Long:               ledgerTailLong,
		DisableFlagParsing: true,
	}
	fs := pflag.NewFlagSet("ledger tail", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	n := fs.IntP("lines", "n", 10, "how many of the newest records to print")
	follow := fs.BoolP("follow", "f", false, "keep printing records as they are appended (until interrupted)")
	interval := fs.Duration("interval", time.Second, "how often --follow looks for new records")
	help := fs.BoolP("help", "h", false, "help for tail")
	cmd.SetUsageFunc(func(cmd *cobra.Command) error {
		sayf(cmd.OutOrStderr(), "Usage:\n  %s\n\nFlags:\n%s", cmd.UseLine(), fs.FlagUsages())
		return nil
	})
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		if err := fs.Parse(args); err != nil {
			return err
		}
		if *help {
			return cmd.Help()
		}
		if err := oneDir(cmd, fs.Args()); err != nil {
			return err
		}
		return status(ledgerTail(cmd.Context(), fs.Arg(0), *n, *follow, *interval, c.stdout, c.stderr))
	}
	return cmd
}

func ledgerTail(ctx context.Context, dir string, n int, follow bool, interval time.Duration,
	stdout, stderr io.Writer) int {
	var problems []string
	if n < 0 {
		problems = append(problems, fmt.Sprintf("-n/--lines %d: must not be negative", n))
	}
	if interval <= 0 {
		problems = append(problems, fmt.Sprintf("--interval %s: must be positive", interval))
	}
	if len(problems) > 0 {
		sayln(stderr, "error: "+strings.Join(problems, "; "))
		return exitUsage
	}
	emit := func(line json.RawMessage) error {
		// A record holds the agent's text, and encoding/json leaves DEL, C1 controls and bidi and
		// zero-width characters as they are: they are written as JSON escapes, the same values.
		_, err := fmt.Fprintf(stdout, "%s\n", policy.VisibleJSON(line))
		return err
	}
	var err error
	if follow {
		err = ledger.Follow(ctx, dir, n, interval, emit)
	} else {
		var lines []json.RawMessage
		if lines, err = ledger.Tail(dir, n); err == nil && n > 0 {
			for _, l := range lines {
				if err = emit(l); err != nil {
					break
				}
			}
		}
	}
	if err != nil {
		sayVisible(stderr, "error: "+err.Error())
		return exitUsage
	}
	return exitOK
}

// oneDir accepts exactly one DIR argument.
func oneDir(cmd *cobra.Command, args []string) error {
	if len(args) != 1 {
		return fmt.Errorf("%s: want exactly one DIR, got %d arguments", cmd.CommandPath(), len(args))
	}
	return nil
}

// sayVisible writes the lines of s (a report, an error) each with policy.Visible: they name files,
// writers and records of the volume, which whoever can write it names, and a carriage return or
// an escape sequence in a writer directory's name would let a BROKEN line be overwritten by an
// "ok" in the auditor's terminal.
func sayVisible(w io.Writer, s string) {
	for line := range strings.SplitSeq(s, "\n") {
		sayln(w, policy.Visible(line))
	}
}
