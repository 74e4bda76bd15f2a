package safety

import "slices"

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

// glabPrints: glab auth status -t|--show-token prints the GitLab token.
func glabPrints(s *segment, sub, next string) bool {
	return sub == subAuth && next == "status" && (s.hasFlag("-t") || s.hasFlag("--show-token"))
}

// uvPrints: uv auth token prints the token stored for an index.
func uvPrints(_ *segment, sub, next string) bool {
	return sub == subAuth && next == subToken
}
