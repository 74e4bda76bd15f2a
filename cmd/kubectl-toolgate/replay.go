package main

import (
	"github.com/spf13/cobra"

	"github.com/toolgate/toolgate/internal/replay"
)

const replayLong = `Re-decide every decision recorded in the audit ledger in DIR, from the recorded arguments and
facts, and report what would change: flips from deny to allow first, then allow to deny, counts
per rule, and the records that cannot be replayed and why (redacted or cut arguments, denials
taken before the engine ran). Without -f, each decision is replayed under the snapshot its plan
was locked with, which should flip nothing; with -f, the plans are resolved again from the
ledger's configuration history as each plan's lock saw it, with the candidate SafetyProfiles,
AutomationProfiles, ProjectPolicies and AgentPlans in the files in place of the recorded ones.

The ledger is verified first, against the same anchors ledger verify takes (--public-key,
repeatable; --heads or --heads-from-cluster): a ledger that does not verify under them is not
replayed. Without them only the chain is checked, and the report says, in its "cannot prove:"
lines, what that leaves unproven (a ledger forged whole under another key verifies as a chain).
No cluster is needed, except for --heads-from-cluster.

Exit status: 0 nothing flips, 1 something flips, 2 usage error, the ledger or a file cannot
be read, or the ledger does not verify.`

func newReplayCommand(c *cli) *cobra.Command {
	var opts replay.Options
	var out *reportOutput
	a := anchorFlags{kube: c.kube}
	cmd := &cobra.Command{
		Use:   "replay --ledger DIR [-f CANDIDATE.yaml]...",
		Short: "re-decide the ledger's decisions under candidate policies and report what would flip",
		Long:  replayLong,
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			asJSON, err := out.asJSON(c.stderr)
			if err != nil {
				return err
			}
			opts.JSON = asJSON
			if opts.Anchors, err = a.options(); err != nil {
				sayVisible(c.stderr, "error: "+err.Error())
				return exitStatus(exitUsage)
			}
			return status(replay.Run(cmd.Context(), opts, c.stdout, c.stderr))
		},
	}
	out = addReportOutput(cmd)
	f := cmd.Flags()
	f.StringVar(&opts.Ledger, "ledger", "", "the ledger's `DIR` (a copy of the volume, or one writer's directory)")
	f.StringArrayVarP(&opts.Files, "filename", "f", nil, "a `FILE` of candidate policy objects (YAML or JSON); repeatable")
	a.register(f)
	_ = cmd.MarkFlagRequired("ledger")
	return cmd
}
