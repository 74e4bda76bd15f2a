package safety

import (
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// A variable assigned on a line of its own (GIT_DIR=/tmp/x/.git; git log) or by export, declare
// or typeset is in the environment of every later command of the line when it is exported, which
// export does and which a variable the agent's environment already holds is: the engine cannot
// tell which are. So the variables that change what a program opens, reads or where it writes
// (the ones segments' env is read for) are kept for the rest of the line, as if each later
// command had them as a prefix assignment. Before, only the prefix form was read: export
// http_proxy=169.254.169.254:80; curl http://x/ reached the metadata service, and export
// RCLONE_CONFIG_X_TYPE=local; rclone copy x:/etc/shadow . read the file, at every level.
//
// A subshell's export does not reach the commands after it; keeping it anyway only asks more.

// exportAssign keeps a standalone or declared assignment of a variable that lineEnvVar names.
func (a *analyzer) exportAssign(as *syntax.Assign) {
	if as.Name == nil || as.Naked || !lineEnvVar(as.Name.Value) {
		return
	}
	val := ""
	if as.Value != nil {
		val = a.render(as.Value).s
	}
	st := a.state()
	st.exported = append(st.exported, as.Name.Value+"="+val)
}

// segmentEnv is the environment the next recorded command sees: the line's kept variables, then
// its own prefix assignments, which a reader taking the last one lets win; and how many of it are
// the line's (a declared project command is matched without prefix assignments, as before, but a
// variable the line exported earlier does not make "export MAKEFLAGS=-j4; make test" another
// command: what it could run is judged where it is exported).
func (a *analyzer) segmentEnv() (env []string, lineEnv int) {
	if a.line == nil || len(a.line.exported) == 0 {
		return a.env, 0
	}
	return slices.Concat(a.line.exported, a.env), len(a.line.exported)
}

// lineEnvVar names the variables whose value a segment's environment is read for: the ones that
// stand for a program's options (envOptions, flagEnvVars), git's repository and work tree, rclone's
// remotes defined in the environment, proxies (which send a request where they name), the
// resolver's variables (which send a name where a file says) and the editor (kubectl edit).
func lineEnvVar(name string) bool {
	if _, ok := flagEnvVars[name]; ok || resolverEnvVars[name] {
		return true
	}
	for _, vars := range envOptions {
		if _, ok := vars[name]; ok {
			return true
		}
	}
	const rclone, proxy = "RCLONE_CONFIG_", "_PROXY"
	return name == envGitDir || name == envGitWorkTree || name == envGitCommonDir || codeHereVars[name] || editorVars[name] || gitTodoEditors[name] || name == envComposeFile || ansibleInventoryVars[name] || pytestEnvVars[name] ||
		envLoadingVars[name] || npmWorkspaceVar(name) ||
		len(name) >= len(rclone) && strings.EqualFold(name[:len(rclone)], rclone) ||
		len(name) >= len(proxy) && strings.EqualFold(name[len(name)-len(proxy):], proxy)
}
