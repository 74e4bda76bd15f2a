package hook

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/toolgate/toolgate/internal/jsonobject"
	"github.com/toolgate/toolgate/pkg/toolcall"
)

// ReasonRemoteHost is the reason a built-in call that names another machine to run on is
// refused with.
const ReasonRemoteHost = "RemoteHostNotGated"

// hostKey is the argument Claude Code's built-ins (Bash, Read, Write, Edit, Grep, Glob; 2.1.332)
// take when remote tool forwarding is on (CLAUDE_CODE_REMOTE_TOOLS_FORWARD): the attached machine
// to run the call on. localHosts are the names it takes for its own environment, compared, as it
// compares them, after JavaScript's trim and exactly.
const hostKey = "_host"

var localHosts = []string{"", "container", "this-machine"}

// remoteHost refuses a built-in call whose input names another machine in hostKey: the hook judges
// its command and paths as the pod's (its path policy, its links), and the call would run, read or
// write on a machine toolgate knows nothing of. A value that is not a string is refused too (Claude
// Code's schema takes only a string). Input that is no strict object is left to toolcall.Build.
func remoteHost(in Input) error {
	if _, _, builtin := builtinNamed(in.ToolName); !builtin {
		return nil
	}
	hosts, err := hostValues(in.ToolInput)
	if err != nil {
		return nil
	}
	for _, v := range hosts {
		if host, isString := v.(string); isString && slices.Contains(localHosts, strings.TrimFunc(host, jsSpace)) {
			continue
		}
		hostJSON, _ := json.Marshal(v)
		return fmt.Errorf("%s names the machine %s to run on (%q), where the hook judges the call as this pod's: "+
			"toolgate gates only the pod's own tools; omit %q", in.ToolName, hostJSON, hostKey, hostKey)
	}
	return nil
}

// hostValues are the values of every hostKey member of the input object, a repeated one each time
// (JSON.parse keeps the last). Only those are decoded: the rest (a MultiEdit's edits, of any
// size and count) is skipped whole, so no bound on it lets a host through.
func hostValues(input json.RawMessage) ([]any, error) {
	dec := json.NewDecoder(bytes.NewReader(input))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, jsonobject.ErrNotOneObject
	}
	var hosts []any
	for key, err := range jsonobject.Members(dec) {
		if err != nil {
			return nil, err
		}
		if key != hostKey {
			var skipped json.RawMessage
			if err := dec.Decode(&skipped); err != nil {
				return nil, err
			}
			continue
		}
		var v any
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		hosts = append(hosts, v)
	}
	return hosts, nil
}

// remoteHostDenial is the answer to a call remoteHost refuses.
func remoteHostDenial(err error) Output {
	return answer(Deny, toolcall.Result{Reason: ReasonRemoteHost, Message: err.Error()}.Text())
}
