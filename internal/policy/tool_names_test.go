package policy

import (
	"testing"

	"k8s.io/apimachinery/pkg/util/validation/field"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
)

// A profile's tool entry that no AgentTool name can match would make a deny (or an allow) apply
// to nothing; ordinary names and globs must stay accepted.
func TestToolPatternProblem(t *testing.T) {
	for _, p := range []string{"shell", "deploy*", "deploy-*", "{edit,write}", "run-tests?", "[a-c]*", "[!d]*", "mcp.fs.*", "*"} {
		if got := toolPatternProblem(p); got != "" {
			t.Errorf("%q: want accepted, got %q", p, got)
		}
	}
	for _, p := range []string{"Shell", "Bash", "write_file", "read file", "Deploy-*", "write_*", "ｓｈｅｌｌ", "fs/read*", "-shell"} {
		if got := toolPatternProblem(p); got == "" {
			t.Errorf("%q: want refused, got accepted", p)
		}
	}
}

// The check applies to profiles as written, never to a snapshot already locked: a running plan
// locked with such an entry keeps being judged (and replayed) by the rules it was locked under.
func TestToolPatternsAreCheckedOnProfilesNotSnapshots(t *testing.T) {
	spec := safetyv1alpha1.SafetyProfileSpec{DeniedTools: []string{"deploy*", "Shell"}}
	if _, errs := CheckedProfileFromSpec(&spec, field.NewPath("spec")); len(errs) != 1 || errs[0].Field != "spec.deniedTools[1]" {
		t.Fatalf("want one error on spec.deniedTools[1], got %v", errs)
	}
	if _, err := CompileSnapshot(&safetyv1alpha1.PlanSnapshot{Safety: spec, Level: safetyv1alpha1.AutonomyLevelDefault}); err != nil {
		t.Fatalf("a locked snapshot must still compile: %v", err)
	}
}
