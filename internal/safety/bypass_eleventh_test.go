package safety

// eleventhCatalogue holds the eleventh engine review's rows: cluster workloads, releases,
// clusters and backups deleted through the deployment tools that drive kubectl and helm
// (helmfile, Argo CD, Flux, kapp, skaffold, tilt, eksctl, velero, nomad), which Yolo admitted as
// merely unrecognised while kubectl delete and helm uninstall ask; and credentials printed or
// minted by the clients that keep them (rclone's and s3cmd's configuration, MinIO's aliases,
// Consul's and Nomad's ACL tokens, Cloud Foundry's and Firebase's tokens, Azure's account keys,
// a new Google service-account key, a Cloud SQL login token); and interpreters no row listed (R,
// Octave, ghc -e, escript, wish, QuickJS, GJS, Jython, GraalPy), whose code Yolo ran as merely
// unrecognised while Rscript's, runghc's, tclsh's and python's asks; and cmake -E's modes, read
// as the file tools they are (cmaketools.go).
// eleventhCommands are the project's declared uses of the clients whose ordinary commands the
// eleventh review's near misses run.
var eleventhCommands = []ProjectCommand{
	{ID: "az", Command: "az ..."}, {ID: "nomad", Command: "nomad ..."}, {ID: "cf", Command: "cf ..."}, {ID: "firebase", Command: "firebase ..."},
}

