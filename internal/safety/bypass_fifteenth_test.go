package safety

// fifteenthCatalogue holds the fifteenth engine review's rows. kubectl set env --list (and oc's),
// which prints a workload's environment with its plain values, as docker inspect does, was
// unrecognised and so admitted at Yolo; so was its -o yaml|json, which prints the changed object.
func fifteenthCatalogue() []classCase {
	sh := shCall
	envPrint := asked(dc + "print-environment-service")
	const (
		kubeEnv = "kubectl set env prints a workload's environment with its values"
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
		{kubeEnv, "oc set env --list", sh(`oc set env dc/web --list`), envPrint, sh(`kubectl get pods -l app=web`), false},
	}
}
