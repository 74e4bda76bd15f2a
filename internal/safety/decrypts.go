package safety

import (
	"slices"
	"strings"
)

// gpgDecrypts are gpg's (and gpg2's) options that decrypt or export a secret key.
var gpgDecrypts = strings.Fields("-d --decrypt --decrypt-files --export-secret-keys --export-secret-subkeys --show-session-key")

// decryptOptions are, per encryption tool, the options that decrypt a file to the agent (or
// export a private key): sops -d, age and rage -d, gpg -d and its secret-key exports, kubeseal's
// recovery of a sealed secret. What a decryption prints is the secret the file was encrypted to
// keep from whoever reads it; an output option only moves the plaintext to a file the agent
// reads next, so it is asked for too.
//
//nolint:goconst // option spellings in this table read best literally, next to their neighbours
var decryptOptions = map[string][]string{
	"sops": {"-d", "--decrypt"}, "age": {"-d", "--decrypt"}, "rage": {"-d", "--decrypt"},
	"gpg":      gpgDecrypts,
	"gpg2":     gpgDecrypts,
	"kubeseal": {"--recovery-unseal"},
}

// subDecrypt is the decrypting subcommand of sops, sq and ansible-vault.
const subDecrypt = "decrypt"

// gpgActions are gpg's commands other than decryption: without one of them gpg decrypts (or
// verifies) what it is given, its default action (gpg secret.gpg, gpg < secret.gpg, gpg -o plain
// secret.gpg).
var gpgActions = strings.Fields("-e --encrypt -s --sign --clearsign --clear-sign -b --detach-sign " +
	"-c --symmetric --verify --verify-files -k --list-keys --list-public-keys -K --list-secret-keys " +
	"--list-sigs --list-signatures --check-sigs --check-signatures --fingerprint --list-packets " +
	"--import --export --send-keys --recv-keys --receive-keys --refresh-keys --search-keys " +
	"--locate-keys --gen-key --generate-key --full-generate-key --full-gen-key --quick-gen-key " +
	"--quick-generate-key --quick-add-key --quick-add-uid --quick-set-expire --edit-key --sign-key " +
	"--lsign-key --quick-sign-key --delete-keys --delete-key --delete-secret-keys " +
	"--delete-secret-and-public-key --gen-revoke --generate-revocation --version --help -h --dearmor " +
	"--enarmor --print-md --print-mds --gen-random --card-status --card-edit --list-config " +
	"--dump-options --import-ownertrust --export-ownertrust --update-trustdb --check-trustdb " +
	"--fix-trustdb --list-trustdb --export-ssh-key --show-keys --import-options --export-options " +
	"--encrypt-files --locate-external-keys --edit-card --passwd --store --list-options --change-pin " +
	"--sign-with --print-md --check-sig --tofu-policy --quick-revoke-uid --quick-revoke-sig")

// opensslDecrypts: openssl enc -d (or a cipher's own command, openssl aes-256-cbc -d), and
// pkeyutl, rsautl, smime and cms -decrypt.
func opensslDecrypts(s *segment) bool {
	if s.hasFlag("-decrypt") {
		return true
	}
	if len(s.operands) == 0 || !s.hasFlag("-d") {
		return false
	}
	ciphers := strings.Fields("aes aria bf blowfish camellia cast chacha des idea rc2 rc4 rc5 seed sm4")
	isCipher := func(v string) bool {
		return slices.ContainsFunc(ciphers, func(c string) bool { return strings.HasPrefix(strings.TrimPrefix(v, "-"), c) })
	}
	sub := s.operands[0].s
	if isCipher(sub) {
		return true // openssl aes-256-cbc -d
	}
	// openssl enc -d decrypts with a cipher option or a key (-k, -K, -pass, -kfile); enc -base64
	// -d alone only decodes base64.
	return sub == "enc" && (slices.ContainsFunc(s.flags, isCipher) || slices.ContainsFunc(strings.Fields("-k -K -pass -kfile"), s.hasFlag))
}

// decrypts reports whether an encryption tool is told to decrypt (decryptOptions), gpg is given
// no other command (gpgActions), gpgtar -d, Sequoia's sq decrypt or key export, or openssl decrypts.
func decrypts(s *segment) bool {
	switch s.name {
	case "gpg", "gpg2":
		return slices.ContainsFunc(decryptOptions[s.name], s.hasFlag) || !slices.ContainsFunc(gpgActions, s.hasFlag)
	case "gpgtar":
		return s.hasFlag("-d") || s.hasFlag("--decrypt")
	case "sq":
		sub, next, _ := firstOperands(s)
		return sub == subDecrypt || sub == "key" && next == subExport
	case "openssl":
		return opensslDecrypts(s)
	}
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

// subLogin is a store's login subcommand.
const subLogin = "login"

// awsVaultPrints: aws-vault export (the profile's keys, as env lines, ini or JSON), exec --json
// (the credential process's JSON), and login -s/--stdout (a console sign-in URL whose token
// opens the account).
func awsVaultPrints(s *segment, sub, _ string) bool {
	switch sub {
	case subExport:
		return true
	case subExec:
		return boolOption(s, "--json")
	case subLogin:
		return s.hasFlag("-s") || boolOption(s, "--stdout")
	}
	return false
}

// herokuPrints: heroku's store prints (storePrintingSubs), and heroku run (run:detached) of env,
// printenv or set given after the command's first word, where heroku reads its own options
// (heroku run env -a app): the dyno's environment is the app's config vars.
//
//nolint:goconst // program names read best literally
func herokuPrints(_ *segment, sub, next string) bool {
	if sub == subRun || sub == "run:detached" {
		return next == "env" || next == "printenv" || next == "set" || next == "export" || next == "declare"
	}
	return slices.Contains(storePrintingSubs[cmdHeroku], sub)
}

// chamberPrinting are chamber's subcommands that print secrets whatever their options.
var chamberPrinting = strings.Fields("read export env")

// uvPrints: uv auth token prints the token stored for an index.
func uvPrints(_ *segment, sub, next string) bool {
	return sub == subAuth && next == subToken
}
