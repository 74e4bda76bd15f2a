package safety

// twentiethCatalogue holds the twentieth engine review's rows. git grep's pathspecs after "--"
// were read as plain paths, not as git reads them: a quoted glob (git grep --untracked -h ” --
// '.e*', or '*env', whose wildcard matches the leading dot) and an exclusion (-- ':!vendor', every
// other file) printed .env's lines, admitted at Default; the same pathspecs without "--" asked.
// npm reads a configuration option anywhere on its line, after the subcommand and with its value
// apart: npm test --userconfig .env (npm ci, npm ls, npm view) loaded .env as an npmrc and npm ci
// --cache ~/.ssh wrote there, admitted, where --userconfig=.env was denied. kubectl's file output
// formats read their template from --template's file given apart, and a template without actions
// is printed as it is: kubectl get cm -o go-template-file --template ~/.ssh/id_rsa printed the
// key. golangci-lint (a recognised command) wrote its reports where --output.FORMAT.path said,
// ~/.bashrc or a git hook (its text report quotes the offending source lines), fixed files
// outside the project with --fix, and loaded a configuration from outside (custom linters are
// plugins). find -files0-from FILE took its starting points from a file, printing each one it
// could not find: find -files0-from .env printed .env's lines. GNU tar's --one-top-level=DIR
// extracts every member into DIR, which was read as a plain option value: tar xf x.tar
// --one-top-level=.git/hooks wrote hooks, admitted. GIT_TRACE_REDACT=0 makes git's curl trace
// print the Authorization header it sends, the token a CI checkout keeps in http.extraHeader,
// which git config http.extraHeader is asked about: GIT_TRACE_CURL=1 GIT_TRACE_REDACT=0 git fetch
// printed it, admitted. PYTEST_ADDOPTS' options were read for plugins and a written
// configuration only, not as the command line's: PYTEST_ADDOPTS=--junitxml=.git/hooks/pre-commit
// pytest wrote a hook and PYTEST_ADDOPTS='-c .env' python -m pytest read .env, admitted. Two
// recognised searches run a program an option names: rg --hostname-bin (for a hyperlink's host)
// and ag --pager, admitted where rg --pre was asked. tar's other files were read as plain option
// values: -g/--listed-incremental (its snapshot), --index-file (its verbose listing, which holds
// the members' names, text the caller chooses) and --volno-file wrote ~/.bashrc or a hook,
// admitted; so did zip --output-file=FILE, where -O FILE was denied.
func twentiethCatalogue() []classCase {
	sh := shCall
	contains, zeroD, opaque := asked(RuleContainsProtected), denied(zero), asked(RuleOpaqueCode)
	const (
		gitGrep   = "git grep's pathspecs read as git reads them"
		npmConfig = "npm's configuration files and directories, given apart after the subcommand"
		template  = "kubectl's file output formats read --template's file"
		linter    = "golangci-lint's reports, fixes and configuration"
		findList  = "find -files0-from reads its starting points from a file"
		topLevel  = "tar --one-top-level=DIR extracts into DIR"
		redact    = "git's traces print the credentials it sends when their redaction is off"
		addopts   = "PYTEST_ADDOPTS' options are read as the command line's"
		searchRun = "a search's option that runs a program"
		archFiles = "an archiver's other files it writes"
	)
	creds := asked(dc + "print-credentials-git-config")
	noWrite, dyn := denied(RulePrefixPathPolicy+"noWrite"), asked(RuleDynamicPath)
	return []classCase{
		{template, "go-template-file of a key", sh(`kubectl get cm -o go-template-file --template ~/.ssh/id_rsa`), zeroD,
			sh(`kubectl get cm -o go-template-file --template tmpl/cm.tmpl`), false},
		{template, "jsonpath-file bundled, the template first", sh(`kubectl get cm --template .env -ojsonpath-file`), zeroD,
			sh(`kubectl get cm -o go-template --template '{{.metadata.name}}'`), false},
		{template, "a computed format", sh(`kubectl get cm -o "$F" --template .env`), zeroD, sh(`kubectl get cm -o template --template .env`), false},
		{linter, "a JSON report into ~/.bashrc", sh(`golangci-lint run --output.json.path ~/.bashrc`), noWrite,
			sh(`golangci-lint run --output.json.path report.json ./...`), false},
		{linter, "a text report into a hook", sh(`golangci-lint run --output.text.path=.git/hooks/pre-commit`), noWrite,
			sh(`golangci-lint run --output.text.path=lint.txt`), false},
		{linter, "fixes outside the project", sh(`golangci-lint run --fix ~/x`), asked(RulePrefixAutonomy + "system_modify"), sh(`golangci-lint run --fix ./...`), true},
		{linter, "a configuration from /tmp loads plugins", sh(`golangci-lint run -c /tmp/x.yml`), asked(RuleOpaqueCode),
			sh(`golangci-lint run -c .golangci.yml ./...`), false},
		{linter, "a configuration that is .env", sh(`golangci-lint run --config .env`), zeroD, sh(`golangci-lint run --timeout 5m ./...`), false},
		{archFiles, "tar's verbose listing into ~/.bashrc", sh(`tar --index-file=/root/.bashrc -cvf x.tar src`), noWrite,
			sh(`tar --index-file=build/list.txt -cvf build/x.tar src`), false},
		{archFiles, "tar's snapshot into a hook", sh(`tar -g .git/hooks/pre-commit -cf x.tar src`), noWrite, sh(`tar -g build/snap -czf build/x.tgz src`), false},
		{archFiles, "--listed-incremental", sh(`tar --listed-incremental=/root/.bashrc -cf x.tar src`), noWrite, sh(`tar -cvzf x.tgz src`), false},
		{archFiles, "--volno-file", sh(`tar --volno-file=/root/.bashrc -cf x.tar src`), noWrite, sh(`tar czf dist.tgz dist`), false},
		{archFiles, "zip --output-file=", sh(`zip --output-file=.git/hooks/pre-commit x.zip src`), noWrite, sh(`zip --output-file=dist/new.zip old.zip -d x`), false},
		{searchRun, "rg --hostname-bin", sh(`rg --hostname-bin=./x --hyperlink-format=default foo src`), opaque,
			sh(`rg --hyperlink-format=vscode foo src`), false},
		{searchRun, "rg --hostname-bin apart", sh(`rg --hostname-bin ./x foo src`), opaque, sh(`rg --hidden foo src`), false},
		{searchRun, "ag --pager", sh(`ag --pager ./x foo src`), opaque, sh(`ag --nopager foo src`), false},
		{searchRun, "ag --pager abbreviated", sh(`ag --pag=./x foo src`), opaque, sh(`ag -i foo src`), false},
		{addopts, "a report into a hook", sh(`PYTEST_ADDOPTS='--junitxml=.git/hooks/pre-commit' pytest`), noWrite, sh(`PYTEST_ADDOPTS='-q -x' pytest`), false},
		{addopts, "exported, a configuration that is .env, python -m pytest", sh(`export PYTEST_ADDOPTS='-c .env'; python3 -m pytest`), zeroD,
			sh(`PYTEST_ADDOPTS='--junitxml=reports/junit.xml' python -m pytest tests`), false},
		{addopts, "before a -- of test paths", sh(`PYTEST_ADDOPTS='--junitxml=/root/.bashrc' pytest -- tests`), noWrite, sh(`PYTEST_ADDOPTS='-p no:cacheprovider' pytest -- tests`), false},
		{redact, "for one fetch", sh(`GIT_TRACE_CURL=1 GIT_TRACE_REDACT=0 git fetch`), creds, sh(`GIT_TRACE_CURL=1 git fetch`), false},
		{redact, "exported, then a verbose pull", sh(`export GIT_TRACE_REDACT=false; GIT_CURL_VERBOSE=1 git pull`), creds,
			sh(`GIT_TRACE_REDACT=1 GIT_TRACE_CURL=1 git fetch`), false},
		{redact, "empty, which git reads as false", sh(`GIT_TRACE_REDACT= GIT_TRACE_PACKET=1 git fetch`), creds, sh(`GIT_TRACE_PACKET=1 git fetch origin`), false},
		{redact, "computed", sh(`GIT_TRACE_REDACT=$R GIT_TRACE_CURL=1 git fetch`), creds, sh(`env GIT_TERMINAL_PROMPT=0 git fetch`), false},
		{topLevel, "into cron's directory", sh(`tar xf x.tar --one-top-level=/etc/cron.d`), noWrite, sh(`tar xf x.tar --one-top-level=build`), false},
		{topLevel, "abbreviated, into the hooks", sh(`tar xf x.tar --one-t=.git/hooks`), noWrite, sh(`tar -xzf deps.tgz --one-top-level=vendor/deps`), false},
		{topLevel, "into the home directory", sh(`tar xzf x.tgz --one-top-level=~`), asked(RuleDynamicWriteTarget), sh(`tar xzf x.tgz --one-top-level`), false},
		{findList, ".env's lines as starting points", sh(`find -files0-from .env`), zeroD, sh(`find . -name '*.go' -newer go.mod`), false},
		{findList, "starting points from a list", sh(`find -files0-from list.txt -name x -delete`), dyn, sh(`find src -name '*.orig' -delete`), false},
		{npmConfig, "--userconfig after test", sh(`npm test --userconfig .env`), zeroD, sh(`npm test --userconfig ci/npmrc`), false},
		{npmConfig, "--globalconfig after ci", sh(`npm ci --globalconfig .env`), zeroD, sh(`npm ci --cache .npm`), false},
		{npmConfig, "npm ls", sh(`npm ls --userconfig .env`), zeroD, sh(`npm ls --depth=0`), false},
		{npmConfig, "npm view sends the registry what the file says", sh(`npm view react version --userconfig .env`), zeroD, sh(`npm view react version`), false},
		{npmConfig, "--cache writes below ~/.ssh", sh(`npm ci --cache ~/.ssh`), zeroD, sh(`npm ci --cache /tmp/npm-cache`), false},
		{npmConfig, "--logs-dir into the hooks", sh(`npm ci --logs-dir .git/hooks`), denied(RulePrefixPathPolicy + "noWrite"), sh(`npm ci --logs-dir logs`), false},
		{npmConfig, "--cafile of a key", sh(`npm ci --cafile ~/.ssh/id_rsa`), zeroD, sh(`npm ci --no-audit`), false},
		{gitGrep, "a quoted dot glob after --", sh(`git grep --untracked -h '' -- '.e*'`), contains, sh(`git grep -n foo -- '*.go'`), false},
		{gitGrep, "an exclusion after -- searches every other file", sh(`git grep --no-index -h SECRET -- ':!vendor'`), contains, sh(`git grep -n foo -- src/`), false},
		{gitGrep, "a wildcard that matches the leading dot", sh(`git grep --untracked -h SECRET -- '*env'`), contains, sh(`git grep foo -- 'src/*.ts'`), false},
		{gitGrep, "every file", sh(`git grep -h SECRET -- '*'`), contains, sh(`git grep foo -- ':(glob)**/*.go'`), false},
		{gitGrep, "a case-blind magic", sh(`git grep foo -- ':(icase).ENV'`), zeroD, sh(`git grep -n foo -- src`), false},
	}
}
