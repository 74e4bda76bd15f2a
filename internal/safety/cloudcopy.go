package safety

import (
	"slices"
	"strings"
)

// Cloud storage CLIs copy local files to a bucket and back, file by file or a whole directory:
// aws s3 cp|mv|sync, gsutil cp|mv|rsync, gcloud storage cp|mv|rsync, rclone
// copy|sync|move|copyto|moveto|bisync, azcopy copy|sync, az storage blob|file
// upload-batch|download-batch|download. Their local sources are read, recursively when the
// command copies directories (aws s3 sync ~ s3://b uploads ~/.ssh), and their local destination
// is written (aws s3 cp s3://b/x ~/.bashrc).

// cloudCopyVerb is a copying subcommand: the words that name it, whether it always copies
// directories, the options that make it do so, and its options that take a value (aws's are
// awsValued).
type cloudCopyVerb struct {
	recursive  bool
	recursives []string
	valued     []string
}

var gsutilVerb = cloudCopyVerb{recursives: []string{"-r", "-R"}, valued: strings.Fields("-a -z -j -x -L -s -h -o -p -u")}

var rcloneVerb = cloudCopyVerb{recursive: true, valued: strings.Fields("--include --exclude --filter --filter-from " +
	"--include-from --exclude-from --files-from --config --log-file --transfers --checkers --bwlimit --max-age " +
	"--min-age --max-size --min-size --backup-dir --suffix --compare-dest --copy-dest --max-transfer --log-level " +
	"--stats --retries --timeout --contimeout --max-depth --order-by")}

// optRecursive is the cloud CLIs' long option that copies a directory's files.
const optRecursive = "--recursive"

// s3cmdVerb is s3cmd put's and get's: -r copies a directory's files (sync always does).
var s3cmdVerb = cloudCopyVerb{recursives: []string{"-r", optRecursive}, valued: strings.Fields("-c --config " +
	"--access_key --secret_key --access_token --exclude --exclude-from --rexclude --rexclude-from --include " +
	"--include-from --rinclude --rinclude-from --files-from --region --bucket-location --storage-class --mime-type " +
	"-m --add-header --remove-header --encoding --host --host-bucket --limit-rate --multipart-chunk-size-mb " +
	"--cache-file --acl-grant --acl-revoke --expiry-date --expiry-days --expiry-prefix --default-mime-type " +
	"--server-side-encryption-kms-id --ca-certs --max-delete --add-encoding-exts --upload-id")}

// mcVerb is MinIO's mc cp and mv: -r copies a directory's files (mirror always does). mc names a
// bucket ALIAS/BUCKET, which reads as a relative path: every operand is judged as a local one.
var mcVerb = cloudCopyVerb{recursives: []string{"-r", optRecursive}, valued: strings.Fields("--older-than " +
	"--newer-than --storage-class --attr --tags --encrypt-key --limit-upload --limit-download " +
	"--exclude --region --checksum --rewind --version-id --config-dir -C")}

// cloudCopyVerbs are keyed by the program and its subcommand words.
var cloudCopyVerbs = map[string]cloudCopyVerb{
	"aws s3 cp":            {recursives: []string{optRecursive}},
	"aws s3 mv":            {recursives: []string{optRecursive}},
	"aws s3 sync":          {recursive: true},
	"gsutil cp":            gsutilVerb,
	"gsutil mv":            gsutilVerb,
	"gsutil rsync":         {recursive: true, valued: gsutilVerb.valued}, // without -r, the directory's own files
	"gcloud storage cp":    {recursives: []string{"-r", "-R", optRecursive}},
	"gcloud storage mv":    {recursives: []string{"-r", "-R", optRecursive}},
	"gcloud storage rsync": {recursive: true},
	"rclone copy":          rcloneVerb,
	"rclone sync":          rcloneVerb,
	"rclone move":          rcloneVerb,
	"rclone copyto":        rcloneVerb,
	"rclone moveto":        rcloneVerb,
	"rclone bisync":        rcloneVerb,
	"azcopy copy":          {recursives: []string{optRecursive}},
	"azcopy cp":            {recursives: []string{optRecursive}},
	"azcopy sync":          {recursive: true},
	"s3cmd put":            s3cmdVerb,
	"s3cmd get":            s3cmdVerb,
	"s3cmd sync":           {recursive: true, valued: s3cmdVerb.valued},
	"mc cp":                mcVerb,
	"mc mv":                mcVerb,
	"mc mirror":            {recursive: true, valued: mcVerb.valued},
	"az storage blob":      {},
	"az storage file":      {},
	"az storage fs":        {},
	"az storage copy":      {},
}

