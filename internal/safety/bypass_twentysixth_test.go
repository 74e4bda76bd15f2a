package safety

// twentysixthCatalogue holds the twenty-sixth engine review's rows. git config --list (-l, list,
// git var -l) printed http.extraHeader, the Authorization header actions/checkout leaves in
// .git/config, with every other setting, where git config --get of the key asked; cat .git/config,
// a copy of it elsewhere and a recursive read of .git printed it too. tox --conf, tox 4's long -c,
// ran another tox.ini's commands where -c asked; tox --workdir and TOX_WORK_DIR outside the project
// reused the environments planted there. .NET's DOTNET_STARTUP_HOOKS and CORECLR_PROFILER_PATH load
// an assembly or a native library into every .NET process, as LD_PRELOAD does, admitted;
// DOTNET_ADDITIONAL_DEPS adds assemblies from elsewhere. MSBuild reads its environment as
// properties: CustomBeforeMicrosoftCommonTargets=/tmp/x.targets dotnet build imported the targets
// -p:CustomBeforeMicrosoftCommonTargets asks for, admitted; NUGET_PACKAGES and RestorePackagesPath
// outside the project import the build targets of packages found there.
func twentysixthCatalogue() []classCase {
	sh := shCall
	opaque, inject, gitCfg := asked(RuleOpaqueCode), denied(RuleLibraryInjection), asked(dc+"print-credentials-git-config")
	const (
		repoConfig = "a repository's config and git config's whole list hold the header a CI checkout leaves"
		toxConf    = "tox's long spelling of -c, and a work directory outside the project"
		dotnetEnv  = "variables that make every .NET process load code from elsewhere"
		msbuildEnv = "MSBuild reads its environment as properties"
	)
	return []classCase{
		{repoConfig, "the whole list; names alone", sh(`git config --list`), gitCfg, sh(`git config --list --name-only`), false},
		{repoConfig, "-l with origins; a named key", sh(`git config -l --show-origin`), gitCfg, sh(`git config --get remote.origin.url`), false},
		{repoConfig, "git 2.46's list; the submodules' file", sh(`git config list`), gitCfg, sh(`git config -f .gitmodules --list`), false},
		{repoConfig, "git var -l prints the configuration; the remotes", sh(`git var -l`), gitCfg, sh(`git remote -v`), false},
		{repoConfig, "a pattern matching every key; its names alone", sh(`git config --get-regexp .`), gitCfg,
			sh(`git config --name-only --get-regexp .`), false},
		{repoConfig, "cat of the file; of HEAD", sh(`cat .git/config`), gitCfg, sh(`cat .git/HEAD`), false},
		{repoConfig, "a copy to /tmp; of the ignore file", sh(`cp .git/config /tmp/c`), gitCfg, sh(`cp .gitignore /tmp/c`), false},
		{repoConfig, "another checkout's, by a glob; this one's refs", sh(`head ../web/.git/c?nfig`), gitCfg, sh(`cat .git/refs/heads/*`), false},
		{repoConfig, "a recursive search of .git; of the sources", sh(`grep -r extraheader .git`), gitCfg,
			sh(`grep -rn --include='*.go' TODO .`), false},
		{repoConfig, "an archive of .git; of its refs", sh(`tar czf /tmp/g.tgz .git`), gitCfg, sh(`tar czf /tmp/r.tgz .git/refs`), false},
		{repoConfig, "a read tool's path", readCall(".git/config"), gitCfg, readCall(".git/HEAD"), false},
		{toxConf, "--conf from /tmp; the project's", sh(`tox --conf /tmp/tox.ini`), opaque, sh(`tox --conf tox.ini -e py`), false},
		{toxConf, "--conf= two levels up", sh(`tox -e py --conf=../../x/tox.ini`), opaque, sh(`tox -e py`), false},
		{toxConf, "environments from /tmp; in the project", sh(`tox --workdir /tmp/w -e py`), opaque, sh(`tox --workdir .tox2 -e py`), false},
		{toxConf, "the variable; in the project", sh(`TOX_WORK_DIR=/tmp/w tox`), opaque, sh(`TOX_WORK_DIR=build/tox tox`), false},
		{dotnetEnv, "startup hooks; telemetry off", sh(`DOTNET_STARTUP_HOOKS=/tmp/x.dll dotnet test`), inject,
			sh(`DOTNET_CLI_TELEMETRY_OPTOUT=1 dotnet test`), false},
		{dotnetEnv, "exported first; the logo off", sh(`export DOTNET_STARTUP_HOOKS=/tmp/x.dll; dotnet build`), inject,
			sh(`export DOTNET_NOLOGO=1; dotnet build`), false},
		{dotnetEnv, "a profiler's library; roll-forward", sh(`CORECLR_ENABLE_PROFILING=1 CORECLR_PROFILER_PATH_64=/tmp/p.so dotnet test`), inject,
			sh(`DOTNET_ROLL_FORWARD=Major dotnet test`), false},
		{dotnetEnv, "deps from /tmp", sh(`DOTNET_ADDITIONAL_DEPS=/tmp/x dotnet test`), opaque, sh(`dotnet test --no-restore`), false},
		{msbuildEnv, "targets imported before the common ones; a configuration", sh(`CustomBeforeMicrosoftCommonTargets=/tmp/x.targets dotnet build`),
			opaque, sh(`Configuration=Release dotnet build`), false},
		{msbuildEnv, "through env; the property naming the project's props", sh(`env DirectoryBuildPropsPath=/tmp/x.props dotnet test`), opaque,
			sh(`dotnet build -p:DirectoryBuildPropsPath=build/x.props`), false},
		{msbuildEnv, "a compiler exported; a release build", sh(`export CscToolPath=/tmp/x; dotnet build`), opaque, sh(`dotnet build -c Release`), false},
		{msbuildEnv, "packages from /tmp; the project's folder", sh(`NUGET_PACKAGES=/tmp/n dotnet test`), opaque,
			sh(`NUGET_PACKAGES=.nuget/packages dotnet test`), false},
		{msbuildEnv, "restore's packages path as a property", sh(`dotnet build -p:RestorePackagesPath=/tmp/n`), opaque,
			sh(`dotnet build -p:RestorePackagesPath=.packages`), false},
	}
}

// twentysixthOrdinaryCatalogue holds the twenty-sixth review's over-refusals: git config
// --name-only --get-regexp ., which prints names without their values, asked.
func twentysixthOrdinaryCatalogue() []classCase {
	sh := shCall
	gitCfg := asked(dc + "print-credentials-git-config")
	const names = "git config's names without their values"
	return []classCase{
		{names, "the names a pattern matches; their values", sh(`git config --get-regexp .`), gitCfg, sh(`git config --name-only --get-regexp .`), false},
	}
}
