package safety

import "testing"

// Commands run elsewhere are judged as the commands they are: a remote command, a pod's or a
// container's, a remote path, a mounted host directory.
func TestCommandsRunElsewhere(t *testing.T) {
	zeroD := denied(zero)
	env := asked(dc + "print-environment-env")
	testCredentialCases(t, []credentialCase{
		{"ssh's remote command reads credentials", `ssh host cat .aws/credentials`, zeroD},
		{"ssh's remote command, quoted", `ssh -p 2222 host 'cat ~/.ssh/id_rsa'`, zeroD},
		{"ssh's remote command after options and a bundle", `ssh -tl deploy host -- printenv`, asked(dc + "print-environment")},
		{"ssh -o before the host", `ssh -o ConnectTimeout=5 host env`, env},
		{"ssh -o RemoteCommand=", `ssh -o RemoteCommand='cat .aws/credentials' host`, zeroD},
		{"ssh -oRemoteCommand=, attached", `ssh -oRemoteCommand=env host`, env},
		{"ssh's remote command, harmless", `ssh -p 2222 host uptime`, outcome{}},
		{"ssh without a command", `ssh -N -L 8080:localhost:80 host`, outcome{}},
		{"kubectl exec env", `kubectl exec web -- env`, env},
		{"kubectl exec printenv with options", `kubectl exec -n prod -c app web -- printenv`, asked(dc + "print-environment")},
		{"kubectl exec reads the pod's token", `kubectl exec web -- cat /var/run/secrets/kubernetes.io/serviceaccount/token`, zeroD},
		{"kubectl exec sh -c", `kubectl exec web -- sh -c 'cat /run/secrets/db'`, zeroD},
		{"kubectl run prints its pod's token", `kubectl run t --rm -i --image=busybox -- cat /var/run/secrets/kubernetes.io/serviceaccount/token`, zeroD},
		{"oc rsh POD CMD", `oc rsh -c app web env`, env},
		{"oc rsh, harmless", `oc rsh web ls /app`, outcome{}},
		{"kubectl exec, harmless", `kubectl exec web -- ls /app`, outcome{}},
		{"docker exec env", `docker exec -it web env`, env},
		{"docker exec with -w", `docker exec -w /root web cat .aws/credentials`, zeroD},
		{"docker exec -e's value is no container", `docker exec -e A=1 web printenv`, asked(dc + "print-environment")},
		{"docker exec, harmless", `docker exec web ls /app`, outcome{}},
		{"scp from a remote home", `scp host:.ssh/id_rsa /tmp/k`, zeroD},
		{"scp from a remote absolute path", `scp deploy@host:/etc/shadow /tmp/s`, zeroD},
		{"rsync from a remote home", `rsync -a host:.aws/ /tmp/aws/`, zeroD},
		{"rsync from a daemon module", `rsync -a host::mod/x /tmp/x`, asked(RuleDynamicPath)},
		{"cp of a HOST:PATH name", `cp host:.env /tmp/x`, zeroD},
		{"kubectl cp of the pod's token", `kubectl cp web:/var/run/secrets/kubernetes.io/serviceaccount/token /tmp/t`, zeroD},
		{"docker cp relative to the container root", `docker cp web:etc/shadow /tmp/s`, zeroD},
		{"scp of a remote file", `scp host:app/log.txt /tmp/log.txt`, outcome{}},
		{"scp of a local file with a colon after a slash", `scp ./a:b host:/tmp/`, outcome{}},
		{"docker run -v /:/host", `docker run -v /:/host img`, zeroD},
		{"docker run --volume= of credentials", `docker run --volume=$HOME/.aws:/root/.aws:ro img`, zeroD},
		{"docker run --mount source=", `docker run --mount type=bind,source=/etc,target=/e img`, zeroD},
		{"docker run -v into .git/hooks", `docker run -v .git/hooks:/h img`, denied(RulePrefixPathPolicy + "noWrite")},
		{"docker run -v of a build directory", `docker run -v /workspace/build:/out img`, outcome{}},
		{"docker run -v read-only", `docker run -v /workspace/docs:/docs:ro img`, outcome{}},
		{"docker run with a named volume", `docker run -v cache:/root/.cache img`, outcome{}},
	})
}

