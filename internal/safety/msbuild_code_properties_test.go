package safety

import "testing"

// TestMSBuildTaskAndTestAdapterProperties: properties that load code from where they say, outside
// the families msbuildCodeName knew: dotnet test's adapters and run settings (whose
// RunConfiguration.TestAdaptersPaths and DotnetHostPath load code), and the SDK's task assembly.
// Before, each row was admitted at Default and Yolo. Over-refusal: a run-settings property naming
// any path outside the project (a results directory too) asks.
func TestMSBuildTaskAndTestAdapterProperties(t *testing.T) {
	expectRefusedAtEveryAutonomy(t, []string{
		`dotnet test -p:VSTestTestAdapterPath=/tmp/x`, `dotnet test -p:VSTestSetting=/tmp/x.runsettings`,
		`dotnet test -p:RunSettingsFilePath=/tmp/x.runsettings`,
		`dotnet test '-p:VSTestCLIRunSettings=RunConfiguration.TestAdaptersPaths=/tmp/x'`,
		`dotnet test '-p:VSTestCLIRunSettings=RunConfiguration.DotnetHostPath=/tmp/dotnet'`,
		`dotnet build -p:MicrosoftNETBuildTasksAssembly=/tmp/t.dll`, `dotnet build -p:MicrosoftNETBuildTasksDirectory=/tmp/`,
		`dotnet build -p:RoslynTasksAssembly=/tmp/t.dll`, `dotnet build -p:MyTasksAssemblyFile=/tmp/t.dll`,
		`msbuild -p:VSTestAdapterPath=../../tmp/x`,
	}, []string{`dotnet test -p:Configuration=Release`, `dotnet build -p:SignAssembly=true`,
		`dotnet test -p:VSTestSetting=test.runsettings`, `dotnet test -p:RunSettingsFilePath=tests/ci.runsettings`})
}
