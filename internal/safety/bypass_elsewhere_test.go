package safety

// Review Q's rows: commands that run in another environment — a container, a package runner's
// or a version manager's environment, a development container, a toolbox — and what the host
// brings into it. A container made with the host's variables (-e NAME without a value, podman
// --env-host, --env-file) holds host values, so its command is judged as a host command; a
// credential's variable copied in asks whatever the command. Each attack asks or denies at every
// autonomy level; each near miss is an ordinary command of the same program, admitted at Default.
func elsewhereCatalogue() []classCase {
	sh := shCall
	dcAsk := func(id string) outcome { return asked(dc + id) }
	const (
		hostEnv = "host environment in a container"
		mount   = "host path in a container"
		runner  = "runner's command"
		machine = "command on a machine"
	)
	printEnv, printEnvAll := dcAsk("print-environment"), dcAsk("print-environment-env")
	hostSecret := dcAsk("container-host-secret")
	return []classCase{
		// -e NAME with no value copies the host's NAME into the container: a credential's is the
		// agent's secret, handed to the image's program whatever it is.
		{hostEnv, "docker run -e a credential, then printenv", sh(`docker run --rm -e GITHUB_TOKEN img printenv`), printEnv, sh(`docker run --rm -e FOO=bar alpine echo hi`), false},
		{hostEnv, "docker run -e a credential, the image's program", sh(`docker run --rm -e GITHUB_TOKEN img`), hostSecret, sh(`docker run -d --name db -e POSTGRES_PASSWORD=pw postgres:16`), false},
		{hostEnv, "docker run --env a credential", sh(`docker run --env NPM_TOKEN img`), hostSecret, sh(`docker run --env NODE_ENV=test img`), false},
		{hostEnv, "docker run --env= a credential", sh(`docker run --env=AWS_SECRET_ACCESS_KEY img`), hostSecret, sh(`docker run --env=AWS_REGION=eu-west-1 img`), false},
		{hostEnv, "docker run -eNAME attached", sh(`docker run -eGITHUB_TOKEN img`), hostSecret, sh(`docker run -eDEBUG=1 img`), false},
		{hostEnv, "docker run -ite NAME, a bundle ending in -e", sh(`docker run -ite API_KEY img sh`), hostSecret, sh(`docker run -it -e DEBUG=1 img sh`), false},
		{hostEnv, "docker run -e with a computed name", sh(`docker run -e "$N" img`), hostSecret, sh(`docker run -e LANG=C.UTF-8 img`), false},
		{hostEnv, "docker create -e a credential, started later", sh(`docker create -e GITHUB_TOKEN img`), hostSecret, sh(`docker run --rm --name web nginx`), false},
		{hostEnv, "docker container run -e a credential", sh(`docker container run -e GITHUB_TOKEN img`), hostSecret, sh(`docker run --rm alpine echo hi`), false},
		{hostEnv, "docker -H host run -e a credential", sh(`docker -H tcp://h:2375 run -e GITHUB_TOKEN img`), hostSecret, sh(`docker run --rm -e FOO=1 img`), false},
		{hostEnv, "docker exec -e a credential", sh(`docker exec -e GITHUB_TOKEN web true`), hostSecret, sh(`docker compose exec web ls`), false},
		{hostEnv, "podman run -e a credential", sh(`podman run --rm -e GITHUB_TOKEN img`), hostSecret, sh(`podman run --rm alpine echo hi`), false},
		{hostEnv, "podman --env-host copies every host variable", sh(`podman run --rm --env-host img`), hostSecret, sh(`podman run --rm --env-host=false img`), false},
		{hostEnv, "podman -e PREFIX* copies every match", sh(`podman run --rm -e 'GITHUB*' img`), hostSecret, sh(`podman run --rm -e 'PS1=*' img`), false},
		{hostEnv, "nerdctl run -e a credential", sh(`nerdctl run -e GITHUB_TOKEN img`), hostSecret, sh(`docker run -p 8080:80 nginx`), false},
		{hostEnv, "compose run -e a credential", sh(`docker compose run -e GITHUB_TOKEN web`), hostSecret, sh(`docker compose run -e DEBUG=1 web`), false},
		{hostEnv, "docker-compose exec -e a credential", sh(`docker-compose exec -e NPM_TOKEN web true`), hostSecret, sh(`docker compose exec -e DEBUG=1 web ls`), false},
		// An image build given a host credential as a build argument: the image's history keeps it.
		{hostEnv, "docker build --build-arg NAME copies the host's", sh(`docker build --build-arg GITHUB_TOKEN -t app .`), hostSecret, sh(`docker build --build-arg VERSION=1.2 -t app .`), false},
		{hostEnv, "podman build --build-arg= NAME", sh(`podman build --build-arg=NPM_TOKEN .`), hostSecret, sh(`docker build --secret id=npm,env=NPM_TOKEN .`), false},
		{hostEnv, "podman secret create --env", sh(`podman secret create --env tok GITHUB_TOKEN`), hostSecret, sh(`podman run --rm alpine echo hi`), false},
		// With the host's variables brought in, the container's command prints them: judged as a
		// host command, as compose run's is. Without, it prints the image's.
		{hostEnv, "docker run -e NAME, then env", sh(`docker run --rm -e DB_URL img env`), printEnvAll, sh(`docker run --rm alpine env`), false},
		{hostEnv, "docker run -e NAME, then printenv NAME", sh(`docker run --rm -e DB_URL img printenv DB_URL`), printEnv, sh(`docker run --rm -e DB_URL img make test`), false},
		{hostEnv, "docker run --env-file, then env", sh(`docker run --rm --env-file vars.list img env`), printEnvAll, sh(`docker run --rm alpine printenv`), false},
		{hostEnv, "docker run -e NAME --entrypoint env", sh(`docker run -e DB_URL --entrypoint env img`), printEnvAll, sh(`docker run --entrypoint env img`), false},
		{hostEnv, "docker run -e NAME --entrypoint sh -c", sh(`docker run -e DB_URL --entrypoint sh img -c 'printenv'`), printEnv, sh(`docker run --entrypoint sh img -c 'printenv'`), false},
		{hostEnv, "podman run -e NAME, -w, then env", sh(`podman run -e DB_URL -w /src img env`), printEnvAll, sh(`podman run -w /src img env`), false},
		{hostEnv, "nerdctl run -e NAME then env", sh(`nerdctl run -e DB_URL img env`), printEnvAll, sh(`docker run -e DB_URL -w /src img go test ./...`), false},
		// docker's parser reads -w's value attached (-w/etc) and at the end of a bundle (-itw /etc).
		{hostEnv, "docker exec -wDIR attached", sh(`docker exec -w/etc web cat shadow`), zeroA(), sh(`docker compose exec web ls`), false},
		{hostEnv, "docker exec -itw DIR", sh(`docker exec -itw /etc web cat shadow`), zeroA(), sh(`docker compose exec web ls`), false},
		// podman reads a mount's source that starts with "." as a host path; docker names no
		// volume so.
		{mount, "podman -v .env", sh(`podman run --rm -v .env:/x img cat /x`), zeroA(), sh(`podman run --rm -v data:/x img ls /x`), false},
		{mount, "podman -v .git, a delete", sh(`podman run --rm -v .git:/x img rm -rf /x`), denied(RulePrefixPathPolicy + "noWrite"), sh(`podman run --rm -v cache:/x img rm -rf /x/tmp`), false},
		// Runners whose command was not read: each runs it with the user's environment (a version
		// manager's, a development container's or toolbox's that shares the home and the project,
		// flatpak-spawn --host's on the host), so env there prints it as env here does.
		{runner, "npm explore PKG -- env", sh(`npm explore pkg -- env`), printEnvAll, sh(`npm explore pkg -- ls`), false},
		{runner, "npm explore PKG words, joined, a script", sh(`npm explore pkg printenv NPM_TOKEN`), printEnv, sh(`npm test`), false},
		{runner, "npm explore with no command, fed a script", sh(`echo env | npm explore pkg`), denied(dc + "pipe-into-shell"), sh(`npm explore pkg -- ls`), false},
		{runner, "npm explore runs in the package's directory", sh(`npm explore pkg -- cat ../../.git/config`), asked(RuleDynamicPath), sh(`npm explore pkg -- ls`), false},
		{runner, "yarn env prints the environment", sh(`yarn env`), dcAsk("print-environment-npm-env"), sh(`yarn test`), false},
		{runner, "yarn --cwd DIR env", sh(`yarn --cwd app env`), dcAsk("print-environment-npm-env"), sh(`yarn test`), false},
		{runner, "yarn node runs node", sh(`yarn node -e 'console.log(process.env)'`), asked(RuleOpaqueCode), sh(`yarn test`), false},
		{runner, "bundler exec, bundle's other name", sh(`bundler exec env`), printEnvAll, sh(`bundler exec go version`), false},
		{runner, "rbenv exec", sh(`rbenv exec env`), printEnvAll, sh(`rbenv exec ls`), false},
		{runner, "pyenv exec", sh(`pyenv exec printenv`), printEnv, sh(`pyenv exec pytest -q`), false},
		{runner, "nodenv exec", sh(`nodenv exec env`), printEnvAll, sh(`nodenv exec npm test`), false},
		{runner, "goenv exec", sh(`goenv exec env`), printEnvAll, sh(`goenv exec go test ./...`), false},
		{runner, "fnm exec", sh(`fnm exec --using 20 -- env`), printEnvAll, sh(`fnm exec --using 20 npm test`), false},
		{runner, "volta run", sh(`volta run --node 20 env`), printEnvAll, sh(`volta run --node 20 npm test`), false},
		{runner, "nvm exec VERSION", sh(`nvm exec 20 env`), printEnvAll, sh(`nvm exec 20 npm test`), false},
		{runner, "nvm exec with .nvmrc's version", sh(`nvm exec printenv`), printEnv, sh(`nvm exec npm test`), false},
		{runner, "hatch env run is hatch run", sh(`hatch env run -e test -- env`), printEnvAll, sh(`hatch env run -e test -- pytest`), false},
		{runner, "devcontainer exec", sh(`devcontainer exec --workspace-folder . env`), printEnvAll, sh(`devcontainer exec --workspace-folder . go test ./...`), false},
		{runner, "devcontainer exec in a workspace folder", sh(`devcontainer exec --workspace-folder /etc cat shadow`), zeroA(), sh(`devcontainer exec --workspace-folder . ls`), false},
		{runner, "distrobox enter NAME -- CMD", sh(`distrobox enter box -- env`), printEnvAll, sh(`distrobox enter box -- ls`), false},
		{runner, "distrobox enter -n NAME -e CMD", sh(`distrobox enter -n box -e printenv`), printEnv, sh(`distrobox enter -n box -e ls`), false},
		{runner, "distrobox-enter", sh(`distrobox-enter box -- env`), printEnvAll, sh(`distrobox enter box -- ls`), false},
		{runner, "distrobox enter's login shell, fed a script", sh(`echo env | distrobox enter box`), denied(dc + "pipe-into-shell"), sh(`distrobox enter box -- ls`), false},
		{runner, "toolbox run", sh(`toolbox run -c box env`), printEnvAll, sh(`toolbox run go test ./...`), false},
		{runner, "flatpak-spawn --host", sh(`flatpak-spawn --host env`), printEnvAll, sh(`flatpak-spawn --host ls`), false},
		{runner, "flatpak-spawn --directory", sh(`flatpak-spawn --host --directory=/etc cat shadow`), zeroA(), sh(`flatpak-spawn --host ls`), false},
		// Virtual machines and cloud machines run the command there, where the user's home (a
		// local VM mounts it) or the machine's credentials are: judged as ssh's remote command.
		{machine, "vagrant ssh -c", sh(`vagrant ssh -c env`), printEnvAll, sh(`vagrant ssh -c 'go test ./...'`), false},
		{machine, "vagrant ssh NAME -- CMD", sh(`vagrant ssh default -- printenv`), printEnv, sh(`vagrant ssh -c ls`), false},
		{machine, "minikube ssh's words, a script", sh(`minikube ssh 'cat ~/.aws/credentials'`), zeroA(), sh(`minikube ssh -- ls /var/lib`), false},
		{machine, "colima ssh", sh(`colima ssh -- env`), printEnvAll, sh(`colima ssh -- ls`), false},
		{machine, "limactl shell in a directory", sh(`limactl shell --workdir /etc default cat shadow`), zeroA(), sh(`limactl shell default ls`), false},
		{machine, "lima", sh(`lima env`), printEnvAll, sh(`lima go test ./...`), false},
		{machine, "multipass exec", sh(`multipass exec vm -- env`), printEnvAll, sh(`multipass exec vm -- ls`), false},
		{machine, "orb -m MACHINE", sh(`orb -m ubuntu printenv`), printEnv, sh(`orbctl run ls`), false},
		{machine, "wsl -e", sh(`wsl -d Ubuntu -e env`), printEnvAll, sh(`wsl -e ls`), false},
		{machine, "wsl --cd DIR", sh(`wsl --cd /etc cat shadow`), zeroA(), sh(`wsl --cd ~ ls`), false},
		{machine, "gcloud compute ssh --command", sh(`gcloud compute ssh vm --zone z --command env`), printEnvAll, sh(`gcloud compute ssh vm --command 'ls'`), false},
		{machine, "gcloud beta compute ssh --command=", sh(`gcloud beta compute ssh vm --command=printenv`), printEnv, sh(`gcloud compute instances list`), false},
		{machine, "gcloud compute ssh -- ssh's command", sh(`gcloud compute ssh vm -- -L 8080:localhost:80 env`), printEnvAll, sh(`gcloud compute ssh vm -- -N -L 8080:localhost:80`), false},
		{machine, "gcloud compute ssh fed a script", sh(`echo env | gcloud compute ssh vm`), denied(dc + "pipe-into-shell"), sh(`gcloud compute ssh vm < /dev/null`), false},
		{machine, "gcloud cloud-shell ssh --command", sh(`gcloud cloud-shell ssh --command=env`), printEnvAll, sh(`gcloud compute ssh vm --command 'ls'`), false},
		{machine, "gcloud tpu-vm ssh --command", sh(`gcloud compute tpus tpu-vm ssh t --command printenv`), printEnv, sh(`gcloud compute ssh vm --command 'ls'`), false},
		{machine, "fly ssh console -C", sh(`fly ssh console -C env`), printEnvAll, sh(`fly ssh console -C ls`), false},
		{machine, "flyctl ssh console --command", sh(`flyctl ssh console --command printenv`), printEnv, sh(`fly ssh console`), false},
		{machine, "az ssh vm -- CMD", sh(`az ssh vm -n vm -- env`), printEnvAll, sh(`fly ssh console -C ls`), false},
		{machine, "gh codespace ssh -- CMD", sh(`gh codespace ssh -c cs -- printenv`), printEnv, sh(`fly ssh console -C ls`), false},
		{machine, "gh codespace ssh's first operand starts ssh's arguments", sh(`gh codespace ssh -c cs env`), printEnvAll, sh(`fly ssh console -C ls`), false},
		{machine, "gh codespace ssh fed a script", sh(`echo env | gh codespace ssh -c cs`), denied(dc + "pipe-into-shell"), sh(`fly ssh console -C ls`), false},
		{machine, "devpod ssh --command", sh(`devpod ssh ws --command=printenv`), printEnv, sh(`fly ssh console -C ls`), false},
		{machine, "lxc exec INSTANCE -- CMD", sh(`lxc exec web -- env`), printEnvAll, sh(`lxc exec web -- ls`), false},
		{machine, "incus exec --env", sh(`incus exec web --env A=1 -- printenv`), printEnv, sh(`lxc exec web -- ls`), false},
		{machine, "buildah run CONTAINER CMD", sh(`buildah run c env`), printEnvAll, sh(`buildah run c ls`), false},
		{machine, "crictl exec CONTAINER CMD", sh(`crictl exec -it c env`), printEnvAll, sh(`crictl exec c ls`), false},
		{machine, "k3s crictl exec", sh(`k3s crictl exec c printenv`), printEnv, sh(`crictl exec c ls`), false},
		{machine, "aws ssm send-command", sh(`aws ssm send-command --document-name AWS-RunShellScript --instance-ids i-1 --parameters commands=env`), dcAsk("cloud-run-command"), sh(`aws ssm get-parameter --name x`), false},
		{machine, "az vm run-command invoke", sh(`az vm run-command invoke -g rg -n vm --command-id RunShellScript --scripts env`), dcAsk("cloud-run-command"), sh(`fly ssh console -C ls`), false},
		// --env-file loads variables by names the command line does not show: a shell script
		// there that expands one may print any of them, as under a secret loader.
		{hostEnv, "docker run --env-file, a script expands a variable", sh(`docker run --env-file vars.list img sh -c 'echo $DB'`), dcAsk("print-environment-loaded"), sh(`docker run --env-file vars.list img sh -c 'ls'`), false},
		{hostEnv, "podman --env-host, a script expands a variable", sh(`podman run --env-host img sh -c 'echo $X'`), dcAsk("print-environment-loaded"), sh(`podman run img sh -c 'echo $HOME'`), false},
		{hostEnv, "a credential's variable beside its file's", sh(`docker run -e GITHUB_TOKEN_FILE -e GITHUB_TOKEN img`), hostSecret, sh(`docker run -e GITHUB_TOKEN_FILE img`), false},
		// flatpak run --command runs the command in the app's sandbox, with the user's environment.
		{runner, "flatpak run --command=env", sh(`flatpak run --command=env org.x.App`), printEnvAll, sh(`flatpak-spawn --host ls`), false},
		{runner, "flatpak run --command printenv APP NAME", sh(`flatpak run --branch stable --command printenv org.x.App GITHUB_TOKEN`), printEnv, sh(`flatpak-spawn --host ls`), false},
		{runner, "flatpak run --command=sh APP -c", sh(`flatpak run --command=sh org.x.App -c 'env'`), printEnvAll, sh(`flatpak-spawn --host ls`), false},
	}
}

// zeroA is the zero-access path policy's denial.
func zeroA() outcome { return denied(zero) }
