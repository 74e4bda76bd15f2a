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