// awsValued are aws s3 cp|mv|sync's options, and aws's own, that take a value (aws takes a unique
// prefix of one). Any other option is taken to take none, so the word after it is judged as a
// path too: an option the list misses can only add a path, never hide one.
var awsValued = strings.Fields("--exclude --include --acl --sse --sse-c --sse-c-key --sse-kms-key-id " +
	"--sse-c-copy-source --sse-c-copy-source-key --storage-class --grants --website-redirect --content-type " +
	"--cache-control --content-disposition --content-encoding --content-language --expires --metadata " +
	"--metadata-directive --copy-props --expected-size --request-payer --source-region --region --profile " +
	"--endpoint-url --output --query --color --ca-bundle --cli-read-timeout --cli-connect-timeout " +
	"--cli-binary-format --page-size --checksum-mode --checksum-algorithm")

const (
	cmdRclone = "rclone"
	cmdGcloud = "gcloud"
)

// cloudCopyPrograms are the programs of cloudCopyVerbs.
var cloudCopyPrograms = strings.Fields("aws gsutil gcloud rclone azcopy az s3cmd mc")

// cloudCopyPaths records the local paths a cloud storage copy reads and writes, and reports
// whether they are all its operands name (az's other options are read as any command's).
func (a *analyzer) cloudCopyPaths(s *segment) bool {
	if !slices.Contains(cloudCopyPrograms, s.name) {
		return false
	}
	if s.name == cmdAWS {
		a.awsFileParams(s)
	}
	verb, at, found := cloudVerb(s)
	if !found {
		return a.rcloneRemovalPaths(s)
	}
	if s.name == "az" {
		a.azStoragePaths(s)
		return false
	}
	paths := cloudOperands(s, at, verb)
	recursive := verb.recursive || slices.ContainsFunc(verb.recursives, s.hasFlag)
	del, _, _ := cloudVerbIn(s, cloudDeleteVerbs)
	saved := a.recursive
	defer func() { a.recursive = saved }()
	for i, w := range paths {
		if s.name == cmdRclone {
			var ok bool
			if w, ok = rcloneLocal(s, w); !ok {
				continue
			}
		} else if !cloudLocal(s.name, w.s) {
			continue
		}
		if i == len(paths)-1 && len(paths) > 1 {
			// A recursive download writes whatever names the bucket holds below its destination
			// (rclone copy remote:dotfiles ~ writes ~/.bashrc), as cp -a dir/. ~ does
			// (copiesTree): a destination outside the project that holds a protected path asks.
			a.members = recursive
			a.touch(w, opWrite)
			a.members = false
			if del.side == deletesDest && cloudDeleting(s, del) {
				// A sync's delete option deletes what the local destination holds that the source
				// does not: everything below it, from an empty source (rsync --delete's case).
				a.recursive = true
				a.touch(w, opDelete)
				a.recursive = saved
			}
			continue
		}
		a.recursive = recursive
		a.touch(w, opRead)
		if del.side == deletesSource {
			a.touch(w, opDelete) // a move deletes its local source
		}
		a.recursive = saved
	}
	return true
}

