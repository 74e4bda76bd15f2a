package safety

import (
	"slices"
	"strings"
)

// gitConfigEnv is git's option that takes a setting's value from a variable.
const gitConfigEnv = "--config-env"

// gitTraceEnvVars is the setting that names variables git's trace2 output records with their
// values.
const gitTraceEnvVars = "trace2.envVars"

// Git settings whose value names a file git reads or writes. Set for one command (git -c
// KEY=VALUE) or stored for later ones (git config KEY VALUE), the file is touched as if the
// command named it: git -c commit.template=.env commit puts .env into the message, which git log
// then prints; http.cookieFile sends the file's lines to the server (a key or certificate git only
// uses, such as user.signingKey or http.sslKey, is not read out and not listed); trace2's targets append
// every later git command's trace to the file (git -c trace2.eventTarget=/root/.bashrc status).
//
// gitConfigFileOp is what git does to the file a setting names, by the setting's name
// (case-insensitive, as git reads it; http.<url>.sslKey as http.sslKey).
func gitConfigFileOp(key string) (pathOp, bool) {
	section, rest, ok := strings.Cut(key, ".")
	if !ok {
		return 0, false
	}
	name := rest
	if i := strings.LastIndexByte(rest, '.'); i >= 0 {
		name = rest[i+1:]
	}
	switch {
	case strings.EqualFold(section, "trace2") && rest == name:
		for _, t := range []string{"normalTarget", "eventTarget", "perfTarget"} {
			if strings.EqualFold(name, t) {
				return opWrite, true
			}
		}
	case strings.EqualFold(section, "http"):
		if strings.EqualFold(name, "cookieFile") {
			return opRead, true
		}
	case rest == name:
		for _, f := range []string{"commit.template", "core.excludesFile", "core.attributesFile", "mailmap.file",
			"blame.ignoreRevsFile", "fsck.skipList"} {
			if strings.EqualFold(key, f) {
				return opRead, true
			}
		}
	}
	return 0, false
}

// gitConfigFiles records the files git's settings name, set for this command (-c KEY=VALUE;
// --config-env=KEY=VAR takes the value from a variable, computed) or stored (git config [scope]
// KEY VALUE, git config set KEY VALUE).
func (a *analyzer) gitConfigFiles(s *segment) {
	w := s.words
	for i := 1; i < len(w) && strings.HasPrefix(w[i].s, "-") && !w[i].dynamic; i++ {
		v := w[i].s
		switch {
		case (v == "-c" || v == gitConfigEnv) && i+1 < len(w):
			i++
			a.gitConfigFile(w[i], v == gitConfigEnv)
		case strings.HasPrefix(v, gitConfigEnv+"="):
			a.gitConfigFile(w[i].with(v[len(gitConfigEnv)+1:]), true)
		case gitGlobalsWithValue[v]:
			i++
		}
	}
	a.gitScopeWrite(s)
	a.gitRenameWrite(s)
	if len(s.operands) < 3 || s.operands[0].s != subConfig || gitConfigReadsOnly(s) {
		return
	}
	key, val := s.operands[1], s.operands[2]
	if key.s == subSet && len(s.operands) > 3 {
		key, val = s.operands[2], s.operands[3]
	}
	if strings.EqualFold(key.s, gitTraceEnvVars) {
		a.gitTracesEnvironment(val.s + " ")
	}
	if op, ok := gitConfigFileOp(key.s); ok {
		a.gitConfigValue(val, op)
	}
}

// gitTracesEnvironment records a finding for trace2.envVars (GIT_TRACE2_ENV_VARS): git's trace2
// output then holds the values of the variables it names (def_param NAME=VALUE), a trace the
// agent reads as it reads printenv's output.
func (a *analyzer) gitTracesEnvironment(vars string) {
	if strings.TrimSpace(vars) == "" {
		return
	}
	a.find(false, RulePrefixDamageControl+"print-environment", "trace2.envVars (GIT_TRACE2_ENV_VARS) %q makes git print those variables' values in its trace, as printenv does; it needs human approval", vars)
}

