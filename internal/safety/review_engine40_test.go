package safety

import "testing"

// TestModuleFormNamedElsewhere: a relative test path or project a runner's module form names
// (python -m pytest, under uv run, poetry run ...) is judged from the directory the segment runs
// in, as pytest's own is: after cd .., ../tmp/x is two levels above the call's directory. Before,
// the check keyed on the segment's name (python) and admitted each at Default and Yolo.
func TestModuleFormNamedElsewhere(t *testing.T) {
	attacks := []string{
		`cd .. && python -m pytest ../tmp/x/tests`, `cd .. && python3 -m pytest -c ../tmp/x/pytest.ini`,
		`cd .. && python -m unittest discover -s ../tmp/x`, `cd .. && uv run python -m pytest ../tmp/x`,
		`cd .. && poetry run python -m pytest ../tmp/x`, `cd .. && uv run -m pytest ../tmp/x`,
		`cd .. && python -I -m pytest ../tmp/x`, `cd .. && python -mpytest ../tmp/x`,
		`cd .. && pipenv run python -m pytest ../tmp/x`, `cd .. && env python -m pytest ../tmp/x`,
		`cd .. && python -m pytest --rootdir ../tmp/x`, `pushd .. && python -m pytest ../tmp/x`,
		`(cd .. && python3.12 -m pytest ../tmp/x)`, `cd .. && python -m py.test ../tmp/x`,
		`cd .. && python -m unittest discover ../tmp/x`,
	}
	nearMisses := []string{`python -m pytest tests`, `python -m pytest ../x`, `cd sub && python -m pytest ../x`,
		`python -m unittest discover -s tests`, `uv run python -m pytest tests`, `cd sub && python -m pytest tests`}
	expectRefusedAtEveryAutonomy(t, attacks, nearMisses)
}

// TestMSBuildSpellings: MSBuild (and dotnet's own parser before it) reads a property, a
// restore property, a logger and more switches in spellings the engine did not: "," separates
// properties as ";" does; -rp: and -restoreProperty: set restore's properties; dotnet's -p and
// --property take their value after a space or "=" too; a logger's class is optional
// (-logger:ASSEMBLY); @FILE reads switches from a response file; MSBuild's quotes and %XX
// escapes are its own. Each named a package source, logger assembly or SDK directory from /tmp
// and was admitted at Default and Yolo; msbuild by itself read them unjudged.
func TestMSBuildSpellings(t *testing.T) {
	attacks := []string{
		`dotnet test -p:Foo=1,RestoreSources=/tmp/x`, `dotnet test -rp:RestoreSources=/tmp/x`,
		`dotnet test -p RestoreSources=/tmp/x`, `dotnet test --property RestoreSources=/tmp/x`,
		`dotnet test -p=RestoreSources=/tmp/x`, `dotnet test --property=RestoreSources=/tmp/x`,
		`dotnet restore -p RestoreSources=/tmp/x`, `dotnet publish -P RestoreSources=/tmp/x`,
		`dotnet test '-p:"RestoreSources=/tmp/x"'`, `dotnet test -p:RestoreSources=a,/tmp/x`,
		`dotnet build -p:RestoreSources=%2Ftmp%2Fx`, `dotnet build -p:CustomAfterMicrosoftCommonTargets=a,/tmp/x.targets`,
		`dotnet build -p:NuGetPackageRoot=/tmp/x/`, `dotnet build -p:MSBuildProjectExtensionsPath=/tmp/x/`,
		`dotnet build -p:AlternateCommonProps=/tmp/x.props`, `dotnet msbuild -rp:RestoreSources=/tmp/x`,
		`dotnet test @/tmp/x/args.rsp`, `dotnet build @../../tmp/x.rsp`,
		`dotnet build -logger:/tmp/x/L.dll`, `dotnet build -l:/tmp/x/L.dll`, `dotnet build -dl:/tmp/x/L.dll`,
		`dotnet build -Logger:/tmp/x/L.dll`, `dotnet build /logger:/tmp/x/L.dll;v=d`,
		`DOTNET_MSBUILD_SDK_RESOLVER_SDKS_DIR=/tmp/x dotnet build`, `MSBUILD_EXE_PATH=/tmp/x/MSBuild.dll dotnet build`,
		`MSBUILDADDITIONALSDKRESOLVERSFOLDER=/tmp/x dotnet build`, `DOTNET_MSBUILD_SDK_RESOLVER_CLI_DIR=/tmp/x dotnet build`,
		`NUGET_NETCORE_PLUGIN_PATHS=/tmp/x/p.dll dotnet restore`,
		`msbuild -p:RestoreSources=/tmp/x`, `msbuild -logger:/tmp/x/L.dll`,
		// "--" ends the switches only where what follows is run settings or the program's own.
		`dotnet build -- -logger:/tmp/x.dll`, `dotnet pack -- -dl:/tmp/x.dll`,
	}
	nearMisses := []string{`dotnet build`, `dotnet test`, `dotnet build -p:Configuration=Release`,
		`dotnet build -p:Version=1.0,Configuration=Release`, `dotnet build -p Configuration=Release`,
		`dotnet test --logger "trx;LogFileName=x.trx"`, `dotnet test -l:trx`, `dotnet build -p RestoreSources=nuget`,
		`dotnet build @build.rsp`, `dotnet build -p:NoWarn=CS1591,CS0618`, `dotnet build -p:BaseIntermediateOutputPath=obj2/`,
		`dotnet test -- RunConfiguration.X=1`}
	expectRefusedAtEveryAutonomy(t, attacks, nearMisses)
}

