package safety

import (
	"slices"
	"strings"
)

// Clients that keep credentials in their own configuration, or mint them, and print them on
// request: a path policy never sees the file they read (rclone.conf and .s3cfg are zeroAccess,
// but `rclone config show` opens it itself), so the subcommand is what the engine reads. Unlike
// a store's client, whose every computed subcommand could print, these clients' ordinary
// commands take computed operands (rclone purge "$R"): only a computed word where the printing
// subcommand's next word stands (rclone config "$X") counts.

// clientPrintsCredential reports whether such a client prints a credential: rclone config
// show|dump (every remote's keys and tokens; config redacted does not), s3cmd --dump-config
// (.s3cfg's keys), MinIO's mc alias list|ls|export and the older mc config host list|ls (each
// alias's secret key), consul's and nomad's acl bootstrap and acl token read|self|info|create|
// clone|update (a token's secret ID), the hosting platforms' environment printers: netlify
// env:list|env:get, railway variables without --set (a table of every variable's value), vercel
// env pull (every value, into a file the engine cannot tell from any other; vercel env ls prints
// names only). Options before the subcommand may take a value the engine
// reads as an operand (rclone --config r.conf config show), so the subcommand is looked for
// among the first two operands.
func clientPrintsCredential(s *segment) bool {
	switch s.name {
	case cmdS3cmd:
		return s.hasFlag("--dump-config")
	case cmdRclone:
		return subcommandThen(s, []string{subConfig}, "show", "dump")
	case cmdMinio:
		return subcommandThen(s, []string{"alias"}, "list", "ls", "export") ||
			subcommandThen(s, minioOldAliases, "list", "ls")
	case cmdConsul, cmdNomad:
		return subcommandThen(s, []string{"acl"}, "bootstrap") ||
			subcommandThen(s, []string{"acl", subToken}, "read", "self", "info", subCreate, "clone", "update")
	case cmdNetlify, cmdNetlifyShort:
		return leadingOperand(s, "env:list", "env:get")
	case cmdRailway:
		return leadingOperand(s, "variables", "variable", "vars", "var") && !s.hasFlag("--set")
	case cmdVercel, cmdVercelShort:
		return subcommandThen(s, []string{cmdEnv}, "pull")
	}
	return false
}

// leadingOperand reports whether the first or the second operand (an option before the
// subcommand may take a value the engine reads as the first) is, literally, one of subs.
func leadingOperand(s *segment, subs ...string) bool {
	for i := 0; i < 2 && i < len(s.operands); i++ {
		if op := s.operands[i]; !op.dynamic && slices.Contains(subs, strings.ToLower(op.s)) {
			return true
		}
	}
	return false
}

// minioOldAliases is mc config host, the older spelling of mc alias.
var minioOldAliases = []string{subConfig, "host"} //nolint:goconst // mc's words, read literally

// Clients read here that no other rule names.
const (
	cmdS3cmd = "s3cmd"
	cmdMinio = "mc"
	cmdNomad = "nomad"
	// The hosting platforms' CLIs and their short names.
	cmdNetlify, cmdNetlifyShort = "netlify", "ntl"
	cmdRailway                  = "railway"
	cmdVercel, cmdVercelShort   = "vercel", "vc"
)

// subcommandThen reports whether the operands, from the first or the second on, are the words
// of path (case-insensitively) followed by one of last or by a word computed at run time.
func subcommandThen(s *segment, path []string, last ...string) bool {
	for start := range 2 {
		if start+len(path) >= len(s.operands) {
			return false
		}
		ops := s.operands[start:]
		matched := true
		for i, p := range path {
			if ops[i].dynamic || !strings.EqualFold(ops[i].s, p) {
				matched = false
				break
			}
		}
		if next := ops[len(path)]; matched && (next.dynamic || slices.Contains(last, strings.ToLower(next.s))) {
			return true
		}
	}
	return false
}

// computedOperandsOrdinary are the clients clientPrintsCredential reads, and cf and firebase,
// whose one printing subcommand is read literally: storePrintsCredential does not take their
// computed operands for a printing subcommand (cf push "$APP" prints nothing).
var computedOperandsOrdinary = map[string]bool{
	cmdS3cmd: true, cmdRclone: true, cmdMinio: true, cmdConsul: true, cmdNomad: true, "cf": true, "firebase": true,
	cmdNetlify: true, cmdNetlifyShort: true, cmdRailway: true, cmdVercel: true, cmdVercelShort: true,
}

