package ledger

import "testing"

// Ledger47: the rows of review rl46 that hid rm -rf /data, which bash runs, as classes, with
// respellings of each; and the near misses each fix must leave hidden whole.

// rl47P is a quoted script a shell runs: PASSWORD=x, then rm.
const rl47P = `"PASSWORD=x;rm -rf /data"`

// TestLedger47AnyEntrypointIsAShell: an --entrypoint was a shell only where its name was one the
// rereader list knows, read to 64 bytes; the host's glob, an unknown shell, a link or a long path
// made the container's -c script data. Any entrypoint now runs the arguments as a shell's.
func TestLedger47AnyEntrypointIsAShell(t *testing.T) {
	rows := []keptRow{}
	for _, e := range []string{"/bin/da?h", "/bin/bas?", "*sh", "hush", "lksh", "toybox", "/usr/local/bin/sh-static", "=/bin/da?h", "=hush",
		"=/usr/lib/../lib/../lib/../lib/../lib/../lib/../lib/../../bin/sh"} {
		sep := " "
		if e[0] == '=' {
			sep = ""
		}
		rows = append(rows, keptRow{"docker run --entrypoint" + sep + e + " img -c " + rl47P, "rm -rf /data"},
			keptRow{"podman run --rm --entrypoint" + sep + e + " img -ec " + rl47P, "rm -rf /data"})
	}
	rows = append(rows, keptRow{"docker run --entrypoint python3 img -c \"import os; os.system('PASSWORD=x;rm -rf /data')\"", "rm -rf /data"})
	expectKept(t, rows)
	// the environment before the image is still data to docker
	expectHidden(t, []hiddenRow{
		{"docker run --entrypoint /app/server -e \"POSTGRES_PASSWORD=p@ss;word\" img", ";word"},
		{"docker run --entrypoint hush --env=\"POSTGRES_PASSWORD=p@ss;word\" img -c 'exec postgres'", ";word"},
	})
}

// TestLedger47AnyReferenceReadsBlind: a reference declared first and pointed at BASH_ALIASES by
// a later assignment defined an alias no word of declare showed. Any declare -n, local -n,
// typeset -n (eval's too) now reads the rest of the text blind.
func TestLedger47AnyReferenceReadsBlind(t *testing.T) {
	const def = "r=BASH_ALIASES; r[q]=\"echo '\"" + rl46Use
	expectKept(t, []keptRow{
		{rl46E + "declare -n r; " + def, "rm -rf /data"},
		{rl46E + "declare -n r\nr=BASH_ALIASES\nr[q]=\"echo '\"" + rl46Use, "rm -rf /data"},
		{rl46E + "typeset -n r; " + def, "rm -rf /data"},
		{rl46E + "f() { local -n r; " + def[:len(def)-len(rl46Use)] + "; }; f" + rl46Use, "rm -rf /data"},
		{rl46E + "declare -gn r; " + def, "rm -rf /data"},
		{rl46E + "declare \"-n\" r; " + def, "rm -rf /data"},
		{rl46E + "builtin declare -n r; " + def, "rm -rf /data"},
		{rl46E + "eval 'declare -n r'; " + def, "rm -rf /data"},
		{rl46E + "eval declare -n r; " + def, "rm -rf /data"},
	})
	// no reference: a quoted password after declare is hidden whole
	expectHidden(t, []hiddenRow{{"declare -r x=1\nexport DB_PASSWORD='p;ss'", ";ss"}})
}
