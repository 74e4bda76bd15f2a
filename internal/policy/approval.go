package policy

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/runtime"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/ledger"
	"github.com/toolgate/toolgate/internal/safety"
)

// ArgumentsDigest is "sha256:" and the hex digest of a call's arguments, the value a ToolApproval's
// spec.argumentsDigest pins. encoding/json writes struct fields in declaration order, so equal
// arguments digest equal on every replica, in the plugin and across Go versions.
func ArgumentsDigest(args safetyv1alpha1.ToolArguments) string {
	if args.Extra != nil { // the canonical form, so key order and spacing do not change the digest
		args.Extra = &runtime.RawExtension{Raw: canonicalExtra(args)}
	}
	b, err := json.Marshal(args)
	if err != nil {
		// ToolArguments holds strings and canonical JSON; Marshal cannot fail on it.
		panic(err)
	}
	sum := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// ApprovalExpiry is when an approval stops admitting calls: its creation, stamped by the API
// server rather than by the approver's clock, plus spec.expirationSeconds.
func ApprovalExpiry(a *safetyv1alpha1.ToolApproval) time.Time {
	secs := a.Spec.ExpirationSeconds
	if secs <= 0 {
		secs = 3600
	}
	return a.CreationTimestamp.Add(time.Duration(secs) * time.Second)
}

// ApprovalUses is how many calls an approval admits; the API defaults it to 1.
func ApprovalUses(a *safetyv1alpha1.ToolApproval) int32 {
	if a.Spec.Uses <= 0 {
		return 1
	}
	return a.Spec.Uses
}

// ApprovalMismatch says why an approval does not admit a call at now, or returns "" when it does.
// It checks what the approval pins (namespace, plan, tool, step, arguments), its expiry, its uses
// and that it is not being deleted; who created it is checked when it is created.
func ApprovalMismatch(a *safetyv1alpha1.ToolApproval, call *safetyv1alpha1.AgentToolCall, now time.Time) string {
	var why []string
	if a.Namespace != call.Namespace {
		why = append(why, fmt.Sprintf("it is in namespace %s, the call in %s", a.Namespace, call.Namespace))
	}
	if a.Spec.Plan != call.Spec.Plan {
		why = append(why, fmt.Sprintf("it is for plan %s", a.Spec.Plan))
	}
	if a.Spec.Tool != call.Spec.Tool {
		why = append(why, fmt.Sprintf("it is for tool %s", a.Spec.Tool))
	}
	if a.Spec.Step != "" && a.Spec.Step != call.Spec.Step {
		why = append(why, fmt.Sprintf("it is for step %s", a.Spec.Step))
	}
	if a.Spec.ArgumentsDigest != "" && a.Spec.ArgumentsDigest != ArgumentsDigest(call.Spec.Arguments) ||
		a.Spec.Arguments != nil && !sameArguments(*a.Spec.Arguments, call.Spec.Arguments) {
		why = append(why, "it is for other arguments")
	}
	if exp := ApprovalExpiry(a); !now.Before(exp) {
		why = append(why, "it expired at "+exp.UTC().Format(time.RFC3339))
	}
	if a.Status.Used >= ApprovalUses(a) {
		why = append(why, fmt.Sprintf("it has been used %d of %d times", a.Status.Used, ApprovalUses(a)))
	}
	if a.DeletionTimestamp != nil {
		why = append(why, "it is being deleted")
	}
	return strings.Join(why, "; ")
}

// ApprovalCommand is the command a person runs to approve exactly this call: the denial hands it
// to the agent, which hands it to its operator. It names the arguments themselves, so the person
// reads what they approve, and every value is quoted for a POSIX shell: the step and arguments
// come from the agent and must not become shell syntax in a person's terminal.
func ApprovalCommand(call *safetyv1alpha1.AgentToolCall) string {
	words := []string{"kubectl", "toolgate", "approve", "-n", ShellQuote(call.Namespace), ShellQuote(call.Spec.Plan),
		"--tool", ShellQuote(call.Spec.Tool), "--step", ShellQuote(call.Spec.Step)}
	args := call.Spec.Arguments
	var extra []byte
	if args.Extra != nil {
		// An MCP tool's other arguments (a payment's amount and recipient) are what a person
		// approves: spelled out as one JSON word when they are short enough to read, pinned by
		// their digest otherwise.
		extra = canonicalExtra(args)
	}
	if len(extra) > MaxReadableExtra || redactedInRecords(args) {
		return strings.Join(append(words, "--arguments-digest", ArgumentsDigest(args)), " ")
	}
	if extra == nil && args.Command == "" && len(args.Paths) == 0 && args.Cwd == "" {
		return strings.Join(append(words, "--no-arguments"), " ")
	}
	if args.Command != "" {
		words = append(words, "--command", ShellQuote(args.Command))
	}
	for _, p := range args.Paths {
		words = append(words, "--path", ShellQuote(p))
	}
	if args.Cwd != "" {
		words = append(words, "--cwd", ShellQuote(args.Cwd))
	}
	if extra != nil {
		words = append(words, "--extra", ShellQuote(string(extra)))
	}
	return strings.Join(words, " ")
}

// redactedInRecords reports whether the ledger's record of the call would hide some of its
// arguments. Then they are pinned by their digest: spelled out, the secret would be in the denial's
// message, which is text (the text rules miss a key name, a named entry, a list under a
// credential key) and which approvers read and the ledger records; and where the message's
// redaction does hide it, the command would approve "[REDACTED…]", other arguments than the call's.
func redactedInRecords(args safetyv1alpha1.ToolArguments) bool {
	hidden, err := ledger.WouldRedact(map[string]any{"arguments": args})
	return hidden || err != nil
}

// MaxReadableExtra is the longest canonical extra arguments an approval command spells out.
const MaxReadableExtra = 1024

// shellSafe are the words a POSIX shell reads literally.
var shellSafe = regexp.MustCompile(`^[A-Za-z0-9._:/@%+=,-]+$`)

// ShellQuote returns s as one literal word for a shell, written so that a person reads what it is:
// unchanged when it is plainly safe; in single quotes (inside which nothing is special but the
// quote itself) when every character shows as itself; otherwise as one ANSI-C quoted word $'...'
// in which each character that does not show as itself is an escape (\e, \r, \xHH, \u202E...),
// so that no escape sequence, carriage return, bidi override or invisible character in the agent's
// text can make the word look like another. bash, zsh, ksh93, mksh, busybox ash and a POSIX.1-2024
// sh read $'...' (\u and \U in a UTF-8 locale); dash does not.
func ShellQuote(s string) string {
	if shellSafe.MatchString(s) {
		return s
	}
	if plainlyVisible(s) {
		return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	b.WriteString("$'")
	writeEscaped(&b, s, true)
	b.WriteByte('\'')
	return b.String()
}

// sameArguments reports whether two calls' arguments are the same (no paths and empty paths are).
func sameArguments(a, b safetyv1alpha1.ToolArguments) bool {
	return a.Command == b.Command && a.Cwd == b.Cwd && slices.Equal(a.Paths, b.Paths) &&
		bytes.Equal(canonicalExtra(a), canonicalExtra(b))
}

// MatchApprovals splits the approvals for a call's plan into those that admit it at now, soonest
// to expire first, and a reason for each that does not. Approvals for other plans are ignored, and
// so are those older than the plan (planCreated; zero skips the check): they were made for an
// earlier plan of the same name, perhaps with another ServiceAccount or profile.
func MatchApprovals(approvals []safetyv1alpha1.ToolApproval, call *safetyv1alpha1.AgentToolCall, planCreated, now time.Time) (
	[]safetyv1alpha1.ToolApproval, []string) {
	var match []safetyv1alpha1.ToolApproval
	var why []string
	for _, a := range approvals {
		if a.Spec.Plan != call.Spec.Plan {
			continue
		}
		m := ApprovalMismatch(&a, call, now)
		if a.CreationTimestamp.Time.Before(planCreated) {
			m = "it was made for an earlier plan of that name"
		}
		if m != "" {
			why = append(why, fmt.Sprintf("ToolApproval %s does not apply: %s", a.Name, m))
			continue
		}
		match = append(match, a)
	}
	slices.SortStableFunc(match, func(a, b safetyv1alpha1.ToolApproval) int {
		return ApprovalExpiry(&a).Compare(ApprovalExpiry(&b))
	})
	return match, why
}

// ApprovalHint is what a denial for want of approval adds: the command that approves exactly this
// call, and why the approvals that exist do not apply (the first few).
func ApprovalHint(call *safetyv1alpha1.AgentToolCall, mismatches []string) string {
	const maxListed = 3
	if len(mismatches) > maxListed {
		mismatches = append(mismatches[:maxListed:maxListed], fmt.Sprintf("and %d more", len(mismatches)-maxListed))
	}
	hint := "; a person can approve this call with: " + ApprovalCommand(call)
	if len(mismatches) > 0 {
		hint += " (" + strings.Join(mismatches, "; ") + ")"
	}
	return hint
}

// DecideWithApproval evaluates a call again as approved by a person. used says whether an approval
// would be spent on it: only when the call then passes every check cleanly, so a call that a later
// check denies (or a Warn or Audit profile would deny) spends nothing.
func DecideWithApproval(compiled *safety.Policy, facts safety.Call) (d safety.Decision, used bool) {
	facts.Context.HumanApproved = true
	d = safety.Evaluate(compiled, facts)
	return d, d.Allowed() && !d.WouldDeny
}
