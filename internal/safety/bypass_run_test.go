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
	{ID: "psql", Command: "psql ..."}, {ID: "mysql", Command: "mysql ..."}, {ID: "mongosh", Command: "mongosh ..."},
	{ID: "duckdb", Command: "duckdb ..."}, {ID: "podman-kube-down", Command: "podman kube down ..."},
}

func runCatalogue() []classCase {
	zeroD := denied(zero)
	sh := shCall
	opaque := asked(RuleOpaqueCode)
	const (
		mount  = "container mount"
		escape = "database client's shell escape"
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
		// A database client's own commands that run a program or touch a file here are opaque, as
		// sqlite3's dot-commands are: asked at every level, Yolo too.
		{escape, "psql's \\!", sh(`psql -c '\! id'`), opaque, sh(`psql -c '\dt'`), false},
		{escape, "psql's \\! in a second -c", sh(`psql -h db -c 'select 1' -c '\! cat /etc/shadow'`), opaque, sh(`psql -c '\x' -c 'select * from users limit 5'`), false},
		{escape, "psql's output piped to a program", sh(`psql -c 'select 1' -c '\o |sh'`), opaque, sh(`psql -c '\timing on' -c 'select 1'`), false},
		{escape, "psql's query piped to a program with \\g", sh(`psql -c 'select 1 \g |id'`), opaque, sh(`psql -c 'select 1' -c '\gexec'`), false},
		{escape, "psql's \\copy reads a local file", sh(`psql -c '\copy t from /etc/shadow'`), opaque, sh(`psql -c 'copy t to stdout'`), false},
		{escape, "COPY ... PROGRAM on a local server", sh(`psql -c "COPY t FROM PROGRAM 'id'"`), opaque, sh(`psql -c "select 'program'"`), false},
		{escape, "psql -f, a script", sh(`psql -f /tmp/x.sql`), opaque, sh(`psql -d app -c 'select count(*) from users'`), false},
		{escape, "psql fed \\! on a here-string", sh(`psql <<< '\! id'`), opaque, sh(`psql db <<< 'select 1'`), false},
		{escape, "psql fed \\! by echo", sh(`echo '\! id' | psql`), opaque, sh(`echo 'select 1' | psql`), false},
		{escape, "mysql's system", sh(`mysql -e 'system id'`), opaque, sh(`mysql -e 'show tables'`), false},
		{escape, "mysql's system after a statement, upper case", sh(`mysql -e 'select 1; SYSTEM id'`), opaque, sh(`mysql -e 'select 1; select 2'`), false},
		{escape, "mysql's \\!", sh(`mysql -u root -e '\! id'`), opaque, sh(`mysql -u root -e 'select user()'`), false},
		{escape, "mysql's pager", sh(`mysql --pager=sh -e 'select 1'`), opaque, sh(`mysql --table -e 'select 1'`), false},
		{escape, "mysql reads a local file", sh(`mysql -e "LOAD DATA LOCAL INFILE '/etc/shadow' INTO TABLE t"`), opaque, sh(`mysql -e 'select count(*) from users'`), false},
		{escape, "mysql fed system on a here-string", sh(`mysql <<< 'system id'`), opaque, sh(`mysql db <<< 'show tables'`), false},
		{escape, "duckdb's .shell", sh(`duckdb x.db '.shell id'`), opaque, sh(`duckdb x.db 'select 1'`), false},
		{escape, "mongosh --eval runs JavaScript in Node.js", sh(`mongosh --eval 'require("child_process").execSync("id")'`), opaque, sh(`mongosh mydb`), false},
		{mount, "podman kube play makes the pods a YAML describes", sh(`podman kube play pod.yaml`), opaque, sh(`podman kube down pod.yaml`), false},
	}
}