func eleventhCatalogue() []classCase {
	sh := shCall
	opaque, zeroD := asked(RuleOpaqueCode), denied(zero)
	cluster, kubeCred := asked(dc+"cluster-resource-delete"), asked(dc+"print-credentials-kubectl")
	deploy := asked(dc + "deploy-tool-delete")
	cloudDel := asked(dc + "cloud-resource-delete")
	cloud, stores := asked(dc+"print-credentials-cloud"), asked(dc+"print-credentials-stores")
	const (
		deployDel = "a deployment tool deletes what it deployed"
		printed   = "a client prints or mints the credential it keeps"
		interp    = "an interpreter the engine did not list runs the code it is given"
		renamed   = "kubectl or helm under another name"
		cmakeMode = "cmake -E, a file tool under another name"
	)
	return []classCase{
		{cmakeMode, "cmake -E rm -rf of the home", sh(`cmake -E rm -rf ~`), denied(dc + "rm-recursive-root"), sh(`cmake -E rm -rf build`), false},
		{cmakeMode, "cmake -E remove_directory of the workspace", sh(`cmake -E remove_directory /workspace`), denied(RulePrefixPathPolicy + "noDelete"), sh(`cmake -E remove_directory build`), false},
		{cmakeMode, "cmake -E remove of a protected file", sh(`cmake -E remove -f LICENSE`), denied(RulePrefixPathPolicy + "noDelete"), sh(`cmake -E remove -f build/x.o`), false},
		{cmakeMode, "cmake -E rename of .git", sh(`cmake -E rename .git /tmp/g`), denied(RulePrefixPathPolicy + "noDelete"), sh(`cmake -E rename build/a build/b`), false},
		{cmakeMode, "cmake -E chdir, then a relative secret", sh(`cmake -E chdir / cat etc/shadow`), zeroD, sh(`cmake -E chdir build cat CMakeCache.txt`), false},
		{cmakeMode, "cmake -E chdir, then rm -rf", sh(`cmake -E chdir / rm -rf home`), denied(dc + "rm-recursive-root"), sh(`cmake -E chdir build rm -rf CMakeFiles`), false},
		{cmakeMode, "cmake -E environment prints it", sh(`cmake -E environment`), asked(dc + "print-environment-env"), sh(`cmake -E echo hi`), false},
		{cmakeMode, "cmake -E touch a start-up file", sh(`cmake -E touch ~/.bashrc`), denied(RulePrefixPathPolicy + "noWrite"), sh(`cmake -E touch build/stamp`), false},
		{cmakeMode, "cmake -E make_directory of a systemd unit directory", sh(`cmake -E make_directory ~/.config/systemd/user`), denied(RulePrefixPathPolicy + "noWrite"), sh(`cmake -E make_directory build/out`), false},
		{cmakeMode, "cmake -E copy over a start-up file", sh(`cmake -E copy x ~/.bashrc`), denied(RulePrefixPathPolicy + "noWrite"), sh(`cmake -E copy x build/x`), false},
		{cmakeMode, "cmake -E with a mode computed at run time", sh(`cmake -E "$M" ~`), opaque, sh(`cmake -E sha256sum build/x`), false},

		{renamed, "kubecolor delete", sh(`kubecolor delete ns prod`), cluster, sh(`kubecolor get pods`), false},
		{renamed, "kubecolor prints a Secret", sh(`kubecolor get secret db -o yaml`), kubeCred, sh(`kubecolor get secrets`), false},
		{renamed, "the snap's microk8s.kubectl", sh(`microk8s.kubectl delete ns prod`), cluster, sh(`microk8s kubectl get pods`), false},
		{renamed, "helm3 uninstall", sh(`helm3 uninstall prod`), cluster, sh(`helm3 list`), false},
		{renamed, "microk8s helm3 uninstall", sh(`microk8s helm3 uninstall prod`), cluster, sh(`helm list`), false},
		{renamed, "microk8s.helm3 uninstall", sh(`microk8s.helm3 uninstall prod`), cluster, sh(`helm list -A`), false},
		{renamed, "helm3 template renders Secrets", sh(`helm3 template x ./chart`), asked(dc + "print-credentials-rendered"), sh(`helm3 list -A`), false},
		{renamed, "k0s kubectl delete", sh(`k0s kubectl delete ns prod`), cluster, sh(`k0s kubectl get pods`), false},
		{renamed, "k0s kubectl prints a Secret", sh(`k0s kubectl get secret db -o yaml`), kubeCred, sh(`kubectl get pods -A`), false},

		{interp, "R -e", sh(`R -e 'cat(readLines(".env"))'`), opaque, sh(`ls -la *.R`), false},
		{interp, "R --vanilla -e system()", sh(`R --vanilla -e 'system("rm -rf ~")'`), opaque, sh(`make test`), false},
		{interp, "R -f a script", sh(`R -f analysis.R`), opaque, sh(`ls analysis.R`), false},
		{interp, "R --file=", sh(`R --file=analysis.R`), opaque, sh(`cat analysis.R`), false},
		{interp, "R CMD BATCH", sh(`R CMD BATCH analysis.R`), opaque, sh(`wc -l analysis.R`), false},
		{interp, "R fed a script", sh(`R --no-save < analysis.R`), opaque, sh(`head analysis.R`), false},
		{interp, "R fed by a pipe", sh(`echo 'system("id")' | R --no-save`), opaque, sh(`echo 'system("id")' | cat`), false},
		{interp, "octave --eval", sh(`octave --eval 'system("id")'`), opaque, sh(`grep -r system src`), false},
		{interp, "octave-cli a script", sh(`octave-cli run.m`), opaque, sh(`cat run.m`), false},
		{interp, "ghc -e", sh(`ghc -e 'readFile ".env" >>= putStr'`), opaque, sh(`cat Main.hs`), false},
		{interp, "escript", sh(`escript tool.erl`), opaque, sh(`cat tool.erl`), false},
		{interp, "wish", sh(`wish gui.tcl`), opaque, sh(`cat gui.tcl`), false},
		{interp, "qjs -e", sh(`qjs -e 'std.loadFile(".env")'`), opaque, sh(`grep -rn loadFile src`), false},
		{interp, "gjs -c", sh(`gjs -c 'imports.gi.GLib.spawn_command_line_sync("id")'`), opaque, sh(`grep -rn loadFile src`), false},
		{interp, "jython -c", sh(`jython -c 'import os; os.system("id")'`), opaque, sh(`python3 -m pytest`), false},
		{interp, "graalpy -c", sh(`graalpy -c 'import os; os.system("id")'`), opaque, sh(`python3 -m pytest`), false},

		{deployDel, "helmfile destroy", sh(`helmfile destroy`), deploy, sh(`helm list -A`), false},
		{deployDel, "helmfile -e ENV delete", sh(`helmfile -e prod delete`), deploy, sh(`helm list -n prod`), false},
		{deployDel, "helmfile with a file, destroy", sh(`helmfile --file helmfile.yaml destroy --skip-deps`), deploy, sh(`kubectl get pods`), false},
		{deployDel, "argocd app delete, cascading", sh(`argocd app delete prod --cascade -y`), deploy, sh(`kubectl get ns`), false},
		{deployDel, "argocd appset delete", sh(`argocd appset delete all-apps -y`), deploy, sh(`helm list`), false},
		{deployDel, "argocd proj delete", sh(`argocd proj delete team`), deploy, sh(`kubectl get pods -n argocd`), false},
		{deployDel, "flux delete kustomization", sh(`flux delete kustomization apps --silent`), deploy, sh(`kubectl get kustomizations -A`), false},
		{deployDel, "flux uninstall", sh(`flux uninstall --silent`), deploy, sh(`helm list -A`), false},
		{deployDel, "kapp delete", sh(`kapp delete -a prod -y`), deploy, sh(`kubectl get deploy`), false},
		{deployDel, "kapp del, its alias", sh(`kapp del -a prod --yes`), deploy, sh(`kubectl get svc`), false},
		{deployDel, "skaffold delete", sh(`skaffold delete -p prod`), deploy, sh(`kubectl get pods -A`), false},
		{deployDel, "tilt down", sh(`tilt down --delete-namespaces`), deploy, sh(`kubectl get ns`), false},
		{deployDel, "velero backup delete", sh(`velero backup delete --all --confirm`), deploy, sh(`kubectl get backups -A`), false},
		{deployDel, "nomad job stop -purge", sh(`nomad job stop -purge web`), deploy, sh(`helm list`), false},
		{deployDel, "nomad stop, the old spelling", sh(`nomad stop -yes web`), deploy, sh(`kubectl get jobs`), false},
		{deployDel, "through timeout", sh(`timeout 600 helmfile destroy`), deploy, sh(`timeout 600 helm list`), false},
		{deployDel, "eksctl delete cluster", sh(`eksctl delete cluster --name prod --wait`), cloudDel, sh(`aws eks list-clusters`), false},
		{deployDel, "eksctl delete nodegroup", sh(`eksctl delete nodegroup --cluster prod --name ng-1`), cloudDel, sh(`aws eks describe-cluster --name prod`), false},
		{deployDel, "hcloud server delete", sh(`hcloud server delete web-1`), cloudDel, sh(`aws ec2 describe-instances`), false},

		{printed, "rclone config show", sh(`rclone config show`), stores, sh(`rclone ls remote:bucket`), false},
		{printed, "rclone config show REMOTE", sh(`rclone config show s3prod`), stores, sh(`rclone config file`), false},
		{printed, "rclone config dump", sh(`rclone config dump`), stores, sh(`rclone lsd remote:`), false},
		{printed, "rclone --config FILE config dump", sh(`rclone --config /tmp/r.conf config dump`), stores, sh(`rclone --config /tmp/r.conf lsd remote:`), false},
		{printed, "s3cmd --dump-config", sh(`s3cmd --dump-config`), stores, sh(`s3cmd ls s3://bucket`), false},
		{printed, "mc alias list", sh(`mc alias list`), stores, sh(`mc ls local/bucket`), false},
		{printed, "mc alias ls ALIAS", sh(`mc alias ls local`), stores, sh(`mc cat local/bucket/readme.txt`), false},
		{printed, "mc alias export", sh(`mc alias export local`), stores, sh(`mc stat local/bucket`), false},
		{printed, "mc config host list, the old spelling", sh(`mc config host list`), stores, sh(`mc du local/bucket`), false},
		{printed, "consul acl token read -self", sh(`consul acl token read -self`), stores, sh(`consul members`), false},
		{printed, "consul acl token create", sh(`consul acl token create -policy-name global`), stores, sh(`consul kv get app/config`), false},
		{printed, "consul acl bootstrap", sh(`consul acl bootstrap`), stores, sh(`consul catalog services`), false},
		{printed, "nomad acl token self", sh(`nomad acl token self`), stores, sh(`nomad job status`), false},
		{printed, "nomad acl token create", sh(`nomad acl token create -name ci -type management`), stores, sh(`nomad node status`), false},
		{printed, "cf oauth-token", sh(`cf oauth-token`), stores, sh(`cf apps`), false},
		{printed, "firebase login:ci", sh(`firebase login:ci --no-localhost`), stores, sh(`firebase projects:list`), false},
		{printed, "gcloud iam service-accounts keys create", sh(`gcloud iam service-accounts keys create k.json --iam-account ci@p.iam.gserviceaccount.com`), cloud, sh(`gcloud iam service-accounts keys list --iam-account ci@p.iam.gserviceaccount.com`), false},
		{printed, "gcloud sql generate-login-token", sh(`gcloud sql generate-login-token`), cloud, sh(`gcloud sql instances list`), false},
		{printed, "az storage account keys list", sh(`az storage account keys list -n acct -g rg`), cloud, sh(`az storage account list`), false},
		{printed, "az storage account show-connection-string", sh(`az storage account show-connection-string -n acct`), cloud, sh(`az storage account show -n acct`), false},
		{printed, "az cosmosdb keys list", sh(`az cosmosdb keys list -n db -g rg --type connection-strings`), cloud, sh(`az cosmosdb list`), false},
		{printed, "az redis list-keys", sh(`az redis list-keys -n cache -g rg`), cloud, sh(`az redis list`), false},
		{printed, "az acr credential show", sh(`az acr credential show -n reg`), cloud, sh(`az acr list`), false},
		{printed, "az webapp publishing credentials", sh(`az webapp deployment list-publishing-credentials -n app -g rg`), cloud, sh(`az webapp list`), false},
	}
}

