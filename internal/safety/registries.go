package safety

import (
	"net/url"
	"slices"
	"strings"
)

// A JavaScript package manager fetches what it installs, and what npx runs, from its registry. One
// the command line names serves code that is not the project's dependencies: a lockfile's
// integrity holds only for what it locks, an install resolves new versions there, and npm hands
// its registry to every script it runs (as npm_config_registry), whose npx and npm exec fetch from
// it. The option and the variable are one setting, so they are one rule (package-fetch-run, asked
// at every level): npm's --registry (and the abbreviations and -reg shorthand its parser takes),
// a scope's --@scope:registry, pnpm's, yarn's and bun's --registry; npm_config_registry,
// npm_config_@scope:registry (through env), yarn's YARN_REGISTRY and YARN_NPM_REGISTRY_SERVER,
// bun's BUN_CONFIG_REGISTRY. The public registry, npm's default, is no other registry.

// registryPrograms are the package managers and runners that take --registry.
//
//nolint:goconst // program names read best literally, next to their neighbours
var registryPrograms = map[string]bool{cmdNpm: true, cmdNpx: true, "pnpm": true, cmdPnpx: true, "yarn": true, cmdBun: true, cmdBunx: true}

// npmRegistrySetting is npm's setting for its registry.
const npmRegistrySetting = "registry"

// registryOption returns the word of a package manager's command that names a registry other than
// the public one, or "".
func registryOption(s *segment) string {
	if !registryPrograms[s.name] {
		return ""
	}
	for v := range optionValues(s, "-reg", "--registry") {
		if v.dynamic || !publicRegistry(v.s) {
			return "--registry " + v.s
		}
	}
	for _, w := range s.words[1:] {
		// --@scope:registry=URL, or the URL as the next word.
		if name, _, _ := strings.Cut(w.s, "="); strings.HasPrefix(name, "--@") && strings.HasSuffix(name, ":"+npmRegistrySetting) || w.dynamic && strings.HasPrefix(w.s, "--@") {
			return w.s
		}
	}
	return ""
}

// registryVar says whether the variable name is a registry setting (npm's and pnpm's, scoped ones
// included, yarn's and bun's), and whether setting it to val points a package manager at a
// registry other than the public one.
func registryVar(name, val string) (registry, other bool) {
	k, npm := npmConfigSetting(name)
	registry = npm && (k == npmRegistrySetting || strings.HasPrefix(k, "@") && strings.HasSuffix(k, ":"+npmRegistrySetting)) ||
		slices.ContainsFunc(registryVars, func(v string) bool { return strings.EqualFold(v, name) })
	return registry, registry && val != "" && (strings.ContainsAny(val, "$`") || !publicRegistry(val))
}

// registryVars are yarn's and bun's variables for their registry.
var registryVars = []string{"YARN_REGISTRY", "YARN_NPM_REGISTRY_SERVER", "BUN_CONFIG_REGISTRY"}

// publicRegistry says whether a registry URL is npm's public registry (yarn's name for it too).
func publicRegistry(v string) bool {
	u, err := url.Parse(v)
	if err != nil || u.Scheme != "https" || u.User != nil || u.Port() != "" {
		return false
	}
	h := strings.ToLower(u.Hostname())
	return (h == "registry.npmjs.org" || h == "registry.yarnpkg.com") && strings.Trim(u.Path, "/") == ""
}

// optionCode judges the options of segment idx that run code the caller chooses (opaque), and
// a registry it names (registryOption).
func (a *analyzer) optionCode(idx int) {
	s := &a.out.segments[idx]
	if why := codeOption(s); why != "" {
		a.opaque(idx, why)
	}
	if opt := registryOption(s); opt != "" {
		a.find(false, RulePrefixDamageControl+fetchRule, "command %q fetches packages from another registry than npm's public one (%s), and npm's scripts' npx and npm exec fetch from it too: code that is not a project dependency; it needs human approval",
			truncate(s.text, 120), opt)
	}
}
