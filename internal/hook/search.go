package hook

import (
	"encoding/json"
	"strings"

	"github.com/toolgate/toolgate/internal/argrules"
	"github.com/toolgate/toolgate/internal/policy"
	"github.com/toolgate/toolgate/pkg/toolcall"
)

// searchCommandKey is the argument the hook adds to a Grep call: the shell command that reads
// what Grep reads, which the engine judges.
const searchCommandKey = "command"

// withSearchCommand gives a Grep call the equivalent shell command. Grep reads every file under
// its path (the session's working directory when it names none), filtered by its glob; as a
// path argument alone that tree would be one file to the engine, whose path policy then never
// sees the protected files inside it (/etc/shadow under /etc, .env under the project). As
// `grep -r` the engine knows it reads the whole tree, as it does for the same search through
// Bash. Input that is not a strict JSON object is left as it is, for toolcall.Build to refuse.
func withSearchCommand(input json.RawMessage) json.RawMessage {
	args, err := argrules.ParseObject(input, toolcall.MaxArgumentBytes)
	if err != nil || args == nil {
		return input
	}
	words := []string{"grep", "-r"}
	if g, ok := args["glob"].(string); ok && g != "" {
		words = append(words, "--include="+policy.ShellQuote(g))
	}
	pattern, _ := args["pattern"].(string)
	root := "."
	if p, ok := args["path"].(string); ok && p != "" {
		root = p
	}
	words = append(words, "-e", policy.ShellQuote(pattern), "--", policy.ShellQuote(root))
	args[searchCommandKey] = strings.Join(words, " ")
	out, err := json.Marshal(args)
	if err != nil {
		return input
	}
	return out
}
