package safety

import (
	"slices"
	"strings"
)

// decryptOptions are, per encryption tool, the options that decrypt a file to the agent (or
// export a private key): sops -d, age and rage -d, gpg -d and its secret-key exports, kubeseal's
// recovery of a sealed secret. What a decryption prints is the secret the file was encrypted to
// keep from whoever reads it; an output option only moves the plaintext to a file the agent
// reads next, so it is asked for too.
//
//nolint:goconst // option spellings in this table read best literally, next to their neighbours
var decryptOptions = map[string][]string{
	"sops": {"-d", "--decrypt"}, "age": {"-d", "--decrypt"}, "rage": {"-d", "--decrypt"},
	"gpg":      {"-d", "--decrypt", "--export-secret-keys", "--export-secret-subkeys", "--show-session-key"},
	"gpg2":     {"-d", "--decrypt", "--export-secret-keys", "--export-secret-subkeys", "--show-session-key"},
	"kubeseal": {"--recovery-unseal"},
}

// decrypts reports whether an encryption tool is told to decrypt (decryptOptions).
func decrypts(s *segment) bool {
	return slices.ContainsFunc(decryptOptions[s.name], s.hasFlag)
}

// glabPrints: glab auth status -t|--show-token prints the GitLab token, and glab config get
// prints a setting's value: a token's too (glab config get token), or whatever a computed key names.
func glabPrints(s *segment, sub, next string) bool {
	if sub == subConfig && next == subGet {
		return slices.ContainsFunc(s.operands[2:], func(w word) bool { return w.dynamic || strings.Contains(strings.ToLower(w.s), subToken) })
	}
	return sub == subAuth && next == "status" && (s.hasFlag("-t") || s.hasFlag("--show-token"))
}

// cmdInfisical is Infisical's CLI; subGet the get of a configuration.
const (
	cmdInfisical = "infisical"
	subGet       = "get"
)

// secretRunPrints: doppler and infisical print a secret (secrets, export), and run a shell
// script in the secrets' environment with run --command, whose every expansion may print one.
func secretRunPrints(s *segment, sub, _ string) bool {
	switch sub {
	case subSecrets, subExport:
		return s.name == cmdInfisical || sub == subSecrets
	case subRun:
		return s.hasFlag("--command")
	}
	return false
}

// chamberPrints: chamber read, export and env print a service's secrets, and so does list with
// -e|--expand (the values beside the keys).
func chamberPrints(s *segment, sub, _ string) bool {
	if sub == "list" {
		return s.hasFlag("-e") || s.hasFlag("--expand")
	}
	return slices.Contains(chamberPrinting, sub)
}

// chamberPrinting are chamber's subcommands that print secrets whatever their options.
var chamberPrinting = strings.Fields("read export env")

// uvPrints: uv auth token prints the token stored for an index.
func uvPrints(_ *segment, sub, next string) bool {
	return sub == subAuth && next == subToken
}