// What ssh, kubectl exec -i, docker exec -i and oc rsh are fed on standard input is the remote
// command's: a script fed to a shell there is judged as one fed to a shell here (its here-document
// read as the script, a file or a pipe unseen), and with no command the remote login shell reads it.
func TestCommandsRunElsewhereReadTheirInput(t *testing.T) {
	zeroD, opaque := denied(zero), asked(RuleOpaqueCode)
	pipe := denied(dc + "pipe-into-shell")
	testCredentialCases(t, []credentialCase{
		{"a here-document to ssh's login shell", "ssh host <<EOF\ncat ~/.aws/credentials\nEOF", zeroD},
		{"a here-string to ssh's login shell", `ssh host <<< 'cat ~/.aws/credentials'`, zeroD},
		{"a here-document to a remote bash", "ssh host bash <<EOF\ncat .aws/credentials\nEOF", zeroD},
		{"a here-document to a pod's shell", "kubectl exec -i web -- sh <<EOF\ncat /run/secrets/db\nEOF", zeroD},
		{"a script file to ssh's login shell", `ssh host < deploy.sh`, opaque},
		{"a script file to a remote bash -s", `ssh host 'bash -s' < deploy.sh`, opaque},
		{"a script file to a remote interpreter", `ssh host python3 < job.py`, opaque},
		{"a script file to a remote interpreter inside sh -c", `ssh host sh -c python3 < job.py`, opaque},
		{"a script file to a pod's shell", `kubectl exec -i web -- sh < deploy.sh`, opaque},
		{"a script file to a container's shell", `docker exec -i web sh < deploy.sh`, opaque},
		{"a script file to oc rsh's shell", `oc rsh web < deploy.sh`, opaque},
		{"a script file through two hops", `ssh bastion ssh host < deploy.sh`, opaque},
		{"a pipe into ssh's login shell", `echo 'cat .aws/credentials' | ssh host`, pipe},
		{"a pipe into a pod's shell", `cat deploy.sh | kubectl exec -i web -- sh`, pipe},
		{"ssh -l's value holds an N", `ssh -lNadia host < deploy.sh`, opaque},
		{"ssh -i's value holds a W", `ssh -iWork.pem host < deploy.sh`, opaque},
		{"a pipe past ssh -i's value", `cat deploy.sh | ssh -iWork.pem host`, pipe},
		{"a file opened for reading and writing", `ssh host <>deploy.sh`, opaque},
		{"fd 0 opened for reading and writing, to a container's shell", `docker exec -i web sh 0<>deploy.sh`, opaque},
		{"another descriptor's input", `ssh host <&3 3<deploy.sh`, opaque},
		{"kubectl exec POD CMD, without --", `kubectl exec -i web sh < deploy.sh`, opaque},
		{"kubectl exec POD CMD reads a secret", "kubectl exec -i web sh <<EOF\ncat /run/secrets/db\nEOF", zeroD},
		{"docker container exec", "docker container exec -i web sh <<EOF\ncat /run/secrets/db\nEOF", zeroD},
		{"podman container exec", `podman container exec -i web sh < deploy.sh`, opaque},
		{"harmless: ssh fed /dev/null", `ssh host < /dev/null`, outcome{}},
		{"harmless: GitHub's ssh test fed /dev/null", `ssh -T git@github.com < /dev/null`, outcome{}},
		{"harmless: ssh -n reads /dev/null, not what it is fed", `ssh -n host < deploy.sh`, outcome{}},
		{"harmless: stdin closed", `ssh host <&-`, outcome{}},
		{"harmless: a here-document of harmless commands to ssh", "ssh host <<EOF\nuptime\nls -la\nEOF", outcome{}},
		{"harmless: a file fed to a remote cat", `ssh host 'cat > notes.txt' < notes.txt`, outcome{}},
		{"harmless: a pipe into a remote tar", `tar c src | ssh host tar x -C /srv`, outcome{}},
		{"harmless: a diff piped to a remote file", `git diff | ssh host 'cat > /tmp/p'`, outcome{}},
		{"harmless: ssh -N with its input from /dev/null", `ssh -fN -L 8080:db:5432 host < /dev/null`, outcome{}},
		{"harmless: data fed to a pod's shell command", `kubectl exec -i web -- sh -c 'cat > /tmp/x' < notes.txt`, outcome{}},
	})
}

