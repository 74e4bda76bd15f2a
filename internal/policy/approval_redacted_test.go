package policy

import (
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
)

// The approval command is part of a denial's message, which the ledger records and approvers
// read. When the record's redaction would hide any of the arguments (a key name, a named entry, a
// credential shape, in the extra arguments, the command, a path or the cwd), spelling them out
// would put the secret in the message (the message is text: only the text rules reach it), and
// redacting the message would make the command approve other arguments than the call's. Either
// way the command must pin the arguments by their digest instead.
func TestApprovalCommandPinsArgumentsTheRecordWouldRedact(t *testing.T) {
	const secret = "hunter2hunter2"
	call := func(args safetyv1alpha1.ToolArguments) *safetyv1alpha1.AgentToolCall {
		return &safetyv1alpha1.AgentToolCall{ObjectMeta: metav1.ObjectMeta{Namespace: "ns"},
			Spec: safetyv1alpha1.AgentToolCallSpec{Plan: "p", Tool: "t", Step: "s", Arguments: args}}
	}
	extra := func(raw string) safetyv1alpha1.ToolArguments {
		return safetyv1alpha1.ToolArguments{Extra: &runtime.RawExtension{Raw: []byte(raw)}}
	}
	for name, args := range map[string]safetyv1alpha1.ToolArguments{
		"a credential key holding a list":             extra(`{"password": ["` + secret + `"]}`),
		"a credential key holding an object":          extra(`{"credential": {"user": "a", "pass": "` + secret + `"}}`),
		"a credential key the text rules do not read": extra(`{"Authorization": "` + secret + `"}`),
		"a credential key spelled with a space":       extra(`{"PASS WORD": "` + secret + `"}`),
		"a named entry":                               extra(`{"env": [{"name": "DB_PASSWORD", "value": "` + secret + `"}]}`),
		"a bearer token in the command":               {Command: "curl -H 'Authorization: Bearer " + secret + "' https://api.example.com"},
		"a basic-auth URL in a path":                  {Paths: []string{"https://u:" + secret + "@example.com/x"}},
		"a token in the cwd":                          {Cwd: "/tmp/ghp_" + strings.Repeat("a1B2", 9)},
	} {
		c := call(args)
		cmd := ApprovalCommand(c)
		if want := "--arguments-digest " + ArgumentsDigest(args); !strings.HasSuffix(cmd, want) {
			t.Errorf("%s: ApprovalCommand = %s, want it to end with %s", name, cmd, want)
		}
		if strings.Contains(cmd, secret) || strings.Contains(cmd, "ghp_") {
			t.Errorf("%s: ApprovalCommand spells the secret out: %s", name, cmd)
		}
	}
	// Near misses: arguments no redaction touches are still spelled out for the person to read.
	for name, tc := range map[string]struct {
		args safetyv1alpha1.ToolArguments
		want string
	}{
		"a payment":             {extra(`{"amount": 10, "to": "a@example.com"}`), ` --extra '{"amount":10,"to":"a@example.com"}'`},
		"a model's token limit": {extra(`{"max_tokens": 1024}`), ` --extra '{"max_tokens":1024}'`},
		"a non-secret entry":    {extra(`{"env": [{"name": "HOME", "value": "/root"}]}`), `--extra '{"env":[{"name":"HOME","value":"/root"}]}'`},
		"a command":             {safetyv1alpha1.ToolArguments{Command: "make test", Cwd: "/src"}, ` --command 'make test' --cwd /src`},
		"a path":                {safetyv1alpha1.ToolArguments{Paths: []string{"docs/token-budget.md"}}, ` --path docs/token-budget.md`},
	} {
		if cmd := ApprovalCommand(call(tc.args)); !strings.HasSuffix(cmd, tc.want) {
			t.Errorf("%s: ApprovalCommand = %s, want it to end with %s", name, cmd, tc.want)
		}
	}
}
