package safety

import (
	"slices"
	"testing"
)

// TestMSBuildLogFiles: MSBuild writes the files its switches name (the preprocessed project, the
// targets' list, a build's results, the evaluation profile, the results cache, a logger's
// LogFile=) and, without a name, its logs in the working directory (-bl, -fl, -dfl). Each is
// judged as a write there, for dotnet and for msbuild itself, in every spelling msbuildSwitches
// reads (-, /, --, any case, "=" after dotnet's own parser, after a "--" MSBuild still reads).
// Logs in the project, or in /tmp, stay admitted. Before, msbuild's rows were admitted at Yolo
// (an unrecognised program whose words name no protected path as a whole), and dotnet's asked as
// an unknown writer or opaque code at best: now each is denied as the write it is (noWrite).
func TestMSBuildLogFiles(t *testing.T) {
	attacks := []string{
		`dotnet build -pp:~/.bashrc`,
		`dotnet build -preprocess:~/.bashrc`,
		`dotnet build /pp:~/.bashrc`,
		`dotnet msbuild -pp:~/.bashrc`,
		`msbuild -pp:~/.bashrc`,
		`msbuild /preprocess:.git/hooks/pre-commit`,
		`msbuild -bl:.git/hooks/pre-commit`,
		`msbuild -flp:logfile=~/.bashrc`,
		`msbuild -fl1 -flp1:logfile=.git/hooks/pre-commit`,
		`msbuild '-flp2:verbosity=diag;logfile=.claude/settings.json'`,
		`dotnet build -ts:~/.bashrc`,
		`dotnet build -orc:~/.bashrc`,
		`dotnet build -profileEvaluation:~/.bashrc`,
		`dotnet build -getResultOutputFile=~/.bashrc`,
		`dotnet build -- -bl:~/.bashrc`,
		`dotnet build '-l:FileLogger,Microsoft.Build;LogFile=~/.bashrc'`,
		`dotnet build "-logger:FileLogger,Microsoft.Build;logfile=.git/hooks/pre-push"`,
		`cd .git/hooks && dotnet build -dfl`,
		`cd .git/hooks && dotnet build -distributedFileLogger`,
		`cd .git && dotnet build -fl`,
		`cd .git/hooks && msbuild -bl`,
	}
	yolo := classRules
	yolo.Autonomy = AutonomyYolo
	for _, rules := range []ProjectRules{classRules, yolo} {
		p := mustCompile(t, &Profile{}, rules)
		for _, c := range attacks {
			if d := Evaluate(p, shCall(c)); d.Verdict != VerdictDeny || d.RuleID != RulePrefixPathPolicy+"noWrite" {
				t.Errorf("autonomy %q: %s: %s %s, want a noWrite denial", rules.Autonomy, c, d.Verdict, d.RuleID)
			}
		}
	}
	refusedBefore := []string{
		`dotnet build -flp:logfile=~/.bashrc`,
		`dotnet build -fileLoggerParameters:LogFile=/etc/x`,
		`dotnet build -flp9:LogFile=~/.bashrc`,
		`dotnet build -bl:~/.bashrc`,
		`dotnet build -binaryLogger:LogFile=~/.bashrc`,
		`dotnet build -getResultOutputFile:~/.bashrc`,
		`dotnet test -flp:logfile=.claude/settings.json`,
	}
	expectRefusedAtEveryAutonomy(t, slices.Concat(attacks, refusedBefore), []string{
		`dotnet build`,
		`dotnet build -bl`,
		`dotnet build -bl:build.binlog`,
		`dotnet build -flp:logfile=build.log`,
		`dotnet build -flp:verbosity=diag`,
		`dotnet build -fl -flp:logfile=x`,
		`dotnet build -dfl`,
		`dotnet build -pp:out.xml`,
		`dotnet build -pp`,
		`dotnet test -bl`,
		`dotnet build -flp:logfile=/tmp/build.log`,
		`dotnet build '-l:FileLogger,Microsoft.Build;LogFile=build.log'`,
		`dotnet test --logger 'trx;LogFileName=x.trx'`,
	})
}
