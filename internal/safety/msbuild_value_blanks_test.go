package safety

import "testing"

// TestMSBuildValueBlanks: NuGet and the SDK trim a property's value and each of its entries, so a
// blank (or any white space) before a path outside the project still names it. Before, the value
// was read as a relative path below the project and each row was admitted at Yolo (the
// -p:RestoreConfigFile and NuGetPackageRoot rows at Default too).
func TestMSBuildValueBlanks(t *testing.T) {
	expectRefusedAtEveryAutonomy(t, []string{
		`dotnet build '-p:RestoreConfigFile= /tmp/nuget.config'`, `dotnet build '-p:NuGetPackageRoot= /tmp/pkgs/'`,
		`dotnet restore '-p:RestoreSources= /tmp/feed'`, `dotnet restore '-p:RestoreSources=x; /tmp/feed'`,
		"dotnet restore '-p:RestoreSources=\t/tmp/feed'", `RestoreSources=' /tmp/feed' dotnet restore`,
	}, []string{`dotnet build -p:Configuration=Release`})
}
