package main

import (
	"context"
	"fmt"
	"io"
	"regexp"
	"strings"
	"time"

	"github.com/spf13/cobra"
	authenticationv1 "k8s.io/api/authentication/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes"
	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/argrules"
	"github.com/toolgate/toolgate/internal/policy"
)

const approveLong = `Approve tool calls of an AgentPlan that need human approval: create a ToolApproval in the plan's
namespace, recorded as approved by you (the identity your kubeconfig authenticates as, or the one
--as impersonates, which the webhook checks). A call the webhook denies ToolHumanApprovalRequired
names the exact command that approves it, with the call's arguments spelled out (and quoted for the
shell), so you read what you approve; run that. An MCP tool's other arguments are spelled out as one
JSON object (--extra) up to 1024 bytes, and pinned by --arguments-digest when longer. The approval
admits matching calls until it expires or is used up; delete it to withdraw it. Without --command,
--path, --cwd, --extra, --no-arguments or --arguments-digest the approval admits any arguments.

The plan is in -n NAMESPACE, else the kubeconfig context's namespace. -o json, yaml, name,
jsonpath=... and go-template=... print the ToolApproval as the API server created it.

Exit status: 0 the approval was created, 1 the cluster refused it (the message says why), 2 usage
error, or the cluster could not be reached.`

const approveExample = `  kubectl toolgate approve -n payments fix-rounding-bug --tool read-file --step read-readme \
      --path README.md
  kubectl toolgate --as alice@example.com approve fix-rounding-bug --tool read-file -o name`

var digestPattern = regexp.MustCompile(`^sha256:[0-9a-f]{64}$`)

// approveOptions are the flags of approve.
type approveOptions struct {
	tool, step string
	digest     string
	command    string
	paths      []string
	cwd        string
	extra      string
	extraJSON  []byte // --extra in canonical form, once check has parsed it
	noArgs     bool
	uses       int
	expires    time.Duration
	reason     string
	dryRun     bool
	output     *objectOutput
	// toolGiven and stepGiven say the flags were given, so that --tool '' is an empty name
	// rather than a missing flag, and --step '' an empty step rather than any step.
	toolGiven, stepGiven bool
}

func newApproveCommand(c *cli) *cobra.Command {
	opts := &approveOptions{}
	cmd := &cobra.Command{
		Use: "approve PLAN --tool TOOL [--step STEP] [--command CMD] [--path PATH ...] [--cwd DIR] " +
			"[--extra JSON] [--no-arguments]",
		Short:             "approve, as yourself, tool calls that need human approval",
		Long:              approveLong,
		Example:           approveExample,
		ValidArgsFunction: c.completePlans,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.toolGiven, opts.stepGiven = cmd.Flags().Changed("tool"), cmd.Flags().Changed("step")
			return status(runApprove(cmd.Context(), c, opts, args))
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.tool, "tool", "", "the AgentTool `NAME` the approved calls run (required)")
	f.StringVar(&opts.step, "step", "", "only calls of this plan `STEP`")
	f.StringVar(&opts.command, "command", "", "only calls running exactly this command `CMD` "+
		"(with the paths and cwd given)")
	f.StringArrayVar(&opts.paths, "path", nil, "only calls with exactly these paths, in order (repeat the `PATH`)")
	f.StringVar(&opts.cwd, "cwd", "", "only calls with exactly this working directory `DIR`")
	f.StringVar(&opts.extra, "extra", "", "only calls whose other arguments (an MCP tool's, beyond command, paths "+
		"and cwd) are exactly this JSON object `JSON`, in any key order (with the command, paths and cwd given)")
	f.BoolVar(&opts.noArgs, "no-arguments", false, "only calls without a command, paths, cwd or other arguments")
	f.StringVar(&opts.digest, "arguments-digest", "", "only calls whose arguments have this `DIGEST` "+
		"(instead of the above)")
	f.IntVar(&opts.uses, "uses", 1, "how many calls the approval admits, `N` from 1 to 100")
	f.DurationVar(&opts.expires, "expires", time.Hour, "how long the approval can be used, a `DURATION` "+
		"of whole seconds from 1s to 168h")
	f.StringVar(&opts.reason, "reason", "", "why, a `TEXT` recorded in the ledger")
	f.BoolVar(&opts.dryRun, "dry-run", false, "let the API server and the webhook check the approval, create nothing")
	_ = cmd.RegisterFlagCompletionFunc("tool", c.completeTools)
	opts.output = addObjectOutput(cmd, "created")
	return cmd
}

