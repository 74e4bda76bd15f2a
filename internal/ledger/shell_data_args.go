package ledger

import (
	"bytes"
	"strings"
)

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

// scriptOptions are the options and subcommands of dataPrograms that give a shell a script:
// aws ssm send-command --parameters 'commands=…', az vm run-command invoke --scripts '…', aws
// ec2 run-instances --user-data '…', az vm create --custom-data, gcloud … --metadata
// startup-script=…. From one on, the command's quoted arguments are read as any command's.
var scriptOptions = []string{"--parameters", "--scripts", "--user-data", "--custom-data", "--metadata",
	"run-command", "send-command", "startup-script"}

// dataArg reads the start of an argument at s[i] of a data program (its quotes removed, as
// bash runs it): a script option, or an --entrypoint naming a shell (docker run --entrypoint sh
// img -c '…'), makes the rest of the command's quoted arguments no data.
func (f *shellFrame) dataArg(s string, i int) {
	var buf [64]byte
	w, _, _ := plainWord(s, i, min(len(s), i+len(buf)), buf[:0])
	entrypoint := f.entrypointNext
	f.entrypointNext = string(w) == "--entrypoint"
	if v, ok := bytes.CutPrefix(w, []byte("--entrypoint=")); ok {
		w, entrypoint = v, true
	}
	if entrypoint && rereaderName(w) {
		f.dataArgs = false
	}
	for _, o := range scriptOptions {
		if bytes.HasPrefix(w, []byte(o)) {
			f.dataArgs = false
		}
	}
}
