package replay

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"text/tabwriter"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/ledger"
	"github.com/toolgate/toolgate/internal/manifest"
	"github.com/toolgate/toolgate/internal/policy"
)

// Options are what `kubectl toolgate replay` takes.
type Options struct {
	// Ledger is the ledger's directory (a copy of the volume, or one writer's directory).
	Ledger string
	// Files hold candidate policy objects (YAML or JSON, several documents each); none replays
	// under the recorded snapshots.
	Files []string
	// JSON prints the Report as JSON instead of the human summary.
	JSON bool
	// Anchors are what the ledger is verified against before it is replayed: the public keys and
	// the published heads, as ledger verify takes them. None: the chain alone is checked, and the
	// report says what that cannot prove.
	Anchors ledger.VerifyOptions
}

// Exit codes of Run, like diff(1): nothing flips, something flips, replay failed. A ledger that
// does not verify is a failure, whatever the replay found: its decisions may not be the ones
// made, so "nothing flips" from it would be a clean bill the ledger cannot give.
const (
	ExitNoFlips = 0
	ExitFlips   = 1
	ExitError   = 2
)

// Run replays the ledger under the candidates in opts.Files, prints the report to out and any
// error to errOut, and returns the exit code.
func Run(ctx context.Context, opts Options, out, errOut io.Writer) int {
	if opts.Ledger == "" {
		printf(errOut, "error: --ledger: the ledger's directory is required\n")
		return ExitError
	}
	candidates, err := LoadCandidates(opts.Files...)
	if err != nil {
		printf(errOut, "error: %s\n", err)
		return ExitError
	}
	rep, err := ReplayAnchored(ctx, opts.Ledger, opts.Anchors, candidates)
	if err != nil {
		printf(errOut, "error: %s\n", policy.Visible(err.Error()))
		return ExitError
	}
	if opts.JSON {
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		if err := enc.Encode(rep); err != nil {
			printf(errOut, "error: %s\n", err)
			return ExitError
		}
	} else {
		WriteHuman(out, rep)
	}
	if !rep.Verified {
		printf(errOut, "error: the ledger does not verify, so what it replays may not be what was decided: %s\n", policy.Visible(rep.VerifyError))
		return ExitError
	}
	if len(rep.Flips) > 0 {
		return ExitFlips
	}
	return ExitNoFlips
}

// LoadCandidates reads the toolgate objects in files (multi-document YAML or JSON; a List or a
// typed list is read as its items, as `kubectl toolgate test -f` reads them: internal/manifest).
func LoadCandidates(files ...string) ([]client.Object, error) {
	scheme := runtime.NewScheme()
	if err := safetyv1alpha1.AddToScheme(scheme); err != nil {
		return nil, err
	}
	decode := serializer.NewCodecFactory(scheme).UniversalDeserializer()
	var objs []client.Object
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, fmt.Errorf("-f %s: %w", f, err)
		}
		items, err := manifest.Objects(data)
		if err != nil {
			return nil, fmt.Errorf("-f %s: %w", f, err)
		}
		for _, item := range items {
			doc, err := json.Marshal(item.Fields)
			if err != nil {
				return nil, fmt.Errorf("-f %s: document %d: %w", f, item.Doc, err)
			}
			obj, _, err := decode.Decode(doc, nil, nil)
			if err != nil {
				return nil, fmt.Errorf("-f %s: document %d: %w", f, item.Doc, err)
			}
			co, ok := obj.(client.Object)
			if !ok || kindOf(co) == "" {
				return nil, fmt.Errorf("-f %s: document %d: %T is not a SafetyProfile, AutomationProfile, ProjectPolicy or AgentPlan", f, item.Doc, obj)
			}
			objs = append(objs, co)
		}
	}
	return objs, nil
}

// WriteHuman prints rep for a person: the verdict, the flips (deny→allow first), the counts per
// rule and what could not be replayed.
func WriteHuman(out io.Writer, rep Report) {
	verified := "verified"
	if !rep.Verified {
		verified = "DOES NOT VERIFY"
	}
	// The verdict names files and writers of the volume: written visibly, as verify writes them.
	printf(out, "ledger %s: %s (%s)\n", policy.Visible(rep.Ledger), verified, policy.Visible(rep.VerifySummary))
	for _, l := range rep.VerifyLimits {
		printf(out, "cannot prove: %s\n", policy.Visible(l))
	}
	printf(out, "replayed %d of %d decisions under %v: %d unchanged, %d flipped, %d not replayable\n",
		rep.Replayed, rep.Decisions, rep.Candidates, rep.Unchanged, len(rep.Flips), rep.Decisions-rep.Replayed)
	w := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	if len(rep.Flips) > 0 {
		printf(w, "\nFLIP\tNAMESPACE\tPLAN\tCALL\tTOOL\tRECORDED\tNOW\tRECORD\n")
		// The plan, call and tool are what the call named (the agent's text, recorded even when the
		// call was denied for naming no plan or tool): they are written visibly, and a tab in them
		// would break the table too.
		v := policy.Visible
		for _, f := range rep.Flips {
			printf(w, "%s→%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s/%d\n", f.From, f.To, v(f.Namespace), v(f.Plan), v(f.Call), v(f.Tool),
				v(orDash(f.RecordedRule)), v(orDash(f.Rule)), v(f.Writer), f.Seq)
		}
	}
	if len(rep.RuleChanged) > 0 {
		printf(w, "\nSAME VERDICT, OTHER RULE\tNAMESPACE\tPLAN\tCALL\tRECORDED\tNOW\tRECORD\n")
		v := policy.Visible
		for _, f := range rep.RuleChanged {
			printf(w, "%s\t%s\t%s\t%s\t%s\t%s\t%s/%d\n", f.To, v(f.Namespace), v(f.Plan), v(f.Call),
				v(orDash(f.RecordedRule)), v(orDash(f.Rule)), v(f.Writer), f.Seq)
		}
	}
	if len(rep.ByRule) > 0 {
		printf(w, "\nRULE\tREPLAYED\tFLIPPED\n")
		for _, rule := range slices.Sorted(maps.Keys(rep.ByRule)) {
			printf(w, "%s\t%d\t%d\n", policy.Visible(orDash(rule)), rep.ByRule[rule].Replayed, rep.ByRule[rule].Flipped)
		}
	}
	if len(rep.UnreplayableByWhy) > 0 {
		printf(w, "\nNOT REPLAYABLE\tCOUNT\n")
		for _, why := range slices.Sorted(maps.Keys(rep.UnreplayableByWhy)) {
			printf(w, "%s\t%d\n", policy.Visible(why), rep.UnreplayableByWhy[why])
		}
	}
	_ = w.Flush()
}

// printf writes to a report's stream; a failed write has nowhere better to be reported.
func printf(w io.Writer, format string, a ...any) { _, _ = fmt.Fprintf(w, format, a...) }

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