// kubectl cp and docker cp write their destination, here or in the pod or container.
func TestContainerCopiesWriteTheirDestination(t *testing.T) {
	noWriteD := denied(RulePrefixPathPolicy + "noWrite")
	testCredentialCases(t, []credentialCase{
		{"kubectl cp into the shell's startup file", `kubectl cp web:/tmp/x ~/.bashrc`, noWriteD},
		{"kubectl cp with -n before cp into a git hook", `kubectl -n prod cp web:/tmp/x .git/hooks/pre-commit`, noWriteD},
		{"oc cp into the shell's startup file", `oc cp web:/tmp/x ~/.bashrc`, noWriteD},
		{"docker cp into the shell's startup file", `docker cp web:/tmp/x ~/.bashrc`, noWriteD},
		{"podman cp into the shell's startup file", `podman cp web:/tmp/x ~/.profile`, noWriteD},
		{"docker container cp", `docker container cp web:/tmp/x ~/.bashrc`, noWriteD},
		{"kubectl cp with --retries and its value last", `kubectl cp web:/tmp/x ~/.bashrc --retries 3`, noWriteD},
		{"docker cp into the home directory, a startup file by name", `docker cp web:/tmp/.bashrc ~`, noWriteD},
		{"cp into the home directory, a startup file by name", `cp /tmp/x/.bashrc ~/`, noWriteD},
		{"mv into the working directory", `mv /tmp/x/.gitconfig ./`, noWriteD},
		{"cp of two files into a directory", `cp notes.txt /tmp/x/.zshrc ~`, noWriteD},
		{"scp into the home directory", `scp host:.bashrc ~`, noWriteD},
		{"cp -t into the home directory", `cp -t ~ /tmp/x/.bashrc`, noWriteD},
		{"mv --target-directory= into the working directory", `mv --target-directory=. /tmp/x/.gitconfig`, noWriteD},
		{"install -t, the value attached", `install -t~ /tmp/x/.profile`, noWriteD},
		{"harmless: cp of a file into a directory", `cp /tmp/x/notes.txt ~/`, outcome{}},
		{"harmless: cp -t of a file into a directory", `cp -t build/ src/main.go`, outcome{}},
		{"harmless: cp of a file to a new name", `cp .bashrc.example docs/bashrc.txt`, outcome{}},
		{"harmless: kubectl cp of a log out of a pod", `kubectl cp web:/tmp/out.log ./out.log`, outcome{}},
		{"harmless: docker container cp of a log", `docker container cp web:/tmp/out.log ./out.log`, outcome{}},
		{"harmless: kubectl cp of a file into a pod", `kubectl cp ./build.tar web:/tmp/build.tar`, outcome{}},
	})
}