// gitTraceEnv reads one of git's GIT_TRACE* variables: a trace target (GIT_TRACE=/root/.bashrc
// appends git's trace to the file), the variables trace2 prints, or the redaction turned off.
func (a *analyzer) gitTraceEnv(name, val string) {
	switch name {
	case "GIT_TRACE2_ENV_VARS":
		a.gitTracesEnvironment(val)
	case "GIT_TRACE_REDACT":
		if val == "" || !gitTrue(val) {
			a.gitTraceUnredacted(val)
		}
	default:
		a.traceTarget(word{s: val})
	}
}

// gitTraceUnredacted records a finding for GIT_TRACE_REDACT turned off: git's curl and packet
// traces (GIT_TRACE_CURL, GIT_CURL_VERBOSE, GIT_TRACE_PACKET) then print the Authorization
// header and cookies git sends, the token a CI checkout keeps in http.extraHeader among them, as
// git config http.extraHeader does.
func (a *analyzer) gitTraceUnredacted(val string) {
	a.find(false, RulePrefixDamageControl+"print-credentials-git-config", "GIT_TRACE_REDACT=%q makes git's traces print the credentials it sends (an Authorization header, the token in http.extraHeader); it needs human approval", val)
}

// gitConfigReadsOnly says whether git config only reads, lists or removes settings.
func gitConfigReadsOnly(s *segment) bool {
	return slices.ContainsFunc(gitConfigReads, s.hasFlag) || slices.Contains(gitConfigReadVerbs, s.operands[1].s) ||
		s.hasFlag("--unset") || s.hasFlag("--unset-all")
}

// gitConfigReadVerbs are git config's subcommands (the new syntax) that set nothing. Renaming a
// section sets every key it holds under the new name (rename-section user core turns a
// user.pager set before into core.pager): gitRenamedSection.
var gitConfigReadVerbs = strings.Fields("get list unset remove-section edit")

// gitConfigEdit is git config's subcommand that opens the file in an editor.
const gitConfigEdit = "edit"

// gitRenamedSection returns the section git config rename-section (or --rename-section) renames
// to.
func gitRenamedSection(s *segment) (string, bool) {
	ops := s.operands
	if len(ops) < 3 || ops[0].s != subConfig {
		return "", false
	}
	if ops[1].s == "rename-section" && len(ops) > 3 || s.hasFlag("--rename-section") {
		return ops[len(ops)-1].s, true
	}
	return "", false
}

// gitSafeSection says whether a section may receive any keys: a safe section of gitSafeKeys's
// (user, color, ...) or a branch's.
func gitSafeSection(name string) bool {
	lower := strings.ToLower(name)
	if strings.HasPrefix(lower, "branch.") {
		return true
	}
	for _, k := range gitSafeKeys {
		if strings.HasSuffix(k, ".") && strings.EqualFold(k, name+".") {
			return true
		}
	}
	return false
}

// gitRenameWrite records the repository's configuration file as written when git config renames
// a section there to one whose keys could run programs (the scopes --global and --system are
// gitScopeWrite's, a --file's is its own write).
func (a *analyzer) gitRenameWrite(s *segment) {
	to, ok := gitRenamedSection(s)
	if !ok || gitSafeSection(to) || !gitRepoScope(s) {
		return
	}
	a.touch(word{s: ".git/config"}, opWrite)
}

// gitRepoScope says whether git config writes the repository's own file (no --global, --system,
// --file or --blob).
func gitRepoScope(s *segment) bool {
	return !slices.ContainsFunc([]string{"--global", "--system", "-f", optFile, "--blob"}, s.hasFlag)
}

// gitConfigFile records the file one "KEY=VALUE" setting names; fromEnv: the value is a
// variable's, not known here.
func (a *analyzer) gitConfigFile(kv word, fromEnv bool) {
	key, val, ok := strings.Cut(kv.s, "=")
	if !ok {
		return
	}
	if strings.EqualFold(key, gitTraceEnvVars) {
		a.gitTracesEnvironment(val + " ")
	}
	op, ok := gitConfigFileOp(key)
	if !ok {
		return
	}
	if fromEnv {
		a.touch(word{s: "$" + val, dynamic: true}, op)
		return
	}
	a.gitConfigValue(kv.with(val), op)
}

// gitConfigValue records a setting's file: a trace target only when git takes it for one (an
// absolute path, or a unix socket's), not a number or true, which name file descriptors.
func (a *analyzer) gitConfigValue(val word, op pathOp) {
	if op == opWrite {
		a.traceTarget(val)
		return
	}
	if val.s != "" {
		a.touch(val, op)
	}
}