// rcloneRemovalPaths records the local paths rclone's removals delete (rclone purge ~ deletes
// the home directory: a plain path is a local remote), judged by the path policy as rm -r's
// are, and reports whether it read one of them; their remotes are cloud-storage-delete's.
func (a *analyzer) rcloneRemovalPaths(s *segment) bool {
	if s.name != cmdRclone {
		return false
	}
	del, at, ok := cloudVerbIn(s, cloudDeleteVerbs)
	if !ok || del.side != deletesAll {
		return false
	}
	saved := a.recursive
	// deletefile removes one file; the others what is below the path too.
	a.recursive = s.words[at].s != "deletefile"
	for _, w := range cloudOperands(s, at, rcloneVerb) {
		if w, ok := rcloneLocal(s, w); ok {
			a.touch(w, opDelete)
		}
	}
	a.recursive = saved
	return true
}

// cloudOperands are a cloud copy's words after its subcommand (the word at index at) that are not
// options or their values.
func cloudOperands(s *segment, at int, verb cloudCopyVerb) []word {
	var paths []word
	for i := at + 1; i < len(s.words); i++ {
		v := s.words[i].s
		if len(v) > 1 && v[0] == '-' && !s.words[i].dynamic {
			if !strings.Contains(v, "=") && cloudTakesValue(s.name, v, verb) {
				i++
			}
			continue
		}
		paths = append(paths, s.words[i])
	}
	return paths
}

// cloudVerb finds a cloud copy's subcommand: the first run of words that spells one of
// cloudCopyVerbs's keys, among the words that are not options. A global option's value is such a
// word too (aws --cli-read-timeout 5 s3 sync, gsutil -h "Content-Type:x" cp, rclone --transfers 4
// copy: the engine does not list every global option that takes one), but for aws's that
// awsValued lists, which aws takes anywhere (aws s3 --region x mv); and so are gcloud's
// release tracks (gcloud alpha storage cp), which are skipped. It returns the verb and the index
// in s.words of its last word.
func cloudVerb(s *segment) (cloudCopyVerb, int, bool) { return cloudVerbIn(s, cloudCopyVerbs) }

// cloudVerbIn is cloudVerb over another table of subcommands keyed as cloudCopyVerbs is.
func cloudVerbIn[T any](s *segment, verbs map[string]T) (T, int, bool) {
	var idx []int
	for i := 1; i < len(s.words); i++ {
		w := s.words[i]
		if strings.HasPrefix(w.s, "-") && !w.dynamic || s.name == cmdGcloud && (w.s == "alpha" || w.s == "beta") {
			if s.name == cmdAWS && !strings.Contains(w.s, "=") && cloudTakesValue(cmdAWS, w.s, cloudCopyVerb{}) {
				i++ // aws takes its global options anywhere: aws s3 --region x mv
			}
			continue
		}
		idx = append(idx, i)
	}
	var key strings.Builder
	for k := range idx {
		key.Reset()
		key.WriteString(s.name)
		for n := 0; n < 3 && k+n < len(idx); n++ {
			key.WriteByte(' ')
			key.WriteString(s.words[idx[k+n]].s)
			if verb, ok := verbs[key.String()]; ok {
				return verb, idx[k+n], true
			}
		}
	}
	var none T
	return none, 0, false
}

// awsFileParams records the files aws reads a parameter's value from: file://PATH (text) and
// fileb://PATH (bytes), in any aws command, whose value it then sends (aws ssm put-parameter
// --value file://.env stores .env where get-parameter prints it).
func (a *analyzer) awsFileParams(s *segment) {
	for _, w := range s.words[1:] {
		v := w.s
		if strings.HasPrefix(v, "-") {
			_, v, _ = strings.Cut(v, "=")
		}
		for _, scheme := range []string{"file://", "fileb://"} {
			if p, ok := strings.CutPrefix(v, scheme); ok && p != "" {
				a.touch(w.with(p), opRead)
			}
		}
	}
}

