package main

import (
	"fmt"
	"unicode/utf8"

	"k8s.io/apimachinery/pkg/util/validation"
)

// Names given on the command line are checked here, before anything is sent: a name the API
// server could never hold (a namespace that is not a DNS label, a plan or tool that is not a DNS
// subdomain) is a usage error naming the flag or argument and what is wrong with it, rather than
// a request the API server answers with "not found" or "invalid" in its own words, or an
// approval created for a tool no AgentTool can be named.

// nameKind says which of Kubernetes' name rules a name follows.
type nameKind int

const (
	dnsSubdomain nameKind = iota // object names (AgentPlan, AgentTool): at most 253 characters
	dnsLabel                     // namespaces and plan steps: at most 63 characters, no dots
)

// nameProblem says what is wrong with name as given by what (a flag, "-n/--namespace", or an
// argument, "PLAN"), "" when nothing is.
func nameProblem(what, name string, kind nameKind) string {
	if name == "" {
		return fmt.Sprintf("%s is empty", what)
	}
	rule := "a DNS subdomain: at most 253 characters, lower-case letters, digits, '-' and '.', " +
		"starting and ending with a letter or digit"
	invalid := len(validation.IsDNS1123Subdomain(name)) > 0
	if kind == dnsLabel {
		rule = "a DNS label: at most 63 characters, lower-case letters, digits and '-', " +
			"starting and ending with a letter or digit"
		invalid = len(validation.IsDNS1123Label(name)) > 0
	}
	if !invalid {
		return ""
	}
	return fmt.Sprintf("%s %s is not %s", what, shortQuote(name), rule)
}

// shortQuote quotes name, escapes shown as such, cut after 64 characters (the rest counted): a
// 300-character name is reported, not repeated.
func shortQuote(name string) string {
	const keep = 64
	if utf8.RuneCountInString(name) <= keep {
		return fmt.Sprintf("%q", name)
	}
	r := []rune(name)
	return fmt.Sprintf("%q… (%d characters)", string(r[:keep]), len(r))
}

// namespaceFlagProblem is what is wrong with -n, when it is given; "" otherwise.
func (k *kubeFlags) namespaceFlagProblem() string {
	if k.config.Namespace == nil || k.flags == nil || !k.flags.Changed("namespace") {
		return ""
	}
	return nameProblem("-n/--namespace", *k.config.Namespace, dnsLabel)
}
