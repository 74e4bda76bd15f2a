package safety

import "testing"

// judgedVar gathers its tables once and checks the prefix families itself: it must judge every
// variable the checks it stands for judge (codeEnvReason, lineEnvVar, envVar's own), and no
// ordinary loop variable.
func TestJudgedVarCoversTheEnvChecks(t *testing.T) {
	names := make([]string, 0, 16+len(judgedNames))
	names = append(names, "http_proxy", "HTTPS_PROXY", "RCLONE_CONFIG_X_TYPE", "GIT_TRACE2_EVENT", "TF_CLI_ARGS_plan",
		"CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUNNER", "npm_config_script_shell", "NPM_CONFIG_NODE_OPTIONS",
		"BASH_FUNC_ls%%", "GIT_INDEX_FILE", "HISTFILE", "BASH_CMDS", "PWD", "XZ_OPT", "KUBECONFIG", "npm_config_cache",
		"NPM_CONFIG_LOGS_DIR", "COVERAGE_FILE")
	for n := range judgedNames {
		names = append(names, n)
	}
	for _, n := range names {
		npm, isNpm := npmConfigSetting(n)
		slow := codeEnvReason(n, "$") != "" || lineEnvVar(n) || injectionEnvVars[n] || commandEnvVars[n] ||
			writtenFileVars[n] || loadedFileVars[n] || valueJudgedVars[n] || gitTraceVar(n) || isNpm && npmFileOps["--"+npm] != 0
		if slow && !judgedVar(n) {
			t.Errorf("judgedVar(%q) = false, but the environment checks judge it", n)
		}
	}
	for _, n := range []string{"f", "env", "editor", "path", "line", "CARGO_TERM_COLOR", "npm_config_loglevel", "P", "i"} {
		if judgedVar(n) {
			t.Errorf("judgedVar(%q) = true for an ordinary variable", n)
		}
	}
}
