package hook_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/toolgate/toolgate/internal/hook"
)

// Run fails closed on stdin it cannot take whole: a payload over MaxPayloadBytes (a valid one up
// to the bound, then more), and a read that fails, deny with the reason, and nothing is asked of
// toolgate (the gate has no client: asking would panic).
func TestRunDeniesAPayloadItCannotReadWhole(t *testing.T) {
	valid := `{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}`
	for name, stdin := range map[string]io.Reader{
		"over the bound": io.MultiReader(strings.NewReader(valid),
			bytes.NewReader(bytes.Repeat([]byte(" "), hook.MaxPayloadBytes+1-len(valid)))),
		"a failing read": io.MultiReader(strings.NewReader(valid[:20]), iotestErrReader{}),
	} {
		var out bytes.Buffer
		if err := hook.Run(context.Background(), stdin, &out, &hook.Gate{}); err != nil {
			t.Fatalf("%s: Run() = %v", name, err)
		}
		var answer hook.Output
		if err := json.Unmarshal(out.Bytes(), &answer); err != nil {
			t.Fatalf("%s: the answer %q is no JSON: %v", name, out.String(), err)
		}
		if d := answer.HookSpecificOutput; d.PermissionDecision != hook.Deny || !strings.Contains(d.PermissionDecisionReason, "payload") {
			t.Errorf("%s: answer %+v, want a denial naming the payload", name, d)
		}
	}
}

type iotestErrReader struct{}

func (iotestErrReader) Read([]byte) (int, error) { return 0, errors.New("stdin closed badly") }
