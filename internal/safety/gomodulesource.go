package safety

// Go builds take the source of modules from where these variables say, so a value set on the
// line points go build, go test and go run at code outside the project: GOWORK names a go.work
// file whose use and replace directives add directories from anywhere (GOWORK=/tmp/go.work go
// test ./... compiles /tmp/x in place of a dependency, as go mod edit -replace=/tmp/x would),
// GOMODCACHE the module cache, whose extracted source go trusts without checking go.sum again,
// GOPATH the cache's default place (GOPATH/pkg/mod), and GOCACHE the build cache, whose compiled
// packages go links by their inputs' hash without checking what the files hold (a planted
// cache links its objects into every test binary). GOWORK=off, and an empty value, turn the
// workspace off.

// goWorkOff is the GOWORK value that turns go's workspace off.
const goWorkOff = "off"

// goModuleSourceVars are the variables that say where go takes modules' source from.
var goModuleSourceVars = map[string]bool{"GOWORK": true, "GOMODCACHE": true, "GOPATH": true, "GOCACHE": true}

// goModuleSourceReason says why an assignment points go at module source from elsewhere, or "".
func goModuleSourceReason(name, val string) string {
	if !goModuleSourceVars[name] || name == "GOWORK" && (val == goWorkOff || val == "") {
		return ""
	}
	return "setting " + name + " points go at module source the engine cannot see, outside the project"
}
