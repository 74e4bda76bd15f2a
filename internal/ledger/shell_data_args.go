package ledger

import "strings"

// A separator in quoted data is marked (maskQuoted) because a shell may read the data again: a
// file written and run later, a pipe into sh. The arguments of the programs below are data to
// them and are never a shell's command line (a container's environment, a secret's literal, a
// request's body): docker run -e "POSTGRES_PASSWORD=p@ss;word" and kubectl create secret …
// --from-literal='password=a;b&c' hide the password whole, as main did. A shell named among
// their arguments (docker run img sh -c '…') still reads the rest blind, and $( and backquotes
// in their double quotes are still commands. Programs that run a shell or a pager from their own
// options (git -c core.sshCommand=…, gh alias set --shell, psql's \!) are not listed.
var dataPrograms = map[string]bool{"docker": true, "podman": true, "kubectl": true, "oc": true,
	"helm": true, "curl": true, "wget": true, "aws": true, "gcloud": true, "az": true}

// dataProgram reports whether w, a command's first word as written, names one of dataPrograms
// (by its name after a directory).
func dataProgram(w string) bool {
	if k := strings.LastIndexByte(w, '/'); k >= 0 {
		w = w[k+1:]
	}
	return dataPrograms[w]
}
