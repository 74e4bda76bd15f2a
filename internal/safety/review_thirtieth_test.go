package safety

import "testing"

// TestReviewThirtieth holds the rows of the attacker's review of engine round 30. Its relaxations
// came from reading an absolute path as its spelling relative to the segment's directory (after
// a cd .., from a cwd of / or /tmp, through link/..): that change was dropped, and the rows keep
// each of them asked. An absolute path inside the project stays asked too (an over-refusal kept:
// below).
func TestReviewThirtieth(t *testing.T) {
	opaque := asked(RuleOpaqueCode)
	noWorkspace := ProjectRules{}
	cases := []struct {
		name  string
		rules ProjectRules
		call  Call
		want  outcome
	}{
		// Relaxation: relativeToSegment trusts the working directory as the project. Without a
		// workspace (or a projectDir) a cwd of / or /tmp makes every absolute path "below" it:
		// pytest /tmp/x, cargo --manifest-path /tmp/x/..., eslint -c /tmp/x.js and mvn -s /tmp/x.xml
		// were asked on main (an absolute path outside is outside whatever the cwd).
		{"cwd / pytest /tmp/x", noWorkspace, shIn(`pytest /tmp/x`, "/"), opaque},
		{"cwd / cargo manifest in /tmp", noWorkspace, shIn(`cargo test --manifest-path /tmp/x/Cargo.toml`, "/"), opaque},
		{"cwd /tmp eslint -c /tmp/x.js", noWorkspace, shIn(`eslint -c /tmp/x.js src`, "/tmp"), opaque},
		{"cwd / mvn -s /tmp/x.xml", noWorkspace, shIn(`mvn -s /tmp/x.xml test`, "/"), opaque},
		{"cwd /root pytest /tmp/x (../tmp/x, a sibling's child)", noWorkspace, shIn(`pytest /tmp/x`, "/root"), opaque},
		// The same within a line: cd .. keeps the segment's directory inside the bound (the cwd's
		// parent, or the workspace), and an absolute path beside it becomes ../x, "a sibling".
		{"cd .. && pytest /work/x, no workspace", noWorkspace, shIn(`cd .. && pytest /work/x`, "/work/proj/app"), opaque},
		{"cd .. && cargo manifest in /srv, workspace", classRules, shCall(`cd .. && cargo test --manifest-path /srv/x/Cargo.toml`), opaque},
		{"cd .. && npm test --prefix /srv/x, workspace", classRules, shCall(`cd .. && npm test --prefix /srv/x`), opaque},
		{"cd .. && go test -C /srv/x, workspace", classRules, shCall(`cd .. && go test -C /srv/x ./...`), opaque},
		// Asked on neither (the sibling allowance measured from the segment's cd .. directory):
		// the new options inherit it.
		{"cd .. && npm test -w /srv/x, workspace", classRules, shCall(`cd .. && npm test -w /srv/x`), opaque},
		{"cd .. && bun test --env-file=/srv/x, workspace", classRules, shCall(`cd .. && bun test --env-file=/srv/x`), opaque},
		{"cwd / with the workspace: eslint -c /tmp/x.js", classRules, shIn(`eslint -c /tmp/x.js src`, "/"), opaque},
		{"cwd / with the workspace: pytest /tmp/x", classRules, shIn(`pytest /tmp/x`, "/"), opaque},
		// Relaxation: path.Clean in relativeToSegment drops the .. that entriesBelow refuses in the
		// relative spelling (eslint -c link/../x.js is asked on both): through a symlink the
		// agent made earlier, link/../x.js is outside the project.
		{"eslint -c through a symlink, absolute", classRules, shCall(`eslint -c /workspace/app/link/../x.js src`), opaque},
		{"bun --preload through a symlink, absolute", classRules, shCall(`bun test --preload /workspace/app/link/../x.js`), opaque},
		// Misses: nopt reads --w as -w (a shorthand spelt long): npm test --w /tmp/x runs /tmp/x's script.
		{"npm test --w /tmp/x", classRules, shCall(`npm test --w /tmp/x`), opaque},
		{"npm test --w=/tmp/x", classRules, shCall(`npm test --w=/tmp/x`), opaque},
		{"npm test --C /tmp/x (nopt: --prefix; admitted on main too)", classRules, shCall(`npm test --C /tmp/x`), opaque},
		{"npx --w /tmp/x jest", classRules, shCall(`npx --w /tmp/x jest`), opaque},
		// Misses: uv's --env-file and UV_ENV_FILE are space-delimited lists (value_delimiter = ' ').
		{"UV_ENV_FILE list", classRules, shCall(`UV_ENV_FILE='config/ci.vars /tmp/x' uv run pytest`), opaque},
		{"uv run --env-file list", classRules, shCall(`uv run --env-file 'config/ci.vars /tmp/x' pytest`), opaque},
		// Near misses that must stay admitted.
		{"near: npm test -w packages/a", classRules, shCall(`npm test -w packages/a`), outcome{Verdict: VerdictAllow}},
		{"near: uv run --env-file config/ci.vars", classRules, shCall(`uv run --env-file config/ci.vars pytest`), outcome{Verdict: VerdictAllow}},
		// Over-refusals kept: the project's own paths spelt absolutely are asked, as every
		// absolute path these options name is (inThisProject), since where the project begins
		// is not the segment's directory after a cd.
		{"absolute: cd packages, a workspace spelt absolutely", classRules, shCall(`cd packages && npm test -w /workspace/app/packages/a`), opaque},
		{"absolute: a sibling module spelt absolutely", classRules, shCall(`pytest /workspace/web/tests`), opaque},
		{"absolute: cargo crate spelt absolutely", classRules, shCall(`cargo test --manifest-path /workspace/app/crates/a/Cargo.toml`), opaque},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			expectOutcome(t, Evaluate(mustCompile(t, &Profile{}, c.rules), c.call), c.want)
		})
	}
}
