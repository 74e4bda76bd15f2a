package safety

// seventhCatalogue holds the seventh engine review's rows: a variable that changes what a program
// opens, set for the rest of the line (export, declare -x, or a standalone assignment to a
// variable the environment may already export) rather than as the command's prefix; a program's
// options held in the variable it reads them from (TAR_OPTIONS, UNZIP, ZIPOPT, GOFLAGS), whose
// values were not read; and more.
func seventhCatalogue() []classCase {
	sh := shCall
	zero := denied(RulePrefixPathPolicy + "zeroAccess")
	opaque, metadata := asked(RuleOpaqueCode), asked(dc+"print-credentials-cloud-metadata")
	writeTarget := asked(RuleDynamicWriteTarget)
	const (
		exported = "a variable exported for the rest of the line"
		options  = "a program's options held in its variable"
		runsCode = "a module that runs another"
		escapes  = "a calculator's or editor's shell escape"
		clients  = "a file-transfer client given commands"
		reinit   = "a repository git init re-initialises, config kept"
	)
	return []classCase{
		{exported, "a proxy to the metadata service", sh(`export http_proxy=169.254.169.254:80; curl http://x/`), metadata, sh(`export FOO=169.254.169.254; curl http://x/`), false},
		{exported, "another proxy, the declared command still", sh(`export http_proxy=169.254.169.254:80; curl https://example.com/`), metadata, sh(`export HTTPS_PROXY=http://proxy.corp:3128; curl https://example.com/`), false},
		{exported, "a code-running flag variable, exported", sh(`export GOFLAGS=-toolexec=/tmp/x; go build ./...`), opaque, sh(`export MAKEFLAGS=-j4; make test`), false},
		{exported, "a proxy to the metadata service, after &&", sh(`export HTTPS_PROXY=http://169.254.169.254 && curl https://x/`), metadata, sh(`export PROXY_HOST=169.254.169.254 && curl https://x/`), false},
		{exported, "rclone's remote defined as local", sh(`export RCLONE_CONFIG_X_TYPE=local; rclone copy x:/etc/shadow .`), zero, sh(`export RCLONE_CONFIG_X_TYPE=local; echo x:/etc/shadow`), false},
		{exported, "GIT_DIR outside the workspace", sh(`export GIT_DIR=/tmp/x/.git; git log`), opaque, sh(`export GIT_DIR=.git; git log`), false},
		{exported, "GIT_DIR assigned alone, exported by the environment", sh(`GIT_DIR=/tmp/x/.git; git log`), opaque, sh(`GIT_PAGER=cat; git log`), false},
		{exported, "GIT_DIR by declare -x", sh(`declare -x GIT_DIR=/tmp/x/.git; git log`), opaque, sh(`declare -x GIT_DIR=.git; git log`), false},
		{exported, "GIT_DIR assigned, then exported by name", sh(`GIT_DIR=/tmp/x/.git; export GIT_DIR; git status`), opaque, sh(`GIT_DIR=.git; export GIT_DIR; git status`), false},
		{exported, "npm's global location", sh(`export npm_config_global=true; npm i left-pad`), asked(dc + "global-package-install"), sh(`export npm_config_loglevel=warn; npm ci`), false},
		{options, "TAR_OPTIONS's directory", sh(`TAR_OPTIONS=-C/etc tar xf a.tar`), writeTarget, sh(`TAR_OPTIONS=--no-same-owner tar xf a.tar`), false},
		{options, "TAR_OPTIONS's long directory, exported", sh(`export TAR_OPTIONS=--directory=/etc; tar xf a.tar`), writeTarget, sh(`export TAR_OPTIONS=-v; tar xf a.tar`), false},
		{options, "TAR_OPTIONS's list of files", sh(`TAR_OPTIONS=-T.env tar cf x.tar`), zero, sh(`TAR_OPTIONS=-v tar cf x.tar src`), false},
		{options, "UNZIP's directory", sh(`UNZIP='-d /etc' unzip a.zip`), writeTarget, sh(`UNZIP=-q unzip a.zip`), false},
		{options, "UNZIPOPT's directory, exported", sh(`export UNZIPOPT=-d/etc; unzip a.zip`), writeTarget, sh(`export UNZIPOPT=-qq; unzip a.zip`), false},
		{options, "GOFLAGS's module file", sh(`GOFLAGS=-modfile=/etc/shadow go build`), zero, sh(`GOFLAGS='-mod=mod -trimpath' go build ./...`), false},
		{runsCode, "runpy runs the module it names", sh(`python3 -m runpy pip install x`), opaque, sh(`python3 -m pytest -q`), false},
		{escapes, "dc's ! in a macro", sh(`dc -e '[!id]x'`), opaque, sh(`echo '[!id]x'`), false},
		{escapes, "dc's ! on a pipe", sh(`echo '!cat .env' | dc`), opaque, sh(`echo '!cat .env' | wc -c`), false},
		{escapes, "dc's ! in a here-string", sh(`dc <<< '!id'`), opaque, sh(`cat <<< '!id'`), false},
		{escapes, "dc's long expression", sh(`dc --expression='!id'`), opaque, sh(`echo --expression='!id'`), false},
		{escapes, "dc's script file", sh(`dc -f x.dc`), opaque, sh(`cat x.dc`), false},
		{escapes, "ed's ! on a here-string", sh(`ed -s x.txt <<< '!cat .env'`), opaque, sh(`cat x.txt <<< '!cat .env'`), false},
		{escapes, "ed's commands from a file", sh(`ed -s x.txt < cmds.ed`), opaque, sh(`wc -l < cmds.ed`), false},
		{escapes, "ed's r ! on a pipe", sh(`printf 'r !cat .env\nw\nq\n' | ed -s x.txt`), opaque, sh(`printf 'r !cat .env\n' | wc -l`), false},
		{escapes, "m4's syscmd", sh(`m4 <<< 'syscmd(id)'`), opaque, sh(`cat <<< 'syscmd(id)'`), false},
		{escapes, "gnuplot's system", sh(`gnuplot -e 'system("id")'`), opaque, sh(`echo 'system("id")'`), false},
		{escapes, "busybox's dc", sh(`busybox dc -e '!id'`), opaque, sh(`busybox echo '!id'`), false},
		{clients, "ftp's ! on a pipe", sh(`echo '!id' | ftp host`), opaque, sh(`echo '!id' | wc -c`), false},
		{clients, "ftp's commands from a file", sh(`ftp -n host < cmds`), opaque, sh(`wc -l < cmds`), false},
		{clients, "lftp -c", sh(`lftp -c '!id'`), opaque, sh(`echo '!id'`), false},
		{clients, "lftp -e before the host", sh(`lftp -e 'get x; quit' host`), opaque, sh(`echo 'get x; quit'`), false},
		{clients, "smbclient -c", sh(`smbclient //h/s -c '!id'`), opaque, sh(`echo //h/s -c '!id'`), false},
		{clients, "smbclient's commands on a here-string", sh(`smbclient //h/s <<< 'get x /tmp/y'`), opaque, sh(`cat <<< 'get x /tmp/y'`), false},
		{reinit, "git init of a directory outside the workspace", sh(`git init /tmp/x && cd /tmp/x && git log`), opaque, sh(`git init build/x && cd build/x && git log`), false},
		{reinit, "git init where the shell is", sh(`cd /tmp/x && git init && git add . && git commit -m x`), opaque, sh(`cd build/x && git init && git add . && git commit -m x`), false},
		{reinit, "git -C DIR init", sh(`git -C /tmp/q init && git -C /tmp/q status`), opaque, sh(`git -C build/q init && git -C build/q status`), false},
		{runsCode, "runpy, attached", sh(`python -mrunpy http.server -d /`), opaque, sh(`python -m pytest -x`), false},
	}
}
