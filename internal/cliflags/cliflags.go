// Package cliflags holds the one command-line rule toolgate's binaries share beyond the flag
// package's own.
package cliflags

import "fmt"

// FlagsOnly refuses arguments left after the flags, naming the first. Go's flag package stops at
// the first argument that is not a flag and reads no flag after it, silently: a stray word in a
// Deployment's args (a value split from its flag, a lone "-", a chart value appended after the
// chart's own arguments) would drop every flag behind it — a gateway's --namespace, a manager's
// --leader-elect — and the binary would run as if they had never been given.
func FlagsOnly(program string, args []string) error {
	if len(args) > 0 {
		return fmt.Errorf("unexpected argument %q: %s takes flags only, and would read none after it", args[0], program)
	}
	return nil
}