// traceTarget records where a git trace goes when its setting (trace2.*Target) or variable
// (GIT_TRACE, GIT_TRACE_PACKET, GIT_TRACE2_EVENT, ...) names a file: git appends to an absolute
// path (a directory gets a file inside it), connects to "af_unix:[stream:|dgram:]PATH", and takes
// "1", "2", "true" or a digit for a file descriptor; other values are ignored.
func (a *analyzer) traceTarget(val word) {
	v := val.s
	if rest, ok := strings.CutPrefix(v, "af_unix:"); ok {
		v = rest
		for _, p := range []string{"stream:", "dgram:"} {
			v = strings.TrimPrefix(v, p)
		}
	}
	switch {
	case val.dynamic || strings.HasPrefix(v, "$"):
		a.touch(word{s: v, dynamic: true}, opWrite)
	case strings.HasPrefix(v, "/") || strings.HasPrefix(v, "~"):
		a.touch(val.with(v), opWrite)
	}
}

// gitTraceVar says whether an environment variable is one of git's trace targets.
func gitTraceVar(name string) bool {
	return strings.HasPrefix(name, "GIT_TRACE")
}

// gitScopeFiles are the files git config --global and --system write.
var gitScopeFiles = [][2]string{{"--global", "~/.gitconfig"}, {"--system", "/etc/gitconfig"}}

// gitSafeKeys are settings git config --global may write without it counting as a write of
// ~/.gitconfig, which the noWrite policy protects: identity, line endings, the defaults of pull,
// push and merge, colours. A "section." entry covers the section. Any other setting, one that runs
// a program (core.pager, alias.x) or sends git elsewhere (url.X.insteadOf, http.proxy,
// http.sslVerify), writes the file every later git command, a person's too, obeys.
var gitSafeKeys = strings.Fields("user. color. advice. column. status. init.defaultBranch core.autocrlf core.eol " +
	"core.fileMode core.quotePath core.longPaths core.ignoreCase core.safecrlf core.whitespace core.precomposeUnicode " +
	"core.symlinks core.compression pull.rebase pull.ff push.default push.autoSetupRemote push.followTags fetch.prune " +
	"fetch.pruneTags fetch.parallel merge.conflictStyle merge.ff rebase.autoSquash rebase.autoStash rebase.updateRefs " +
	"diff.algorithm diff.colorMoved diff.renames branch.autoSetupRebase branch.sort tag.sort gc.auto protocol.version " +
	"http.postBuffer feature.manyFiles commit.verbose commit.gpgSign tag.gpgSign")

// gitSafeKey says whether git config --global may set key to val (safe.directory, unless "*",
// which trusts every repository's own configuration, or "DIR/*", which since git 2.46 trusts every
// one below DIR: "/*" is all of them).
func gitSafeKey(key, val string) bool {
	if strings.EqualFold(key, "safe.directory") {
		return !strings.HasSuffix(val, "*")
	}
	for _, k := range gitSafeKeys {
		if strings.HasSuffix(k, ".") && len(key) > len(k) && strings.EqualFold(key[:len(k)], k) || strings.EqualFold(key, k) {
			return true
		}
	}
	return false
}

// gitScopeWrite records the file git config --global (~/.gitconfig) or --system (/etc/gitconfig)
// writes when it sets a setting that is not a safe one, or opens the file in an editor (-e).
func (a *analyzer) gitScopeWrite(s *segment) {
	if len(s.operands) == 0 || s.operands[0].s != subConfig {
		return
	}
	for _, sf := range gitScopeFiles {
		if !s.hasFlag(sf[0]) {
			continue
		}
		edit := s.hasFlag("-e") || s.hasFlag("--edit") || len(s.operands) > 1 && s.operands[1].s == gitConfigEdit
		if !edit && (len(s.operands) < 2 || gitConfigReadsOnly(s)) {
			continue
		}
		if !edit {
			key, val := s.operands[1], word{}
			if key.s == subSet && len(s.operands) > 2 {
				key = s.operands[2]
				if len(s.operands) > 3 {
					val = s.operands[3]
				}
			} else if len(s.operands) > 2 {
				val = s.operands[2]
			}
			if !key.dynamic && !val.dynamic && gitSafeKey(key.s, val.s) {
				continue
			}
		}
		a.touch(word{s: sf[1]}, opWrite)
	}
}