func runApprove(ctx context.Context, c *cli, opts *approveOptions, pos []string) int {
	stdout, stderr := c.stdout, c.stderr
	problems := opts.check(pos)
	if p := c.kube.namespaceFlagProblem(); p != "" {
		problems = append([]string{p}, problems...)
	}
	if opts.dryRun {
		opts.output.flags.NamePrintFlags.Operation = "created (server dry run)" // as kubectl says it
	}
	printer, err := opts.output.printer()
	if err != nil {
		problems = append(problems, err.Error())
	}
	if len(problems) > 0 {
		sayf(stderr, "approve: %s\nRun 'kubectl toolgate approve -h' for usage.\n", strings.Join(problems, "; "))
		return exitUsage
	}
	cl, cfg, ns, err := c.kube.connect()
	if err != nil {
		sayln(stderr, "error:", err)
		return exitUsage
	}
	cs, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		sayln(stderr, "error:", err)
		return exitUsage
	}
	// Who the API server says you are, after --as: the approver the webhook checks against the
	// approval's creator.
	review, err := cs.AuthenticationV1().SelfSubjectReviews().Create(ctx, &authenticationv1.SelfSubjectReview{},
		metav1.CreateOptions{})
	if err != nil {
		sayln(stderr, "error: asking the API server who you are (SelfSubjectReview):", err)
		return exitUsage
	}
	plan := pos[0]
	err = cl.Get(ctx, client.ObjectKey{Namespace: ns, Name: plan}, &safetyv1alpha1.AgentPlan{})
	switch {
	case apierrors.IsNotFound(err):
		// The plan's name came from the agent's denial (any text, until the API server looks it up).
		sayf(stderr, "error: AgentPlan %s/%s does not exist\n", ns, policy.ShellQuote(plan))
		return exitUsage
	case apierrors.IsForbidden(err):
		sayf(stderr, "approval refused: %s may not read AgentPlan %s/%s: %v\n",
			review.Status.UserInfo.Username, ns, policy.ShellQuote(plan), policy.Visible(err.Error()))
		return exitFailed
	case err != nil:
		sayf(stderr, "error: reading AgentPlan %s/%s: %v\n", ns, policy.ShellQuote(plan), policy.Visible(err.Error()))
		return exitUsage
	}
	a := opts.approval(ns, plan, review.Status.UserInfo.Username)
	var createOpts []client.CreateOption
	if opts.dryRun {
		createOpts = append(createOpts, client.DryRunAll)
	}
	if err := cl.Create(ctx, a, createOpts...); err != nil {
		if apierrors.IsForbidden(err) || apierrors.IsInvalid(err) {
			sayln(stderr, "approval refused:", err)
			return exitFailed
		}
		sayln(stderr, "error:", err)
		return exitUsage
	}
	if printer == nil {
		printApproval(stdout, a, opts.dryRun)
		return exitOK
	}
	a.SetGroupVersionKind(safetyv1alpha1.GroupVersion.WithKind("ToolApproval"))
	if err := printer.PrintObj(a, stdout); err != nil {
		sayln(stderr, "error:", err)
		return exitUsage
	}
	return exitOK
}

func (o *approveOptions) check(pos []string) []string {
	var problems []string
	problems = append(problems, o.checkNames(pos)...)
	if o.digest != "" && !digestPattern.MatchString(o.digest) {
		problems = append(problems, fmt.Sprintf("--arguments-digest %s: want sha256: and 64 hex digits, "+
			"as the denial names it", o.digest))
	}
	if o.extra != "" {
		if extra, err := argrules.ParseExtra([]byte(o.extra)); err != nil {
			problems = append(problems, fmt.Sprintf("--extra: %v", err))
		} else {
			o.extraJSON = argrules.Canonical(extra)
		}
	}
	pinned := o.command != "" || len(o.paths) > 0 || o.cwd != "" || o.extra != ""
	if o.noArgs && pinned {
		problems = append(problems, "--no-arguments contradicts --command, --path, --cwd and --extra")
	}
	if o.digest != "" && (pinned || o.noArgs) {
		problems = append(problems, "--arguments-digest and --command, --path, --cwd, --extra or --no-arguments "+
			"exclude each other")
	}
	if o.uses < 1 || o.uses > 100 {
		problems = append(problems, fmt.Sprintf("--uses must be 1 to 100, not %d", o.uses))
	}
	if o.expires < time.Second || o.expires > 7*24*time.Hour || o.expires%time.Second != 0 {
		problems = append(problems, fmt.Sprintf("--expires must be whole seconds from 1s to 168h, not %s", o.expires))
	}
	return problems
}