// TestBracketGlobsNameWhatTheyMatch: a bracket glob conflicts with a protected pattern as the
// characters it holds say. A wide bracket of no dot ([a-z], [0-9], [[:upper:]]) with wildcards
// names nothing in particular, as ?* does (ls [a-z]* was denied against *.env); a bracket meets
// a literal only by a character it holds (rm -f build/[0-9]*.o was denied against LICENSE.*,
// where globsMeet read every bracket as any character); and a bracket that may match beyond
// ASCII no longer reads as every ASCII character once its U+00A0 is folded to a space
// (ls [[:upper:]]* was denied as if it held "."). A narrow bracket is its letters, as before
// (ls [ab]* is ls a* or ls b*), and a bracket that spells a protected name is still a hit. A
// delete of brackets and wildcards alone in a project directory (rm [a-z]*) is judged as rm *
// is, by the protected files directly inside that it matches (rm [0-9]* matches no LICENSE).
func TestBracketGlobsNameWhatTheyMatch(t *testing.T) {
	hits := []string{`cat .[e]nv`, `cat [.]env`, `cat *.[e]nv`, `cat .[a-z]nv`, `cat [!a]env`, `cat [[:punct:]]env`,
		`cat [.][e]nv`, `cat *.[e][n][v]`, `cat [h-j][c-e]_rsa`, `cat ~/.ssh/[a-z]*`, `cat /etc/[a-z]*`,
		`rm -f build/[l]*.o`, `rm -f [l-m]icense.txt`, `cat .[[:alpha:]]nv`, `cat [[:print:]]env`,
		// A wide bracket deletes what it matches in the project directory, as rm * does: LICENSE.
		`rm [a-z]*`, `rm -f [A-Z]*`, `rm [[:upper:]]*`, `rm -rf [a-z]*`, `mv [a-z]* /tmp/`, `rm -f [a-z]*[a-z]`}
	admitted := []string{`ls [a-z]*`, `rm -f build/[0-9]*.o`, `ls [[:upper:]]*`, `ls [A-Z]*`, `ls [[:alnum:]]*`,
		`rm [0-9]*`, `cat [a-z]*.md`, `ls src/[ab]*.go`, `rm -f build/[0-9][0-9]*.o`}
	expectRefusedAtEveryAutonomy(t, hits, admitted)
	// Still refused as a literal first letter is (ls a*): the over-refusal stays.
	expectRefusedAtEveryAutonomy(t, []string{`ls [ab]*`, `ls [i]*`}, nil)
}