// rcloneLocal returns the local path an rclone operand names, if it names one: a plain path, the
// on-the-fly local backend (":local:/root/.ssh", ":local,links:~"), or a remote the command's own
// environment defines as local (RCLONE_CONFIG_X_TYPE=local rclone copy x:/root/.ssh ...). An
// on-the-fly backend that wraps another path (:alias,remote=/root:, crypt, union, ...) is
// computed.
func rcloneLocal(s *segment, w word) (word, bool) {
	v := w.s
	if cloudLocal(cmdRclone, v) {
		return w, true
	}
	if strings.Contains(v, "://") || v == "" || v == "-" {
		return word{}, false
	}
	name, p, _ := strings.Cut(v, ":")
	if name == "" { // ":backend,params:path"
		var backend string
		backend, p, _ = strings.Cut(p, ":")
		typ, params, _ := strings.Cut(backend, ",")
		switch {
		case strings.EqualFold(typ, "local"):
			return w.with(p), true
		case strings.Contains(params, "remote=") || strings.Contains(params, "upstreams="):
			return word{s: v, dynamic: true}, true
		}
		return word{}, false
	}
	for _, kv := range s.env {
		if k, t, _ := strings.Cut(kv, "="); strings.EqualFold(k, "RCLONE_CONFIG_"+name+"_TYPE") && strings.EqualFold(t, "local") {
			return w.with(p), true
		}
	}
	return word{}, false
}

// cloudTakesValue says whether a cloud copy's option takes the next word.
func cloudTakesValue(prog, opt string, verb cloudCopyVerb) bool {
	if prog == cmdAWS {
		return len(opt) > 3 && slices.ContainsFunc(awsValued, func(b string) bool { return strings.HasPrefix(b, opt) })
	}
	if slices.Contains(verb.valued, opt) {
		return true
	}
	return false
}

// cloudLocal says whether a copy operand is a local path: not a URL (s3://, gs://, https://), not
// stdin, and for rclone not a remote ("name:path", a colon before any slash).
func cloudLocal(prog, v string) bool {
	if v == "" || v == "-" || strings.Contains(v, "://") {
		return false
	}
	if prog == "rclone" {
		if i := strings.IndexByte(v, ':'); i >= 0 && !strings.Contains(v[:i], "/") {
			return false
		}
	}
	return true
}

// azStoragePaths records what az storage's batch commands read and write: upload-batch's and
// sync's --source (-s) directory, recursively, download-batch's --destination (-d) and download's
// --file (-f), written, and az storage copy's local side.
func (a *analyzer) azStoragePaths(s *segment) {
	switch {
	case slices.ContainsFunc(s.operands, func(w word) bool { return w.s == subCopy }):
		// az storage copy -s SRC -d DST (azcopy's copy): either side may be local.
		if src, ok := optionValue(s, "-s", optSource); ok && cloudLocal("az", src.s) {
			saved := a.recursive
			a.recursive = true
			a.touch(src, opRead)
			a.recursive = saved
		}
		if dst, ok := optionValue(s, "-d", "--destination"); ok && cloudLocal("az", dst.s) {
			a.touch(dst, opWrite)
		}
	case slices.ContainsFunc(s.operands, func(w word) bool { return w.s == "upload-batch" || w.s == "sync" }):
		if src, ok := optionValue(s, "-s", optSource); ok {
			saved := a.recursive
			a.recursive = true
			a.touch(src, opRead)
			a.recursive = saved
		}
	case slices.ContainsFunc(s.operands, func(w word) bool { return w.s == "download-batch" }):
		if dst, ok := optionValue(s, "-d", "--destination"); ok {
			a.members = true // whatever names the container holds (cloudCopyPaths)
			a.touch(dst, opWrite)
			a.members = false
		}
	case slices.ContainsFunc(s.operands, func(w word) bool { return w.s == "download" }):
		if dst, ok := optionValue(s, "-f", "--file"); ok {
			a.touch(dst, opWrite)
		}
	}
}