// The eleventh review's rule examples, added to rulePackExamples here so that the table's other
// rows merge cleanly: each rule's hits must ask by it, its misses must not match it.
func init() {
	rulePackExamples["deploy-tool-delete"] = struct{ hits, misses []string }{
		[]string{"helmfile destroy", "helmfile -e prod delete", "argocd app delete prod --cascade", "argocd app delete-resource prod --kind Deployment",
			"flux delete source git apps", "flux uninstall", "kapp delete -a x", "kapp del -a x", "skaffold delete", "tilt down",
			"velero schedule delete daily", "nomad job stop -purge web", "nomad namespace delete dev", "skaffold delete --dry-run=false"},
		[]string{"helmfile diff", "helmfile list", "helmfile apply", "argocd app list", "argocd app get prod", "argocd app sync prod",
			"flux get kustomizations", "flux reconcile kustomization apps", "kapp list", "kapp inspect -a x", "skaffold dev", "skaffold delete --dry-run",
			"tilt up", "velero backup get", "nomad job status web", "nomad job run web.nomad"},
	}
	more := map[string][2][]string{
		"cloud-resource-delete": {{"eksctl delete cluster --name prod", "eksctl delete nodegroup --cluster c --name n", "hcloud server delete web-1", "hcloud volume delete v"},
			{"eksctl get clusters", "eksctl create cluster -f c.yaml", "hcloud server list"}},
		"print-credentials-cloud": {{"gcloud iam service-accounts keys create k.json --iam-account a", "gcloud sql generate-login-token",
			"az storage account keys list -n a", "az storage account show-connection-string -n a", "az cosmosdb keys list -n d -g g", "az redis list-keys -n c -g g",
			"az acr credential show -n r", "az webapp deployment list-publishing-profiles -n a -g g"},
			{"gcloud iam service-accounts keys list --iam-account a", "gcloud sql instances list", "az storage account list", "az keyvault key list --vault-name v", "az acr list"}},
		"print-credentials-stores": {{"rclone config show", "rclone config dump", "rclone --config r.conf config show s3", "s3cmd --dump-config", "s3cmd -c x --dump-config",
			"mc alias list", "mc alias ls local", "mc alias export local", "mc config host ls", "consul acl token read -self", "consul acl token create -policy-name p",
			"consul acl bootstrap", "nomad acl token self", "nomad acl token info a1", "nomad acl bootstrap", "cf oauth-token", "firebase login:ci",
			`rclone config "$X"`, `mc alias "$X"`, `consul acl token "$X"`},
			{"rclone config redacted", "rclone config file", "rclone ls r:b", "s3cmd ls", "mc alias set local http://x a b", "mc ls local", "consul acl token list",
				"consul acl policy read -name p", "nomad acl token list", "nomad acl policy list", "cf apps", "firebase deploy",
				`cf push "$APP"`, `firebase deploy --only "$T"`, `mc cp "$F" local/b`, `consul kv get "$K"`, `nomad job status "$J"`}},
	}
	for id, m := range more {
		ex := rulePackExamples[id]
		ex.hits = append(append([]string(nil), ex.hits...), m[0]...)
		ex.misses = append(append([]string(nil), ex.misses...), m[1]...)
		rulePackExamples[id] = ex
	}
}
