package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"
	"time"

	authenticationv1 "k8s.io/api/authentication/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/policy"
)

const approveUsage = `Usage:
  kubectl toolgate approve PLAN --tool TOOL [--step STEP]
      [--command CMD] [--path PATH ...] [--cwd DIR] [--no-arguments] [flags]

Approve tool calls of an AgentPlan that need human approval: create a ToolApproval in the plan's
namespace, recorded as approved by you (the identity your kubeconfig authenticates as, which the
webhook checks). A call the webhook denies ToolHumanApprovalRequired names the exact command that
approves it, with the call's arguments spelled out (and quoted for the shell), so you read what
you approve; run that. The approval admits matching calls until it expires or is used up; delete
it to withdraw it. Without --command, --path, --cwd, --no-arguments or --arguments-digest the
approval admits any arguments.

Flags:
  -n, --namespace NAMESPACE      the plan's namespace (default: the kubeconfig context's)
      --tool NAME                the AgentTool the approved calls run (required)
      --step STEP                only calls of this plan step
      --command CMD              only calls running exactly this command (with the paths and cwd given)
      --path PATH                only calls with exactly these paths, in order (repeatable)
      --cwd DIR                  only calls with exactly this working directory
      --no-arguments             only calls without a command, paths or cwd
      --arguments-digest DIGEST  only calls whose arguments have this digest (instead of the above)
      --uses N                   how many calls the approval admits, 1 to 100 (default 1)
      --expires DURATION         how long the approval can be used, whole seconds from 1s to 168h
                                 (default 1h)
      --reason TEXT              why; recorded in the ledger
      --dry-run                  let the API server and the webhook check the approval, create nothing
      --kubeconfig FILE          kubeconfig file (default: $KUBECONFIG, else ~/.kube/config)
      --context NAME             kubeconfig context (default: the current context)
  -o, --output FORMAT            text (default) or json (the ToolApproval as created)

Exit status: 0 the approval was created, 1 the cluster refused it (the message says why), 2 usage
error, or the cluster could not be reached.
`

var digestPattern = regexp.MustCompile(`^sha256:[0-9a-f]{64}$`)

// approveOptions are the flags of approve.
type approveOptions struct {
	kube       kubeFlags
	tool, step string
	digest     string
	command    string
	paths      stringList
	cwd        string
	noArgs     bool
	uses       int
	expires    time.Duration
	reason     string
	dryRun     bool
	output     string
}

func runApprove(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if slices.ContainsFunc(args, func(a string) bool { return strings.HasPrefix(a, "-") && isHelp(a) }) {
		say(stdout, approveUsage)
		return exitOK
	}
	opts := &approveOptions{}
	fs := flag.NewFlagSet("approve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { say(stderr, approveUsage) }
	opts.kube.register(fs)
	fs.StringVar(&opts.tool, "tool", "", "tool")
	fs.StringVar(&opts.step, "step", "", "step")
	fs.StringVar(&opts.digest, "arguments-digest", "", "arguments digest")
	fs.StringVar(&opts.command, "command", "", "command")
	fs.Var(&opts.paths, "path", "path")
	fs.StringVar(&opts.cwd, "cwd", "", "working directory")
	fs.BoolVar(&opts.noArgs, "no-arguments", false, "no arguments")
	fs.IntVar(&opts.uses, "uses", 1, "uses")
	fs.DurationVar(&opts.expires, "expires", time.Hour, "expiry")
	fs.StringVar(&opts.reason, "reason", "", "reason")
	fs.BoolVar(&opts.dryRun, "dry-run", false, "dry run")
	fs.StringVar(&opts.output, "o", outputText, "output format")
	fs.StringVar(&opts.output, "output", outputText, "output format")
	pos, ok := parseInterspersed(fs, args)
	if !ok {
		return exitUsage
	}
	if problems := opts.check(pos); len(problems) > 0 {
		sayf(stderr, "approve: %s\nRun 'kubectl toolgate approve -h' for usage.\n", strings.Join(problems, "; "))
		return exitUsage
	}
	c, cfg, ns, err := opts.kube.connect()
	if err != nil {
		sayln(stderr, "error:", err)
		return exitUsage
	}
	cs, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		sayln(stderr, "error:", err)
		return exitUsage
	}
	review, err := cs.AuthenticationV1().SelfSubjectReviews().Create(ctx, &authenticationv1.SelfSubjectReview{},
		metav1.CreateOptions{})
	if err != nil {
		sayln(stderr, "error: asking the API server who you are (SelfSubjectReview):", err)
		return exitUsage
	}
	plan := pos[0]
	err = c.Get(ctx, client.ObjectKey{Namespace: ns, Name: plan}, &safetyv1alpha1.AgentPlan{})
	switch {
	case apierrors.IsNotFound(err):
		sayf(stderr, "error: AgentPlan %s/%s does not exist\n", ns, plan)
		return exitUsage
	case err != nil:
		sayf(stderr, "error: reading AgentPlan %s/%s: %v\n", ns, plan, err)
		return exitUsage
	}
	a := opts.approval(ns, plan, review.Status.UserInfo.Username)
	var createOpts []client.CreateOption
	if opts.dryRun {
		createOpts = append(createOpts, client.DryRunAll)
	}
	if err := c.Create(ctx, a, createOpts...); err != nil {
		if apierrors.IsForbidden(err) || apierrors.IsInvalid(err) {
			sayln(stderr, "approval refused:", err)
			return exitFailed
		}
		sayln(stderr, "error:", err)
		return exitUsage
	}
	if opts.output == outputJSON {
		a.SetGroupVersionKind(safetyv1alpha1.GroupVersion.WithKind("ToolApproval"))
		if err := writeJSON(stdout, a); err != nil {
			sayln(stderr, "error:", err)
			return exitUsage
		}
		return exitOK
	}
	printApproval(stdout, a, opts.dryRun)
	return exitOK
}