// A host path reaches a container by other ways than run's -v: a local volume bound to it (volume
// create -o device=PATH, which "-v NAME:/h" mounts later, in a call the engine judges alone) and a
// swarm service's mounts. Each is judged as the mount it makes, in the call that names the path.
func TestHostPathsMountedByVolumesAndServices(t *testing.T) {
	zeroD := denied(zero)
	testCredentialCases(t, []credentialCase{
		{"a local volume bound to the host's root", `docker volume create --driver local --opt type=none --opt o=bind --opt device=/ hostroot`, zeroD},
		{"a volume bound to /etc, -o", `docker volume create -o type=none -o o=bind -o device=/etc v`, zeroD},
		{"a volume option attached to -o", `docker volume create -odevice=/ -otype=none -oo=bind x`, zeroD},
		{"a volume option after -o=, as pflag reads it", `docker volume create -o=device=/ -o=type=none -o=o=bind v`, zeroD},
		{"a read-only volume of /root still reads it", `docker volume create --opt=device=/root -o o=bind,ro -o type=none r`, zeroD},
		{"podman: a volume bound to the agent's keys", `podman volume create -o device=$HOME/.ssh -o type=none -o o=bind s`, zeroD},
		{"a volume bound into .git/hooks", `docker volume create -o device=.git/hooks -o type=none -o o=bind h`, denied(RulePrefixPathPolicy + "noWrite")},
		{"a service's bind mount", `docker service create --mount type=bind,source=/,target=/h img`, zeroD},
		{"a service's bind mount, added later", `docker service update --mount-add type=bind,src=/etc,dst=/e web`, zeroD},
		{"harmless: a volume bound to a build directory", `docker volume create -o device=/workspace/build -o type=none -o o=bind b`, outcome{}},
		{"harmless: a read-only volume of the docs", `docker volume create -o device=/workspace/docs -o type=none -o o=bind,ro d`, outcome{}},
		{"harmless: an NFS volume (its device is not on this host)", `docker volume create -o type=nfs -o o=addr=10.0.0.1 -o device=:/export n`, outcome{}},
		{"harmless: a plain named volume", `docker volume create cache`, outcome{}},
		{"harmless: a service with a named volume", `docker service create --mount type=volume,src=cache,dst=/c img`, outcome{}},
	})
}

// A container runtime's socket is the runtime: whoever reaches it starts a privileged container
// with the host's root mounted, past every container-privileged option the engine reads. Mounting
// it into a container or talking to it directly is denied as a zero-access path.
func TestContainerRuntimeSocketsAreZeroAccess(t *testing.T) {
	zeroD := denied(zero)
	testCredentialCases(t, []credentialCase{
		{"the docker socket mounted into a container", `docker run -v /var/run/docker.sock:/var/run/docker.sock img`, zeroD},
		{"the containerd socket mounted with --mount", `docker run --mount type=bind,source=/run/containerd/containerd.sock,target=/c img`, zeroD},
		{"the rootless podman socket mounted", `podman run -v $XDG_RUNTIME_DIR/podman/podman.sock:/s img`, zeroD},
		{"curl to the docker socket", `curl --unix-socket /var/run/docker.sock -d '{"HostConfig":{"Privileged":true}}' http://x/containers/create`, zeroD},
		{"socat to the docker socket", `socat - UNIX-CONNECT:/var/run/docker.sock`, zeroD},
		{"the containerd run directory", `docker run -v /run/containerd:/c img`, zeroD},
		{"Docker Desktop's raw socket", `docker run -v /var/run/docker.sock.raw:/s img`, zeroD},
		{"rootless podman's run directory", `docker run -v /run/user/1000/podman:/p img`, zeroD},
		{"a quoted --mount field", `docker run --mount 'type=bind,"src=/var/run/docker.sock",dst=/s' img`, zeroD},
		{"--mount's type in capitals", `docker run --mount type=Bind,src=/,dst=/h img`, zeroD},
		{"a volume the local driver binds to a host path", `docker run --mount type=volume,dst=/h,volume-opt=type=none,volume-opt=o=bind,volume-opt=device=/ img`, zeroD},
		{"-v at the end of a short bundle", `docker run -tiv /:/host img`, zeroD},
		{"-v in a short bundle, its value attached", `docker run -itv/:/host img`, zeroD},
		{"-v in a short bundle, its value after =", `docker run -itv=/:/host img`, zeroD},
		{"harmless: the docker CLI on its own socket", `docker ps`, outcome{}},
		{"harmless: a named volume in a bundle", `docker run -itv cache:/root/.cache img`, outcome{}},
		{"harmless: a volume mount with --mount", `docker run --mount type=volume,src=cache,dst=/c img`, outcome{}},
		{"harmless: a source directory mounted", `docker run -v /workspace/src:/src img`, outcome{}},
	})
}