// Package managers keep a registry's or a gem host's credentials in their own configuration and
// print them back when it is listed or the key is read, as git config --list prints
// http.extraHeader (gitcredentials.go): bundle config (no arguments, list, get NAME, or the older
// bundle config NAME) prints BUNDLE_<HOST> user:password pairs and mirrors' URLs (Bundler 2.2 on
// redacts the password after a colon, but not --parseable's values, nor a token given as the user,
// TOKEN:, as gemfury's and others' are); poetry config --list, and a read of http-basic.*,
// pypi-token.* or a repository (whose URL may hold a password); pip config list|debug, and get of
// an index URL, find-links or a proxy, which embed user:password; composer config --list, and a
// read of an auth key (http-basic, github-oauth, gitlab-token, bearer, …) or --auth, composer
// global config's too; gem sources's list, whose sources may be https://user:password@host/, and
// gem environment's report, which lists them (bundle env's holds bundle config's list); yarn 1's
// config list, which prints .npmrc's _authToken (yarn 2's redacts; the engine cannot tell the
// versions apart); hatch config show --all, which does not scrub the secrets it keeps; pdm config's
// list and a read of an index's URL (pdmConfigPrints); conda config --show|--show-sources|--get
// (condaConfigPrints). A key computed at run time could be any of them. Setting, unsetting, deleting
// and a named ordinary key (bundle config get path, pip config get global.timeout) print none. Each
// reads its program's words as that program's parser does: bundler (Thor), gem (its command
// manager) and composer (Symfony) take a unique prefix of a command name.

// packageConfigPrintsCredential reports whether a package manager prints a credential it keeps.
//
//nolint:goconst // program names and their options read best literally, next to their neighbours
func packageConfigPrintsCredential(s *segment) bool {
	if ops, ok := pipOperands(s); ok {
		return len(ops) > 1 && ops[0].s == subConfig && pipConfigPrints(ops[1:])
	}
	switch s = managerModule(s); s.name {
	case cmdBundle, "bundler":
		return bundlePrints(s)
	case "poetry":
		ops := positionals(s.words[1:], []string{"-C", "--directory", "-P", "--project"})
		return len(ops) > 0 && ops[0].s == subConfig && poetryConfigPrints(s, ops[1:])
	case "composer":
		return composerPrints(s)
	case "gem":
		return gemPrints(s)
	case cmdGradle, cmdMvn:
		return buildToolPrintsSettings(s)
	case "yarn":
		ops := positionals(s.words[1:], nil)
		return len(ops) > 1 && ops[0].s == subConfig && (ops[1].dynamic || ops[1].s == subList)
	case "hatch":
		return hatchConfigShowsSecrets(s)
	case cmdPdm:
		return pdmConfigPrints(s)
	case cmdConda, "mamba":
		return condaConfigPrints(s)
	}
	return false
}

// managerModule reads python -m pdm and python -m conda as the programs they run (their words,
// options apart); any other segment is returned as it is.
func managerModule(s *segment) *segment {
	if mod, m, ok := pythonModuleRun(s); ok && (mod == cmdPdm || mod == cmdConda) {
		splitArgs(&m)
		return &m
	}
	return s
}

// cmdConda is conda's command (mamba 1 hands its config subcommand to conda's); cmdPdm pdm's.
const cmdConda, cmdPdm = "conda", "pdm"

// pdmConfigPrints: pdm config with no key lists every setting, and pdm config KEY prints one.
// pdm hides a password (pypi.NAME.password, repository.NAME.password) in both, but not the URLs
// of its indexes and repositories, which may embed user:password: a key whose last part is url,
// or a whole index's or repository's table (pypi.NAME, repository.NAME), whose URL it prints.
// A value after the key sets it; --delete and --edit print none.
func pdmConfigPrints(s *segment) bool {
	ops := positionals(s.words[1:], []string{"-c", optConfigLong, "-p", "--project"})
	if len(ops) == 0 || ops[0].s != subConfig || len(ops) > 2 || s.hasFlag("-d") || s.hasFlag("--delete") || s.hasFlag("-e") || s.hasFlag("--edit") {
		return false
	}
	if len(ops) == 1 {
		return true
	}
	key := strings.ToLower(ops[1].s)
	parts := strings.Split(key, ".")
	return ops[1].dynamic || (parts[0] == "pypi" || parts[0] == "repository") && (len(parts) < 3 || parts[len(parts)-1] == "url")
}

