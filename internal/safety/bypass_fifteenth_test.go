package safety

// fifteenthCatalogue holds the fifteenth engine review's rows. kubectl set env --list (and oc's),
// which prints a workload's environment with its plain values, as docker inspect does, was
// unrecognised and so admitted at Yolo; so was its -o yaml|json, which prints the changed object.
// npm's dotenv-cli, installed as dotenv as python-dotenv is but with no subcommand (dotenv [-e
// FILE] [--] CMD), loads .env into the command it runs: dotenv -- env printed it, and dotenv -p
// NAME prints one value; only python-dotenv's dotenv run CMD was read. And dotenvx run CMD
// without "--", whose command was not read. And 7-Zip's a|u -sdel, which deletes the files it
// archived as zip -m does: 7-Zip was unrecognised, its operands read as plain files, so
// 7z a -sdel /tmp/h.7z ~ (or 7z a /tmp/h.7z ~, which reads ~/.ssh) was admitted at Yolo.
// And a build definition put back from elsewhere than the project's index, by spellings the
// reading did not count as written: git checkout REV Makefile without "--" (git checkout REV --
// Makefile asked), and git checkout -- Makefile or git restore Makefile after the line set the
// index's Makefile (update-index --cacheinfo, read-tree, reset REV, apply --cached, restore
// --staged -s REV). Whole-tree checkouts, switches, pulls and stash pops stay admitted (a choice).
func fifteenthCatalogue() []classCase {
	sh := shCall
	envPrint := asked(dc + "print-environment-service")
	opaque := asked(RuleOpaqueCode)
	zero, keep := denied(RulePrefixPathPolicy+"zeroAccess"), denied(RulePrefixPathPolicy+"noDelete")
	printed, dotenvPrint := asked(dc+"print-environment"), asked(dc+"print-environment-dotenv")
	const (
		kubeEnv = "kubectl set env prints a workload's environment with its values"
		cli     = "dotenv-cli or dotenvx loads .env into a command that prints it"
		sdel    = "7-Zip deletes what it archived, or archives a tree"
		index   = "git puts back a build definition from a revision or an index the line set"
	)
	return []classCase{
		{kubeEnv, "kubectl set env --list", sh(`kubectl set env deploy/web --list`), envPrint, sh(`kubectl get deploy web -o name`), false},
		{kubeEnv, "a pod's", sh(`kubectl set env pod/web-0 --list`), envPrint, sh(`kubectl get pods`), false},
		{kubeEnv, "--list before the resource", sh(`kubectl -n prod set env --list deploy/web -c app`), envPrint, sh(`kubectl get deploy -n prod`), false},
		{kubeEnv, "--list=true", sh(`kubectl set env deploy/web --list=true`), envPrint, sh(`kubectl get deploy web`), false},
		{kubeEnv, "every deployment's", sh(`kubectl set env deployments --all --list`), envPrint, sh(`kubectl get deployments --all-namespaces`), false},
		{kubeEnv, "the changed object printed", sh(`kubectl set env deploy/web -e X=1 --dry-run=client -o yaml`), envPrint, sh(`kubectl get deploy web -o wide`), false},
		{kubeEnv, "--env and a template", sh(`kubectl set env deploy/web --env=X=1 --dry-run=server -o jsonpath='{..env}'`), envPrint,
			sh(`kubectl get deploy web -o jsonpath='{.spec.replicas}'`), false},
		{cli, "dotenv -- env", sh(`dotenv -- env`), asked(dc + "print-environment-env"), sh(`dotenv -- make test`), false},
		{cli, "dotenv -e FILE -- printenv", sh(`dotenv -e .env.prod -- printenv`), printed, sh(`dotenv -e .env.test -- make test`), false},
		{cli, "without --", sh(`dotenv printenv`), printed, sh(`dotenv run make test`), false},
		{cli, "without --, after a file", sh(`dotenv -e .env printenv`), printed, sh(`dotenv -f .env.prod run make test`), false},
		{cli, "-c's environment", sh(`dotenv -c production -- printenv`), printed, sh(`dotenv -v NODE_ENV=test -- make test`), false},
		{cli, "-c with no environment, then -e", sh(`dotenv -c -e .env -- printenv`), printed, sh(`dotenv -e .env.ci -- make test`), false},
		{cli, "the command before --", sh(`dotenv printenv -- PATH`), printed, sh(`dotenv -- npm test`), false},
		{cli, "flags that take no value", sh(`dotenv --no-expand -o printenv`), printed, sh(`dotenv -e .env --no-expand -- make lint`), false},
		{cli, "-p prints a value", sh(`dotenv -p DB_PASSWORD`), dotenvPrint, sh(`dotenv -v CI=1 -- make test`), false},
		{cli, "a command the path policy judges", sh(`dotenv -- rm -rf /`), denied(dc + "rm-recursive-root"), sh(`dotenv -- rm -rf build`), false},
		{cli, "dotenvx run without --", sh(`dotenvx run printenv`), printed, sh(`dotenvx run -- make test`), false},
		{cli, "dotenvx run --quiet without --", sh(`dotenvx run --quiet printenv`), printed, sh(`dotenvx run make test`), false},
		{sdel, "7z a -sdel of the home directory", sh(`7z a -sdel /tmp/h.7z ~`), zero, sh(`zip -rm /tmp/b.zip build`), false},
		{sdel, "-sdel of .git", sh(`7z a -sdel /tmp/g.7z .git`), keep, sh(`tar --remove-files -cf /tmp/b.tar build`), false},
		{sdel, "-SDEL in capitals, of /etc", sh(`7z a -SDEL /tmp/e.7z /etc`), zero, sh(`zip -r /tmp/b.zip build`), false},
		{sdel, "7zz u, after --", sh(`7zz u -sdel -- /tmp/x.7z .git/hooks`), keep, sh(`zip -m /tmp/x.zip build/a.o`), false},
		{sdel, "no inputs: the working directory", sh(`7za a -sdel /tmp/w.7z`), keep, sh(`tar -cf /tmp/b.tar build`), false},
		{sdel, "a computed command letter", sh(`7z "$C" -sdel /tmp/x.7z .git`), keep, sh(`zip -r /tmp/s.zip src`), false},
		{sdel, "an input named by -ir!", sh(`7z a -sdel /tmp/x.7z build -ir!.git`), keep, sh(`zip -rm /tmp/b.zip build -x build/keep`), false},
		{sdel, "inputs a list file names", sh(`7z a -sdel /tmp/x.7z @list.txt`), asked(RuleDynamicPath), sh(`tar --remove-files -cf /tmp/o.tar out`), false},
		{sdel, "a list file that is .env", sh(`7z a /tmp/x.7z -i@.env`), zero, sh(`zip -r /tmp/o.zip out`), false},
		{sdel, "7z a of the home directory reads ~/.ssh", sh(`7z a /tmp/h.7z ~`), zero, sh(`zip -r /tmp/d.zip docs`), false},
		{index, "git checkout REV FILE without --", sh(`git checkout other Makefile && make test`), opaque,
			sh(`git checkout Makefile && make test`), false},
		{index, "package.json from a revision", sh(`git checkout evil package.json && npm test`), opaque, sh(`git checkout -b feat origin/feat && npm test`), false},
		{index, "an index entry set by --cacheinfo", sh(`git update-index --cacheinfo 100644,e69de29,Makefile && git checkout -- Makefile && make test`), opaque,
			sh(`git update-index --refresh && git checkout -- Makefile && make test`), false},
		{index, "--cacheinfo in three words, then restore", sh(`git update-index --add --cacheinfo 100644 e69de29 Makefile && git restore Makefile && make`), opaque,
			sh(`git restore --staged Makefile && git restore Makefile && make test`), false},
		{index, "the index read from a tree", sh(`git read-tree evil && git checkout -- Makefile && make test`), opaque, sh(`git checkout -- Makefile && make test`), false},
		{index, "the index reset from a revision", sh(`git reset evil -- Makefile && git checkout -- Makefile && make test`), opaque,
			sh(`git reset HEAD -- Makefile && git checkout -- Makefile && make test`), false},
		{index, "a patch applied to the index", sh(`git apply --cached x.diff && git checkout -- Makefile && make test`), opaque,
			sh(`git apply --check x.diff && make test`), false},
		{index, "the whole index reset to a revision", sh(`git reset evil && git checkout -- Makefile && make test`), opaque,
			sh(`git reset -- Makefile && git checkout -- Makefile && make test`), false},
		{index, "a conftest.py from a revision; a whole-tree checkout stays admitted", sh(`git checkout evil tests/conftest.py && pytest`), opaque,
			sh(`git checkout feature && make test`), false},
		{index, "two files from a revision; a pull stays admitted", sh(`git checkout origin/evil src/a.go Makefile && make test`), opaque,
			sh(`git pull && make test`), false},
		{index, "under -C; a switch stays admitted", sh(`git -C app checkout evil Makefile && make -C app test`), opaque, sh(`git switch main && make test`), false},
		{index, "an older revision; a stash pop stays admitted", sh(`git checkout HEAD~3 Makefile && make test`), opaque, sh(`git stash pop && make test`), false},
		{kubeEnv, "oc set env --list", sh(`oc set env dc/web --list`), envPrint, sh(`kubectl get pods -l app=web`), false},
	}
}
