package safety

// seventeenthCatalogue holds the seventeenth engine review's rows: git push's --repo=REMOTE
// stepping around a project rule written for the remote as an operand; jq's env rule asking for
// a file path under a directory named env (near misses); kubectl get of a pod or a workload
// printing its containers' plain env, as set env --list does; a short bundle whose attached value
// ends in a letter that is itself a value option (kubectl get -nops secret) hiding the operand
// after it; recursive name listings of a directory holding a zero-access directory (ls -R ~,
// find -L ~, whose leading options hid its starting points) and globs the shell lists for any
// program (echo ~/.ssh/*); and containment missing anchored entries spelt in capitals
// (/etc/NetworkManager).
func seventeenthCatalogue() []classCase {
	sh := shCall
	pushProd := asked(dc + "git-push-prod")
	const (
		pushRepo = "git push's --repo names the remote, as its operand does"
		jqEnv    = "jq's env and $ENV in its filter, not a file path under a directory named env"
		kubeEnv  = "kubectl get of a pod or a workload prints its containers' plain env, as set env --list does"
		attached = "a short option's value attached, ending in a letter that is itself an option with a value"
		listing  = "a recursive listing of a directory that holds a zero-access directory lists its names, as ls ~/.ssh does: asked"
		folded   = "a recursive operation on a directory spelt in capitals above an anchored protected path"
	)
	zero := denied(RulePrefixPathPolicy + "zeroAccess")
	contains := asked(RuleContainsProtected)
	kubeCred := asked(dc + "print-credentials-kubectl")
	envPrint := asked(dc + "print-environment-service")
	jqAsk, yqAsk := asked(dc+"print-environment-jq"), asked(dc+"print-environment-yq")
	return []classCase{
		{pushRepo, "--repo=prod", sh(`git push --repo=prod`), pushProd, sh(`git push --repo=origin`), false},
		{pushRepo, "--repo prod apart", sh(`git push --repo prod`), pushProd, sh(`git push --repo origin`), false},
		{pushRepo, "-u --repo=prod main", sh(`git push -u --repo=prod main`), pushProd, sh(`git push -u --repo=origin main`), false},
		{pushRepo, "abbreviated --rep=", sh(`git push --rep=prod main`), pushProd, sh(`git push --rep=staging main`), false},
		{pushRepo, "past git -C", sh(`git -C ../deploy push --no-verify --repo=prod`), pushProd,
			sh(`git -C ../deploy push --no-verify --repo=origin`), false},
		{pushRepo, "git -c remote.pushDefault=prod", sh(`git -c remote.pushDefault=prod push`), pushProd,
			sh(`git -c remote.pushDefault=origin push`), false},
		{pushRepo, "git -c branch.main.pushRemote=prod", sh(`git -c branch.main.pushRemote=prod push -u`), pushProd,
			sh(`git -c push.autoSetupRemote=true push`), false},
		{pushRepo, "git -c branch.main.remote=prod", sh(`git -c branch.main.remote=prod push`), pushProd,
			sh(`git -c branch.main.remote=origin push`), false},
		{pushRepo, "--config-env with the variable set on the command", sh(`P=prod git --config-env=remote.pushDefault=P push`), pushProd,
			sh(`git -c remote.pushDefault=prod push origin`), false},
		{pushRepo, "a remote whose name starts with prod is another", sh(`git push --repo=prod main`), pushProd,
			sh(`git push --repo=production-mirror main`), false},
		{jqEnv, "jq -n env", sh(`jq -n env`), jqAsk, sh(`jq . env/prod.json`), false},
		{jqEnv, "jq -n '$ENV'", sh(`jq -n '$ENV'`), jqAsk, sh(`jq -r .x env/dev.json`), false},
		{jqEnv, "env as the filter over a file", sh(`jq env x.json`), jqAsk, sh(`jq -r '.a' env/dev.json env/prod.json`), false},
		{jqEnv, "one variable", sh(`jq -r env.GITHUB_TOKEN`), jqAsk, sh(`jq -c '.items[]' config/env/staging.json`), false},
		{jqEnv, "env after --arg's two values", sh(`jq -n --arg k v env`), jqAsk, sh(`jq --arg k v '.[$k]' env/prod.json`), false},
		{jqEnv, "env after --indent's value", sh(`jq --indent 2 env.HOME`), jqAsk, sh(`jq --indent 2 . env/prod.json`), false},
		{jqEnv, "env after --", sh(`jq -- '$ENV.AWS_SECRET_ACCESS_KEY'`), jqAsk, sh(`jq -- . env/prod.json`), false},
		{jqEnv, "an option the engine does not know", sh(`jq --nosuch 2 env.HOME`), jqAsk, sh(`jq -S . env/prod.json`), false},
		{jqEnv, "gojq", sh(`gojq -n env`), jqAsk, sh(`jq -e .ok env/health.json`), false},
		{jqEnv, "xq's width abbreviated", sh(`xq --wid 80 env`), jqAsk, sh(`jq -c . env/a.json | head`), false},
		{jqEnv, "yq -n env", sh(`yq -n env`), yqAsk, sh(`yq . env/a.yaml`), false},
		{jqEnv, "yq's env in a pipe", sh(`yq -n 'env | keys'`), yqAsk, sh(`yq -r '.image' env/dev/values.yaml`), false},
		{kubeEnv, "a pod as YAML", sh(`kubectl get pod web-0 -o yaml`), envPrint, sh(`kubectl get pods`), false},
		{kubeEnv, "a pod as JSON", sh(`kubectl get pod web-0 -o json`), envPrint, sh(`kubectl get pods -o wide`), false},
		{kubeEnv, "the env by jsonpath", sh(`kubectl get pod x -o jsonpath='{.spec.containers[*].env}'`), envPrint,
			sh(`kubectl get pod x -o jsonpath='{.spec.containers[*].image}'`), false},
		{kubeEnv, "a deployment's, -ojson attached", sh(`kubectl get deploy web -ojson`), envPrint, sh(`kubectl get deploy -o name`), false},
		{kubeEnv, "every deployment", sh(`kubectl get deploy -o yaml`), envPrint, sh(`kubectl get deploy web -o jsonpath='{.status.readyReplicas}'`), false},
		{kubeEnv, "a statefulset, TYPE/NAME", sh(`kubectl get sts/db -o yaml`), envPrint, sh(`kubectl get sts/db`), false},
		{kubeEnv, "a daemonset in another namespace", sh(`kubectl -n kube-system get ds kube-proxy -o yaml`), envPrint,
			sh(`kubectl -n kube-system get ds`), false},
		{kubeEnv, "a job", sh(`kubectl get job migrate -o json`), envPrint, sh(`kubectl get jobs -w`), false},
		{kubeEnv, "a cronjob", sh(`kubectl get cronjob.batch nightly -o yaml`), envPrint, sh(`kubectl get cronjobs`), false},
		{kubeEnv, "the pod spec whole", sh(`kubectl get pod x -o jsonpath='{.spec}'`), envPrint,
			sh(`kubectl get pods -o jsonpath='{range .items[*]}{.metadata.name}{"\n"}{end}'`), false},
		{kubeEnv, "the containers whole, in a range", sh(`kubectl get pods -o jsonpath='{range .items[*]}{.spec.containers}{end}'`), envPrint,
			sh(`kubectl get pods -o jsonpath='{.items[*].status.phase}'`), false},
		{kubeEnv, "a recursive descent", sh(`kubectl get deploy web -o jsonpath='{..value}'`), envPrint,
			sh(`kubectl get deploy web -o jsonpath='{.spec.template.spec.containers[0].image}'`), false},
		{kubeEnv, "a go-template of the whole object", sh(`kubectl get pod x -o go-template='{{.}}'`), envPrint,
			sh(`kubectl get pod x -o go-template='{{.status.podIP}}'`), false},
		{kubeEnv, "custom columns of the containers", sh(`kubectl get pods -o custom-columns=N:.metadata.name,C:.spec.containers`), envPrint,
			sh(`kubectl get pods -o custom-columns=N:.metadata.name,S:.status.phase`), false},
		{kubeEnv, "--template apart", sh(`kubectl get pod x -o go-template --template='{{index .spec "containers"}}'`), envPrint,
			sh(`kubectl get pod x -o go-template --template='{{.metadata.uid}}'`), false},
		{kubeEnv, "a template from a file", sh(`kubectl get pod x -o go-template-file=t.tmpl`), envPrint, sh(`kubectl get svc -o yaml`), false},
		{kubeEnv, "all", sh(`kubectl get all -o yaml`), envPrint, sh(`kubectl get all`), false},
		{kubeEnv, "a pod among other kinds", sh(`kubectl get svc,po -o json`), envPrint, sh(`kubectl get cm app-config -o yaml`), false},
		{kubeEnv, "verbose logging prints the bodies", sh(`kubectl get pods -v=8`), envPrint, sh(`kubectl get pods -v=4`), false},
		{kubeEnv, "a wildcard child", sh(`kubectl get pod x -o jsonpath='{.spec.containers[*].*}'`), envPrint,
			sh(`kubectl get pod x -o jsonpath='{.spec.containers[*].name}'`), false},
		{kubeEnv, "a quoted key", sh(`kubectl get pod x -o jsonpath="{['spec']}"`), envPrint,
			sh(`kubectl get pod x -o jsonpath="{.metadata['labels']}"`), false},
		{kubeEnv, "the API path of pods with --raw", sh(`kubectl get --raw /api/v1/namespaces/web/pods`), envPrint,
			sh(`kubectl get --raw /api/v1/namespaces/web/pods/x/log`), false},
		{kubeEnv, "the API path of deployments, percent-encoded", sh(`kubectl get --raw=/apis/apps/v1/%64eployments`), envPrint,
			sh(`kubectl get --raw /healthz`), false},
		{kubeEnv, "oc's deployment config", sh(`oc get dc/web -o yaml`), envPrint, sh(`oc get dc`), false},
		{attached, "-nops: ops is -n's, not -s taking secret", sh(`kubectl get -nops secret db -o yaml`), kubeCred,
			sh(`kubectl get -nops pods`), false},
		{attached, "-nops before the verb", sh(`kubectl -nops get secrets -o json`), kubeCred, sh(`kubectl -nops get svc`), false},
		{attached, "-ncerts", sh(`kubectl get -ncerts secret tls -o jsonpath={.data}`), kubeCred, sh(`kubectl get -ncerts certificates`), false},
		{attached, "a pod's env after -nops", sh(`kubectl get -nops pods -o yaml`), envPrint, sh(`kubectl get -nops deploy -o name`), false},
		{listing, "find -L ~: its options before the starting points", sh(`find -L ~ -name '*.pem'`), contains, sh(`find -L . -name '*.go'`), false},
		{listing, "find -P ~/.ssh lists the keys", sh(`find -P ~/.ssh -type f`), zero, sh(`find -P src -type f`), false},
		{listing, "find -H /home", sh(`find -H /home -name id_rsa`), contains, sh(`find -H /usr/share -name '*.pc'`), false},
		{listing, "ls -R ~", sh(`ls -R ~`), contains, sh(`ls -la ~`), false},
		{listing, "ls -aR $HOME", sh(`ls -aR $HOME`), contains, sh(`ls -R src`), false},
		{listing, "find ~ -name '*.pem'", sh(`find ~ -name '*.pem'`), contains, sh(`find . -name '*.pem'`), false},
		{listing, "find ~ bare", sh(`find ~`), contains, sh(`find ~ -maxdepth 1 -name '.*rc'`), false},
		{listing, "find ~ -maxdepth 2 reaches ~/.ssh's entries", sh(`find ~ -maxdepth 2 -type f`), contains, sh(`find ~/go/pkg -name '*.mod'`), false},
		{listing, "find in the home directory's parent", sh(`find /home -name id_ed25519`), contains, sh(`find /usr/lib -name 'libssl*'`), false},
		{listing, "find from the root", sh(`find / -name id_rsa 2>/dev/null`), contains, sh(`find /usr /opt -name 'libssl*' 2>/dev/null`), false},
		{listing, "tree of /root, the home directory", sh(`tree /root`), contains, sh(`tree src`), false},
		{listing, "tree -a ~", sh(`tree -a ~`), contains, sh(`tree -L 1 ~`), false},
		{listing, "du -a ~", sh(`du -a ~`), contains, sh(`du -sh ~`), false},
		{listing, "from inside the home directory", sh(`cd ~ && ls -R`), contains, sh(`cd ~ && ls -la`), false},
		{listing, "find . from inside the home directory", sh(`cd ~ && find . -name '*.pem'`), contains, sh(`ls -R`), false},
		{listing, "~/.config holds a zero-access directory", sh(`ls -R ~/.config`), contains, sh(`du -ah ~/.cache/pip`), false},
		{listing, "a protected directory under /etc", sh(`ls -R /etc/NetworkManager`), contains, sh(`ls -R /etc/apt`), false},
		{listing, "echo ~/.ssh/*: the shell lists the directory for echo", sh(`echo ~/.ssh/*`), zero, sh(`echo src/*`), false},
		{listing, "printf of a glob in /root/.aws", sh(`printf '%s\n' /root/.aws/*`), zero, sh(`printf '%s\n' docs/*.md`), false},
		{listing, "a for loop over the keys", sh(`for f in ~/.ssh/*; do echo "$f"; done`), zero, sh(`for f in src/*.go; do echo "$f"; done`), false},
		{listing, "a test of a glob", sh(`[ -e ~/.ssh/id_* ] && echo y`), zero, sh(`[ -e ~/go/bin/* ] && echo y`), false},
		{folded, "grep -r over NetworkManager's connections", sh(`grep -r psk /etc/NetworkManager`), zero, sh(`grep -r dns /etc/NetworkManager/conf.d`), false},
		{folded, "a copy of them", sh(`cp -r /etc/NetworkManager /tmp/nm`), zero, sh(`cp -r /etc/apt /tmp/apt`), false},
	}
}
