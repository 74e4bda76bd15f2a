package safety

import (
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// kubectl verbs named in more than one check.
const (
	subConfig  = "config"  // reads and writes the kubeconfig
	subApply   = "apply"   // view-last-applied prints the last applied object
	subToken   = "token"   // kubectl create token, fly auth token, vault token
	subAuth    = "auth"    // fly auth token, glab auth status, uv auth token
	subSecrets = "secrets" // kubectl get secrets, doppler secrets, vault secrets disable
)

// builtinChecks are the predicates a rule names in Check. Each reads a program's words as its own
// option parser would, where a regular expression over the text cannot: which operand is the
// resource once every option and its value are skipped ("kubectl -n secrets get pods" names a
// namespace, not Secrets), a percent-encoded API path, an abbreviated option.
var builtinChecks = map[string]func(*segment) bool{
	"kubectl-prints-credential":     kubectlPrintsCredential,
	"renders-manifests":             rendersManifests,
	"aws-prints-credential":         awsPrintsCredential,
	"store-prints-credential":       storePrintsCredential,
	"writes-credential-config":      writesCredentialConfig,
	"reaches-cloud-metadata":        reachesCloudMetadata,
	"git-clean-deletes":             gitCleanDeletes,
	"git-stash-removes-untracked":   gitStashRemovesUntracked,
	"secret-sent-indirectly":        sendsCredentialIndirectly,
	"secret-in-arguments":           givesSecret,
	"drops-data":                    dropsDatabase,
	"kill-targets-all":              killTargetsAll,
	"kills-computed":                killsComputed,
	"kills-all-matching":            killsAllMatching,
	"deletes-for-real":              deletesForReal,
	"stops-workload":                stopsWorkload,
	"prints-service-environment":    printsServiceEnvironment,
	"jq-filter-names-environment":   jqFilterNamesEnvironment,
	"deletes-cloud-objects":         deletesCloudObjects,
	"disables-recovery":             disablesRecovery,
	"prints-dotenv":                 printsDotenv,
	"runs-in-system-manager":        runsInSystemManager,
	"adds-package":                  addsPackage,
	"script-expands-loaded-secrets": loadedScriptExpands,
	"container-takes-host-secret":   takesHostSecret,
	"runs-cloud-command":            runsCloudCommand,
	"git-prints-credential-config":  gitPrintsCredentialConfig,
	"package-prints-credential":     packageConfigPrintsCredential,
	"gh-jq-prints-environment":      ghJqPrintsEnvironment,
	"git-moves-ref":                 gitMovesRef,
	"git-fetch-forces-branch":       gitFetchForcesBranch,
	"git-branch-forced":             gitBranchForced,
	"git-force-creates":             gitForceCreates,
}

// gitCleanDeletes reports whether a git clean deletes: -f/--force, -i/--interactive, or
// clean.requireForce turned off by -c; and no -n/--dry-run as git clean's parser reads it: -e/--exclude takes a value, so
// in "-e -n" and "-fen" the n is a pattern, not the dry run. A computed word could be anything.
func gitCleanDeletes(s *segment) bool {
	force, dry := cleanForceOff(s), false
	args := gitSubArgs(s)
	for i := 0; i < len(args); i++ {
		w := args[i]
		switch v := w.s; {
		case w.dynamic:
			return true
		case v == "--":
			i = len(args)
		case v == "-e" || v == "--exclude" || len(v) > 2 && strings.HasPrefix("--exclude", v) && !strings.Contains(v, "="):
			i++
		case strings.HasPrefix(v, "--"):
			name, _, _ := strings.Cut(v, "=")
			abbreviates := func(long string) bool { return len(name) > 2 && strings.HasPrefix(long, name) }
			force = force || abbreviates("--force") || abbreviates("--interactive")
			dry = dry || abbreviates("--dry-run")
		case len(v) > 1 && v[0] == '-':
			f, d, takesNext := gitCleanBundle(v)
			force, dry = force || f, dry || d
			if takesNext {
				i++
			}
		}
	}
	return force && !dry
}

// cleanForceOff reports whether git's -c (or --config-env) turns clean.requireForce off, so clean
// needs no -f; a setting computed at run time could.
func cleanForceOff(s *segment) bool {
	if gitComputedSetting(s) {
		return true
	}
	for _, kv := range gitConfigValues(s) {
		// A computed value is no known true: "$V" reads as false.
		if k, v, _ := strings.Cut(kv.s, "="); strings.EqualFold(k, "clean.requireForce") && !gitTrue(v) {
			return true
		}
	}
	return false
}

// gitComputedSetting reports whether one of git's -c settings has a key computed at run time
// (git -c "$KV" log): it could be any setting, clean.requireForce or one that runs a command.
func gitComputedSetting(s *segment) bool {
	return slices.ContainsFunc(gitConfigValues(s), func(kv word) bool {
		k, _, _ := strings.Cut(kv.s, "=")
		return kv.dynamic && strings.ContainsAny(k, "$`")
	})
}

// gitCleanBundle reads a bundle of git clean's short options: f (or i, which deletes what its
// input picks: echo c | git clean -i) forces, n is the dry run, and e takes the rest of the
// bundle, or the next word when it ends the bundle, as a pattern.
func gitCleanBundle(v string) (force, dry, takesNext bool) {
	for j := 1; j < len(v); j++ {
		switch v[j] {
		case 'e':
			return force, dry, j == len(v)-1
		case 'f', 'i':
			force = true
		case 'n':
			dry = true
		}
	}
	return force, dry, false
}

// gitConfigValues returns the KEY=VALUE settings of git's -c and --config-env options before its
// subcommand. --config-env=KEY=VAR takes VAR's value: the one the command's own assignment gives
// it (V=false git --config-env=clean.requireForce=V clean), or else one from the environment,
// which the engine does not know: the value is then computed ("$VAR", dynamic), as a -c of a
// computed word's is.
func gitConfigValues(s *segment) []word {
	var out []word
	for i := 1; i+1 < len(s.words); i++ {
		w := s.words[i]
		v := w.s
		if !strings.HasPrefix(v, "-") {
			break
		}
		switch {
		case v == "-c":
			out = append(out, s.words[i+1])
			i++
		case v == optConfigEnv || strings.HasPrefix(v, optConfigEnv+"="):
			if v == optConfigEnv {
				i++
				w = s.words[i]
			} else {
				w = w.with(v[len(optConfigEnv)+1:])
			}
			key, envVar, _ := strings.Cut(w.s, "=")
			val, set := envValueOf(s, envVar)
			if !set {
				val = "$" + envVar
			}
			out = append(out, word{s: key + "=" + val, dynamic: w.dynamic || !set})
		case gitGlobalsWithValue[v]:
			i++
		}
	}
	return out
}

// optConfigEnv is git's --config-env=KEY=VAR, a setting whose value is VAR's.
const optConfigEnv = "--config-env"

// gitTrue reads a git boolean: a bare key, true, yes, on or a non-zero number.
func gitTrue(v string) bool {
	if b, err := strconv.ParseBool(strings.ToLower(v)); err == nil {
		return b
	}
	switch strings.ToLower(v) {
	case "", "yes", "on":
		return true
	}
	return false
}

// kubectlShortValues are kubectl's (and oc's) short options that take a value, so a bundle
// "-An secrets" is -A and -n secrets.
const kubectlShortValues = "nofklcsLpv"

// kubectlValueOptions are kubectl's options whose value is the next word: neither an operand nor
// the subcommand, so "kubectl get -v 9 secrets" has the resource secrets. oc shares them.
//
//nolint:goconst // option spellings in this table read best literally, next to their neighbours
var kubectlValueOptions = []string{"--context", "--cluster", "--user", "-n", "--namespace", "--kubeconfig", "-s", "--server",
	"--token", "--as", "--as-group", "--as-uid", "--certificate-authority", "--client-key", "--client-certificate",
	"--request-timeout", "-l", "--selector", "-o", "--output", "-c", "--container", "--field-selector", "--cache-dir",
	"--tls-server-name", "-f", optFilename, "-k", "--kustomize", "-v", "--v", "-L", "--label-columns", "--raw",
	"--template", "--sort-by", "-p", "--patch", "--duration", "--audience", "--from", "--for", "--timeout", "--kuberc",
	"--retries", "--image", "--profile", "--custom", "--overrides", "--target"}

// rawVerbs are kubectl's verbs that take --raw.
//
//nolint:goconst // verbs in this table read best literally, next to their neighbours
var rawVerbs = map[string]bool{"get": true, subCreate: true, "delete": true, "replace": true, "apply": true}

// kubectlPrinters are the verbs that print the objects they act on with -o.
//
//nolint:goconst // verbs in this table read best literally, next to their neighbours
var kubectlPrinters = map[string]bool{"get": true, "apply": true, "replace": true, "patch": true, "label": true,
	"annotate": true, "wait": true, "edit": true, "scale": true, subSet: true, "rollout": true, subDebug: true,
	"expose": true, "autoscale": true, "taint": true, "run": true}

// kubectlPrintsCredential reports whether a kubectl (or oc) command prints a credential: a
// Secret's data (any verb that prints the objects it acts on with a data-bearing -o, describe,
// which shows a token Secret's token, edit, view-last-applied, verbose logging of the response
// bodies), the API path of Secrets or tokens through --raw, the kubeconfig's keys (config view
// --raw/--flatten), a new ServiceAccount token, set env --resolve (the values of the Secret keys
// the environment refers to), oc's own token printers. Objects given by file (-f, -k) or by a
// computed operand may be Secrets; a computed output format may print data.
func kubectlPrintsCredential(s *segment) bool {
	if len(s.operands) == 0 {
		return false
	}
	if raw, ok := kubectlOption(s, 0, "--raw"); ok && rawNamesCredential(raw) && (!raw.dynamic || rawVerbs[strings.ToLower(s.operands[0].s)]) {
		// A computed word could be --raw=PATH only where the verb takes --raw.
		return true
	}
	if s.operands[0].dynamic {
		return true // which verb runs is not known (kubectl $V secrets)
	}
	verb, rest := strings.ToLower(s.operands[0].s), s.operands[1:]
	sub := ""
	if len(rest) > 0 {
		sub = strings.ToLower(rest[0].s)
	}
	if prints, decided := kubectlVerbPrints(s, verb, sub, rest); decided {
		return prints
	}
	if verb == subSet || verb == "rollout" {
		rest = rest[min(1, len(rest)):] // set env RESOURCE, rollout status RESOURCE
	}
	if !kubectlPrinters[verb] && !rawVerbs[verb] || !mayNameSecret(s, rest) {
		return false
	}
	// -v=8 and above log the response bodies, the Secret's data, whatever the output format.
	return printsData(s) || verbosity(s) >= 8
}

// kubectlVerbPrints decides the verbs that print a credential whatever their output format:
// config view --raw, create token, describe, edit, view-last-applied, set env --resolve, oc's
// printers. decided is false for the other verbs.
func kubectlVerbPrints(s *segment, verb, sub string, rest []word) (prints, decided bool) {
	switch {
	case verb == subConfig:
		return sub == "view" && (boolOption(s, "--raw") || boolOption(s, "--flatten")), true
	case verb == subCreate:
		return sub == subToken, true
	case verb == "view-secret":
		return true, true
	case verb == "describe", verb == "edit":
		return mayNameSecret(s, rest), true
	case verb == subApply && (sub == "view-last-applied" || sub == "edit-last-applied"):
		return mayNameSecret(s, rest[1:]), true
	case verb == subSet && sub == cmdEnv && boolOption(s, "--resolve"):
		return true, true
	case s.name == cmdOC && ocPrintsToken(s, verb, sub, rest):
		return true, true
	}
	return false, false
}

// ocPrintsToken covers OpenShift's own printers: whoami -t/--show-token, extract (a Secret's
// keys to files or stdout) and serviceaccounts get-token/new-token.
func ocPrintsToken(s *segment, verb, sub string, rest []word) bool {
	switch verb {
	case "whoami":
		return s.hasFlag("-t") || boolOption(s, "--show-token")
	case "extract":
		return mayNameSecret(s, rest)
	case "serviceaccounts", "sa":
		return sub == "get-token" || sub == "new-token"
	}
	return false
}

// printsData reports whether the output format prints the objects' data: anything but the table
// forms (none, name, wide), a template, or a computed option that could be either.
func printsData(s *segment) bool {
	if s.unknownFlags {
		return true
	}
	if _, ok := kubectlOption(s, 0, "--template"); ok {
		return true
	}
	out, ok := kubectlOption(s, 'o', "--output")
	if !ok {
		return false
	}
	f := strings.ToLower(out.s)
	return out.dynamic || (f != "name" && f != "wide")
}

// verbosity is kubectl's -v/--v level; a computed one counts as the highest.
func verbosity(s *segment) int {
	v, ok := kubectlOption(s, 'v', "--v")
	if !ok {
		return 0
	}
	if v.dynamic {
		return 10
	}
	n, err := strconv.Atoi(v.s)
	if err != nil {
		return 0 // kubectl refuses a level that is not a number
	}
	return n
}

// mayNameSecret reports whether the resource operands (after the verb) may name Secrets: the
// type argument (first operand) lists secret among its comma-separated types, a TYPE/NAME
// operand is of type secret, the objects come from files (-f, -k, whose contents the engine does
// not read), or an operand the type could be in is computed or a glob.
func mayNameSecret(s *segment, ops []word) bool {
	return mayNameType(s, ops, secretType)
}

// mayNameType is mayNameSecret for any kind isType names: a resource list's type, TYPE/NAME, a
// file or kustomization (-f, -k), or a computed or globbed type.
func mayNameType(s *segment, ops []word, isType func(string) bool) bool {
	if s.hasFlag("-f") || s.hasFlag(optFilename) || s.hasFlag("-k") || s.hasFlag("--kustomize") {
		return true
	}
	for i, o := range ops {
		if o.dynamic || o.glob {
			if i == 0 || strings.Contains(ops[0].s, "/") {
				return true
			}
			continue
		}
		for t := range strings.SplitSeq(strings.ToLower(o.s), ",") {
			typ, _, named := strings.Cut(t, "/")
			if (i == 0 || named) && isType(typ) {
				return true
			}
		}
	}
	return false
}

// secretType reports whether a kubectl resource type names Secrets: "secret", "secrets",
// "secrets.v1", "secret.", "Secret" (types are matched case-blind).
func secretType(t string) bool {
	name, _, _ := strings.Cut(t, ".")
	return name == "secret" || name == subSecrets
}

// rawNamesCredential reports whether an API path given to --raw reaches Secrets or tokens: after
// percent-decoding (the API server decodes the path once; decoded until stable, so a doubly
// encoded one counts too), case-blind anywhere in it. A computed path could be any.
func rawNamesCredential(raw word) bool {
	if raw.dynamic {
		return true
	}
	p := decodedRawPath(raw.s)
	return strings.Contains(p, "secret") || strings.Contains(p, "token")
}

// decodedRawPath is an API path given to --raw as the API server reads it: percent-decoded until
// stable (at most four times), in lower case.
func decodedRawPath(p string) string {
	for range 4 {
		d, err := url.PathUnescape(p)
		if err != nil || d == p {
			break
		}
		p = d
	}
	return strings.ToLower(p)
}

// firstOperands are a segment's first two operands in lower case (a subcommand and the next
// word), "" for one that is missing; ok is false when there is none.
func firstOperands(s *segment) (first, second string, ok bool) {
	if len(s.operands) == 0 {
		return "", "", false
	}
	if len(s.operands) > 1 {
		second = strings.ToLower(s.operands[1].s)
	}
	return strings.ToLower(s.operands[0].s), second, true
}

// rendersManifests reports whether a command renders manifests that may hold Secrets with their
// data, or the values a release was installed with: kustomize build (and kubectl kustomize), helm
// template, helm get all|manifest|values, helm install/upgrade --dry-run. The engine cannot see
// what the chart or the kustomization generates.
func rendersManifests(s *segment) bool {
	verb, sub, ok := firstOperands(s)
	if !ok {
		return false
	}
	if s.operands[0].dynamic {
		return true
	}
	switch s.name {
	case cmdKustomize:
		return verb == "build"
	case cmdKubectl, cmdOC:
		return verb == cmdKustomize
	case cmdHelm:
		switch verb {
		case "template":
			return true
		case "get":
			return sub == "all" || sub == "manifest" || sub == "values" || len(s.operands) > 1 && s.operands[1].dynamic
		case subInstall, "upgrade":
			return boolOption(s, "--dry-run")
		}
	}
	return false
}

// awsCredentialOps are, per aws service, the operations whose output is a credential: a secret's
// value, temporary keys, a login password or token, decrypted plaintext, a new access key.
//
//nolint:goconst // service and operation names in this table read best literally
var awsCredentialOps = map[string][]string{
	"secretsmanager":   {"get-secret-value", "batch-get-secret-value"},
	"sts":              {"get-session-token", "assume-role", "assume-role-with-saml", "assume-role-with-web-identity", "get-federation-token", "assume-root"},
	"configure":        {"get", "export-credentials"},
	"ecr":              {"get-login-password", "get-authorization-token"},
	"ecr-public":       {"get-login-password", "get-authorization-token"},
	"eks":              {"get-token"},
	"codeartifact":     {"get-authorization-token"},
	"rds":              {"generate-db-auth-token"},
	"iam":              {"create-access-key", "create-service-specific-credential", "reset-service-specific-credential"},
	"sso":              {"get-role-credentials"},
	"cognito-identity": {"get-credentials-for-identity", "get-open-id-token"},
	"kms":              {"decrypt"},
	"ec2":              {"get-password-data"},
	"lightsail":        {"get-instance-access-details"},
	// A function's configuration holds its environment's values, which is where Lambda's
	// credentials are usually kept: each of these prints it.
	"lambda": {"get-function-configuration", "get-function", "list-functions", "list-versions-by-function"},
	// So do a task's, a service's or a job's definition, and an app's or a build project's
	// configuration: each holds its environment's values.
	"ecs":              {"describe-task-definition"},
	"apprunner":        {"describe-service"},
	"elasticbeanstalk": {"describe-configuration-settings"},
	"batch":            {"describe-job-definitions"},
	"amplify":          {"get-app", "get-branch", "list-apps", "list-branches"},
	"codebuild":        {"batch-get-projects"},
}

// awsCredentialOpNames are the operations of awsCredentialOps, whatever their service: a computed
// service could be the one they print a credential of.
var awsCredentialOpNames = func() map[string]bool {
	m := map[string]bool{}
	for _, ops := range awsCredentialOps {
		for _, o := range ops {
			m[o] = true
		}
	}
	return m
}()

// awsDecryptingOps print a parameter decrypted only when asked to (--with-decryption, or
// WithDecryption in the --cli-input-json/--cli-input-yaml document).
var awsDecryptingOps = map[string]bool{"get-parameter": true, "get-parameters": true, "get-parameters-by-path": true, "get-parameter-history": true}

// awsPrintsCredential reports whether an aws command prints a credential. aws accepts any unique
// prefix of a long option ("--with-decr", "--reg"), so which word is the service and which the
// operation is not found by skipping options: every service word with each word that follows it
// and is not an option is tried, a global option's value between them too ("secretsmanager
// --region x get-secret-value"); a value that happens to spell a service only asks more. A
// computed word could be the service or the operation.
func awsPrintsCredential(s *segment) bool {
	var ws []word
	for _, w := range s.words[1:] {
		if !strings.HasPrefix(w.s, "-") || w.dynamic {
			ws = append(ws, word{s: strings.ToLower(w.s), dynamic: w.dynamic || w.glob})
		}
	}
	// Each service word is paired with the words after it; a word that names no service the
	// table knows (and is not computed) pairs with nothing, and a service already paired is not
	// again: a command of 1,500 "--region x" is not 1,000,000 pairs.
	var seen []string
	for i, svc := range ws {
		if _, known := awsCredentialOps[svc.s]; !known && !svc.dynamic && svc.s != svcSSM || slices.Contains(seen, svc.s) {
			continue
		}
		seen = append(seen, svc.s)
		for _, op := range ws[i+1:] {
			if awsCredentialOp(s, svc, op) {
				return true
			}
		}
	}
	return false
}

// awsCredentialOp reports whether the service svc and the operation op print a credential.
func awsCredentialOp(s *segment, svc, op word) bool {
	ops, known := awsCredentialOps[svc.s]
	switch {
	case svc.dynamic && (op.dynamic || awsDecryptingOps[op.s] || awsCredentialOpNames[op.s]):
		return true
	case known && (op.dynamic || slices.Contains(ops, op.s)):
		return true
	case svc.s == svcSSM && (op.dynamic || awsDecryptingOps[op.s]) && awsDecrypts(s):
		return true
	}
	return false
}

// awsDecrypts reports whether an ssm read asks for decryption: --with-decryption or a prefix of
// it, a computed option, or an input document (--cli-input-json/--cli-input-yaml or a prefix)
// that is read from a file, computed, escaped or names WithDecryption.
func awsDecrypts(s *segment) bool {
	if s.unknownFlags {
		return true
	}
	words := s.words[1:]
	for i, w := range words {
		name, val, hasVal := strings.Cut(w.s, "=")
		switch {
		case abbreviates(name, "--with-decryption", len("--w")):
			return !hasVal || !strings.EqualFold(val, "false")
		case abbreviates(name, "--cli-input-json", len("--cli-i")), abbreviates(name, "--cli-input-yaml", len("--cli-i")):
			doc := w.with(val)
			if !hasVal {
				doc = word{dynamic: true}
				if i+1 < len(words) {
					doc = words[i+1]
				}
			}
			d := strings.ToLower(doc.s)
			if doc.dynamic || strings.HasPrefix(d, "file://") || strings.HasPrefix(d, "fileb://") ||
				strings.Contains(d, `\`) || strings.Contains(d, "withdecryption") {
				return true
			}
		}
	}
	return false
}

// abbreviates reports whether name is opt or a prefix of it at least minLen long, as argparse
// reads an abbreviated long option.
func abbreviates(name, opt string, minLen int) bool {
	return len(name) >= minLen && strings.HasPrefix(opt, name)
}

// storePrintsCredential reports whether a secret store's client prints a secret: terraform (and
// tofu) state pull|show, output -json|-raw, show -json, console; vault read|write|unwrap|print|
// login (unless -no-print)|kv get|token create|lookup|operator init; 1Password's op read|inject|
// run|item get|document get|signin --raw; docker-credential-* get; pass and gopass show; macOS
// security find-*-password -w|-g; secret-tool lookup; keyring get; LastPass's lpass show|export;
// Bitwarden's bw get|export; heroku auth:token|config; fly auth token; doppler secrets,
// infisical secrets|export, chamber read|export, glab auth status -t, uv auth token; a decryption
// by sops, age, gpg, ansible-vault view|decrypt or kubeseal --recovery-unseal (decrypts.go). A
// computed subcommand could be any.
func storePrintsCredential(s *segment) bool {
	if decrypts(s) || clientPrintsCredential(s) {
		return true
	}
	sub, next, ok := firstOperands(s)
	if !ok {
		return false
	}
	if (s.operands[0].dynamic || len(s.operands) > 1 && s.operands[1].dynamic) && !computedOperandsOrdinary[s.name] {
		return true
	}
	if strings.HasPrefix(s.name, "docker-credential-") {
		return sub == "get"
	}
	// An option before the subcommand may take a value the engine reads as the first operand
	// (doppler --project p secrets, ansible-vault --vault-password-file p view x): the second
	// is read as the subcommand too.
	third := ""
	if len(s.operands) > 2 {
		third = s.operands[2].s
	}
	if p, ok := storePrinters[s.name]; ok {
		return p(s, sub, next) || optionFirst[s.name] && p(s, next, third)
	}
	if subs, ok := storePrintingSubs[s.name]; ok {
		return slices.Contains(subs, sub) || optionFirst[s.name] && slices.Contains(subs, next)
	}
	return false
}

// optionFirst are the stores whose own options, some taking a value, may come before the
// subcommand.
var optionFirst = wordSet("doppler infisical chamber ansible-vault sops glab")

// storePrintingSubs are, per store whose every use of them prints a secret, the subcommands that
// do: pass show, secret-tool lookup, keyring get, lpass show|export, heroku auth:token|config.
//
//nolint:goconst // subcommand names in this table read best literally
var storePrintingSubs = map[string][]string{
	"pass": {"show"}, "gopass": {"show"}, "secret-tool": {"lookup"}, "keyring": {"get"}, "lpass": {"show", "export"},
	"heroku": {"auth:token", "config", "config:get", "pg:credentials:url"},
	// Platforms' CLIs that print a token they keep or mint.
	"cf": {"oauth-token"}, "firebase": {"login:ci"},
	// Encrypted files' printers (doppler's, infisical's and chamber's are in storePrinters).
	"ansible-vault": {"view", "decrypt"}, "sops": {"decrypt", "exec-env", "exec-file"},
}

// storePrinters decide, per store, the subcommands that print a secret only with some options
// or a second word.
var storePrinters = map[string]func(s *segment, sub, next string) bool{
	cmdTerraform: terraformPrints, "tofu": terraformPrints, cmdTerragrunt: terragruntPrints, cmdPulumi: pulumiPrints, "vault": vaultPrints, "op": onePasswordPrints,
	"security": keychainPrints, "bw": bitwardenPrints, cmdFly: flyPrints, cmdFlyctl: flyPrints,
	"glab": glabPrints, "uv": uvPrints, "chamber": chamberPrints,
	"doppler": secretRunPrints, cmdInfisical: secretRunPrints, "aws-vault": awsVaultPrints, cmdHeroku: herokuPrints,
}

// keychainPrints: macOS security find-generic-password|find-internet-password with -w or -g.
func keychainPrints(s *segment, sub, _ string) bool {
	return (sub == "find-generic-password" || sub == "find-internet-password") && (s.hasFlag("-w") || s.hasFlag("-g"))
}

// flyPrints: fly auth token, fly tokens create.
func flyPrints(_ *segment, sub, next string) bool {
	return sub == subAuth && next == subToken || sub == "tokens" && next == subCreate
}

// bitwardenPrints: bw get (a password, an item, its notes, a one-time code), export, and unlock
// or login with --raw (the session key).
func bitwardenPrints(s *segment, sub, _ string) bool {
	switch sub {
	case "get", "export":
		return true
	case "unlock", "login":
		return boolOption(s, "--raw")
	}
	return false
}

// anyBoolOption reports whether one of the boolean options is on (boolOption).
func anyBoolOption(s *segment, opts ...string) bool {
	return slices.ContainsFunc(opts, func(o string) bool { return boolOption(s, o) })
}

// terraformPrints: state pull|show, output -json|-raw (sensitive values in plain text), show
// -json, console. Go's flag package reads -json and --json alike.
//
//nolint:goconst // subcommand names read best literally
func terraformPrints(s *segment, sub, next string) bool {
	switch sub {
	case "state":
		return next == "pull" || next == "show"
	case "output":
		return anyBoolOption(s, "-json", "--json", "-raw", "--raw")
	case "show":
		return anyBoolOption(s, "-json", "--json")
	case "console":
		return true
	}
	return false
}

// The infrastructure tools beside terraform whose outputs and configuration hold secrets.
const (
	cmdTerragrunt = "terragrunt"
	cmdPulumi     = "pulumi"
)

// terragruntPrints: terraform's subcommands, which terragrunt runs as terraform does (terragrunt
// output -json), in every module with run-all, or after run and "--" (terragrunt run -- output
// -json).
func terragruntPrints(s *segment, _, _ string) bool {
	if i := slices.IndexFunc(s.words, func(w word) bool { return w.s == "--" && !w.dynamic }); i >= 0 {
		// terraform's words after "--", its options among them, read as terraform's own line.
		tf := segment{name: cmdTerraform, words: append([]word{{s: cmdTerraform}}, s.words[i+1:]...)}
		splitArgs(&tf)
		s = &tf
	}
	ops := s.operands
	for len(ops) > 0 && (ops[0].s == "run-all" || ops[0].s == subRun || ops[0].s == "--") {
		ops = ops[1:]
	}
	switch len(ops) {
	case 0:
		return false
	case 1:
		return terraformPrints(s, ops[0].s, "")
	}
	return terraformPrints(s, ops[0].s, ops[1].s)
}

// pulumiPrints: a stack's outputs or its export with --show-secrets, the configuration with
// --show-secrets, and config get, which prints a secret value decrypted.
func pulumiPrints(s *segment, sub, next string) bool {
	showSecrets := anyBoolOption(s, "--show-secrets")
	switch sub {
	case "stack":
		return (next == "output" || next == "export") && showSecrets
	case "config":
		return next == subGet || showSecrets && next == ""
	}
	return false
}

// vaultPrints: read, write (dynamic secrets, issued keys), unwrap, print token, login (unless
// -no-print), kv get, token create|lookup, operator init (the unseal keys and root token).
//
//nolint:goconst // subcommand names read best literally
func vaultPrints(s *segment, sub, next string) bool {
	switch sub {
	case "read", "write", "unwrap", "print":
		return true
	case "login":
		return !anyBoolOption(s, "-no-print", "--no-print")
	case "kv":
		return next == "get"
	case subToken:
		return next == subCreate || next == "lookup"
	case "operator":
		return next == "init"
	}
	return false
}

// onePasswordPrints: op read, inject, run (the secrets in a command's environment), item get,
// document get, signin --raw (the session token).
func onePasswordPrints(s *segment, sub, next string) bool {
	switch sub {
	case "read", "inject", subRun:
		return true
	case "item", "document":
		return next == "get"
	case "signin":
		return boolOption(s, "--raw")
	}
	return false
}

// writesCredentialConfig reports whether a command changes the credentials or the cluster that
// later commands use — for a person's commands too, long after the call: kubectl/oc config
// set-credentials (whose --exec-command runs at the next kubectl), use-context (or use), set
// users.*; aws configure set|import (aws's option prefixes read as in awsPrintsCredential).
func writesCredentialConfig(s *segment) bool {
	if s.name == cmdAWS {
		var ws []string
		for _, w := range s.words[1:] {
			if !strings.HasPrefix(w.s, "-") {
				ws = append(ws, strings.ToLower(w.s))
			}
		}
		i := slices.Index(ws, "configure")
		return i >= 0 && slices.ContainsFunc(ws[i+1:], func(v string) bool { return v == subSet || v == subImport })
	}
	ops := s.operands
	if len(ops) < 2 || !strings.EqualFold(ops[0].s, subConfig) {
		return false
	}
	switch strings.ToLower(ops[1].s) {
	case "set-credentials", "use-context", "use":
		return true
	case subSet:
		return len(ops) > 2 && strings.HasPrefix(strings.ToLower(ops[2].s), "users.")
	}
	return false
}

// deletesForReal is cluster-resource-delete's check: the delete is no dry run. kubectl's and oc's
// --dry-run (alone, =client or =server) and helm's --dry-run send or print what would be deleted
// and delete nothing. The option is read as their flag parser reads it: the last one counts
// (--dry-run=none, =false run for real), -- ends the options, and a word right after an option
// given without "=" may be that option's value (--selector --dry-run=client selects by it), so
// it is not taken for a dry run; nor is any word when one is computed and could be an option
// (boolOption reads such a word as the option on, which a rendering check needs and this must not).
func deletesForReal(s *segment) bool {
	if s.unknownFlags {
		return true
	}
	dry := false
	for i, w := range s.words[1:] {
		if w.s == "--" {
			break
		}
		name, val, hasVal := strings.Cut(w.s, "=")
		if name != "--dry-run" || strings.HasPrefix(s.words[i].s, "-") && !strings.Contains(s.words[i].s, "=") {
			continue
		}
		on, err := strconv.ParseBool(val) // helm's boolean; kubectl takes true for client, false for none
		dry = !hasVal || val == "client" || val == "server" || err == nil && on
	}
	return !dry
}
