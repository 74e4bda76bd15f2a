package safety

import "testing"

// TestDotnetEnvironment: dotnet test -e/--environment NAME=VALUE sets a variable in the
// test host (docs: "Sets the value of an environment variable ... forces the tests to be run in an
// isolated process"; dotnet/sdk#40848), and System.CommandLine's [env:NAME=VALUE] directive sets
// one in dotnet itself, which MSBuild reads as a property and its children inherit
// (dotnet/sdk#40848: "dotnet [env:UITestExe=...] test ... works"). The variables the engine
// denies before dotnet (DOTNET_STARTUP_HOOKS=/tmp/x.dll dotnet build: library-injection) are
// were admitted in these spellings; the directive's at Yolo.
func TestDotnetEnvironment(t *testing.T) {
	expectRefusedAtEveryAutonomy(t, []string{
		`dotnet test -e DOTNET_STARTUP_HOOKS=/tmp/x.dll`,
		`dotnet test --environment DOTNET_STARTUP_HOOKS=/tmp/x.dll`,
		`dotnet test -e LD_PRELOAD=/tmp/x.so`,
		`dotnet test --environment:LD_PRELOAD=/tmp/x.so`,
		`dotnet test -e CORECLR_PROFILER_PATH=/tmp/x.so -e CORECLR_ENABLE_PROFILING=1`,
		`dotnet run -e DOTNET_STARTUP_HOOKS=/tmp/x.dll`, // Yolo
		`dotnet '[env:DOTNET_STARTUP_HOOKS=/tmp/x.dll]' test`,
		`dotnet '[env:CustomBeforeMicrosoftCommonTargets=/tmp/x.targets]' build`,
		`dotnet '[env:PreBuildEvent=sh /tmp/x.sh]' build`,
		`dotnet [env:MSBuildExtensionsPath=/tmp/x] build`,
		`dotnet test -e=LD_PRELOAD=/tmp/x.so`,
	}, []string{
		`dotnet test`,
		`dotnet test -e ASPNETCORE_ENVIRONMENT=Test`,
		`dotnet test --environment DOTNET_ENVIRONMENT=Development`,
	})
}
