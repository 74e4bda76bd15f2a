package safety

// runsInSystemManager is system-manager-run's check: systemd-run without --user among its own
// options (those before the command, read with its option table) asks the system manager to run
// the command, which it does as root unless a property or --uid says otherwise (run0, which the
// privilege-escalation rule blocks, is the same request). A --user given to the command
// (systemd-run id --user) is the command's, not systemd-run's; a computed word could be the
// command, so the options after it are not known and the call is taken as not --user.
func runsInSystemManager(s *segment) bool {
	return !ownFlag(s, runnerWrappers["systemd-run"], []string{optUser})
}
