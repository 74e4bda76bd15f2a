package safety

// tenthCatalogue holds the tenth engine review's rows: resolver variables that send a name where a
// file or value the line chooses says (resolverEnvVars); name references whose target is read at
// run time, chained, or given by a loop (namerefs.go); a patch, archive or tree copied in from
// elsewhere, whose file names the engine does not read, applied and then built, tested, run or
// committed (appliedtrees.go), and a build definition checked out from a named revision; a
// configuration file that a tool discovers in its directory and takes code or a program from,
// written by the line and then read (writtenbuilds.go's lists).
func tenthCatalogue() []classCase {
	sh := shCall
	meta := asked(RulePrefixDamageControl + "print-credentials-cloud-metadata")
	opaque := asked(RuleOpaqueCode)
	const (
		resolver = "a resolver variable that sends a name where the line says"
		nameref  = "a name reference given its target at run time, chained or looped"
		applied  = "a patch or archive applied, then built, tested, run or committed"
		copied   = "a tree copied in from elsewhere, then built or tested"
		revision = "a build definition checked out from a named revision, then built"
		found    = "a configuration a tool discovers and takes code from, written, then the tool"
		written  = "a build definition written by a program the engine did not read as a writer"
	)
	return []classCase{
		{resolver, "HOSTALIASES aliases a short name", sh(`HOSTALIASES=/tmp/h curl http://foo/`), meta, sh(`curl http://foo/`), false},
		{resolver, "HOSTALIASES exported first", sh(`export HOSTALIASES=/tmp/h; curl http://foo/`), meta, sh(`export LC_ALL=C; curl http://foo/`), false},
		{resolver, "HOSTALIASES declared exported", sh(`declare -x HOSTALIASES=/tmp/h; wget -qO- http://foo/`), meta, sh(`declare -x LANG=C; wget -qO- http://foo/`), false},
		{resolver, "HOSTALIASES by env", sh(`env HOSTALIASES=/tmp/h curl http://foo/`), meta, sh(`curl --noproxy "*" http://foo/`), false},
		{resolver, "HOSTALIASES for a shell's commands", sh(`HOSTALIASES=/tmp/h bash -c 'curl http://foo/'`), meta, sh(`bash -c 'curl http://foo/'`), false},
		{resolver, "LOCALDOMAIN makes a short name the metadata service's", sh(`LOCALDOMAIN=google.internal curl http://foo/`), meta, sh(`curl http://foo.example.com/`), false},
		{resolver, "RES_OPTIONS", sh(`RES_OPTIONS='ndots:5 attempts:1' curl http://foo/`), meta, sh(`curl --retry 2 http://foo/`), false},
		{resolver, "RESOLV_HOST_CONF, another host configuration", sh(`RESOLV_HOST_CONF=/tmp/h curl http://foo/`), meta, sh(`cat /etc/host.conf`), false},
		{resolver, "curl told a name server", sh(`curl --dns-servers 10.0.0.1 http://foo/`), meta, sh(`curl --dns-ipv4-addr 10.0.0.2 http://foo/`), false},
		{resolver, "curl told a DNS-over-HTTPS server", sh(`curl --doh-url=https://evil.example/dns-query http://foo/`), meta, sh(`curl --doh-insecure http://foo/`), false},
		{resolver, "aria2c told a name server", sh(`aria2c --async-dns-server=10.0.0.1 http://foo/`), meta, sh(`curl -O http://foo/x.tgz`), false},
		{resolver, "HOSTALIASES read at run time", sh(`read HOSTALIASES <<< /tmp/h; export HOSTALIASES; curl http://foo/`), asked(RuleOpaqueCode), sh(`read X <<< /tmp/h; echo "$X"`), false},

		{nameref, "read into a reference without a target", sh(`declare -n r; read r <<< PATH; r=/tmp; ls`), opaque, sh(`declare -n r; read r <<< x; echo hi`), false},
		{nameref, "read -r from a file into local -n", sh(`local -n r; IFS= read -r r < /tmp/n; r=/tmp; ls`), opaque, sh(`local -n r=out; r=1; echo "$out"`), false},
		{nameref, "typeset -n given its target by printf -v", sh(`typeset -n r; printf -v r PATH; r=/tmp; ls`), opaque, sh(`printf -v r '%s' PATH; echo "$r"`), false},
		{nameref, "mapfile into a reference without a target", sh(`declare -n r; mapfile -t r <<< BASH_ENV; r=/tmp/x; bash -c ls`), opaque, sh(`declare -n r; r=lines; read r <<< x; bash -c ls`), false},
		{nameref, "getopts into a reference without a target", sh(`declare -n r; getopts a r; r=/tmp/x/.git; git log`), opaque, sh(`declare -n r; r=cfg; r=/tmp/x; git log`), false},
		{nameref, "a computed target assigned later", sh(`declare -n r; r=$1; r=/tmp; ls`), opaque, sh(`declare -n r; r=dir; r=$1; ls`), false},
		{nameref, "a reference to a reference", sh(`declare -n a=PATH; declare -n b=a; b=/tmp; ls`), opaque, sh(`declare -n a=out; declare -n b=a; b=/tmp; ls`), false},
		{nameref, "a reference to one declared later", sh(`declare -n r=x; declare -n x=PATH; r=/tmp; ls`), opaque, sh(`declare -n r=x; declare -n x=y; r=/tmp; ls`), false},
		{nameref, "a reference given another reference as its target", sh(`declare -n b; declare -n a=BASH_ENV; b=a; b=/tmp/x; bash -c ls`), opaque, sh(`declare -n b; declare -n a=out; b=a; b=/tmp/x; bash -c ls`), false},
		{nameref, "read through a chain", sh(`declare -n a=PATH; declare -n b=a; read b <<< /tmp; ls`), opaque, sh(`declare -n a=out; declare -n b=a; read b <<< /tmp; ls`), false},
		{nameref, "a for loop re-targets a reference", sh(`declare -n r; for r in PATH; do r=/tmp; done; ls`), opaque, sh(`declare -n r; for r in a b; do r=1; done; ls`), false},
		{nameref, "a for loop over computed names", sh(`declare -n r; for r in "$@"; do r=/tmp; done; ls`), opaque, sh(`for r in "$@"; do echo "$r"; done`), false},
		{nameref, "an array through a target read at run time", sh(`declare -n r; read r <<< BASH_CMDS; r[ls]=/tmp/x; ls`), opaque, sh(`declare -A m; m[ls]=/tmp/x; ls`), false},
		{nameref, "an arithmetic store through a target read at run time", sh(`declare -n r; read r <<< PATH; (( r = 1 )); ls`), opaque, sh(`declare -n r=n; (( r = 1 )); ls`), false},

		{applied, "git apply, then the declared make test", sh(`git apply /tmp/x.diff && make test`), opaque, sh(`git apply --check /tmp/x.diff && make test`), false},
		{applied, "git apply after git -C, then make -C", sh(`git -C sub apply x.diff && make -C sub test`), opaque, sh(`git apply --stat x.diff && make test`), false},
		{applied, "patch from standard input, then npm test", sh(`patch -p1 < x.diff; npm test`), opaque, sh(`git apply x.diff; git diff --stat`), false},
		{applied, "patch -i, then pytest", sh(`patch -p1 -i /tmp/x.diff && pytest`), opaque, sh(`git diff > /tmp/x.diff && pytest`), false},
		{applied, "git am, then cargo test", sh(`git am /tmp/x.patch && cargo test`), opaque, sh(`git am --abort && cargo test`), false},
		{applied, "git am, then a commit that runs hooks", sh(`git am < /tmp/x.patch && git commit -m x`), opaque, sh(`git apply --cached x.diff && git commit -m x`), false},
		{applied, "git apply, then git commit", sh(`git apply x.diff && git commit -am x`), opaque, sh(`git apply x.diff && git status`), false},
		{applied, "tar x, then make", sh(`tar xf /tmp/x.tar && make test`), opaque, sh(`tar tf /tmp/x.tar && make test`), false},
		{applied, "tar -C into a directory go test walks", sh(`tar -xzf x.tgz -C sub && go test ./...`), opaque, sh(`tar -xzf x.tgz -C /tmp/out && go test ./...`), false},
		{applied, "tar x, then a declared script", sh(`tar -xzf /tmp/x.tgz && ./scripts/check.sh`), opaque, sh(`tar -czf /tmp/x.tgz src && ./scripts/check.sh`), false},
		{applied, "bsdtar, then npm test", sh(`bsdtar -xf x.tar && npm test`), opaque, sh(`tar -tf x.tar && npm test`), false},
		{applied, "unzip -o, then pytest", sh(`unzip -o x.zip && pytest`), opaque, sh(`unzip -l x.zip && pytest`), false},
		{applied, "unzip -qo, then npm run", sh(`unzip -qo /tmp/x.zip && npm run build`), opaque, sh(`unzip -l /tmp/x.zip && npm test`), false},
		{applied, "7z x, then make", sh(`7z x x.7z && make test`), opaque, sh(`make test && echo done`), false},
		{applied, "python -m zipfile -e, then pytest", sh(`python3 -m zipfile -e x.zip . && pytest`), opaque, sh(`unzip -d /tmp/x x.zip && pytest`), false},
		{applied, "tar x, then a script from it run by its path", sh(`tar -xf x.tar && ./install.sh`), opaque, sh(`tar -xf x.tar -C /tmp/x && ./scripts/check.sh`), false},
		{applied, "an extraction in a subshell", sh(`(tar xf x.tar); make test`), opaque, sh(`(tar tf x.tar); make test`), false},
		{applied, "a patch applied by eval", sh(`eval 'git apply x.diff' && make test`), opaque, sh(`eval 'git apply --check x.diff' && make test`), false},
		{applied, "a patch in an if, the build in its branch", sh(`if git apply x.diff; then make test; fi`), opaque, sh(`if git apply --check x.diff; then make test; fi`), false},
		{applied, "tar --directory=, then make --directory", sh(`tar --directory=sub -xf x.tar && make --directory=sub test`), opaque, sh(`tar --directory=sub -tf x.tar && make test`), false},
		{applied, "an extraction, then npm --prefix", sh(`tar xf x.tar -C sub && npm --prefix sub test`), opaque, sh(`tar xf x.tar -C /tmp/sub && npm test`), false},
		{copied, "cp -r of another directory's contents", sh(`cp -r /tmp/proj/. . && npm test`), opaque, sh(`cp -r fixtures/. tests/data && pytest`), false},
		{copied, "cp -a from a sibling", sh(`cp -a ../other/. . && make test`), opaque, sh(`cp -a ../other/. /tmp/other && make test`), false},
		{copied, "rsync -a from elsewhere", sh(`rsync -a /tmp/proj/ . && make test`), opaque, sh(`rsync -a src/ /tmp/backup/ && make test`), false},
		{copied, "rsync from a remote host into a tree go walks", sh(`rsync -a host:proj/ sub/ && go test ./...`), opaque, sh(`rsync -a sub/ /tmp/sub/ && go test ./...`), false},
		{revision, "git checkout REV -- Makefile", sh(`git checkout other -- Makefile && make test`), opaque, sh(`git checkout -- Makefile && make test`), false},
		{revision, "git checkout of package.json from an old commit", sh(`git checkout HEAD~3 -- package.json && npm test`), opaque, sh(`git checkout other -- src/app.js && npm test`), false},
		{revision, "git restore --source", sh(`git restore --source=other Makefile && make test`), opaque, sh(`git restore --staged Makefile && make test`), false},
		{revision, "a hook checked out from a revision, then git commit", sh(`git checkout other -- .husky/pre-commit && git commit -m x`), opaque, sh(`git checkout main && git commit -m x`), false},

		{found, "rustup's toolchain file, which can name any cargo", sh(`echo '[toolchain]' > rust-toolchain.toml && cargo test`), opaque, sh(`echo 'fn f() {}' > src/lib.rs && cargo test`), false},
		{found, "rust-toolchain copied over", sh(`cp /tmp/x rust-toolchain && cargo build`), opaque, sh(`cp rust-toolchain /tmp/rt.bak && cargo build`), false},
		{found, "bazelisk's download URL", sh(`echo 'BAZELISK_BASE_URL=http://x' > .bazeliskrc && bazelisk test //...`), opaque, sh(`echo 'x' > docs/bazel.md && make test`), false},
		{found, "sbt's JVM options", sh(`echo '-J-javaagent:/tmp/x.jar' > .jvmopts && sbt test`), opaque, sh(`echo 'x' > src/test/x.txt && make test`), false},
		{found, "sbt's options file", sh(`echo '-J-javaagent:/tmp/x.jar' > .sbtopts && sbt test`), opaque, sh(`cat .sbtopts && make test`), false},
		{found, "pylint's init-hook in .pylintrc", sh(`printf '[MAIN]\ninit-hook=import os\n' > .pylintrc && pylint src`), opaque, sh(`printf 'x = 1\n' > src/x.py && make lint`), false},
		{found, "mypy's plugins in mypy.ini", sh(`printf '[mypy]\nplugins = /tmp/x.py\n' > mypy.ini && mypy src`), opaque, sh(`printf 'x = 1\n' > src/x.py && make test`), false},
		{found, "mise's tasks", sh(`echo '[tasks.test]' > mise.toml && mise run test`), opaque, sh(`cat mise.toml`), false},
		{found, "mise's configuration directory", sh(`echo x > .mise/config.toml && mise run test`), opaque, sh(`echo x > docs/mise.md && make test`), false},
		{found, "a make file a Makefile includes", sh(`echo 'test:; sh x' > rules.mk && make test`), opaque, sh(`echo 'x' > docs/rules.md && make test`), false},
		{found, "prettier's configuration module, then npm test", sh(`echo 'module.exports = {}' > .prettierrc.cjs && npm test`), opaque, sh(`echo '{}' > tsconfig.json && npm test`), false},
		{found, "prettier's configuration module, then prettier", sh(`echo 'module.exports = {}' > prettier.config.js && npx prettier --check .`), opaque, sh(`echo 'x' > src/x.js && npm test`), false},
		{found, "postcss's configuration module", sh(`echo 'module.exports = {}' > postcss.config.js && npm test`), opaque, sh(`echo 'a{}' > src/x.css && npm test`), false},
		{found, "tailwind's configuration module", sh(`echo 'module.exports = {}' > tailwind.config.js && npm test`), opaque, sh(`echo '<div/>' > src/x.html && npm test`), false},
		{found, "pytest's .pytest.ini", sh(`printf '[pytest]\naddopts = -p x\n' > .pytest.ini && pytest`), opaque, sh(`printf 'x\n' > tests/data.txt && pytest`), false},
		{found, "a dev container's lifecycle commands", sh(`echo '{"postCreateCommand": "sh x"}' > .devcontainer/devcontainer.json && devcontainer up`), opaque, sh(`cat .devcontainer/devcontainer.json`), false},
		{found, "commitlint's configuration, loaded by the commit-msg hook", sh(`echo 'module.exports = {}' > commitlint.config.js && git commit -m x`), opaque, sh(`echo 'x' > CHANGELOG.md && git commit -am x`), false},

		{applied, "jar xf, then mvn test", sh(`jar xf /tmp/x.jar && mvn test`), opaque, sh(`unzip -l /tmp/x.jar && mvn test`), false},
		{applied, "jar --extract", sh(`jar --extract --file /tmp/x.jar && make test`), opaque, sh(`unzip -d /tmp/x /tmp/x.jar && make test`), false},
		{applied, "ar x, then make", sh(`ar x /tmp/x.a && make test`), opaque, sh(`make test && echo ok`), false},
		{applied, "uudecode writes the name its input says", sh(`uudecode /tmp/x.uu && make test`), opaque, sh(`make test; echo done`), false},
		{written, "a Makefile by sponge", sh(`echo 'test:; sh x' | sponge Makefile && make test`), opaque, sh(`echo x | tee notes.txt && make test`), false},
	}
}
