package safety

// Review B's rows: code that runs later (a start-up file, a scheduled or lingering job, a unit
// the system manager runs, configuration a program obeys at its next start) and privilege (a
// setuid bit however the mode is spelt, file capabilities, other credentials or namespaces).
// Each attack asks or is denied at every autonomy level; each near miss is an ordinary command
// of the same program, admitted at Default.
func reviewBCatalogue() []classCase {
	sh := shCall
	dcAsk := func(id string) outcome { return asked(dc + id) }
	setuid := denied(dc + "chmod-setuid")
	const (
		priv  = "privilege"
		later = "code that runs later"
	)
	return []classCase{
		// chmod's symbolic mode is a comma-separated list of clauses, each with one or more
		// operations: the setuid or setgid bit may be set by any of them, and an octal mode may
		// have any number of leading zeros.
		{priv, "setgid in a later clause of chmod's mode", sh(`chmod u+x,g+s bin/x`), setuid, sh(`chmod u+x,g-s bin/x`), false},
		{priv, "setuid after another operation in one clause", sh(`chmod u-x+s bin/x`), setuid, sh(`chmod go-w,u+x bin/x`), false},
		{priv, "octal setuid mode with leading zeros", sh(`chmod 004755 bin/x`), setuid, sh(`chmod 0755 bin/x`), false},
		{priv, "chmod --reference copies a setuid mode", sh(`chmod --reference=/usr/bin/sudo bin/x`), dcAsk("chmod-copied-mode"), sh(`chmod +x script.sh`), false},
		{priv, "install -m with a setuid mode", sh(`install -Dm4755 x bin/x`), denied(dc + "install-setuid"), sh(`chmod 755 bin/x`), false},
		{priv, "install --mode abbreviated, symbolic setuid", sh(`install --mod=u+s x bin/x`), denied(dc + "install-setuid"), sh(`chmod u+x bin/x`), false},
		{priv, "file capabilities", sh(`setcap cap_setuid+ep bin/x`), dcAsk("privilege-change"), sh(`stat -c %A bin/x`), false},
		{priv, "setpriv runs a command as another user", sh(`setpriv --reuid=0 --regid=0 --init-groups id`), dcAsk("privilege-change"), sh(`id -Gn`), false},
		{priv, "nsenter into init's namespaces", sh(`nsenter -t 1 -m -u -i -n -p id`), dcAsk("privilege-change"), sh(`unshare -n make test`), false},
		{priv, "sg runs a command with another group", sh(`sg docker -c id`), dcAsk("privilege-change"), sh(`id -Gn`), false},
		{priv, "gpasswd adds a user to a group", sh(`gpasswd -a dev docker`), dcAsk("user-management"), sh(`id -Gn`), false},
		{priv, "systemd-run without --user runs as root", sh(`systemd-run id`), dcAsk("system-manager-run"), sh(`systemd-run --user --scope make test`), false},
		{priv, "systemd-run's --user after the command is the command's", sh(`systemd-run -p User=root id --user`), dcAsk("system-manager-run"), sh(`systemd-run --user -p MemoryMax=1G make test`), false},

		// Jobs that run later, started by something other than a crontab or a timer.
		{later, "lingering starts the user's units at boot", sh(`loginctl enable-linger`), dcAsk("scheduled-jobs-linger"), sh(`loginctl show-user`), false},
		{later, "git maintenance start schedules git hourly", sh(`git maintenance start`), dcAsk("scheduled-jobs-git-maintenance"), sh(`git maintenance run`), false},
		{later, "systemctl reenable enables a unit", sh(`systemctl --user reenable x.service`), dcAsk("service-change"), sh(`crontab -l`), false},
		{later, "systemctl set-environment reaches every later unit", sh(`systemctl --user set-environment LD_PRELOAD=/tmp/x.so`), dcAsk("service-change"), sh(`crontab -l`), false},
		{later, "launchctl setenv reaches every later app", sh(`launchctl setenv DYLD_INSERT_LIBRARIES /tmp/x.dylib`), dcAsk("scheduled-jobs-launchd"), sh(`crontab -l`), false},
		{later, "a D-Bus call to systemd's manager", sh(`busctl --user call org.freedesktop.systemd1 /org/freedesktop/systemd1 org.freedesktop.systemd1.Manager StartUnit ss x.service replace`), dcAsk("dbus-method-call"), sh(`loginctl show-user`), false},
		{later, "a dotfiles manager writes the start-up files", sh(`stow -t ~ dotfiles`), dcAsk("dotfiles-manager"), sh(`ls dotfiles`), false},
	}
}
