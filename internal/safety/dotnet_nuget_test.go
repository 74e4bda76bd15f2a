package safety

import "testing"

// TestDotnetNuGetElsewhere holds the rows for NuGet's configuration and package sources named
// outside the project: a NuGet config (its sources, fallback folders, globalPackagesFolder), a
// package source, the packages folder restore fills and takes a planted package from as it is,
// dotnet's home (NuGet's user config and package cache below it), NuGet's plugins, and the
// MSBuild properties restore reads them from. Each names packages from elsewhere, whose
// build/*.targets MSBuild imports: code the engine has not seen.
func TestDotnetNuGetElsewhere(t *testing.T) {
	opaque := asked(RuleOpaqueCode)
	allow := outcome{Verdict: VerdictAllow}
	attacks := []callRow{
		{"DOTNET_CLI_HOME=/tmp/x dotnet test", shCall(`DOTNET_CLI_HOME=/tmp/x dotnet test`), opaque},
		{"export DOTNET_CLI_HOME=/tmp/x; dotnet test", shCall(`export DOTNET_CLI_HOME=/tmp/x; dotnet test`), opaque},
		{"dotnet test --configfile /tmp/x/nuget.config", shCall(`dotnet test --configfile /tmp/x/nuget.config`), opaque},
		{"dotnet build --configfile=/tmp/x/nuget.config", shCall(`dotnet build --configfile=/tmp/x/nuget.config`), opaque},
		{"dotnet build --configfile:/tmp/x/nuget.config", shCall(`dotnet build --configfile:/tmp/x/nuget.config`), opaque},
		{"dotnet restore --configfile /tmp/x/nuget.config", shCall(`dotnet restore --configfile /tmp/x/nuget.config`), opaque},
		{"dotnet build --source /tmp/x", shCall(`dotnet build --source /tmp/x`), opaque},
		{"dotnet restore --source /tmp/x", shCall(`dotnet restore --source /tmp/x`), opaque},
		{"dotnet restore --source https://x.example/v3/index.json", shCall(`dotnet restore --source https://x.example/v3/index.json`), opaque},
		{"dotnet test --packages /tmp/x", shCall(`dotnet test --packages /tmp/x`), opaque},
		{"dotnet tool install --add-source /tmp/x foo", shCall(`dotnet tool install --add-source /tmp/x foo`), opaque},
		{"NUGET_PLUGIN_PATHS=/tmp/x/p.dll dotnet build", shCall(`NUGET_PLUGIN_PATHS=/tmp/x/p.dll dotnet build`), opaque},
		{"NUGET_FALLBACK_PACKAGES=/tmp/x dotnet test", shCall(`NUGET_FALLBACK_PACKAGES=/tmp/x dotnet test`), opaque},
		{"dotnet build -p:RestoreConfigFile=/tmp/x/n.config", shCall(`dotnet build -p:RestoreConfigFile=/tmp/x/n.config`), opaque},
		{"RestoreSources=/tmp/x dotnet test", shCall(`RestoreSources=/tmp/x dotnet test`), opaque},
		{"dotnet test -p:RestoreAdditionalProjectSources=/tmp/x", shCall(`dotnet test -p:RestoreAdditionalProjectSources=/tmp/x`), opaque},
	}
	expectRows(t, classRules, attacks)
	yolo := classRules
	yolo.Autonomy = AutonomyYolo
	expectRows(t, yolo, attacks)
	expectRows(t, classRules, []callRow{
		// Near misses: the project's own config, source and folders.
		{"near: dotnet test", shCall(`dotnet test`), allow},
		{"near: dotnet build", shCall(`dotnet build`), allow},
		{"near: dotnet test --configfile nuget.config", shCall(`dotnet test --configfile nuget.config`), allow},
		{"near: dotnet build --source ./packages", shCall(`dotnet build --source ./packages`), allow},
		{"near: dotnet build --packages .nuget/packages", shCall(`dotnet build --packages .nuget/packages`), allow},
		{"near: DOTNET_CLI_HOME=.dotnet dotnet test", shCall(`DOTNET_CLI_HOME=.dotnet dotnet test`), allow},
	})
}
