package safety

import (
	"cmp"
	"iter"
	"maps"
	"path"
	"slices"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// argSpec says which arguments of a command are paths and what the command does to them.
// Commands not listed read every operand: the path policy then sees "cat .env" and "source .env"
// alike. Listing a command only ever narrows what counts as a path where a word is clearly not one
// (a grep pattern, a chmod mode) or adds the write and delete operations it performs.
type argSpec struct {
	noPaths    bool              // operands are never paths (echo, kill)
	skip       int               // leading operands that are not paths (pattern, mode, subcommand)
	skipUnless []string          // flags that put the pattern elsewhere (grep -e), cancelling skip
	op         pathOp            // what the command does to its operands (default read)
	lastOp     pathOp            // with two or more operands, what it does to the last (cp, mv)
	restOp     pathOp            // with lastOp, what it does to the others
	inPlace    []string          // flags that make it write its operands (sed -i)
	valueOps   map[string]pathOp // options whose value is a path, and what is done to it
	subOps     map[string]pathOp // per subcommand (git), what is done to the remaining operands
	noBundles  bool              // short options never bundle (Go's flag package: -pgo is one flag)
}

// optConfigLong is the configuration file option of many programs.
const optConfigLong = "--config"

// golangciOutputs are golangci-lint's options that name a file: its configuration, read, and
// each report format's output, written.
var golangciOutputs = func() map[string]pathOp {
	ops := map[string]pathOp{"-c": opRead, optConfigLong: opRead}
	for f := range strings.FieldsSeq("text json tab html checkstyle code-climate junit-xml teamcity sarif") {
		ops["--output."+f+".path"] = opWrite
	}
	for _, f := range []string{"--cpu-profile-path", "--mem-profile-path", "--trace-path"} {
		ops[f] = opWrite // its own profiles
	}
	return ops
}()

// goFlagWrites are options of a program on Go's flag package that name a file it writes, in both
// of the spellings the package takes (-cpuprofile FILE, --cpuprofile=FILE).
func goFlagWrites(names ...string) map[string]pathOp {
	ops := map[string]pathOp{}
	for _, n := range names {
		ops["-"+n], ops["--"+n] = opWrite, opWrite
	}
	return ops
}

// npmFileOps are npm's configuration options whose value is a file it reads or a directory it
// writes. npm reads a configuration option anywhere on its line, after the subcommand too, and
// with its value apart: npm test --userconfig .env loads .env as an npmrc, npm ci --cache
// ~/.ssh writes its cache there.
var npmFileOps = map[string]pathOp{"--" + npmUserconfig: opRead, "--" + npmGlobalconfig: opRead, "--cafile": opRead,
	"--cache": opWrite, "--logs-dir": opWrite}

// Commands the analysis treats specially beyond their argSpecs entry.
const (
	cmdPushd  = "pushd"  // cd that keeps a stack of directories
	cmdScp    = "scp"    // copies, and runs ssh
	cmdSSH    = "ssh"    // runs a ProxyCommand, a LocalCommand or a library it is given
	cmdSFTP   = "sftp"   // as ssh, and its -S and -D programs
	cmdTrap   = "trap"   // its first operand is code the shell runs later
	cmdSource = "source" // runs a file's code in this shell
	cmdEcho   = "echo"   // prints its operands, which a following xargs passes on; xargs' default command
	cmdFind   = "find"   // its roots are the operands, and it runs -exec commands
	cmdGit    = "git"    // global options come before the subcommand
	cmdEnv    = "env"    // a wrapper, and the go subcommand that writes settings
	cmdSed    = "sed"    // its script may run commands or write files
	cmdAwk    = "awk"    // its program may run commands or write files
	cmdGawk   = "gawk"
	cmdPf     = "printf"
	rootDir   = "/root"

	// Programs that print credentials, run commands elsewhere or mount host paths.
	cmdKubectl = "kubectl" // exec runs a command in a pod; cp copies from one
	cmdOC      = "oc"      // OpenShift's kubectl
	cmdDocker  = "docker"  // exec runs a command in a container; run mounts host paths
	cmdPodman  = "podman"
	cmdNerdctl = "nerdctl"
	// docker-compose and podman-compose run mount -v/--volume like docker run.
	cmdDockerCompose = "docker-compose"
	cmdPodmanCompose = "podman-compose"
	cmdHelm          = "helm"
	cmdAWS           = "aws"
	cmdTerraform     = "terraform"
	cmdKustomize     = "kustomize"
	cmdRsync         = "rsync"
	subRun           = "run"
	subCreate        = "create"
	subExec          = "exec"
	subCp            = "cp"
	cmdCurl          = "curl"
	subSet           = "set"
)

// optFile names a file holding the pattern or program (grep, sed, awk) or the archive (tar).
const optFile = "--file"

// optFilename names the files kubectl and oc read objects from.
const optFilename = "--filename"

// Option sets several commands share.
var (
	// targetDirOps name the destination directory of mv, cp, install and ln.
	targetDirOps = map[string]pathOp{"-t": opWrite, optTargetDirectory: opWrite}
	// referenceOpts take the mode or owner from a file (chmod, chown, chgrp) instead of an operand.
	referenceOpts = []string{"--reference"}
	// grepPatternOpts give grep's pattern as an option, so the first operand is a path.
	grepPatternOpts = []string{"-e", "-f", "--regexp", optFile}
	// rgNoPatternOpts are rg's options with which its first operand is no pattern: a pattern
	// given by an option, or --files, which lists the files it would search, its operands all
	// paths (rg --files ~/.ssh lists the keys).
	rgNoPatternOpts = append(slices.Clip(grepPatternOpts), "--files")
	// awkProgramOpts give awk's program as a file, so the first operand is a path.
	awkProgramOpts = []string{"-f", optFile}
)

//nolint:goconst // option spellings and program names in this table read best literally, next to their neighbours
var argSpecs = map[string]argSpec{
	cmdEcho: {noPaths: true}, "printf": {noPaths: true}, "kill": {noPaths: true}, "pkill": {noPaths: true}, "pgrep": {noPaths: true},
	"killall": {noPaths: true}, "sleep": {noPaths: true}, "seq": {noPaths: true}, "expr": {noPaths: true},
	"true": {noPaths: true}, "false": {noPaths: true}, "yes": {noPaths: true},
	"date": {noPaths: true, valueOps: map[string]pathOp{"-f": opRead, optFile: opRead, "-r": opRead, "--reference": opRead}},
	"id":   {noPaths: true}, "whoami": {noPaths: true}, "uname": {noPaths: true}, "hostname": {noPaths: true},
	"which": {noPaths: true}, "type": {noPaths: true}, "exit": {noPaths: true}, "return": {noPaths: true},
	"test": {noPaths: true}, "[": {noPaths: true}, "[[": {noPaths: true}, "export": {noPaths: true},
	"unset": {noPaths: true}, cmdAlias: {noPaths: true}, "read": {noPaths: true}, "wait": {noPaths: true},
	"set": {noPaths: true}, "shift": {noPaths: true}, "break": {noPaths: true}, "continue": {noPaths: true}, "umask": {noPaths: true}, "ulimit": {noPaths: true},
	"local": {noPaths: true}, ":": {noPaths: true}, "nproc": {noPaths: true}, "basename": {noPaths: true},
	"dirname": {noPaths: true},

	"rm": {op: opDelete}, "rmdir": {op: opDelete}, "unlink": {op: opDelete}, "shred": {op: opDelete},
	"srm": {op: opDelete}, "wipe": {op: opDelete}, "trash": {op: opDelete}, "trash-put": {op: opDelete},

	"mv":      {op: opRead, lastOp: opWrite, restOp: opDelete, valueOps: targetDirOps},
	"cp":      {op: opRead, lastOp: opWrite, restOp: opRead, valueOps: targetDirOps},
	"install": {op: opRead, lastOp: opWrite, restOp: opRead, valueOps: targetDirOps},
	"ln":      {op: opRead, lastOp: opWrite, restOp: opRead, valueOps: targetDirOps},
	"rsync":   {op: opRead, lastOp: opWrite, restOp: opRead, valueOps: rsyncFileOps},
	cmdScp:    {op: opRead, lastOp: opWrite, restOp: opRead},
	cmdDitto:  {op: opRead, lastOp: opWrite, restOp: opRead},

	"tee": {op: opWrite}, "sponge": {op: opWrite}, cmdTouch: {op: opWrite}, cmdMkdir: {op: opWrite}, "mkfifo": {op: opWrite},
	"mknod": {op: opWrite}, "truncate": {op: opWrite}, "patch": {op: opWrite, valueOps: map[string]pathOp{"-o": opWrite, "-d": opWrite, "--directory": opWrite}},
	"vi": {op: opWrite}, "vim": {op: opWrite}, "nvim": {op: opWrite}, "nano": {op: opWrite},
	"emacs": {op: opWrite}, "ed": {op: opWrite}, "code": {op: opWrite},

	"chmod":   {skip: 1, skipUnless: referenceOpts, op: opWrite},
	"chown":   {skip: 1, skipUnless: referenceOpts, op: opWrite},
	"chgrp":   {skip: 1, skipUnless: referenceOpts, op: opWrite},
	"chattr":  {skip: 1, op: opWrite},
	"setfacl": {skip: 1, op: opWrite},

	"sed":   {skip: 1, skipUnless: []string{"-e", "-f", "--expression", optFile}, op: opRead, inPlace: []string{"-i", "--in-place"}, valueOps: map[string]pathOp{"-f": opRead, optFile: opRead}},
	"perl":  {op: opRead, inPlace: []string{"-i"}},
	"grep":  {skip: 1, skipUnless: grepPatternOpts, valueOps: grepFileOps},
	"egrep": {skip: 1, skipUnless: grepPatternOpts, valueOps: grepFileOps},
	"fgrep": {skip: 1, skipUnless: grepPatternOpts, valueOps: grepFileOps},
	"rg":    {skip: 1, skipUnless: rgNoPatternOpts, valueOps: map[string]pathOp{"-f": opRead, optFile: opRead, "--ignore-file": opRead}},
	// ugrep reads its words as grep does, ripgrep-all (rga) as rg does: what they search is
	// judged as grep's and rg's is, a recursive search of ~ a read of ~/.ssh among it.
	cmdUgrep: {skip: 1, skipUnless: grepPatternOpts, valueOps: grepFileOps},
	cmdRga:   {skip: 1, skipUnless: rgNoPatternOpts, valueOps: map[string]pathOp{"-f": opRead, optFile: opRead, "--ignore-file": opRead}},
	"ag":     {skip: 1, valueOps: map[string]pathOp{"-p": opRead, "--path-to-ignore": opRead}},
	"ack":    {skip: 1},
	"awk":    {skip: 1, skipUnless: awkProgramOpts},
	"gawk":   {skip: 1, skipUnless: awkProgramOpts},
	"sort":   {valueOps: map[string]pathOp{"-o": opWrite, "--output": opWrite}},
	// uniq IN OUT and xxd [-r] IN OUT write their second operand; split IN PREFIX writes PREFIXaa...
	"uniq": {op: opRead, lastOp: opWrite, restOp: opRead}, "xxd": {op: opRead, lastOp: opWrite, restOp: opRead},
	"split": {op: opRead, lastOp: opWrite, restOp: opRead}, "csplit": {op: opRead},
	// A compressor replaces each file with its compressed one (gzip -r . every file below .), unless
	// it writes to stdout or keeps the original (compressed).
	"gzip": {op: opDelete}, "gunzip": {op: opDelete}, "bzip2": {op: opDelete}, "bunzip2": {op: opDelete},
	"xz": {op: opDelete}, "unxz": {op: opDelete}, "lzma": {op: opDelete}, "unlzma": {op: opDelete},
	"compress": {op: opDelete}, "uncompress": {op: opDelete}, "lzip": {op: opDelete},
	"lz4": {op: opDelete, lastOp: opWrite, restOp: opRead}, // lz4 IN OUT

	"dd": {valueOps: map[string]pathOp{"of": opWrite, "if": opRead}},
	cmdCurl: {valueOps: map[string]pathOp{"-o": opWrite, "--output": opWrite, "-T": opRead, "--upload-file": opRead, "-K": opRead, "--config": opRead, "-c": opWrite, "--cookie-jar": opWrite, "-D": opWrite, "--dump-header": opWrite,
		"--output-dir": opWrite, "--trace": opWrite, "--trace-ascii": opWrite, "--stderr": opWrite, "--libcurl": opWrite, "--etag-save": opWrite, "--hsts": opWrite, "--alt-svc": opWrite}},
	cmdWget: {valueOps: map[string]pathOp{"-O": opWrite, "--output-document": opWrite, "-o": opWrite, "--output-file": opWrite, "-P": opWrite, "--directory-prefix": opWrite, "-i": opRead, "--post-file": opRead,
		"-a": opWrite, "--append-output": opWrite, "--save-cookies": opWrite, "--load-cookies": opRead, "--body-file": opRead, "--config": opRead, "--warc-file": opWrite}},
	// jq's and yq's first operand is the program (".env" is a key, not a file), unless a file holds it.
	"jq":   {skip: 1, skipUnless: []string{"-f", "--from-file"}, valueOps: map[string]pathOp{"-f": opRead, "--from-file": opRead}},
	"yq":   {skip: 1, skipUnless: []string{"--from-file"}, inPlace: []string{"-i", "--inplace"}, valueOps: map[string]pathOp{"--from-file": opRead}},
	"less": {valueOps: map[string]pathOp{"-o": opWrite, "--log-file": opWrite, "-O": opWrite, "--LOG-FILE": opWrite}},
	// tar writes an incremental snapshot (-g), its verbose listing (--index-file: the members'
	// names, the caller's text) and the volume number where they say.
	"tar": {valueOps: map[string]pathOp{"-f": opWrite, optFile: opWrite, "-C": opWrite, "--directory": opWrite, "-g": opWrite,
		"--listed-incremental": opWrite, "--index-file": opWrite, "--volno-file": opWrite}},
	"unzip": {valueOps: map[string]pathOp{"-d": opWrite}},
	// cpio -i -D DIR extracts below DIR (cpio -p DIR: extractionPaths).
	cmdCpio: {valueOps: map[string]pathOp{"-D": opWrite, "--directory": opWrite}},
	"zip":   {valueOps: map[string]pathOp{"-O": opWrite, "--output-file": opWrite}}, // the archive --out writes
	cmdFind: {valueOps: map[string]pathOp{"-fprint": opWrite, "-fprintf": opWrite, "-fls": opWrite, "-fprint0": opWrite, optFiles0From: opRead}},

	cmdGit: {skip: 1, valueOps: map[string]pathOp{"--output": opWrite, "--output-directory": opWrite}, subOps: map[string]pathOp{"rm": opDelete, gitSubCheckout: opWrite, gitSubRestore: opWrite, "mv": opWrite, "apply": opRead,
		// git stash push PATHSPEC resets the paths to HEAD (or removes them, untracked, with -u).
		gitSubStash: opWrite}},
	"go": {skip: 1, valueOps: goValueOps, noBundles: true}, "npm": {skip: 1, valueOps: npmFileOps},
	// pnpm's and yarn's directories an install writes packages below, and their stores and caches.
	"pnpm": {skip: 1, valueOps: map[string]pathOp{"--modules-dir": opWrite, "--virtual-store-dir": opWrite, "--store-dir": opWrite,
		"--cache-dir": opWrite}},
	"yarn": {skip: 1, valueOps: map[string]pathOp{"--modules-folder": opWrite, "--cache-folder": opWrite, "--global-folder": opWrite,
		"--link-folder": opWrite}},
	"cargo": {skip: 1, valueOps: map[string]pathOp{"--target-dir": opWrite, "--artifact-dir": opWrite, "--out-dir": opWrite, "--logfile": opWrite}},
	// Test runners' and tree's reports.
	"tree": {valueOps: map[string]pathOp{"-o": opWrite}},
	// jest's and vitest's in both spellings yargs and cac read (camelAndKebab: --output-file).
	"jest": {valueOps: camelAndKebabOps(map[string]pathOp{"outputFile": opWrite, "coverageDirectory": opWrite, "cacheDirectory": opWrite})},
	// vitest deletes its coverage reports directory, with all below it, before it writes the report.
	"vitest": {valueOps: camelAndKebabOps(map[string]pathOp{"outputFile": opWrite, "coverage.reportsDirectory": opDelete})},
	// ctest's log of the run and its JUnit report; tox's JSON report and the tree of
	// environments it makes below --workdir.
	"ctest": {valueOps: map[string]pathOp{"-O": opWrite, "--output-log": opWrite, "--output-junit": opWrite}},
	"tox":   {valueOps: map[string]pathOp{"--result-json": opWrite, "--workdir": opWrite}},
	// Formatters and linters rewrite their operands when told to, and write their reports and
	// caches where an option says; tsc writes below its output options (read in any case, as
	// tsc reads them: tsOptions).
	"prettier": {inPlace: []string{"--write", "-w"}, valueOps: map[string]pathOp{"--cache-location": opWrite}},
	"eslint":   {inPlace: []string{"--fix"}, valueOps: map[string]pathOp{"-o": opWrite, "--output-file": opWrite, "--cache-location": opWrite}},
	"gofmt":    {inPlace: []string{"-w"}, valueOps: goFlagWrites("cpuprofile"), noBundles: true},
	// staticcheck writes its profiles, trace and measurements where its -debug.* options say.
	"staticcheck": {valueOps: goFlagWrites("debug.cpuprofile", "debug.memprofile", "debug.trace", "debug.measure-analyzers",
		"debug.unused-graph"), noBundles: true},
	// golangci-lint writes each report format's file where --output.FORMAT.path says (v2), and
	// fixes its operands with --fix.
	"golangci-lint": {skip: 1, inPlace: []string{"--fix"}, valueOps: golangciOutputs},
	"tsc": {valueOps: map[string]pathOp{"--outdir": opWrite, "--outfile": opWrite, "--out": opWrite, "--declarationdir": opWrite,
		"--tsbuildinfofile": opWrite, "--generatecpuprofile": opWrite, "--generatetrace": opWrite}},
	cmdNode: {valueOps: map[string]pathOp{"--test-reporter-destination": opWrite, optEnvFileLong: opRead, optEnvFileIfExists: opRead}},
	"make":  {noPaths: true}, cmdKubectl: kubectlArgs, cmdOC: kubectlArgs, "docker": {skip: 1}, "systemctl": {skip: 1},
	// BSD base64 (macOS) writes -o's file; pip appends its log to --log's and caches below --cache-dir.
	"base64": {valueOps: map[string]pathOp{"-o": opWrite, "--output": opWrite, "-i": opRead, "--input": opRead}},
	cmdPip:   pipArgs,
	// maven writes its whole output to -l's file; its pom, settings and toolchains are read.
	cmdMvn: {valueOps: map[string]pathOp{"-l": opWrite, "--log-file": opWrite, "-f": opRead, "--file": opRead, "-s": opRead,
		"--settings": opRead, "-gs": opRead, "--global-settings": opRead, "-t": opRead, "--toolchains": opRead}},
}

// goProfiles are go test's options that write a file (below -outputdir when it is given).
var goProfiles = []string{"-cpuprofile", "-memprofile", "-blockprofile", "-mutexprofile", "-trace", "-coverprofile"}

// goTestBinaryWrites are the test binary's own options that write a file or below a directory,
// which go test passes on after -args (its log of what the test opened, its coverage data, its
// fuzzing cache); they are spelt only with the "test." prefix.
var goTestBinaryWrites = []string{"-test.testlogfile", "-test.gocoverdir", "-test.fuzzcachedir"}

// goValueOps are go's options that name a file, in both of the spellings Go's flag package takes,
// and go test's also with the "test." prefix that go test and the test binary take
// (-test.coverprofile=FILE, also after -args).
var goValueOps = func() map[string]pathOp {
	m := map[string]pathOp{"-o": opWrite}
	for _, o := range append([]string{"-outputdir"}, goProfiles...) {
		m[o] = opWrite
		m["-test."+o[1:]] = opWrite
	}
	for _, o := range goTestBinaryWrites {
		m[o] = opWrite
	}
	for k, v := range m {
		m["-"+k] = v
	}
	return m
}()

// pytestOutputs are pytest's options that write a file; --basetemp's directory is deleted first
// (pytest removes it if it exists), with everything below it.
// --debug's file is optional (argparse takes the next word for it unless it is an option).
var pytestOutputs = map[string]pathOp{"--junitxml": opWrite, "--junit-xml": opWrite, "--log-file": opWrite,
	"--result-log": opWrite, "--resultlog": opWrite, "--report-log": opWrite, "--json-report-file": opWrite, "--html": opWrite,
	optPytestDebug: opWrite, "--basetemp": opDelete}

// optPytestDebug is pytest's option that writes its debug log.
const optPytestDebug = "--debug"

// pytestIniPaths are the settings (-o NAME=VALUE) whose value is a path pytest writes: its cache
// directory and its log file.
var pytestIniPaths = map[string]bool{"cache_dir": true, "log_file": true}

// pytestShortValues are the letters of pytest's short options that take a value (-k EXPR, -m
// MARKS, -p PLUGIN, -c FILE, -o INI, -W WARNING, -r CHARS, xdist's -n NUM): in a bundle, the
// first of them takes the rest (-rxo: -r's characters "xo", not -o).
const pytestShortValues = "kmpcoWrn"

// pytestTakesShortValue says whether pytest's short option opt ("-o") takes a value.
func pytestTakesShortValue(opt string) bool {
	return len(opt) == 2 && strings.IndexByte(pytestShortValues, opt[1]) >= 0
}

// kubectlArgs reads kubectl's (and oc's) operands after the verb, and the files -f and -k name.
// --profile-output (the profile a global --profile writes), --cache-dir (a tree of discovery and
// HTTP caches) and cluster-info dump's --output-directory (a tree of JSON and logs) are writes.
var kubectlArgs = argSpec{skip: 1, valueOps: map[string]pathOp{"-f": opRead, optFilename: opRead, "-k": opRead, "--kustomize": opRead,
	"--profile-output": opWrite, optCacheDir: opWrite, "--output-directory": opWrite}}

// rsyncFileOps are rsync's own files: the log it appends to (each line names a file it copied,
// the caller's text), the batch file and the FILE.sh script beside it that --write-batch and
// --only-write-batch write, the directories its backups (-b), temporary and partial files go to
// (a backup keeps the replaced file's name: --backup-dir=.git/hooks lands a pre-commit there).
var rsyncFileOps = map[string]pathOp{"--log-file": opWrite, "--write-batch": opWrite, "--only-write-batch": opWrite,
	"--backup-dir": opWrite, "-T": opWrite, "--temp-dir": opWrite, "--partial-dir": opWrite}

// pipArgs are pip's files: the log --log and --log-file append to, the cache below --cache-dir.
var pipArgs = argSpec{valueOps: map[string]pathOp{"--log": opWrite, "--log-file": opWrite, optCacheDir: opWrite}}

// gitMessageFileSubs are git's subcommands whose -F/--file names a file holding the message.
var gitMessageFileSubs = strings.Fields("commit tag merge notes")

// gitMessageFileOps are git's valueOps with the message file those subcommands read.
var gitMessageFileOps = func() map[string]pathOp {
	m := map[string]pathOp{"-F": opRead, optFile: opRead}
	maps.Copy(m, argSpecs[cmdGit].valueOps)
	return m
}()

// argSpecOf is the argSpec of a segment's command: kubectl cp SRC DST and docker cp SRC DST
// (oc, podman, nerdctl) also write their destination, here or in the pod or container; git mv
// deletes its sources.
func argSpecOf(seg *segment) argSpec {
	spec := argSpecs[seg.name]
	if seg.name == cmdGit && slices.Contains(gitMessageFileSubs, gitSub(seg)) {
		// Their -F FILE (--file) is the message, read: "git commit -qF.env" bundles it.
		spec.valueOps = gitMessageFileOps
	}
	if seg.name == cmdGit && gitSub(seg) == "mv" && !seg.hasFlag("-n") && !seg.hasFlag("--dry-run") {
		// git mv moves as mv does: its sources are gone (git mv README.md x.md deletes README.md).
		spec.lastOp, spec.restOp = opWrite, opDelete
	}
	if seg.name == "go" && len(seg.operands) > 0 && seg.operands[0].s == cmdEnv {
		// go env's operands are settings (go env -w GOPRIVATE=*.corp.example.com), not files.
		spec.noPaths = true
	}
	if containerCopy(seg) {
		spec.lastOp, spec.restOp = opWrite, opRead
		if spec.skip = 1; seg.operands[0].s == "container" {
			spec.skip = 2 // docker container cp
		}
	}
	return spec
}

// ownWordsPaths says whether a segment's own words are read for paths: not a wrapper's, mostly
// the wrapped command, analysed as its own segment; nor dotenv-cli's, options minimist reads
// (-e.env and --e=.env are -e .env), whose only paths are the files it loads (dotenvFiles).
func ownWordsPaths(seg *segment) bool {
	if seg.name == "" || seg.wrapper && seg.name != cmdFind {
		return false
	}
	_, cli := dotenvCLI(seg)
	return !cli
}

// argPaths records the paths a segment's arguments name.
func (a *analyzer) argPaths(idx int) {
	seg := &a.out.segments[idx]
	defer a.stampSegment(len(a.out.paths), idx)
	a.dotenvFiles(seg) // a loader's own options, whether it runs a command (a wrapper) or not
	if !ownWordsPaths(seg) {
		return
	}
	spec := argSpecOf(seg)
	a.optionValues(seg, spec)
	a.unknownAttachedValues(seg)
	a.globNames(seg)
	if nameList(seg) {
		a.touch(word{s: placeholderXargs, dynamic: true}, opRead)
		a.listFiles(seg)
	}
	if spec.noPaths {
		return
	}
	if extracts(seg) {
		a.extractionPaths(seg)
	}
	// grep -q NAME FILE answers only whether FILE defines NAME: the reference's safe protocol
	// for checking a secret exists without reading it.
	if a.ownOperandPaths(seg) || presenceCheck(seg) {
		return
	}
	if seg.name == cmdGit {
		saved := a.cwd
		defer func() { a.cwd = saved }()
		a.gitGlobalPaths(seg)
	}
	search, listing := recursiveSearch(seg), listsTree(seg)
	// kubectl cp and docker cp copy a directory whole, with no option to ask for it.
	a.recursive = recursiveOp(seg) || containerCopy(seg) || search || listing || gitTakesIgnored(seg)
	a.listing = listing && !search
	if search {
		a.only = searchNameFilter(seg)
	}
	defer func() { a.recursive, a.listing, a.only = false, false, nil }()
	ops := seg.operands
	op := operandOp(seg, spec)
	ops = ops[operandSkip(seg, spec):]
	if seg.name == cmdGit {
		ops = a.gitOperands(seg, ops, op)
	}
	if (search || listing) && len(ops) == 0 {
		// grep -r, rg, ag and ack without a path search the working directory; ls -R lists it.
		a.touch(word{s: "."}, opRead)
	}
	if a.cloudCopyPaths(seg) {
		return // its operands read as the program reads them, option values skipped
	}
	a.programPaths(seg)
	a.members = copiesTree(seg, a.recursive)
	if !a.copyToTarget(seg, spec) {
		a.operandPaths(remoteOperands(seg, ops), op, spec)
		a.sedBackups(seg, ops)
		a.targetDirectory(seg, ops, spec)
	}
	a.members = false
	a.programOutputs(seg)
	a.madeFiles(seg, ops)
	a.syncDeletes(seg, remoteOperands(seg, ops))
}

// gitOperands returns git's operands as the paths they name (gitPathspecs), and none for git rm
// --cached, which only stops tracking its paths (git rm --cached .env after adding it to
// .gitignore) and neither reads nor deletes the files. git rm's glob matches across directories
// ("*" is every file in the tree), and ":/" or an exclusion names the whole tree: as rm -r does.
func (a *analyzer) gitOperands(seg *segment, ops []word, op pathOp) []word {
	if len(seg.operands) == 0 || !gitPathspecSubs[seg.operands[0].s] {
		return ops
	}
	ops, anywhere := gitPathspecs(ops)
	a.recursive = a.recursive || anywhere && op == opDelete && !seg.hasFlag("--cached")
	if seg.operands[0].s == "rm" && seg.hasExactFlag("--cached") {
		return ops[:0]
	}
	return ops
}

// programPaths records the paths a program's own words name beyond its operands.
func (a *analyzer) programPaths(seg *segment) {
	switch seg.name {
	case cmdDuckdb, cmdSqlite3:
		a.sqlFiles(seg)
		a.sqlDatabase(seg)
	case cmdGit:
		if len(seg.operands) > 0 && seg.operands[0].s == "grep" {
			a.gitGrepRoots(seg)
		}
		a.gitObjectPaths(seg)
		a.gitBlobsByID(seg)
		a.gitWrites(seg)
		a.gitConfigFiles(seg)
		a.gitApplyInto(seg)
		a.gitIgnoredFiles(seg)
	case cmdCurl:
		a.curlURLEncoded(seg)
		a.downloadNames(seg)
		a.curlNetrc(seg)
		a.curlUploadGlobs(seg)
		a.curlWriteOut(seg)
	case cmdWget:
		a.downloadNames(seg)
	case cmdAria2c, cmdHTTPie, cmdHTTPieS, cmdXh, cmdXhs:
		a.otherDownloads(seg)
	case "rg":
		a.searchGlobs(seg)
	case "yq":
		a.yqLoads(seg)
	case cmdSocat:
		a.socatPaths(seg)
	case cmdKubectl, cmdOC:
		a.kubectlFromFile(seg)
		a.kubectlTemplateFile(seg)
	case cmdNode, cmdNodejs:
		a.nodeDiagnostics(seg)
	default:
		a.servedDirectory(seg)
		a.configSetWrites(seg)
		a.ghDownloads(seg)
	}
}

// programOutputs records what a program makes besides its operands: links, go's binary and
// profiles, pytest's reports and the directory it deletes, golangci-lint's v1 reports.
func (a *analyzer) programOutputs(seg *segment) {
	switch seg.name {
	case "ln":
		a.linkNamedByItsTarget(seg) // before the link is recorded: the write makes it, not through it
		a.symlinkTargets(seg)
	case "go":
		a.goBinary(seg)
		a.goOutputDir(seg)
	case cmdPytest:
		a.pytestPaths(seg.words[1:])
	case cmdDotnet, cmdMSBuild:
		a.dotnetOutputs(seg)
		a.dotnetEnvironment(seg)
	case "golangci-lint":
		a.golangciOutFormat(seg)
	default:
		if mod, m, ok := pythonModuleRun(seg); ok && mod == cmdPytest {
			a.pytestPaths(m.words[1:])
		} else if ok && mod == cmdPip {
			a.optionValues(&m, pipArgs) // python -m pip --log FILE, as pip's
		}
		a.pythonCachePrefix(seg)
	}
}

// operandPaths records each operand as a path with op, or, for a command that writes its last
// operand (cp, mv, ln), the last with spec.lastOp and the others with spec.restOp.
func (a *analyzer) operandPaths(ops []word, op pathOp, spec argSpec) {
	for i, w := range ops {
		o := op
		if spec.lastOp != 0 && len(ops) > 1 {
			if i == len(ops)-1 {
				o = spec.lastOp
			} else {
				o = spec.restOp
			}
		}
		a.operandPath(w, o)
	}
	if spec.lastOp == opWrite && len(ops) > 1 {
		a.intoDirectory(ops[:len(ops)-1], ops[len(ops)-1])
	}
}

// targetDirectory records what a copy or move with -t DIR (--target-directory) writes: DIR/NAME
// for each operand's NAME, all of them sources.
func (a *analyzer) targetDirectory(seg *segment, ops []word, spec argSpec) {
	if _, ok := spec.valueOps["-t"]; !ok || len(ops) == 0 {
		return
	}
	if dir, ok := optionValue(seg, "-t", optTargetDirectory); ok {
		a.intoDirectory(ops, dir)
	}
}

// intoDirectory records the files a copy or move writes when its destination is a directory:
// DEST/NAME for each source's NAME ("cp /tmp/x/.bashrc ~" writes ~/.bashrc, which DEST alone
// does not name). Whether DEST is a directory is not known, so both are judged (with -t it is:
// targetDirectory).
func (a *analyzer) intoDirectory(sources []word, dest word) {
	if dest.dynamic || dest.s == "" {
		return // a computed destination is judged, and asked for, as itself
	}
	for _, src := range sources {
		name := path.Base(strings.TrimRight(src.s, "/"))
		if src.dynamic || name == "." || name == ".." || name == "/" || strings.HasPrefix(src.s, "-") {
			continue
		}
		a.operandPath(dest.with(strings.TrimRight(dest.s, "/")+"/"+name), opWrite)
	}
}

// linkNamedByItsTarget records the link ln makes from one operand and no -t: ./NAME, the
// target's base name in the working directory (ln -s x/opencode.json makes ./opencode.json), a
// write the operand, read as a source, does not name.
func (a *analyzer) linkNamedByItsTarget(seg *segment) {
	ln, ok := lnArgs(seg.words)
	if !ok || ln.targetDir != "" || len(ln.operands) != 1 {
		return // a computed word could be any option: argPaths asks for it
	}
	t := ln.operands[0]
	if name := path.Base(strings.TrimRight(t.s, "/")); name != "." && name != ".." && name != "/" {
		a.operandPath(t.with(name), opWrite)
	}
}

// symlinkTargets records the targets of a symbolic link as the kernel reads them: a relative
// target is resolved from the link's directory, not the working directory (ln -s ../etc /tmp/e
// links /etc). That directory is the -t directory, or else the last operand, which is the link
// itself or a directory it goes in: both are taken. A target that starts with ~ or $ is also
// taken as written, a name below that directory (quoted, the shell leaves it so). With -r ln
// computes the link from the working directory, which argPaths has already judged. ln's own
// options are read as ln reads them (lnArgs): -S takes a value, long options abbreviate.
func (a *analyzer) symlinkTargets(seg *segment) {
	ln, ok := lnArgs(seg.words)
	if !ok || !ln.symbolic || ln.relative {
		return // a computed word could be any option: argPaths asks for it
	}
	targets, bases := ln.operands, []string{}
	if ln.targetDir != "" {
		bases = append(bases, ln.targetDir)
	} else if len(ln.operands) > 1 {
		last := ln.operands[len(ln.operands)-1].s
		targets = ln.operands[:len(ln.operands)-1]
		bases = append(bases, last, path.Dir(last))
		if len(targets) == 1 {
			// ln -s T L makes L, or L/T's name when L is a directory.
			a.recordLink(ln.operands[len(ln.operands)-1], targets[0])
			a.recordLink(word{s: path.Join(last, path.Base(targets[0].s))}, targets[0])
		}
	}
	if ln.targetDir != "" || len(ln.operands) == 1 {
		for _, t := range targets {
			a.recordLink(word{s: path.Join(cmp.Or(ln.targetDir, "."), path.Base(t.s))}, t)
		}
	}
	saved := a.cwd
	defer func() { a.cwd = saved }()
	for _, base := range bases {
		if a.cwd = resolvePath(saved, base); a.cwd == "" {
			continue
		}
		for _, t := range targets {
			switch {
			case strings.HasPrefix(t.s, "/"):
				// Read as argPaths read it.
			case strings.HasPrefix(t.s, "~") || strings.HasPrefix(t.s, "$"):
				a.touch(t.with("./"+t.s), opRead)
			default:
				a.touch(t, opRead)
			}
		}
	}
}

// lnOptions are the parts of an ln command line symlinkTargets needs.
type lnOptions struct {
	symbolic, relative bool
	targetDir          string
	operands           []word
}

// optTargetDirectory names the directory mv, cp, install and ln put their operands in.
const optTargetDirectory = "--target-directory"

// lnGetopt is GNU ln's option table (--help and --version make no link, which an option lnArgs
// does not know stands for as well).
var lnGetopt = getoptSpec{shortValue: "St", long: map[string]string{
	"--backup": "?", "--directory": "", "--force": "", "--interactive": "", "--logical": "", "--no-dereference": "",
	"--physical": "", "--relative": "", "--symbolic": "", "--suffix": "=", optTargetDirectory: "=",
	"--no-target-directory": "", "--verbose": "",
}}

// lnArgs reads an ln command line as GNU ln does (getopt): -S and -t take a value, long options
// abbreviate. False when a word is computed (it could be any option), or an option is unknown or
// ambiguous (ln refuses it, and makes no link).
func lnArgs(words []word) (lnOptions, bool) {
	o := lnOptions{}
	if slices.ContainsFunc(words, func(w word) bool { return w.dynamic }) {
		return o, false
	}
	opts, operands := getopt(words, lnGetopt)
	o.operands = operands
	for _, a := range opts {
		switch a.opt {
		case "-s", "--symbolic":
			o.symbolic = true
		case "-r", "--relative":
			o.relative = true
		case "-t", optTargetDirectory:
			o.targetDir = a.val.s
		case "-S", "--suffix", "-b", "-d", "-F", "-f", "-i", "-L", "-n", "-P", "-T", "-v":
		default:
			if _, known := lnGetopt.long[a.opt]; !known {
				return o, false
			}
		}
	}
	return o, true
}

// recursiveSearch reports whether a command reads the contents of everything below its path
// operands: grep -r/-R (--recursive, --dereference-recursive, abbreviated), and rg, ag and ack,
// which always recurse (rg --files only lists names). Like cp -r, a search of a directory that
// holds protected files reads them: containment applies.
func recursiveSearch(s *segment) bool {
	switch s.name {
	case "grep", "egrep", "fgrep", cmdUgrep:
		return s.hasFlag("-r") || s.hasFlag("-R") || s.hasFlag("--recursive") || s.hasFlag("--dereference-recursive") ||
			(s.hasFlag("-d") || s.hasFlag("--directories")) && slices.ContainsFunc(s.words, func(w word) bool { return w.s == "recurse" || strings.HasSuffix(w.s, "=recurse") })
	case "rg", cmdRga:
		return !s.hasFlag("--files") && !s.hasFlag("--type-list")
	case "ag", "ack":
		return true
	}
	return false
}

// gitGrepRoots records what git grep searches, recursively: the pathspecs after "--", or the
// operands after the pattern when none of them can be a revision (git grep TODO src/), or else
// the working directory (the work tree below it, or all of it with --untracked or --no-index):
// a revision searches its whole tree. Its pattern and revisions stay operands read as written.
// A pathspec is read as git reads it (gitPathspecs): an exclusion (":!vendor") searches the
// working directory, and a glob matches at any depth with a wildcard that matches a leading dot
// ("*env" is .env), so it searches the working directory for the names its last part passes, as
// a search filter does (searchNameFilter).
func (a *analyzer) gitGrepRoots(s *segment) {
	a.recursive = true
	defer func() { a.recursive, a.only = false, nil }()
	var specs []word
	if i := slices.IndexFunc(s.words, func(w word) bool { return w.s == "--" }); i > 0 {
		specs = s.words[i+1:]
	} else {
		ops := s.operands[1:]
		if len(ops) > 0 && !s.hasFlag("-e") && !s.hasFlag("-f") && !s.unknownFlags {
			ops = ops[1:] // the pattern
		}
		if !slices.ContainsFunc(ops, func(w word) bool { return !gitPathOnly(w) }) {
			specs = ops
		}
	}
	if len(specs) == 0 {
		a.touch(word{s: "."}, opRead)
		return
	}
	specs, _ = gitPathspecs(specs)
	for _, p := range specs {
		a.only = nil
		if p.glob && !p.dynamic {
			a.only = []string{foldName(p.s[strings.LastIndexByte(p.s, '/')+1:])}
			p = word{s: "."}
		}
		a.touch(p, opRead)
	}
}

// gitPathOnly says whether a git operand can only be a path, never a revision: a refname ends in
// no "/" and holds no glob character, and "./", "../" and "/" start no revision. Revision syntax
// (":", "^", "~", "@") and a computed word could be either.
func gitPathOnly(w word) bool {
	if w.dynamic || strings.ContainsAny(w.s, ":^~@") {
		return false
	}
	return w.s == "." || w.s == ".." || strings.HasPrefix(w.s, "./") || strings.HasPrefix(w.s, "../") ||
		strings.HasPrefix(w.s, "/") || strings.HasSuffix(w.s, "/") || strings.ContainsAny(w.s, "*?[")
}

// gitObjectPaths reads the paths a git operand names in a revision (git show HEAD:.env.local,
// git cat-file -p :0:.env, git diff main:config/prod.env): a file's content as committed, which
// the path policy protects as it protects the file.
func (a *analyzer) gitObjectPaths(s *segment) {
	for i, w := range s.words[1:] {
		if f, ok := gitLineRangeFile(s, i+1); ok {
			a.touch(w.with(f), opRead)
			continue
		}
		if gitOptionValue(s, i+1) {
			continue // a message, an author or a pattern: git commit -m "fix: $(date)"
		}
		rev, p, ok := strings.Cut(w.s, ":")
		if !ok || strings.HasPrefix(w.s, "-") || strings.Contains(w.s, "://") {
			continue
		}
		if rev == "" && p != "" && strings.IndexByte("(!^", p[0]) >= 0 {
			continue // pathspec magic (":(exclude).env", ":!vendor"), which gitPathspecs reads
		}
		if rev == "" && len(p) > 1 && p[0] >= '0' && p[0] <= '3' && p[1] == ':' {
			p = p[2:] // :0:path, a stage of the index
		}
		p = strings.TrimPrefix(p, "./")
		if p != "" && !strings.HasPrefix(p, "/") {
			a.touch(w.with(p), opRead)
		}
	}
}

// gitOptionValue reports whether word i of a git segment is the value of its subcommand's value
// option given apart (commit -m MSG, tag -m, log --grep), bundled ones included (-am MSG).
func gitOptionValue(s *segment, i int) bool {
	if i < 2 || len(s.operands) == 0 {
		return false
	}
	prev, opts := s.words[i-1].s, gitValueOptions[s.operands[0].s]
	if slices.Contains(opts, prev) {
		return true
	}
	return len(prev) > 2 && prev[0] == '-' && prev[1] != '-' && slices.Contains(opts, "-"+prev[len(prev)-1:])
}

// gitBatchObjects reads the objects git cat-file --batch or --batch-command prints, named on its
// standard input (echo HEAD:.env | git cat-file --batch): from a here-string or here-document, or
// what an earlier stage prints, as gitObjectPaths reads them from its operands; from anything
// else, or with --batch-all-objects (every object ever committed), a computed path.
func (a *analyzer) gitBatchObjects(idx int, redirs []*syntax.Redirect) {
	s := &a.out.segments[idx]
	if sub, _, ok := firstOperands(s); !ok || sub != "cat-file" || !s.hasFlag("--batch") && !s.hasFlag("--batch-command") {
		return
	}
	if s.hasFlag("--batch-all-objects") {
		// Every object of the repository, whatever was ever committed.
		a.touch(word{s: placeholderXargs, dynamic: true}, opRead)
		return
	}
	names, known := a.stdinYields(idx, redirs)
	if !known || s.hasFlag("--follow-symlinks") {
		// --follow-symlinks reads, for a name that is a link in the tree, the file it points at,
		// which only the repository knows (HEAD:link, committed as a link to .env).
		a.touch(word{s: placeholderXargs, dynamic: true}, opRead)
		return
	}
	words := []word{{s: cmdGit}}
	for _, n := range names {
		if n == placeholderXargs || gitObjectID(n) {
			a.touch(word{s: n, dynamic: true}, opRead) // an id may name any committed file's blob
			continue
		}
		words = append(words, word{s: n})
	}
	a.gitObjectPaths(&segment{words: words})
}

// gitGlobalPaths reads the directories git's global options name, in either spelling ("-C dir",
// "--git-dir dir", "--work-tree=dir"; optionValues already reads the "=" forms), and moves the
// working directory to each -C, as git does before it reads its operands. The work tree is
// written too: git checks files out there (git --work-tree=/etc checkout HEAD -- passwd writes
// /etc/passwd), and which subcommands do is not followed.
func (a *analyzer) gitGlobalPaths(s *segment) {
	w := s.words
	for i := 1; i < len(w) && strings.HasPrefix(w[i].s, "-") && !w[i].dynamic; i++ {
		switch v := w[i].s; {
		case (v == "-C" || v == gitDirOption || v == gitWorkTreeOption) && i+1 < len(w):
			i++
			a.touch(w[i], opRead)
			switch v {
			case "-C":
				a.chdir(w[i])
			case gitWorkTreeOption:
				a.touch(w[i], opWrite)
			case gitDirOption:
				a.gitDir(w[i])
			}
		case strings.HasPrefix(v, gitWorkTreeOption+"="):
			a.touch(w[i].with(v[len(gitWorkTreeOption)+1:]), opWrite)
		case strings.HasPrefix(v, gitDirOption+"="):
			a.gitDir(w[i].with(v[len(gitDirOption)+1:]))
		case v == "--bare":
			a.gitDir(word{s: "."})
		case gitGlobalsWithValue[v]:
			i++
		}
	}
}

// gitDir judges a repository directory git is pointed at (--git-dir, GIT_DIR, --bare's working
// directory): git reads its config, which can run any command (core.fsmonitor, core.pager,
// aliases), and runs its hooks. The path policy guards those below a .git directory, not in a
// directory named otherwise, such as a bare repository the agent wrote itself, so any other is
// code the engine cannot see.
func (a *analyzer) gitDir(dir word) {
	if !dir.dynamic && path.Base(path.Clean(dir.s)) == ".git" {
		return
	}
	a.find(false, RuleOpaqueCode, "git run with the repository %q reads its config and runs its hooks, which can run any command and which the path policy guards only in a .git directory; it needs human approval", dir.s)
}

// operandSkip returns how many leading operands are not paths (a pattern, a mode), unless an
// option moved them elsewhere (grep -e).
func operandSkip(s *segment, spec argSpec) int {
	skip := spec.skip
	for _, f := range spec.skipUnless {
		if s.hasFlag(f) {
			skip = 0
		}
	}
	if s.name == "yq" && skip > 0 && len(s.operands) > 0 && yqSubcommands[s.operands[0].s] {
		skip++ // yq eval EXPR FILE...
	}
	return min(skip, len(s.operands))
}

// yqSubcommands come before yq's expression.
var yqSubcommands = map[string]bool{"e": true, cmdEval: true, "ea": true, "eval-all": true}

// operandOp returns what a command does to its operands: its spec's operation, a write when an
// in-place option is given (sed -i), or its subcommand's (git rm).
func operandOp(s *segment, spec argSpec) pathOp {
	op := spec.op
	if op == 0 {
		op = opRead
	}
	if op == opDelete && compressors[s.name] && keepsOriginal(s) {
		op = opRead
	}
	for _, f := range spec.inPlace {
		if s.hasFlag(f) {
			op = opWrite
		}
	}
	if spec.subOps != nil && len(s.operands) > 0 {
		if o, ok := spec.subOps[s.operands[0].s]; ok {
			op = o
		}
	}
	return op
}

// decompressors are the compressors that decompress by default.
var decompressors = map[string]bool{"gunzip": true, "bunzip2": true, "unxz": true, "unlzma": true, "uncompress": true}

// compressors replace the files they are given (gzip f leaves f.gz, and no f).
var compressors = map[string]bool{"gzip": true, "gunzip": true, "bzip2": true, "bunzip2": true, "xz": true, "unxz": true,
	"lzma": true, "unlzma": true, "compress": true, "uncompress": true, "lzip": true, "lz4": true}

// keepsOriginal says whether a compressor keeps the files it reads: it writes no file, or keeps
// them (lz4 keeps them unless told --rm).
func keepsOriginal(s *segment) bool {
	if s.name == "lz4" {
		return !s.hasFlag("--rm")
	}
	return writesNoFile(s) || s.hasFlag("-k") || s.hasFlag("--keep")
}

// writesNoFile says whether a compressor writes to stdout, or only lists or tests what it reads.
func writesNoFile(s *segment) bool {
	return slices.ContainsFunc([]string{"-c", "--stdout", "--to-stdout", "-l", "--list", "-t", "--test"}, s.hasFlag)
}

// operandPath records an operand as a path, looking inside "key=value" and "@file" forms
// (curl -d @.env, dd if=.env) and turning file URLs (file:///p, file://host/p, file:/p) into
// paths; other URLs are not paths.
func (a *analyzer) operandPath(w word, op pathOp) {
	v := w.s
	if v == "" || v == placeholderXargs || v == placeholderFind {
		a.touch(w, op)
		return
	}
	if p, ok := stripFileURL(v); ok {
		u := w.with(p)
		// curl expands {a,b} and [a-z] in a URL itself, quoted or not.
		u.glob = u.glob || strings.ContainsAny(p, "{[")
		a.touch(u, op)
		if strings.Contains(v, "://") {
			return
		}
	} else if i := strings.Index(v, "://"); i > 0 && !strings.ContainsAny(v[:i], "/$") {
		return
	}
	a.touch(w, op)
	if k, val, ok := strings.Cut(v, "="); ok && k != "" && val != "" {
		a.formFile(w, val, op)
	}
	if strings.HasPrefix(v, "@") && len(v) > 1 {
		a.formFile(w, v, op)
	}
	// host:path (scp, rsync) names a local path only without the host part.
}

// madeFiles records the files a command makes under names other than its operands: a
// decompressor's output (gunzip .envrc.gz writes .envrc), split's PREFIXaa, PREFIXab, ... (a
// glob below its prefix), and the links ln and cp -s make, or the system links (/var/run,
// /dev/fd, ...) cp -P, cp -a and rsync -l copy as links: a ".." after one climbs from its target,
// not from its name (ln -s /tmp t && cat t/../etc/shadow reads /etc/shadow), so from here on such
// a path is not known. It runs after the command's own paths are recorded.
func (a *analyzer) madeFiles(seg *segment, ops []word) {
	switch {
	case compressors[seg.name] && decompressing(seg) && !writesNoFile(seg):
		a.decompressed(seg, ops)
	case seg.name == "split":
		a.splitPieces(seg)
	case seg.name == "ln", seg.name == "cp" && (seg.hasFlag("-s") || seg.hasFlag("--symbolic-link")):
		a.madeLink = true
	case seg.name == "cp" && slices.ContainsFunc([]string{"-P", "-d", "-a", "--no-dereference", "--archive"}, seg.hasFlag),
		seg.name == cmdRsync && slices.ContainsFunc([]string{"-l", "-a", "--links", "--archive"}, seg.hasFlag):
		a.madeLink = a.madeLink || slices.ContainsFunc(ops, func(w word) bool { return w.dynamic || a.namesSystemLink(w.s) })
	}
}

// decompressing says whether a compressor decompresses.
func decompressing(seg *segment) bool {
	return decompressors[seg.name] || seg.hasFlag("-d") || seg.hasFlag("--decompress") || seg.hasFlag("--uncompress")
}

// namesSystemLink says whether p, seen from the working directory, is or passes through a system
// link (systemLinks) or an entry of /proc, which copied as a link keeps pointing where it did.
func (a *analyzer) namesSystemLink(p string) bool {
	if a.cwd == cwdUnknown || !strings.HasPrefix(p, "/") && a.cwd == "" {
		return !strings.HasPrefix(p, "/") || strings.HasPrefix(path.Clean(p), "/proc/")
	}
	p = logicalDir(a.cwd, p)
	return strings.HasPrefix(p, "/proc/") || slices.ContainsFunc(systemLinks, func(l systemLink) bool { return under(p, l.from) })
}

// decompressedSuffixes are the suffixes a decompressor takes off (gzip also takes -gz, _z, -z).
var decompressedSuffixes = []string{".gz", ".bz2", ".xz", ".lzma", ".Z", ".lz", ".lz4", ".z", "-gz", "_z", "-z", ".tgz", ".taz"}

// decompressed writes each compressed operand's name without its suffix (or -S's).
func (a *analyzer) decompressed(seg *segment, ops []word) {
	suffixes := decompressedSuffixes
	if v, ok := optionValue(seg, "-S", "--suffix"); ok && v.s != "" {
		suffixes = append([]string{v.s}, suffixes...)
	}
	for _, w := range ops {
		for _, ext := range suffixes {
			if out, ok := strings.CutSuffix(w.s, ext); ok && out != "" {
				a.touch(w.with(out), opWrite)
			}
		}
	}
}

// splitOptions is GNU split's option table.
var splitOptions = getoptSpec{shortValue: "abClnt", long: map[string]string{
	"--suffix-length": "=", "--additional-suffix": "=", "--bytes": "=", "--line-bytes": "=", "--lines": "=",
	"--number": "=", "--separator": "=", "--filter": "=", "--numeric-suffixes": "?", "--hex-suffixes": "?",
	"--elide-empty-files": "", "--unbuffered": "", "--verbose": "",
}}

// splitPieces writes split's pieces: PREFIX (its second operand) and a suffix of letters or
// digits, two long unless -a says otherwise, and --additional-suffix. Its options are read as
// GNU getopt reads them: anywhere, bundled, long ones abbreviated.
func (a *analyzer) splitPieces(seg *segment) {
	opts, operands := getopt(seg.words, splitOptions)
	n, extra := 2, ""
	for _, o := range opts {
		switch o.opt {
		case "-a", "--suffix-length":
			k, err := strconv.Atoi(o.val.s)
			if err != nil || k < 1 || k > 8 {
				k = 8
			}
			n = k
		case "--additional-suffix":
			extra = o.val.s
		}
	}
	if len(operands) < 2 {
		return
	}
	p := operands[1]
	a.touch(word{s: p.s + strings.Repeat("[a-z0-9]", n) + extra, glob: true, dynamic: p.dynamic}, opWrite)
}

// searchGlobs reads the files rg's -g/--glob/--iglob patterns choose below its roots (rg -g .env
// KEY src reads src/**/.env): each is a glob whether quoted or not; an exclusion ("!x") reads
// nothing.
func (a *analyzer) searchGlobs(s *segment) {
	for i := 1; i < len(s.words); i++ {
		v, val := s.words[i].s, ""
		switch {
		case (v == "-g" || v == optGlob || v == optIglob) && i+1 < len(s.words):
			i++
			val = s.words[i].s
		case strings.HasPrefix(v, optGlob+"=") || strings.HasPrefix(v, optIglob+"="):
			_, val, _ = strings.Cut(v, "=")
		case strings.HasPrefix(v, "-g") && len(v) > 2 && v[1] != '-':
			val = v[2:]
		case v == "--":
			return
		}
		if val != "" && val[0] != '!' {
			a.touch(word{s: val, dynamic: s.words[i].dynamic, glob: hasGlobMeta(val)}, opRead)
		}
	}
}

// downloadNames records the files a download names after its URL: curl -O (--remote-name,
// --remote-name-all) and wget without -O write the URL's last part into --output-dir or -P, or
// the working directory (curl -O https://x/.bashrc --output-dir ~ writes ~/.bashrc).
func (a *analyzer) downloadNames(s *segment) {
	var dirOpt, dirLong string
	if s.name == cmdCurl {
		if !s.hasFlag("-O") && !s.hasFlag("--remote-name") && !s.hasFlag("--remote-name-all") {
			return
		}
		dirOpt, dirLong = "--output-dir", "--output-dir"
	} else {
		if s.hasFlag("-O") || s.hasFlag("--output-document") || s.hasFlag("--spider") {
			return
		}
		dirOpt, dirLong = "-P", "--directory-prefix"
	}
	dir, ok := optionValue(s, dirOpt, dirLong)
	if !ok {
		dir = word{s: "."}
	}
	a.intoDirectory(slices.Collect(urlPaths(s.operands)), dir)
	if dir.dynamic {
		return // judged, and asked for, as itself
	}
	if serverNamedDownload(s) {
		a.operandPath(word{s: strings.TrimRight(dir.s, "/") + "/" + serverName, dynamic: true}, opWrite)
	}
	for _, p := range wgetTreePaths(s, dir.s) {
		a.operandPath(p, opWrite)
	}
}

// urlHostPath splits a URL (anything with "://") into its host, with any user:password@ and
// :port, and its path after the "/" that ends the host, without query or fragment; ok is false
// for a word that is no URL.
func urlHostPath(v string) (host, urlPath string, ok bool) {
	_, rest, ok := strings.Cut(v, "://")
	if !ok {
		return "", "", false
	}
	if j := strings.IndexAny(rest, "?#"); j >= 0 {
		rest = rest[:j]
	}
	host, urlPath, _ = strings.Cut(rest, "/")
	return host, urlPath, true
}

// urlPaths yields, for each operand that is a URL, its path from the "/" after the host, without
// query or fragment, when there is anything after that "/": what a download names its file by
// (https://x/a/.bashrc?v=1 is /a/.bashrc).
func urlPaths(ops []word) iter.Seq[word] {
	return func(yield func(word) bool) {
		for _, w := range ops {
			if _, p, ok := urlHostPath(w.s); ok && p != "" && !yield(w.with("/"+p)) {
				return
			}
		}
	}
}

// curlURLEncoded reads the file of curl's --data-urlencode NAME@FILE (curl sends FILE's content).
func (a *analyzer) curlURLEncoded(s *segment) {
	for i, w := range s.words {
		val, ok := strings.CutPrefix(w.s, "--data-urlencode=")
		if !ok && i > 0 && s.words[i-1].s == "--data-urlencode" {
			val, ok = w.s, true
		}
		if _, file, found := strings.Cut(val, "@"); ok && found && file != "" {
			a.touch(w.with(file), opRead)
		}
	}
}

// formFile records the file a value names as curl's forms and data name one: "@file" or "<file"
// (curl -F 'x=</etc/shadow', -d @.env), with what follows a ";" (";type=text/plain") cut off too.
func (a *analyzer) formFile(w word, val string, op pathOp) {
	p := strings.TrimLeft(val, "@<")
	a.touch(w.with(p), op)
	if q, ok := curlQuoted(p); ok {
		a.touch(w.with(q), op) // @"name": curl's quoted file name
	}
	if before, _, ok := strings.Cut(p, ";"); ok && before != "" && p != val {
		a.touch(w.with(before), op)
	}
}

// touchOptionValue records the path an option names; a directory an option names for deleting is
// deleted with all below it (vitest --coverage.reportsDirectory=~ deletes the home directory).
func (a *analyzer) touchOptionValue(w word, op pathOp) {
	saved := a.recursive
	a.recursive = saved || op == opDelete
	a.touch(w, op)
	a.recursive = saved
}

// nameListOptions name a file (or "-", standard input) listing the files a command reads: what
// it reads is then not known (sort --files0-from=F, tar -T F, zip -@, rsync --files-from=F).
//
//nolint:goconst // option spellings and program names in this table read best literally, next to their neighbours
var nameListOptions = map[string][]string{
	"sort": {"--files0-from"}, "wc": {"--files0-from"}, "du": {"--files0-from"}, "tar": {"-T", "--files-from"},
	"zip": {"-@", "--names-stdin"}, "rsync": {"--files-from"}, "cpio": {"-o", "--create", "-p", "--pass-through"},
	"xz": {"--files", "--files0"}, "md5sum": {"--files0-from"}, "sha256sum": {"--files0-from"},
	// find -files0-from F takes its starting points from F, and prints what it cannot find.
	cmdFind: {optFiles0From},
	// git add, rm, commit, reset, restore, checkout and stash push take their pathspecs from F:
	// git rm --pathspec-from-file=F deletes what F names, git add adds it.
	cmdGit: {optPathspecFromFile},
}

// optPathspecFromFile is git's option naming a file of pathspecs.
const optPathspecFromFile = "--pathspec-from-file"

// optFiles0From is find's option naming a file of starting points.
const optFiles0From = "-files0-from"

// nameList says whether a command reads files a list names, not its operands.
func nameList(s *segment) bool { return slices.ContainsFunc(nameListOptions[s.name], s.hasFlag) }

// optionValues records the values of options that take a path ("-o out", "--output=out",
// "of=/dev/sda") and the values of every "--name=value" option, read.
func (a *analyzer) optionValues(seg *segment, spec argSpec) {
	words := seg.words
	for i := 1; i < len(words); i++ {
		v := words[i].s
		if words[i].dynamic && !strings.HasPrefix(v, "-") {
			continue
		}
		name, val, hasVal := strings.Cut(v, "=")
		op, listed := valueOp(seg.name, spec, name)
		switch {
		case listed && hasVal:
			a.touchOptionValue(words[i].with(strings.TrimPrefix(val, "@")), op)
		case listed && i+1 < len(words):
			a.touchOptionValue(words[i+1], op)
		case hasVal && longOption(name) && val != "" && !spec.noPaths:
			a.touch(words[i].with(strings.TrimPrefix(val, "@")), opRead)
		case !hasVal && len(v) > 2 && v[0] == '-' && v[1] != '-' && !spec.noBundles:
			// "-ofile", "-cf.env" (the value attached) and "-xzf file" (the next word) alike.
			opt, val, _, ok := bundledValue(words, i, func(opt string) bool { return takesShortValue(seg.name, spec, opt) })
			if op, listed := spec.valueOps[opt]; ok && listed {
				a.touch(val, op)
			}
		}
	}
}

// bundleValueAt is where the first option that takes a value stands in a bundle of short options
// ("-cvf", "-sft.git/hooks"), as getopt reads the bundle: the letters before it are options
// without a value, and its value is the rest of the word or, when it ends the word, the next word.
// 0 when no letter's option takes one (takes says which do). A character that is no letter ends
// the search: it begins the value of an option the engine does not know takes one (-m755).
func bundleValueAt(v string, takes func(opt string) bool) int {
	for k := 1; k < len(v); k++ {
		if !isASCIILetter(v[k]) {
			return 0
		}
		if takes("-" + v[k:k+1]) {
			return k
		}
	}
	return 0
}

// bundledValue reads the bundle of short options words[i] (bundleValueAt): the option that takes
// a value ("-f"), the value, and the index of the last word read (i+1 when the value is the next
// word). False when no option of the bundle takes a value, or its value is missing.
func bundledValue(words []word, i int, takes func(opt string) bool) (opt string, val word, last int, ok bool) {
	v := words[i].s
	if len(v) < 2 || v[0] != '-' || v[1] == '-' {
		return "", word{}, i, false
	}
	k := bundleValueAt(v, takes)
	switch {
	case k == 0:
		return "", word{}, i, false
	case k+1 < len(v):
		return "-" + v[k:k+1], words[i].with(v[k+1:]), i, true
	case i+1 < len(words):
		return "-" + v[k:k+1], words[i+1], i + 1, true
	}
	return "", word{}, i, false
}

// takesShortValue says whether a program's short option opt takes a value: one whose value is a
// path (spec.valueOps) or another value (valueOptions, curl's, maven's and gradle's: -psub is
// gradle's -p sub, not -p -s -u -b with the build file /x).
func takesShortValue(name string, spec argSpec, opt string) bool {
	if _, ok := spec.valueOps[opt]; ok {
		return true
	}
	return slices.Contains(valueOptions[name], opt) || slices.Contains(goalValueOptions[name], opt) ||
		name == cmdCurl && strings.Contains(curlValueShorts, opt[1:])
}

// longOption says whether name is a long option: "--name", or a word option spelled with one
// dash as Go's flag package, terraform, find and java read them ("-var-file", "-overlay"), whose
// "=value" may name a file the program reads.
func longOption(name string) bool {
	return strings.HasPrefix(name, "--") || len(name) > 2 && name[0] == '-'
}

// valueOp is what a command does to the value of its option name, when the value is a path:
// by its name, or by a name it abbreviates unless it is an option of its own.
func valueOp(cmd string, spec argSpec, name string) (pathOp, bool) {
	switch cmd {
	case "tsc":
		// tsc --outDir, --outdir, --OUTDIR and -outDir are one option (one dash for a long name).
		name = strings.ToLower(name)
		if len(name) > 2 && name[1] != '-' {
			name = "-" + name
		}
	case "vitest":
		// cac's dotted options: --outputFile.junit=FILE is --outputFile's, for one reporter; the
		// coverage reports directory is one of its own, and --coverage.provider=v8 names no path.
		if op, ok := spec.valueOps[name]; ok {
			return op, true
		}
		if i := strings.IndexByte(name, '.'); i > 2 {
			op, ok := spec.valueOps[name[:i]]
			return op, ok
		}
	}
	if op, ok := spec.valueOps[name]; ok {
		return op, true
	}
	if slices.Contains(exactLongOptions[cmd], name) {
		return 0, false
	}
	return abbreviated(spec.valueOps, name)
}

// abbreviated is the option of valueOps that name abbreviates, as getopt_long takes a long option
// by any prefix of it ("--out" for "--output", "--target-dir" for "--target-directory"). Should
// the prefix fit several, any is a path, and the strongest operation among them is taken.
func abbreviated(valueOps map[string]pathOp, name string) (pathOp, bool) {
	if len(name) < 3 || !strings.HasPrefix(name, "--") {
		return 0, false
	}
	var op pathOp
	found := false
	for long, o := range valueOps {
		if strings.HasPrefix(long, name) {
			op, found = max(op, o), true
		}
	}
	return op, found
}

// presenceCheck reports whether a segment is "grep -q NAME FILE" (or -sq, --quiet, --silent): a
// literal variable-name pattern (optionally ^NAME=) and one literal file, with no other options.
// Its only output is the exit status, which says whether the file defines the name and nothing
// about its value.
func presenceCheck(s *segment) bool {
	if s.name != "grep" || len(s.operands) != 2 || s.unknownFlags {
		return false
	}
	quiet := false
	for _, f := range s.flags {
		switch f {
		case "-q", "--quiet", "--silent":
			quiet = true
		case "-s", "-qs", "-sq", "--no-messages":
		default:
			return false
		}
	}
	pat, file := s.operands[0], s.operands[1]
	if !quiet || pat.dynamic || file.dynamic || file.glob {
		return false
	}
	name := strings.TrimSuffix(strings.TrimPrefix(pat.s, "^"), "=")
	if name == "" || isDigit(name[0]) {
		return false
	}
	for i := 0; i < len(name); i++ {
		if c := name[i]; c != '_' && !isDigit(c) && (c < 'a' || c > 'z') && (c < 'A' || c > 'Z') {
			return false
		}
	}
	return true
}

// gitPathspecSubs are git's subcommands whose operands (after the subcommand) are pathspecs,
// which git matches itself: a quoted "*.md" is a glob to git, and ":/", ":(top)", ":!x" are magic.
var gitPathspecSubs = map[string]bool{"rm": true, gitSubCheckout: true, gitSubRestore: true, "add": true, gitDiff: true,
	gitLog: true, gitShow: true, "ls-files": true, "stash": true, "reset": true, "archive": true, "blame": true}

// Program and subcommand names the review's tables share.
const (
	cmdWget  = "wget"
	cmdNode  = "node"
	cmdView  = "view"
	cmdTofu  = "tofu"
	cmdVault = "vault"
	cmdEval  = "eval"
	gitDiff  = "diff"
	gitShow  = "show"
	gitLog   = "log"
)

// gitPathspecs returns git operands as the paths they name: a pathspec's magic prefix is removed
// (":/x", ":(top,icase)x" and ":x" name x; the tree's top is taken for the working directory,
// which is at or below it), an exclusion (":!x", ":^x", ":(exclude)x") or an empty pathspec names
// the whole tree ".", and glob characters are globs, quoted or not, unless ":(literal)" says
// otherwise. It reports whether one names more than its own words: a glob, which git matches
// across directories, or the whole tree.
func gitPathspecs(ops []word) ([]word, bool) {
	var out []word
	anywhere := false
	for i, w := range ops {
		v, literal, magic, exclude := w.s, false, false, false
		if len(v) > 1 && v[0] == ':' && !w.dynamic {
			var ok bool
			if v, literal, exclude, ok = pathspecMagic(v[1:]); !ok {
				continue // git refuses an unterminated magic
			}
			magic = true
		}
		glob := !literal && strings.ContainsAny(v, "*?[")
		if !magic && !glob {
			if out != nil {
				out = append(out, w)
			}
			continue
		}
		if out == nil {
			out = append(make([]word, 0, len(ops)), ops[:i]...)
		}
		if exclude || v == "" {
			v, glob = ".", false
		}
		anywhere = anywhere || glob || v == "."
		out = append(out, word{s: v, dynamic: w.dynamic, glob: w.glob || glob})
	}
	if out == nil {
		return ops, false
	}
	return out, anywhere
}

// pathspecMagic reads the magic after a pathspec's leading colon: long ("(top,literal)x") or
// short ("/x", "!x", "^x", with an optional ":" ending it). It returns the pattern, whether it is
// literal or an exclusion, and false for an unterminated long magic.
func pathspecMagic(v string) (rest string, literal, exclude, ok bool) {
	if v[0] == '(' {
		end := strings.IndexByte(v, ')')
		if end < 0 {
			return "", false, false, false
		}
		for m := range strings.SplitSeq(strings.ToLower(v[1:end]), ",") {
			switch strings.TrimSpace(m) {
			case "literal":
				literal = true
			case "exclude":
				exclude = true
			}
		}
		return v[end+1:], literal, exclude, true
	}
	j := 0
	for j < len(v) && strings.IndexByte("/!^", v[j]) >= 0 {
		exclude = exclude || v[j] != '/'
		j++
	}
	if j < len(v) && v[j] == ':' {
		j++
	}
	return v[j:], false, exclude, true
}

// recursiveOp reports whether a command acts on its operands recursively: rm -r deletes, cp -r,
// rsync -a and scp -r copy, mv moves everything below a directory, git rm -r deletes, and ln
// gives a new name to everything below its target (a link to /var/run reaches
// /var/run/secrets: a later call through the link is judged by the link's name alone).
func recursiveOp(s *segment) bool {
	switch s.name {
	case "ln", cmdDitto: // ditto copies a directory whole, with no option to ask for it
		return true
	case "rm", "srm", "wipe", "trash", "trash-put":
		return s.hasFlag("-r") || s.hasFlag("-R") || s.hasFlag("--recursive")
	case "cp":
		return slices.ContainsFunc(cpRecursive, s.hasFlag)
	case cmdRsync:
		// rsync -d (--dirs) copies a directory's entries without recursing, and --delete with it
		// deletes the destination's extra entries, directories whole: rsync -d ~/ /tmp/h copies
		// ~/.netrc, rsync -d --delete empty/ . deletes .env and .git. Taken as recursive, as a
		// tree copied in takes it (rsyncRecursive).
		return slices.ContainsFunc(rsyncRecursive, s.hasFlag)
	case cmdScp:
		return s.hasFlag("-r")
	case "mv":
		return true
	case "gzip", "gunzip", "bzip2", "xz", "unxz", "zstd", "lz4", "diff":
		return s.hasFlag("-r") || s.hasFlag("--recursive")
	case cmdGit:
		// git rm --cached only changes the index; git diff --no-index compares directories whole.
		return len(s.operands) > 0 && (s.operands[0].s == "rm" && s.hasFlag("-r") && !s.hasFlag("--cached") ||
			s.operands[0].s == "diff" && s.hasFlag("--no-index"))
	}
	return false
}

// tarPaths records tar's paths: the archive (-f, or the word after an old-style bundle such as
// "czf"), and the members, read recursively when creating and written when extracting, below the
// -C directory.
func (a *analyzer) tarPaths(s *segment) {
	ops := s.operands
	create, extract := tarMode(s)
	// Old-style options ("tar czf x.tgz dir") are only ever the first word.
	if len(ops) > 0 && len(s.words) > 1 && !ops[0].dynamic && s.words[1].s == ops[0].s && isOldTarBundle(ops[0].s) {
		b := ops[0].s
		create = create || strings.ContainsAny(b, "cru")
		extract = extract || strings.Contains(b, "x")
		ops = ops[1:]
		if strings.Contains(b, "f") && len(ops) > 0 {
			archive := opRead
			if create {
				archive = opWrite
			}
			a.touch(ops[0], archive)
			ops = ops[1:]
		}
	}
	saved := a.cwd
	defer func() { a.cwd, a.recursive = saved, false }()
	if dir, ok := optionValue(s, "-C", "--directory"); ok {
		a.chdir(dir)
	}
	op := opRead
	if extract {
		op = opWrite
	}
	a.recursive = create && !s.hasFlag("--no-recursion")
	remove := create && s.hasFlag("--remove-files") // deletes what it archived
	for _, w := range ops {
		a.operandPath(w, op)
		if remove {
			a.operandPath(w, opDelete)
		}
	}
}

// tarMode reports whether tar's options create (or append to) an archive, or extract one.
func tarMode(s *segment) (create, extract bool) {
	create = s.hasFlag("-c") || s.hasFlag("--create") || s.hasFlag("-r") || s.hasFlag("--append") || s.hasFlag("-u") || s.hasFlag("--update")
	extract = s.hasFlag("-x") || s.hasFlag("--extract") || s.hasFlag("--get")
	return create, extract
}

// chdir moves the analysis into dir, as cd, env -C and tar -C do for what follows: a computed
// directory, or a relative one below an unknown directory, leaves relative paths unresolved.
func (a *analyzer) chdir(dir word) { a.moveTo(dir, resolvePath) }

// cdTo moves the analysis into dir as bash's cd does: the directory named as text (logicalDir),
// unless -P asks for the one the links lead to, as chdir(2) takes it.
func (a *analyzer) cdTo(dir word, physical bool) {
	if physical {
		a.chdir(dir)
		return
	}
	before := a.cwd
	a.moveTo(dir, logicalDir)
	if a.cwd == cwdUnknown {
		return
	}
	// Where the text names no directory bash falls back to the one the links lead to
	// (cd /var/lock/../secrets is /run/secrets): when the two differ, which one it is depends on
	// what exists, and the directory is not known.
	if before != cwdUnknown && resolvePath(before, a.cwd) != resolvePath(before, dir.s) {
		a.cwd = cwdUnknown
	}
}

func (a *analyzer) moveTo(dir word, resolve func(cwd, dir string) string) {
	switch {
	case dir.dynamic:
		a.cwd = cwdUnknown
	case a.cwd == cwdUnknown && !isAbsOrHome(expandHome(dir.s)):
	default:
		a.cwd = resolve(a.cwd, dir.s)
	}
}

// logicalDir is the directory cd moves to, as bash's cd names it: the path cleaned as text, ".."
// taking off the name before it even when that name is a link (cd /var/lock/.. is /var, where
// /var/lock/../x would be /run/x). Links are followed when a path below it is resolved.
func logicalDir(cwd, dir string) string {
	p := expandHome(foldPath(dir))
	switch {
	case p == "" || p[0] == '~' || strings.HasPrefix(cwd, "~") && p[0] != '/':
		return resolvePath(cwd, p) // home forms: no system link lies below ~
	case p[0] == '/' || cwd == "":
		return path.Clean(p)
	}
	return path.Clean(cwd + "/" + p)
}

// isOldTarBundle reports whether a first tar operand is an old-style option bundle ("czf", "xvf").
func isOldTarBundle(v string) bool {
	if v == "" || !strings.ContainsAny(v, "cxtruA") {
		return false
	}
	for i := 0; i < len(v); i++ {
		if c := v[i]; (c < 'a' || c > 'z') && (c < 'A' || c > 'Z') {
			return false
		}
	}
	return true
}

// optionValue returns the value of a short or long option ("-C dir", "-Cdir", "--directory=dir"),
// its first when it is given more than once.
func optionValue(s *segment, short, long string) (word, bool) {
	for v := range optionValues(s, short, long) {
		return v, true
	}
	return word{}, false
}

// doubleDashShorthand says whether v is the one-letter option short spelt as nopt (npm's parser)
// also takes it, with two dashes: npm test --w x and --w=x are -w x.
func doubleDashShorthand(v, short string) bool {
	return len(short) == 2 && (v == "-"+short || strings.HasPrefix(v, "-"+short+"="))
}

// optionValues yields every value of a short or long option, in optionValue's spellings, for
// options that may be repeated ("-o device=/ -o o=bind").
func optionValues(s *segment, short, long string) iter.Seq[word] {
	spec := argSpecs[s.name]
	takes := func(opt string) bool { return opt == short || takesShortValue(s.name, spec, opt) }
	return func(yield func(word) bool) {
		w := s.words
		for i := 1; i < len(w); i++ {
			v := w[i].s
			var val word
			switch {
			case (v == short || v == long) && i+1 < len(w):
				i++
				val = w[i]
			case strings.HasPrefix(v, long+"="):
				val = w[i].with(v[len(long)+1:])
			case valueAbbreviating[s.name] && (abbreviatesOption(s.name, v, long) || doubleDashShorthand(v, short)):
				if _, after, joined := strings.Cut(v, "="); joined {
					val = w[i].with(after)
				} else if i+1 < len(w) {
					i++
					val = w[i]
				} else {
					continue
				}
			case len(v) > len(short) && strings.HasPrefix(v, short) && !strings.HasPrefix(v, "--"):
				// Rust's clap, zig-clap (bun's), argparse and yargs read -c=FILE as -c FILE;
				// getopt as the file "=FILE" in the working directory. The value is judged without
				// the "=", the stricter reading: -c=/tmp/x names /tmp/x.
				val = w[i].with(strings.TrimPrefix(v[len(short):], "="))
			case len(short) == 2 && len(v) > 2:
				// Options without a value bundled before short: "-xvC dir", "-rt.git/hooks".
				opt, bv, last, ok := bundledValue(w, i, takes)
				if !ok || opt != short {
					continue
				}
				val, i = bv.with(strings.TrimPrefix(bv.s, "=")), last // -qc=FILE as -c=FILE (above)
			default:
				continue
			}
			if !yield(val) {
				return
			}
		}
	}
}

// abbreviatesOption says whether the option word v ("--userc", "--userc=FILE") is a prefix of the
// long option long that the program's parser expands to it, as hasFlag reads one.
func abbreviatesOption(prog, v, long string) bool {
	name, _, _ := strings.Cut(v, "=")
	return len(name) > 3 && len(name) < len(long) && strings.HasPrefix(name, "--") && strings.HasPrefix(long, name) &&
		!slices.Contains(exactLongOptions[prog], name)
}

// zipPaths records zip's archive (its first operand, written) and the files it adds (read,
// recursively with -r).
func (a *analyzer) zipPaths(s *segment) {
	if len(s.operands) == 0 {
		return
	}
	a.operandPath(s.operands[0], opWrite)
	if s.hasFlag("-R") || s.hasFlag("--recurse-patterns") {
		// Every file below the working directory that a pattern operand matches.
		a.recursive = true
		defer func() { a.recursive = false }()
		a.touch(word{s: "."}, opRead)
		return
	}
	a.recursive = s.hasFlag("-r") || s.hasFlag("--recurse-paths")
	defer func() { a.recursive = false }()
	move := s.hasFlag("-m") || s.hasFlag("--move") // deletes what it archived
	for _, w := range s.operands[1:] {
		a.operandPath(w, opRead)
		if move {
			a.operandPath(w, opDelete)
		}
	}
}

// ownOperandPaths records the paths of the programs whose operands have a reading of their own
// (archivers, find), and reports whether it did.
func (a *analyzer) ownOperandPaths(seg *segment) bool {
	switch seg.name {
	case cmdTar, cmdBsdtar:
		a.tarPaths(seg)
	case "zip":
		a.zipPaths(seg)
	case cmdFind:
		a.findPaths(seg)
	case cmdFd, cmdFdfind:
		a.fdPaths(seg)
	default:
		return a.sevenZipPaths(seg)
	}
	return true
}

// findPaths records find's roots. With -delete after name filters, what it deletes is every
// file under the roots matching them; without filters before it (or with negations and
// alternatives the engine does not follow) it deletes everything below its roots.
func (a *analyzer) findPaths(s *segment) {
	roots := findRoots(s.words)
	defer func() { a.recursive, a.listing = false, false }()
	readRoots := func() {
		a.recursive = listsTree(s) // the names below the roots are listed
		a.listing = a.recursive
		for _, r := range roots {
			a.operandPath(r, opRead)
		}
	}
	if !slices.ContainsFunc(findDeleteActions, s.hasFlag) {
		readRoots()
		return
	}
	e := readFind(s.words)
	deletes := e.deletes // the tests before -delete, in one AND chain
	filtered := len(deletes) > 0
	for _, y := range deletes {
		if strings.Trim(path.Base(y), "*?.") == "" {
			filtered = false // -name '*' or '.*' filters nothing
		}
	}
	if filtered {
		for _, y := range slices.Concat(deletes, e.toolDirDeletes) {
			a.touch(word{s: y, glob: true}, opDelete)
		}
		readRoots()
		return
	}
	a.recursive = true
	for _, r := range roots {
		a.operandPath(r, opDelete)
	}
}

// findRoots returns find's starting points (findStart).
func findRoots(words []word) []word {
	roots, _ := findStart(words)
	return roots
}

// findStart reads find's leading options and starting points: the starting points, "." when it
// names none (the working directory), and the index of its expression's first word. GNU and BSD
// find take -H, -L, -P (and -D DEBUG, -OLEVEL, BSD's -E, -X, -d, -s, -x, -f PATH) before them:
// "find -L ~ -name x" starts at ~, not in the working directory, and BSD find -f PATH names a
// starting point. "--" ends the options: "find -- ~" starts at ~ too. bfs also takes them, and
// starting points, among its expression's words (findLaterRoots).
func findStart(words []word) (roots []word, expr int) {
	i := 1
	for i < len(words) && !words[i].dynamic && findLeadingOption(words[i].s) {
		if words[i].s == "--" {
			i++
			break
		}
		if words[i].s == "-D" || words[i].s == "-f" || words[i].s == "-S" { // -S: bfs's search strategy
			if words[i].s == "-f" && i+1 < len(words) {
				roots = append(roots, words[i+1])
			}
			i++
		}
		i++
	}
	for ; i < len(words) && !findStartsExpr(words[i].s); i++ {
		roots = append(roots, words[i])
	}
	roots = append(roots, findLaterRoots(words, i)...)
	if len(roots) == 0 {
		roots = []word{{s: "."}}
	}
	return roots, i
}

// findLeadingOption says whether a word is one of find's options before its starting points.
func findLeadingOption(v string) bool {
	switch v {
	case "-H", "-L", "-P", "-D", "-E", "-X", "-d", "-s", "-x", "-f", "-S", "--":
		return true
	}
	// -O3; bfs's -j4 (its threads)
	return len(v) > 2 && (strings.HasPrefix(v, "-O") || strings.HasPrefix(v, "-j")) && v[2] >= '0' && v[2] <= '9'
}

// goBinary records where go build (and go test -c) writes when no -o names the file: its working
// directory, or go -C's, under the package's name (cd .git/hooks && go build /src/cmd/pre-commit
// writes a hook); the directory stands for the file.
func (a *analyzer) goBinary(s *segment) {
	if len(s.operands) == 0 || namesGoOutput(s) {
		return
	}
	if sub := s.operands[0].s; sub != "build" && (sub != "test" || !s.hasFlag("-c")) {
		return
	}
	dir := word{s: "."}
	if d, ok := optionValue(s, "-C", "-C"); ok {
		dir = d
	}
	a.touch(dir, opWrite)
}

// goOutputDir records go test's profiles written below -outputdir (go test -outputdir DIR
// -cpuprofile NAME writes DIR/NAME).
func (a *analyzer) goOutputDir(s *segment) {
	var dir word
	ok := false
	for _, spelling := range goTestSpellings("-outputdir") {
		if dir, ok = optionValue(s, spelling, spelling); ok {
			break
		}
	}
	if !ok {
		return
	}
	for _, o := range goProfiles {
		for _, spelling := range goTestSpellings(o) {
			if v, ok := optionValue(s, spelling, spelling); ok && !v.dynamic && !dir.dynamic && !strings.HasPrefix(v.s, "/") {
				a.touch(dir.with(strings.TrimRight(dir.s, "/")+"/"+v.s), opWrite)
			}
		}
	}
}

// goTestSpellings are the four spellings of go test's option o ("-cpuprofile"): with one or two
// dashes, with or without the "test." prefix.
func goTestSpellings(o string) []string {
	t := "-test." + o[1:]
	return []string{o, "-" + o, t, "-" + t}
}

// pythonCachePrefix records the directory a Python interpreter writes its compiled modules below:
// -X pycache_prefix=DIR (envVar records PYTHONPYCACHEPREFIX=DIR where it is set).
func (a *analyzer) pythonCachePrefix(seg *segment) {
	p, ok := readPython(seg)
	if !ok {
		return
	}
	for _, x := range p.xoptions {
		if dir, ok := strings.CutPrefix(x.s, "pycache_prefix="); ok && dir != "" {
			a.touch(x.with(dir), opWrite)
		}
	}
}

// pytestPaths records the files pytest's options write, and the --basetemp directory it deletes
// recursively before the run (pytest --basetemp=. deletes the project).
func (a *analyzer) pytestPaths(words []word) {
	for i := 0; i < len(words); i++ {
		name, val, hasVal := strings.Cut(words[i].s, "=")
		if opt, v, last, ok := bundledValue(words, i, pytestTakesShortValue); ok && opt == "-o" && !strings.HasPrefix(v.s, "=") {
			// argparse reads -o in a bundle after flags, its value attached or the next word:
			// -olog_file=FILE, -xolog_file=FILE, -xo log_file=FILE.
			name, val, hasVal, i = "-o", v.s, true, last
		}
		if name == "-o" || name == "--override-ini" || name == "--cov-report" {
			v := val
			if !hasVal && i+1 < len(words) {
				i++
				v = words[i].s
			}
			a.pytestOverride(name, words[i], v)
			continue
		}
		if name == "--cov-config" {
			// pytest-cov's spelling of COVERAGE_RCFILE: the rcfile names coverage plugins it
			// loads. The project's own (.coveragerc, setup.cfg) is what coverage reads anyway.
			v := words[i].with(val)
			if !hasVal && i+1 < len(words) {
				i++
				v = words[i]
			}
			if v.dynamic || !entriesBelow(v.s, "\n") {
				a.find(false, RuleOpaqueCode, "pytest --cov-config %s gives coverage an rcfile from outside the project, whose plugins it loads, as COVERAGE_RCFILE does; it needs human approval", v.s)
			}
			continue
		}
		op, ok := pytestOutputs[name]
		if !ok {
			continue
		}
		w := words[i].with(val)
		if !hasVal {
			if i+1 >= len(words) || name == optPytestDebug && strings.HasPrefix(words[i+1].s, "-") {
				continue // --debug alone writes pytestdebug.log
			}
			i++
			w = words[i]
		}
		a.recursive = op == opDelete
		a.touch(w, op)
		a.recursive = false
	}
}

// pytestOverride judges the value v of pytest's -o (an ini setting) or --cov-report option
// (from word w): -o cache_dir=DIR writes the cache there, -o log_file=FILE the log, and
// --cov-report=html:DIR its report. -o pythonpath=DIRS puts DIRS first on sys.path, where a module
// shadows any the tests import, as PYTHONPATH=/tmp does (relative entries are the project's own);
// -o testpaths=DIRS collects tests from DIRS.
func (a *analyzer) pytestOverride(name string, w word, v string) {
	k, dir, ok := strings.Cut(v, "=")
	switch k = strings.TrimSpace(k); {
	case ok && pytestIniPaths[k]:
		a.touch(w.with(dir), opWrite)
	case ok && k == "pythonpath" && (w.dynamic || !entriesBelow(strings.TrimSpace(dir), " ")):
		a.find(false, RuleOpaqueCode, "pytest -o %s puts a directory outside the project first on the module path, whose code the engine cannot see; it needs human approval", v)
	case ok && k == "testpaths" && (w.dynamic || !entriesBelow(strings.TrimSpace(dir), " ")):
		// With no test path on the line pytest collects its testpaths, absolute ones as they
		// are: the tests and conftest.py found there run, as pytest /tmp/x's do.
		a.find(false, RuleOpaqueCode, "pytest -o %s collects and runs tests (and their conftest.py) outside the project, whose code the engine cannot see; it needs human approval", v)
	default:
		if _, dir, ok := strings.Cut(v, ":"); ok && name == "--cov-report" && dir != "" {
			a.touch(w.with(dir), opWrite)
		}
	}
}

// namesGoOutput says whether a go command has -o, in either of the spellings Go's flag package
// takes (-o, --o).
func namesGoOutput(s *segment) bool { return s.hasFlag("-o") || s.hasFlag("--o") }
