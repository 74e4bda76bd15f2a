package safety

import (
	"strings"
	"testing"
)

// A project that declares its commands with the runner it uses ("uv run alembic check", as most
// Python and Node projects write them) keeps a valid policy now that runners are read
// through: the declaration names the command the runner runs, and the call is judged by it.
func TestProjectCommandsThroughARunner(t *testing.T) {
	rules := classRules
	rules.Commands = []ProjectCommand{
		{ID: "check", Command: "uv run alembic check"},
		{ID: "migrate", Command: "poetry run alembic upgrade head", RequireConfirmation: true},
		{ID: "lint", Command: "npx eslint ..."},
	}
	p := mustCompile(t, &Profile{}, rules)
	for cmd, want := range map[string]outcome{
		"uv run alembic check":                 {Verdict: VerdictAllow},
		"alembic check":                        {Verdict: VerdictAllow},
		"npx eslint src":                       {Verdict: VerdictAllow},
		"uv run alembic downgrade base":        {Verdict: VerdictAsk, Reason: ReasonToolHumanApprovalRequired, RuleID: dc + "database-reset-framework"},
		"uv run alembic history":               {Verdict: VerdictAsk, Reason: ReasonToolHumanApprovalRequired, RuleID: "autonomy:execute-unrecognized"},
		"poetry run alembic upgrade head":      {Verdict: VerdictAsk, Reason: ReasonToolHumanApprovalRequired, RuleID: "project-command:migrate"},
		"uv run --env-file .env alembic check": {Verdict: VerdictDeny, Reason: ReasonToolAccessDenied, RuleID: zero},
	} {
		if got := outcomeOf(Evaluate(p, shCall(cmd))); got != want {
			t.Errorf("%q: got %+v, want %+v", cmd, got, want)
		}
	}
	// A script is opaque through a runner as without one, so it cannot be declared either way,
	// nor can a runner's own script option (its text is a script, not the runner's command);
	// other wrappers stay out of declarations: what they change (the environment, the user, the
	// priority) is not the project's command.
	for _, cmd := range []string{"python manage.py test", "uv run python manage.py test", "npx -c 'rm -rf build'",
		"npm exec --call 'make test'", "mise exec node@20 -c 'make test'", "pnpm exec -c 'make test'", "env X=1 make test", "sudo make test", "nice make test"} {
		r := classRules
		r.Commands = []ProjectCommand{{ID: "t", Command: cmd}}
		if _, err := Compile(&Profile{}, r); err == nil || !strings.Contains(err.Error(), "commands[0].command") {
			t.Errorf("%q: Compile err = %v, want one naming commands[0].command", cmd, err)
		}
	}
}

// An interpreter or shell with nothing to run reads its program from standard input or from the
// words a call adds ("bash" matches "bash -c 'rm -rf /'" by its prefix), and a runner that
// fetches what it runs runs what was fetched, not the command it names: neither is declared.
func TestProjectCommandsThatRunAnything(t *testing.T) {
	for cmd, problem := range map[string]string{
		"bash": "interpreter", "sh": "interpreter", "zsh": "interpreter", "python3": "interpreter", "node": "interpreter",
		"uv run sh": "interpreter", "poetry run python": "interpreter", "env bash": "one simple command",
		"uv run --with evil pytest": "fetch", "uv run --index https://x.example/simple pytest": "fetch",
		"npx -y eslint": "fetch", "npx eslint@9": "fetch", "uvx ruff": "fetch", "pnpm dlx x": "fetch",
		"npm exec --registry https://x.example/ -- tsc": "fetch",
	} {
		r := classRules
		r.Commands = []ProjectCommand{{ID: "t", Command: cmd}}
		_, err := Compile(&Profile{}, r)
		if err == nil || !strings.Contains(err.Error(), "commands[0].command") || !strings.Contains(err.Error(), problem) {
			t.Errorf("%q: Compile err = %v, want one naming commands[0].command and %q", cmd, err, problem)
		}
	}
	for _, cmd := range []string{"uv run pytest", "python3 -m pytest", "make test", "npx eslint ...", "uv run --python 3.12 pytest", "go test ./...", "pnpm exec vitest -c vitest.config.ts", "npx eslint -c .eslintrc.json ."} {
		r := classRules
		r.Commands = []ProjectCommand{{ID: "t", Command: cmd}}
		if _, err := Compile(&Profile{}, r); err != nil {
			t.Errorf("%q: Compile err = %v, want none", cmd, err)
		}
	}
}