// condaConfigPrints: conda config --show (every setting, or the keys named), --show-sources (each
// .condarc's contents) and --get (the keys named, or all) print channel URLs, which may carry an
// anaconda.org token (/t/TOKEN/), channel_alias and custom_channels' URLs, and proxy_servers'
// user:password. --describe prints descriptions only; the setters print nothing.
func condaConfigPrints(s *segment) bool {
	ops := positionals(s.words[1:], []string{optFile, optEnv, "-n", "--name", "-p", optPrefix})
	return len(ops) > 0 && ops[0].s == subConfig && slices.ContainsFunc([]string{"--show", "--show-sources", "--get"}, s.hasFlag)
}

// hatchConfigShowsSecrets: hatch config show scrubs its secret fields (an index's auth for
// hatch publish) unless told -a or --all.
func hatchConfigShowsSecrets(s *segment) bool {
	ops := positionals(s.words[1:], []string{"-e", optEnv, "-p", "--project", "--data-dir", optCacheDir, optConfigLong})
	return len(ops) > 1 && ops[0].s == subConfig && (ops[1].dynamic || ops[1].s == gitShow) &&
		(s.hasFlag("-a") || s.hasFlag("--all"))
}

// commandPrefix reports whether w names the command cmd, whole or by a prefix at least min long
// (Thor's and Symfony's unique abbreviations: bundle conf, composer confi); a computed word could.
func commandPrefix(w word, cmd string, minLen int) bool {
	return w.dynamic || len(w.s) >= minLen && strings.HasPrefix(cmd, w.s)
}

// bundlePrints: bundle config's reads (bundleConfigPrints), and bundle env, whose report holds
// bundle config's list.
func bundlePrints(s *segment) bool {
	ops := positionals(s.words[1:], []string{"-r", "--retry"})
	if len(ops) == 1 && ops[0].s == cmdEnv {
		return true
	}
	return len(ops) > 0 && commandPrefix(ops[0], subConfig, len("conf")) && bundleConfigPrints(s, ops[1:])
}

// composerPrints: composer config's reads (composerConfigPrints), in the project or under
// composer global, which runs its command in the home's composer directory.
//
//nolint:goconst // option spellings read best literally, next to their neighbours
func composerPrints(s *segment) bool {
	ops := positionals(s.words[1:], []string{"-d", "--working-dir"})
	if len(ops) > 0 && commandPrefix(ops[0], "global", len("gl")) {
		ops = ops[1:]
	}
	return len(ops) > 0 && commandPrefix(ops[0], subConfig, len("conf")) && composerConfigPrints(s, ops[1:])
}

// gemPrints: gem sources's list (gemSourcesLists), and gem environment's report, which lists the
// remote sources (whole, or the remotesources section).
func gemPrints(s *segment) bool {
	ops := positionals(s.words[1:], gemSourcesValued)
	if len(ops) > 0 && commandPrefix(ops[0], "environment", len(cmdEnv)) {
		return len(ops) == 1 || ops[1].dynamic || ops[1].s == "remotesources"
	}
	return len(ops) > 0 && commandPrefix(ops[0], "sources", len("sou")) && gemSourcesLists(s)
}

// bundleConfigPrints: bundle config with no operands or list prints every setting; get NAME and
// the older bundle config NAME print one, a credential when NAME is a host's (gems.example.com,
// BUNDLE_GEMS__EXAMPLE__COM) or a mirror's.
func bundleConfigPrints(s *segment, ops []word) bool {
	switch {
	case len(ops) == 0:
		return !s.hasFlag("--delete")
	case ops[0].dynamic:
		return true
	case ops[0].s == subList:
		return true
	case ops[0].s == subGet:
		return len(ops) > 1 && bundleCredentialKey(ops[1])
	case len(ops) == 1:
		return !s.hasFlag("--delete") && bundleCredentialKey(ops[0])
	}
	return false // set, unset, or the older NAME VALUE
}

// bundleCredentialKey reports whether a bundler setting's name may hold a credential: a host's
// (a dot, or BUNDLE_ and __ for the dots), a mirror's URL, or one computed at run time.
func bundleCredentialKey(w word) bool {
	low := strings.ToLower(w.s)
	return w.dynamic || strings.Contains(low, ".") || strings.Contains(low, "__") || strings.HasPrefix(low, "mirror")
}