// TestRunnersUnderCoverageAndAsModules: coverage run runs a Python program (-m's module, else a
// file) and python -m RUNNER is the runner: before, coverage run -m pytest /tmp/x (and from a cd
// to /tmp) was admitted at Default and Yolo, coverage run /tmp/x.py and python -m uv run python
// /tmp/x.py at Yolo, since neither's command was read. And bundler's and mix's directories of
// code (BUNDLE_PATH, MIX_HOME's archives, MIX_EXS ...) outside the project were admitted.
func TestRunnersUnderCoverageAndAsModules(t *testing.T) {
	attacks := []string{
		`coverage run -m pytest /tmp/x`, `coverage run /tmp/x.py`, `cd /tmp && coverage run -m pytest`,
		`cd .. && coverage run -m pytest ../tmp/x`, `coverage run --mod pytest /tmp/x`, `coverage run -pm pytest /tmp/x`,
		`coverage run --omit -m /tmp/x.py`, `coverage run --source=src -m pytest /tmp/x`, `coverage run --bogus x /tmp/x.py`,
		`python -m coverage run /tmp/x.py`, `python -m uv run python /tmp/x.py`, `python3 -m poetry run python /tmp/x.py`,
		`python -m coverage run -m pytest /tmp/x`,
		`BUNDLE_PATH=/tmp/x bundle exec rspec`, `BUNDLE_APP_CONFIG=/tmp/x bundle exec rspec`, `MIX_HOME=/tmp/x mix test`,
		`MIX_DEPS_PATH=../../tmp/x mix test`, `export MIX_BUILD_PATH=/tmp/x; mix test`,
		`env MIX_ARCHIVES=/tmp/x mix test`,
	}
	nearMisses := []string{`coverage run -m pytest`, `coverage run -m pytest tests`, `coverage run --branch -m pytest tests -q`,
		`coverage run --source=src -m pytest`, `coverage run -p -m pytest`, `coverage report`, `coverage html`,
		`coverage run -m pytest tests && coverage report`, `BUNDLE_PATH=vendor/bundle bundle exec rspec`, `MIX_ENV=test mix test`,
		`uv run pytest`}
	expectRefusedAtEveryAutonomy(t, attacks, nearMisses)
}

// TestMSBuildProjectsElsewhere: dotnet's other project verbs (msbuild, pack, publish, restore,
// clean, format) and msbuild itself evaluate and build the project their operand names, running
// its targets; before, only test and build were judged, so dotnet pack /tmp/x/x.csproj and
// msbuild /tmp/x/x.proj were admitted at Yolo; so were msbuild and coverage run in a directory
// outside the workspace.
func TestMSBuildProjectsElsewhere(t *testing.T) {
	attacks := []string{`msbuild /tmp/x/x.proj`, `dotnet msbuild /tmp/x/x.proj`, `dotnet pack /tmp/x/x.csproj`,
		`dotnet publish /tmp/x/x.csproj`, `dotnet restore /tmp/x/x.csproj`, `dotnet clean /tmp/x/x.csproj`,
		`dotnet format /tmp/x/x.csproj`, `cd .. && dotnet msbuild ../tmp/x/x.proj`, `msbuild -p:Foo=1 ../../tmp/x/x.proj`,
		// Run in a directory outside the workspace, msbuild builds its project and coverage
		// imports the plugins its .coveragerc names.
		`cd /tmp/x && msbuild`, `cd /tmp/x && coverage report`, `cd /tmp/x && coverage html`}
	nearMisses := []string{`dotnet build`, `dotnet build x.sln`, `dotnet test tests/x.csproj`,
		`dotnet build -c Release /p:Version=1.0`}
	expectRefusedAtEveryAutonomy(t, attacks, nearMisses)
}
