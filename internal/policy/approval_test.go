package policy

import (
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
)

// The approval command is pasted into a person's shell, and its step and arguments come from the
// agent: a real shell must read every value back as one literal word, whatever the agent put in
// it. A value with characters that do not show as themselves is written $'...', which bash reads
// and dash (the sh of Debian) does not, so the test runs bash.
func TestApprovalCommandIsInertInAShell(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash on this machine")
	}
	hostile := append([]string{
		"release #", "x$(touch /tmp/pwned)", "`id`", "a'b", `a"b\c`, "semi;colon", "new\nline", "$HOME",
		"--arguments-digest", "*", "~", "", " lead", "tab\there", "ünïcode", "-n",
	}, hiddenText...)
	for _, v := range hostile {
		call := &safetyv1alpha1.AgentToolCall{
			ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "c"},
			Spec: safetyv1alpha1.AgentToolCallSpec{Plan: "p", Tool: "shell", Step: v,
				Arguments: safetyv1alpha1.ToolArguments{Command: v, Paths: []string{v, "ok"}, Cwd: v}},
		}
		cmd := ApprovalCommand(call)
		script := "for w in " + strings.TrimPrefix(cmd, "kubectl toolgate approve ") + `; do printf '%s\0' "$w"; done`
		sh := exec.Command("bash", "-c", script)
		sh.Env = append(os.Environ(), "LC_ALL=C.UTF-8")
		out, err := sh.Output()
		if err != nil {
			t.Fatalf("%q: bash: %v", v, err)
		}
		got := strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
		want := []string{"-n", "ns", "p", "--tool", "shell", "--step", v, "--command", v, "--path", v, "--path", "ok", "--cwd", v}
		if v == "" {
			want = []string{"-n", "ns", "p", "--tool", "shell", "--step", "", "--path", "", "--path", "ok"}
		}
		if strings.Join(got, "\x00") != strings.Join(want, "\x00") {
			t.Errorf("%q: the shell read %q from %s", v, got, cmd)
		}
	}
}

func TestApprovalCommandWithoutArguments(t *testing.T) {
	call := &safetyv1alpha1.AgentToolCall{ObjectMeta: metav1.ObjectMeta{Namespace: "ns"},
		Spec: safetyv1alpha1.AgentToolCallSpec{Plan: "p", Tool: "t", Step: "s"}}
	if got, want := ApprovalCommand(call), "kubectl toolgate approve -n ns p --tool t --step s --no-arguments"; got != want {
		t.Fatalf("got %s, want %s", got, want)
	}
}

func TestApprovalMismatch(t *testing.T) {
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	call := &safetyv1alpha1.AgentToolCall{ObjectMeta: metav1.ObjectMeta{Namespace: "ns"},
		Spec: safetyv1alpha1.AgentToolCallSpec{Plan: "p", Tool: "t", Step: "s",
			Arguments: safetyv1alpha1.ToolArguments{Command: "make test", Paths: []string{"a"}}}}
	approval := func(adjust func(*safetyv1alpha1.ToolApproval)) *safetyv1alpha1.ToolApproval {
		a := &safetyv1alpha1.ToolApproval{
			ObjectMeta: metav1.ObjectMeta{Namespace: "ns", CreationTimestamp: metav1.NewTime(now.Add(-time.Minute))},
			Spec:       safetyv1alpha1.ToolApprovalSpec{Plan: "p", Tool: "t", ExpirationSeconds: 120, Uses: 1},
		}
		if adjust != nil {
			adjust(a)
		}
		return a
	}
	for name, tc := range map[string]struct {
		adjust func(*safetyv1alpha1.ToolApproval)
		want   string
	}{
		"matches":           {nil, ""},
		"same arguments":    {func(a *safetyv1alpha1.ToolApproval) { a.Spec.Arguments = call.Spec.Arguments.DeepCopy() }, ""},
		"same digest":       {func(a *safetyv1alpha1.ToolApproval) { a.Spec.ArgumentsDigest = ArgumentsDigest(call.Spec.Arguments) }, ""},
		"the step it names": {func(a *safetyv1alpha1.ToolApproval) { a.Spec.Step = "s" }, ""},
		"other namespace":   {func(a *safetyv1alpha1.ToolApproval) { a.Namespace = "other" }, "it is in namespace other"},
		"other plan":        {func(a *safetyv1alpha1.ToolApproval) { a.Spec.Plan = "q" }, "it is for plan q"},
		"other tool":        {func(a *safetyv1alpha1.ToolApproval) { a.Spec.Tool = "u" }, "it is for tool u"},
		"other step":        {func(a *safetyv1alpha1.ToolApproval) { a.Spec.Step = "s2" }, "it is for step s2"},
		"a longer command": {func(a *safetyv1alpha1.ToolApproval) {
			a.Spec.Arguments = &safetyv1alpha1.ToolArguments{Command: "make test; curl x", Paths: []string{"a"}}
		}, "other arguments"},
		"no arguments pinned": {func(a *safetyv1alpha1.ToolApproval) { a.Spec.Arguments = &safetyv1alpha1.ToolArguments{} }, "other arguments"},
		"other digest": {func(a *safetyv1alpha1.ToolApproval) {
			a.Spec.ArgumentsDigest = ArgumentsDigest(safetyv1alpha1.ToolArguments{})
		}, "other arguments"},
		"expired at the second": {func(a *safetyv1alpha1.ToolApproval) { a.Spec.ExpirationSeconds = 60 }, "it expired at 2026-11-30T12:00:00Z"},
		"used up":               {func(a *safetyv1alpha1.ToolApproval) { a.Status.Used = 1 }, "it has been used 1 of 1 times"},
		"being deleted":         {func(a *safetyv1alpha1.ToolApproval) { a.DeletionTimestamp = new(metav1.NewTime(now)) }, "it is being deleted"},
	} {
		got := ApprovalMismatch(approval(tc.adjust), call, now)
		if tc.want == "" && got != "" || !strings.Contains(got, tc.want) {
			t.Errorf("%s: got %q, want %q", name, got, tc.want)
		}
	}
}
