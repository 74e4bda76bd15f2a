package safety

import "strings"

// dotnetEnvironment judges the variables a dotnet command line sets for what it runs as the same
// variables put before dotnet are judged (envVar): dotnet test's and dotnet run's -e NAME=VALUE
// (--environment, its value after a space, ":" or "="), set in the test host or the program, and
// System.CommandLine's [env:NAME=VALUE] directive, set in dotnet itself, whose MSBuild reads it as
// a property and whose children inherit it. Before, dotnet test -e DOTNET_STARTUP_HOOKS=/tmp/x.dll
// loaded /tmp/x.dll into the test host, admitted, where the same variable before dotnet is denied.
func (a *analyzer) dotnetEnvironment(seg *segment) {
	ws := seg.words[1:]
	for i := 0; i < len(ws); i++ {
		w := ws[i]
		if w.s == "--" {
			return // the program's or run settings' own words
		}
		pair, ok := "", false
		switch {
		case strings.HasPrefix(w.s, "[env:") && strings.HasSuffix(w.s, "]"):
			pair, ok = w.s[len("[env:"):len(w.s)-1], true
		case w.s == "-e" || w.s == "--environment":
			if i+1 < len(ws) {
				i++
				w = ws[i]
				pair, ok = w.s, true
			}
		default:
			for _, opt := range []string{"-e:", "-e=", "--environment:", "--environment="} {
				if v, cut := strings.CutPrefix(w.s, opt); cut {
					pair, ok = v, true
				}
			}
		}
		if !ok {
			continue
		}
		name, val, _ := strings.Cut(pair, "=")
		if w.dynamic {
			a.find(false, RuleOpaqueCode, "dotnet sets a variable computed at run time (%s) for what it runs, which may load code the engine cannot see; it needs human approval", w.s)
			continue
		}
		a.envVar(name, val, 0)
	}
}
