package safety

// The third attacker review's rows: code fetched and run, destructive operations, respelled
// program names and wrappers, and what container commands read from the host.

// runCommands are the project commands the rows' near misses need to be admitted at Default: a
// project that builds and runs containers declares them.
var runCommands = []ProjectCommand{
	{ID: "docker-build", Command: "docker build ..."}, {ID: "docker-buildx", Command: "docker buildx build ..."},
	{ID: "docker-run", Command: "docker run ..."}, {ID: "podman-run", Command: "podman run ..."},
	{ID: "docker-volume", Command: "docker volume create ..."}, {ID: "podman-pod", Command: "podman pod create ..."},
	{ID: "compose-run", Command: "docker compose run ..."}, {ID: "docker-compose-run", Command: "docker-compose run ..."},
}

func runCatalogue() []classCase {
	zeroD := denied(zero)
	sh := shCall
	const (
		mount = "container mount"
	)
	return []classCase{
		// What a container command reads from the host, beyond run's -v and --mount.
		{mount, "a relative bind device, which dockerd reads from /", sh(`docker volume create -o type=none -o o=bind -o device=etc v`), zeroD, sh(`docker volume create -o type=tmpfs -o device=tmpfs v`), false},
		{mount, "a relative bind device in o=rbind", sh(`docker volume create --opt type=none --opt o=rbind,ro --opt device=root v`), zeroD, sh(`docker volume create --opt type=none --opt o=bind --opt device=/workspace/app/data v`), false},
		{mount, "podman's glob mount", sh(`podman run --mount type=glob,src=/e*,dst=/x alpine`), zeroD, sh(`podman run --mount type=glob,src=/workspace/app/docs/*.md,dst=/docs,ro alpine`), false},
		{mount, "a pod's volume", sh(`podman pod create -v /:/h`), zeroD, sh(`podman pod create -v cache:/cache`), false},
		{mount, "a pod's --volume=", sh(`podman pod create --volume=/etc:/h --name p`), zeroD, sh(`podman pod create --name p -p 8080:80`), false},
		{mount, "compose run's extra volume", sh(`docker compose run --rm -v /etc:/h app cat /h/shadow`), zeroD, sh(`docker compose run --rm -v /workspace/app/build:/out app make`), false},
		{mount, "docker-compose run's extra volume", sh(`docker-compose run --volume ~/.ssh:/k app`), zeroD, sh(`docker-compose run --rm app go test ./...`), false},
		{mount, "a build context of /", sh(`docker build -t x /`), zeroD, sh(`docker build -t x .`), false},
		{mount, "a build context of the home directory", sh(`docker build -f Dockerfile ~`), zeroD, sh(`docker build -f docker/Dockerfile docker/`), false},
		{mount, "a named build context of /", sh(`docker buildx build --build-context host=/ .`), zeroD, sh(`docker buildx build --build-context base=docker-image://alpine:3 .`), false},
		{mount, "a named build context, =-attached", sh(`docker build --build-context=k=/home .`), zeroD, sh(`docker build --build-context=assets=./assets .`), false},
		{mount, "a build secret's source", sh(`docker build --secret id=aws,src=$HOME/.aws/credentials .`), zeroD, sh(`docker build --secret id=npm,env=NPM_TOKEN .`), false},
		{mount, "a build's ssh key file", sh(`docker buildx build --ssh default=~/.ssh/id_ed25519 .`), zeroD, sh(`docker buildx build --ssh default .`), false},
	}
}
