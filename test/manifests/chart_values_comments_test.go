package manifests

import (
	"os"
	"strings"
	"testing"

	"github.com/toolgate/toolgate/internal/testenv"
)

// The schema refuses manager.replicas 0 on purpose: with no pod, the webhook (failurePolicy Fail)
// refuses every AgentToolCall create, so no agent's tool call runs. Someone scaling the operator
// down to "turn it off" reads the comment above the value first: it says so.
func TestChartValuesSayWhyReplicasIsNotZero(t *testing.T) {
	path, err := testenv.Path("dist", "chart", "values.yaml")
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	var comment []string
	inManager := false
	for i, l := range lines {
		if l == "manager:" {
			inManager = true
		}
		if inManager && l == "  replicas: 1" {
			for j := i - 1; j >= 0 && strings.HasPrefix(strings.TrimSpace(lines[j]), "#"); j-- {
				comment = append([]string{strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(lines[j]), "#"))}, comment...)
			}
			break
		}
	}
	text := strings.Join(comment, " ")
	for _, want := range []string{"refuses 0", "failurePolicy Fail", "every AgentToolCall"} {
		if !strings.Contains(text, want) {
			t.Errorf("the comment above manager.replicas does not say %q: %q", want, text)
		}
	}
}