func (o *approveOptions) check(pos []string) []string {
	var problems []string
	if len(pos) != 1 {
		problems = append(problems, fmt.Sprintf("want one PLAN, got %d arguments", len(pos)))
	}
	if o.tool == "" {
		problems = append(problems, "--tool is required")
	}
	if o.digest != "" && !digestPattern.MatchString(o.digest) {
		problems = append(problems, fmt.Sprintf("--arguments-digest %s: want sha256: and 64 hex digits, "+
			"as the denial names it", o.digest))
	}
	pinned := o.command != "" || len(o.paths) > 0 || o.cwd != ""
	if o.noArgs && pinned {
		problems = append(problems, "--no-arguments contradicts --command, --path and --cwd")
	}
	if o.digest != "" && (pinned || o.noArgs) {
		problems = append(problems, "--arguments-digest and --command, --path, --cwd or --no-arguments exclude each other")
	}
	if o.uses < 1 || o.uses > 100 {
		problems = append(problems, fmt.Sprintf("--uses must be 1 to 100, not %d", o.uses))
	}
	if o.expires < time.Second || o.expires > 7*24*time.Hour || o.expires%time.Second != 0 {
		problems = append(problems, fmt.Sprintf("--expires must be whole seconds from 1s to 168h, not %s", o.expires))
	}
	if o.output != outputText && o.output != outputJSON {
		problems = append(problems, fmt.Sprintf("-o %s: want text or json", o.output))
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

// arguments are the exact arguments the approval pins; nil when it pins none.
func (o *approveOptions) arguments() *safetyv1alpha1.ToolArguments {
	if !o.noArgs && o.command == "" && len(o.paths) == 0 && o.cwd == "" {
		return nil
	}
	return &safetyv1alpha1.ToolArguments{Command: o.command, Paths: o.paths, Cwd: o.cwd}
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
		a.Spec.Plan, a.Spec.Tool)
	if a.Spec.Step != "" {
		b.WriteString(" for step " + policy.ShellQuote(a.Spec.Step))
	}
	switch args := a.Spec.Arguments; {
	case a.Spec.ArgumentsDigest != "":
		b.WriteString(" with arguments " + a.Spec.ArgumentsDigest + "\n")
	case args == nil:
		b.WriteString(" with any arguments\n")
	case args.Command == "" && len(args.Paths) == 0 && args.Cwd == "":
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
	}
	say(w, b.String())
	sayf(w, "  until %s\n", policy.ApprovalExpiry(a).UTC().Format(time.RFC3339))
}