// checkNames says what is wrong with PLAN, --tool and --step: missing, or no name such an object
// (or a call's step) can have.
func (o *approveOptions) checkNames(pos []string) []string {
	var problems []string
	if len(pos) != 1 {
		problems = append(problems, fmt.Sprintf("want one PLAN, got %d arguments", len(pos)))
	} else if p := nameProblem("PLAN", pos[0], dnsSubdomain); p != "" {
		problems = append(problems, p)
	}
	if !o.toolGiven {
		problems = append(problems, "--tool is required")
	} else if p := nameProblem("--tool", o.tool, dnsSubdomain); p != "" {
		problems = append(problems, p)
	}
	if o.stepGiven {
		if p := nameProblem("--step", o.step, dnsLabel); p != "" {
			problems = append(problems, p)
		}
	}
	return problems
}

func (o *approveOptions) approval(ns, plan, approver string) *safetyv1alpha1.ToolApproval {
	return &safetyv1alpha1.ToolApproval{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, GenerateName: plan + "-"},
		Spec: safetyv1alpha1.ToolApprovalSpec{
			Plan: plan, Tool: o.tool, Step: o.step, ArgumentsDigest: o.digest, Approver: approver, Reason: o.reason,
			ExpirationSeconds: int32(o.expires / time.Second), Uses: int32(o.uses), Arguments: o.arguments(),
		},
	}
}

// arguments are the exact arguments the approval pins (--extra as check parsed it); nil when it
// pins none.
func (o *approveOptions) arguments() *safetyv1alpha1.ToolArguments {
	if !o.noArgs && o.command == "" && len(o.paths) == 0 && o.cwd == "" && o.extra == "" {
		return nil
	}
	args := &safetyv1alpha1.ToolArguments{Command: o.command, Paths: o.paths, Cwd: o.cwd}
	if o.extraJSON != nil {
		args.Extra = &runtime.RawExtension{Raw: o.extraJSON}
	}
	return args
}

func printApproval(w io.Writer, a *safetyv1alpha1.ToolApproval, dryRun bool) {
	what := "created"
	if dryRun {
		what = "checked (dry run, not created)"
	}
	name := a.Name
	if name == "" {
		name = a.GenerateName + "…"
	}
	sayf(w, "ToolApproval %s/%s %s\n", a.Namespace, name, what)
	var b strings.Builder
	fmt.Fprintf(&b, "  %s approves %d call(s) of plan %s running tool %s", a.Spec.Approver, policy.ApprovalUses(a),
		policy.ShellQuote(a.Spec.Plan), policy.ShellQuote(a.Spec.Tool))
	if a.Spec.Step != "" {
		b.WriteString(" for step " + policy.ShellQuote(a.Spec.Step))
	}
	switch args := a.Spec.Arguments; {
	case a.Spec.ArgumentsDigest != "":
		b.WriteString(" with arguments " + a.Spec.ArgumentsDigest + "\n")
	case args == nil:
		b.WriteString(" with any arguments\n")
	case args.Command == "" && len(args.Paths) == 0 && args.Cwd == "" && args.Extra == nil:
		b.WriteString(" without arguments\n")
	default:
		b.WriteString(" with exactly these arguments:\n")
		if args.Command != "" {
			b.WriteString("    command: " + policy.ShellQuote(args.Command) + "\n")
		}
		for _, p := range args.Paths {
			b.WriteString("    path:    " + policy.ShellQuote(p) + "\n")
		}
		if args.Cwd != "" {
			b.WriteString("    cwd:     " + policy.ShellQuote(args.Cwd) + "\n")
		}
		if args.Extra != nil {
			b.WriteString("    extra:   " + policy.ShellQuote(string(args.Extra.Raw)) + "\n")
		}
	}
	say(w, b.String())
	sayf(w, "  until %s\n", policy.ApprovalExpiry(a).UTC().Format(time.RFC3339))
}
