package safety

// sixteenthCatalogue holds the sixteenth engine review's rows. A short option that takes a path,
// bundled after options that take none, had its value attached read only when the option opened
// the word: tar -cf.env, tar -cvf/etc/passwd, cp -vt.git/hooks, sort -uo.env, curl
// -fsSLo.git/..., grep -hf.env, kubectl apply -Rf.env and git commit -aF.env were admitted while
// the value apart was judged; getopt reads a bundle letter by letter, the first letter whose option
// takes a value taking the rest of the word, and so do the path reading and the flag count now
// (curl -sSLoout.bin is no -n). dotenv-cli's minimist reads -e.env.prod as -e .env.prod, which the
// engine took for a -p. Other rows: token and key files of common tools missing from the default
// zeroAccess list; a project pattern rule stepped around by an option before its operand (git push
// -u prod); strace -o '|CMD', wget --use-askpass and go -ldflags -extld running a program the
// caller names; a wrapper's short output option losing its run-time mark; python's yq, xq and
// tomlq passing env to jq; a wildcard ending a /proc/PID path taken for the cwd or root link;
// ${HOME} in a file tool's path; and a command started in a protected Cwd.
func sixteenthCatalogue() []classCase {
	sh := shCall
	opaque := asked(RuleOpaqueCode)
	zero, noWrite := denied(RulePrefixPathPolicy+"zeroAccess"), denied(RulePrefixPathPolicy+"noWrite")
	const (
		bundle = "a path option's value attached after options that take none"
		dotenv = "dotenv-cli's attached option values read as minimist reads them"
		stores = "a tool's token or key file missing from the default zeroAccess list"
		subOpt = "a project pattern rule stepped around with an option before the operand"
		code   = "an option of a recognised program that runs a program the caller names"
		outRT  = "a wrapper's output file named at run time"
		jqEnv  = "python's yq, xq and tomlq pass their filter to jq, whose env prints the environment"
		procWC = "a wildcard that ends a path below /proc/PID names environ, not only the cwd or root link"
		braced = "a file tool's path spelt ${HOME}, read as $HOME is"
		inCwd  = "a command started in a protected directory the call names as its working directory"
	)
	return []classCase{
		{bundle, "tar -cf.env writes .env", sh(`tar -cf.env src`), zero, sh(`tar -czfdist/x.tgz src`), false},
		{bundle, "tar -cvf/etc/passwd", sh(`tar -cvf/etc/passwd src`), noWrite, sh(`tar -cvf /tmp/src.tar src`), false},
		{bundle, "tar -czf.git/config", sh(`tar -czf.git/config src`), noWrite, sh(`tar -czf dist/x.tgz src`), false},
		{bundle, "tar -cf$HOME/.bashrc", sh(`tar -cf$HOME/.bashrc src`), noWrite, sh(`tar -xzfdist/x.tgz -Cbuild`), false},
		{bundle, "tar -tvf.env reads .env", sh(`tar -tvf.env`), zero, sh(`tar -tvf dist/x.tgz`), false},
		{bundle, "tar -rf.env appends to .env", sh(`tar -rf.env README.md`), zero, sh(`tar -rf dist/x.tar README.md`), false},
		{bundle, "tar -xvC.git extracts into .git", sh(`tar -xvC.git -f x.tar`), noWrite, sh(`tar -xvCbuild -f x.tar`), false},
		{bundle, "ln -sft.git/hooks", sh(`ln -sft.git/hooks ../scripts/pre-commit`), noWrite, sh(`ln -sfn ../lib current`), false},
		{bundle, "cp -vt.git/hooks", sh(`cp -vt.git/hooks hooks/pre-commit`), noWrite, sh(`cp -vt build/hooks hooks/pre-commit`), false},
		{bundle, "cp -rt.git/hooks", sh(`cp -rt.git/hooks hooks`), noWrite, sh(`cp -rtbuild src`), false},
		{bundle, "mv -ft.git/hooks", sh(`mv -ft.git/hooks x`), noWrite, sh(`mv -ft /tmp/old build`), false},
		{bundle, "sort -uo.env", sh(`sort -uo.env x`), zero, sh(`sort -uo out.txt in.txt`), false},
		{bundle, "sort -uo.git/config", sh(`sort -uo.git/config x`), noWrite, sh(`sort -uoout.txt in.txt`), false},
		{bundle, "curl -fsSLo.git/hooks/pre-commit", sh(`curl -fsSLo.git/hooks/pre-commit https://x.example`), noWrite,
			sh(`curl -fsSLo build/x https://x.example`), false},
		{bundle, "unzip -qod.git", sh(`unzip -qod.git x.zip`), noWrite, sh(`unzip -qo x.zip -d build`), false},
		{bundle, "kubectl apply -Rf.env", sh(`kubectl apply -Rf.env`), zero, sh(`kubectl apply -Rf k8s/`), false},
		{bundle, "grep -hf.env reads .env's lines as patterns", sh(`grep -hf.env src`), zero, sh(`grep -hf patterns.txt src`), false},
		{bundle, "git commit -aF.env: .env as the commit message", sh(`git commit -aF.env`), zero, sh(`git commit -aFmsg.txt`), false},
		{bundle, "git tag -aF.env", sh(`git tag -aF.env v1`), zero, sh(`git tag -a -F notes/v1.txt v1`), false},
		{bundle, "git merge -qF.env", sh(`git merge --no-ff -qF.env feature`), zero, sh(`git commit -qF - <<< 'fix: typo'`), false},
		{bundle, "curl -n reads ~/.netrc; a value's letter n is no -n", sh(`curl -nsSLo x https://x.example`), zero, sh(`curl -sSLoout.bin https://x.example`), false},
		{bundle, "the same after -o's value apart", sh(`curl -sSLn -o x https://x.example`), zero, sh(`curl -fsSLonightly.tgz https://x.example`), false},
		{dotenv, "-e.env.prod is -e .env.prod, not -p", sh(`dotenv -e.env.prod -p DB_PASSWORD`), asked(dc + "print-environment-dotenv"), sh(`dotenv -e.env.prod -- make test`), false},
		{dotenv, "-e.env.production before a command that prints", sh(`dotenv -e.env.production -- env`), asked(dc + "print-environment-env"),
			sh(`dotenv -e.env.production -- npm test`), false},
		{stores, "GitLab's glab token", sh(`cat ~/.config/glab-cli/config.yml`), zero, sh(`cat .gitlab-ci.yml`), false},
		{stores, "DigitalOcean's doctl token", sh(`cat ~/.config/doctl/config.yaml`), zero, sh(`cat config.yaml`), false},
		{stores, "Hetzner's hcloud token", sh(`grep token ~/.config/hcloud/cli.toml`), zero, sh(`grep token src/cli.toml`), false},
		{stores, "Scaleway's secret key", sh(`head ~/.config/scw/config.yaml`), zero, sh(`head deploy/config.yaml`), false},
		{stores, "Netlify's token", sh(`cat ~/.config/netlify/config.json`), zero, sh(`cat netlify.toml`), false},
		{stores, "Stripe's CLI key", sh(`cat ~/.config/stripe/config.toml`), zero, sh(`cat config.toml`), false},
		{stores, "Firebase's token", sh(`cat ~/.config/configstore/firebase-tools.json`), zero, sh(`cat firebase.json`), false},
		{stores, "Cloudflare wrangler's OAuth token", sh(`cat ~/.config/.wrangler/config/default.toml`), zero, sh(`cat wrangler.toml`), false},
		{stores, "wrangler's older home", sh(`cat ~/.wrangler/config/default.toml`), zero, sh(`rm -rf .wrangler`), false},
		{stores, "Vercel's token", sh(`cat ~/.local/share/com.vercel.cli/auth.json`), zero, sh(`cat vercel.json`), false},
		{stores, "fly.io's token", sh(`cat ~/.fly/config.yml`), zero, sh(`cat fly.toml`), false},
		{stores, "Oracle Cloud's config and key", sh(`cat ~/.oci/config`), zero, sh(`cat config/app.yml`), false},
		{stores, "Teleport's keys", sh(`ls -R ~/.tsh/keys`), zero, sh(`ls -R src`), false},
		{stores, "talosctl's client key", sh(`cat ~/.talos/config`), zero, sh(`cat talos/controlplane.yaml`), false},
		{stores, "Databricks' token", sh(`cat ~/.databrickscfg`), zero, sh(`cat databricks.yml`), false},
		{stores, "CircleCI's CLI token", sh(`cat ~/.circleci/cli.yml`), zero, sh(`cat .circleci/config.yml`), false},
		{stores, "Travis' token", sh(`cat ~/.travis/config.yml`), zero, sh(`cat .travis.yml`), false},
		{stores, "Kaggle's key", sh(`cat ~/.kaggle/kaggle.json`), zero, sh(`cat package.json`), false},
		{stores, "Hugging Face's token", sh(`cat ~/.cache/huggingface/token`), zero, sh(`ls ~/.cache/huggingface/hub`), false},
		{stores, "Hugging Face's stored tokens", sh(`cat ~/.cache/huggingface/stored_tokens`), zero, sh(`rm -rf node_modules/.cache`), false},
		{stores, "Hugging Face's home, whole", sh(`rm -rf ~/.cache`), zero, sh(`rm -rf .cache/pip`), false},
		{stores, "ngrok's authtoken", sh(`cat ~/.config/ngrok/ngrok.yml`), zero, sh(`cat ngrok.example.yml`), false},
		{stores, "ngrok's older home", sh(`cat ~/.ngrok2/ngrok.yml`), zero, sh(`cat docs/ngrok.md`), false},
		{stores, "sentry-cli's token", sh(`cat ~/.sentryclirc`), zero, sh(`cat sentry.properties.example`), false},
		{stores, "docker's old credential file", sh(`cat ~/.dockercfg`), zero, sh(`cat .dockerignore`), false},
		{stores, "terraform's CLI credentials", sh(`cat ~/.terraformrc`), zero, sh(`cat .terraform.lock.hcl`), false},
		{stores, "composer's tokens", sh(`cat ~/.config/composer/auth.json`), zero, sh(`cat composer.json`), false},
		{stores, "composer's older home", sh(`cat ~/.composer/auth.json`), zero, sh(`cat composer.lock`), false},
		{stores, "NuGet's feed passwords", sh(`cat ~/.nuget/NuGet/NuGet.Config`), zero, sh(`cat nuget.config`), false},
		{stores, "ivy's credentials", sh(`cat ~/.ivy2/.credentials`), zero, sh(`cat build.sbt`), false},
		{stores, "sbt's credentials", sh(`cat ~/.sbt/.credentials`), zero, sh(`cat project/plugins.sbt`), false},
		{stores, "MinIO client's keys", sh(`cat ~/.mc/config.json`), zero, sh(`cat tsconfig.json`), false},
		{stores, "s3fs' key file", sh(`cat /etc/passwd-s3fs`), zero, sh(`cat /etc/passwd`), false},
		{stores, "s3fs' own key file", sh(`cat ~/.passwd-s3fs`), zero, sh(`cat s3fs.md`), false},
		{stores, "Emacs' authinfo", sh(`cat ~/.authinfo`), zero, sh(`cat AUTHORS`), false},
		{stores, "msmtp's password", sh(`cat ~/.msmtprc`), zero, sh(`cat .editorconfig`), false},
		{stores, "fetchmail's password", sh(`cat ~/.fetchmailrc`), zero, sh(`cat .prettierrc`), false},
		{stores, "atuin's history key", sh(`cat ~/.config/atuin/key`), zero, sh(`cat ~/.config/atuin/config.toml`), false},
		{stores, "sops' age key", sh(`cat ~/.config/sops/age/keys.txt`), zero, sh(`cat .sops.yaml`), false},
		{stores, "Wi-Fi passphrases", sh(`cat /etc/wpa_supplicant/wpa_supplicant.conf`), zero, sh(`cat /etc/os-release`), false},
		{stores, "NetworkManager's connections", sh(`grep -r psk= /etc/NetworkManager/system-connections`), zero, sh(`grep -r psk src`), false},
		{stores, "google-github-actions/auth's credentials in the workspace", sh(`cat gha-creds-5d1c2e.json`), zero, sh(`cat renovate.json`), false},
		{stores, "act's secrets file", sh(`cat .secrets`), zero, sh(`cat .actrc`), false},
		{stores, "a PuTTY private key", sh(`cat deploy.ppk`), zero, sh(`cat deploy.pub`), false},
		{stores, "python's REPL history", sh(`cat ~/.python_history`), zero, sh(`cat .python-version`), false},
		{stores, "node's REPL history", sh(`tail ~/.node_repl_history`), zero, sh(`tail .nvmrc`), false},
		{stores, "irb's history", sh(`cat ~/.irb_history`), zero, sh(`cat .ruby-version`), false},
		{subOpt, "git push -u prod", sh(`git push -u prod main`), asked(dc + "git-push-prod"), sh(`git push -u origin main`), false},
		{subOpt, "--set-upstream", sh(`git push --set-upstream prod feature`), asked(dc + "git-push-prod"), sh(`git push --set-upstream origin feature`), false},
		{subOpt, "-q and no refspec", sh(`git push -q prod`), asked(dc + "git-push-prod"), sh(`git push -q`), false},
		{subOpt, "past git -C and --no-verify", sh(`git -C ../deploy push --no-verify prod main`), asked(dc + "git-push-prod"),
			sh(`git -C ../deploy push origin main`), false},
		{subOpt, "--atomic with two refs", sh(`git push --atomic prod main v1`), asked(dc + "git-push-prod"), sh(`git push --atomic origin main v1`), false},
		{subOpt, "--tags", sh(`git push --tags prod`), asked(dc + "git-push-prod"), sh(`git push --tags origin`), false},
		{subOpt, "-v --dry-run", sh(`git push -v --dry-run prod main`), asked(dc + "git-push-prod"), sh(`git push -v --dry-run origin main`), false},
		{code, "strace -o '|CMD' runs CMD with sh -c", sh(`strace -o '|rm -rf ~' ls`), denied(dc + "rm-recursive-root"), sh(`strace -o /tmp/trace.txt ls`), false},
		{code, "strace -o'!CMD' attached", sh(`strace -fo'!rm -rf ~' make test`), denied(dc + "rm-recursive-root"), sh(`strace -fo trace.txt make test`), false},
		{code, "wget --use-askpass runs its program", sh(`wget --use-askpass=./pw.sh https://x.example/a.tgz`), opaque,
			sh(`wget -q https://x.example/a.tgz`), false},
		{code, "--use-askpass abbreviated, its value apart", sh(`wget --use-ask ./pw.sh https://x.example/a.tgz`), opaque,
			sh(`wget --user-agent=x https://x.example/a.tgz`), false},
		{code, "go test -ldflags=-extld names the linker it runs", sh(`go test -ldflags=-extld=./x ./...`), opaque, sh(`go test -ldflags=-linkmode=external ./...`), false},
		{code, "-extld in a value apart", sh(`go test -ldflags '-linkmode=external -extld ./x' ./...`), opaque,
			sh(`go build -ldflags '-s -w -X main.version=1.0' .`), false},
		{code, "all= packages", sh(`go build -ldflags="all=-extld=/tmp/x" ./...`), opaque, sh(`go build -ldflags="all=-s -w" ./...`), false},
		{code, "-extldflags with -B", sh(`go build -ldflags '-extldflags "-B/tmp"' .`), opaque, sh(`go build -ldflags '-extldflags "-static"' .`), false},
		{code, "-extldflags with -fuse-ld", sh(`go build --ldflags='-extldflags=-fuse-ld=/tmp/ld' .`), opaque, sh(`go build --ldflags='-extldflags=-lm' .`), false},
		{code, "through GOFLAGS", sh(`GOFLAGS=-ldflags=-extld=./x go test ./...`), opaque, sh(`GOFLAGS=-ldflags=-s go test ./...`), false},
		{outRT, "strace -o \"$F\"", sh(`strace -o "$F" ls`), asked(RuleDynamicWriteTarget), sh(`strace -o trace.txt ls`), false},
		{outRT, "fakeroot -s \"$F\"", sh(`fakeroot -s "$F" ls`), asked(RuleDynamicWriteTarget), sh(`fakeroot -s /tmp/fr.state ls`), false},
		{jqEnv, "yq -n env", sh(`yq -n env`), asked(dc + "print-environment-yq"), sh(`yq '.env' docker-compose.yml`), false},
		{jqEnv, "yq's $ENV", sh(`yq -n '$ENV'`), asked(dc + "print-environment-yq"), sh(`yq '.ENV' x.yaml`), false},
		{jqEnv, "one variable, $ENV.NAME", sh(`yq -n '$ENV.GITHUB_TOKEN'`), asked(dc + "print-environment-yq"), sh(`yq '.a' env.yaml`), false},
		{jqEnv, "one variable, env.NAME", sh(`yq -n 'env.AWS_SECRET_ACCESS_KEY'`), asked(dc + "print-environment-yq"), sh(`yq '.spec.env[0]' pod.yaml`), false},
		{jqEnv, "env in a pipe", sh(`yq -n 'env | to_entries'`), asked(dc + "print-environment-yq"), sh(`yq . config/env/prod.yaml`), false},
		{jqEnv, "xq -n env", sh(`xq -n env`), asked(dc + "print-environment-jq"), sh(`yq -r '.jobs.build.env' .github/workflows/ci.yml`), false},
		{jqEnv, "tomlq's $ENV", sh(`tomlq -n '$ENV'`), asked(dc + "print-environment-jq"), sh(`yq '.x | select(.name == "env")' x.yaml`), false},
		{procWC, "cat /proc/self/*", sh(`cat /proc/self/*`), zero, sh(`cat /proc/self/status`), false},
		{procWC, "another process's", sh(`cat /proc/1/*`), zero, sh(`cat /proc/cpuinfo`), false},
		{procWC, "from inside the directory", sh(`cd /proc/self && cat *`), zero, sh(`ls /proc/self/`), false},
		{procWC, "a thread's entries", sh(`head -c 4096 /proc/self/task/1/*`), zero, sh(`ls /proc/self/cwd`), false},
		{procWC, "grep -a over them", sh(`grep -a TOKEN /proc/self/*`), zero, sh(`grep -a Name /proc/self/status`), false},
		{braced, "delete of ${HOME}", deleteCall("${HOME}"), zero, deleteCall("build/out"), false},
		{braced, "delete of ${HOME}/.", deleteCall("${HOME}/."), zero, deleteCall("${HOME_DIR}/notes.txt"), false},
		{braced, "delete of ${HOME}/ among others", deleteCall("build", "${HOME}/"), zero, deleteCall("build", "dist"), false},
		{inCwd, "ls in ~/.ssh", shIn(`ls -la`, "~/.ssh"), zero, shIn(`ls -la`, "/workspace/app/src"), false},
		{inCwd, "ls -R in /root/.kube", shIn(`ls -R`, "/root/.kube"), zero, shIn(`ls -R`, "/tmp/build"), false},
		{inCwd, "du in ~/.gnupg", shIn(`du -a`, "$HOME/.gnupg"), zero, shIn(`du -a`, "/workspace"), false},
	}
}

// shIn is shCall run in the working directory cwd.
func shIn(cmd, cwd string) Call {
	c := shCall(cmd)
	c.Args.Cwd = cwd
	return c
}