// poetryConfigPrints: poetry config --list prints every setting, and a key with no value (and no
// --unset) is read: http-basic.*, pypi-token.* or a repository's URL may hold a credential.
func poetryConfigPrints(s *segment, ops []word) bool {
	if s.hasFlag("--list") {
		return true
	}
	if len(ops) != 1 || s.hasFlag("--unset") {
		return false
	}
	low := strings.ToLower(ops[0].s)
	return ops[0].dynamic || strings.HasPrefix(low, "http-basic") || strings.HasPrefix(low, "pypi-token") || strings.HasPrefix(low, "repo")
}

// pipConfigPrints: pip config list and debug print every value; get prints an index URL, a
// find-links location or a proxy, which may embed user:password.
func pipConfigPrints(ops []word) bool {
	verb := ops[0]
	switch {
	case verb.dynamic, verb.s == subList, verb.s == "debug":
		return true
	case verb.s != subGet || len(ops) < 2:
		return false
	}
	key := strings.ToLower(ops[1].s)
	return ops[1].dynamic || strings.HasSuffix(key, "index-url") || strings.HasSuffix(key, "find-links") ||
		strings.HasSuffix(key, "proxy")
}

// composerAuthKeys are composer's settings that hold a credential (auth.json's, which composer
// config reads too).
var composerAuthKeys = strings.Fields("http-basic github-oauth gitlab-oauth gitlab-token bitbucket-oauth bearer forgejo-token client-certificate")

// composerConfigPrints: composer config --list (-l) prints every setting, auth.json's included; a
// key with no value (and no --unset) is read, an auth key's (or any with --auth) a credential.
func composerConfigPrints(s *segment, ops []word) bool {
	if s.hasFlag("--list") || s.hasFlag("-l") {
		return true
	}
	if len(ops) != 1 || s.hasFlag("--unset") {
		return false
	}
	key, _, _ := strings.Cut(strings.ToLower(ops[0].s), ".")
	return ops[0].dynamic || s.hasFlag("--auth") || s.hasFlag("-a") || slices.Contains(composerAuthKeys, key)
}

// gemSourcesValued are gem sources's options that take a source URI.
var gemSourcesValued = strings.Fields("-a --add --append -p --prepend -r --remove")

// gemSourcesLists: gem sources lists the sources with --list (-l), or with no action at all.
func gemSourcesLists(s *segment) bool {
	if s.hasFlag("--list") || s.hasFlag("-l") {
		return true
	}
	return !slices.ContainsFunc(slices.Concat(gemSourcesValued, []string{"-c", "--clear-all", "-u", "--update"}), s.hasFlag)
}

// packageConfigRule is the rule pack's rule for a package manager printing the credentials it keeps.
const packageConfigRule = "print-credentials-package-config"

// buildToolPrintsSettings: gradle's properties task prints every project property, those of
// ~/.gradle/gradle.properties (a repository's or a signing key's password) among them; maven's
// help:effective-settings with showPasswords prints ~/.m2/settings.xml's servers' passwords
// (masked without it), help:evaluate of a settings expression one of them. Both files are
// zeroAccess. A task or goal computed at run time could be either.
func buildToolPrintsSettings(s *segment) bool {
	goals, ok := buildGoals(s)
	if !ok {
		return true
	}
	props := mavenDefines(s)
	for _, g := range goals {
		task := g[strings.LastIndex(g, ":")+1:]
		switch {
		case s.name == cmdGradle && len(task) >= len("prop") && strings.HasPrefix("properties", task):
			return true
		case s.name != cmdMvn:
		case task == "effective-settings":
			if v, set := props["showPasswords"]; set && (v.dynamic || v.s == "" || strings.EqualFold(v.s, "true")) {
				return true
			}
		case task == "evaluate":
			if v, set := props["expression"]; set && (v.dynamic || strings.Contains(strings.ToLower(v.s), "settings")) {
				return true
			}
		}
	}
	return false
}

// mavenDefines returns the system properties maven's -D (--define) sets, by name: -DNAME=VALUE,
// -D NAME=VALUE, and -DNAME alone (set to "").
func mavenDefines(s *segment) map[string]word {
	props := map[string]word{}
	for i := 1; i < len(s.words); i++ {
		w := s.words[i]
		kv, ok := strings.CutPrefix(w.s, "-D")
		if (w.s == "-D" || w.s == "--define") && i+1 < len(s.words) {
			i++
			w, kv, ok = s.words[i], s.words[i].s, true
		}
		if ok && kv != "" {
			name, val, _ := strings.Cut(kv, "=")
			props[name] = word{s: val, dynamic: w.dynamic}
		}
	}
	return props
}
