package safety

import "strings"

// envNodeOptions holds options node reads before its command line's, in every node a command runs.
const envNodeOptions = "NODE_OPTIONS"

// envBunOptions holds options bun reads before its command line's (BUN_OPTIONS=--preload=x.js bun
// test preloads x.js), judged as NODE_OPTIONS is.
const envBunOptions = "BUN_OPTIONS"

// nodeRuntimeOptions are node options that size, tune or quieten the runtime and load no code: a
// build's NODE_OPTIONS=--max-old-space-size=4096 is ordinary; --require, --import, --loader and
// --env-file (which loads .env into the environment) are not among them.
var nodeRuntimeOptions = map[string]bool{
	"--max-old-space-size": true, "--max-semi-space-size": true, "--max-http-header-size": true,
	"--enable-source-maps": true, "--no-warnings": true, "--no-deprecation": true, "--trace-warnings": true,
	"--trace-deprecation": true, "--trace-uncaught": true, "--trace-exit": true, "--unhandled-rejections": true,
	"--openssl-legacy-provider": true, "--use-openssl-ca": true, "--use-bundled-ca": true, "--dns-result-order": true,
	"--experimental-vm-modules": true, "--no-experimental-fetch": true, "--preserve-symlinks": true,
	"--smol": true, // bun's (BUN_OPTIONS), a smaller heap
}

// injects reports whether setting the variable name to val makes the loader or an interpreter load
// code chosen by the caller (injectionEnvVars), as any NODE_OPTIONS but an inert one does.
func injects(name, val string) bool {
	return injectionEnvVars[name] && (name != envNodeOptions && name != envBunOptions || !inertNodeOptions(val))
}

// inertNodeOptions reports whether a NODE_OPTIONS value holds only nodeRuntimeOptions, each bare or
// with a plain value (letters, digits, "-", "_", "."). Node splits the value at spaces and reads
// double quotes and backslashes in it, so a value with either, or one computed at run time, is
// not inert.
func inertNodeOptions(val string) bool {
	if strings.TrimSpace(val) == "" || strings.ContainsAny(val, "\"'\\$`") {
		return false
	}
	for f := range strings.FieldsSeq(val) {
		name, v, hasValue := strings.Cut(f, "=")
		if !nodeRuntimeOptions[name] || hasValue && (v == "" || strings.TrimFunc(v, plainValueRune) != "") {
			return false
		}
	}
	return true
}

func plainValueRune(r rune) bool {
	return r == '-' || r == '_' || r == '.' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'
}
