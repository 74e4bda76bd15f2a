package safety

import (
	"strings"
)

// cmdDotnet is the .NET CLI.
const cmdDotnet = "dotnet"

// dotnet reads an option's value after a colon as after a space or "=" (System.CommandLine:
// --results-directory:DIR), and hands the words it does not know to MSBuild, whose switches are
// spelt -name:value, /name:value or --name:value in any case. Some of them write a file the
// generic reading of options does not see (the test results, the build output, the diagnostic
// log, MSBuild's binary and text logs), others load code from where they say (a logger
// assembly; a property naming targets or props MSBuild imports, or a tool it runs).

// dotnetWriteSwitches are dotnet's and MSBuild's switches whose value is a path written: dotnet
// test's results directory, output and diagnostic log, and MSBuild's binary log (-bl:FILE, or
// -bl:LogFile=FILE;...).
//
//nolint:goconst // switch names read best literally, next to their neighbours
var dotnetWriteSwitches = map[string]bool{"results-directory": true, "output": true, "o": true, "diag": true, "d": true,
	"bl": true, "binarylogger": true}

// dotnetFileLogger is a text file logger's switch (-flp:, -flp1: ... -fileLoggerParameters9:),
// whose LogFile= parameter is the log it writes: every message of the build, the caller's text.
func dotnetFileLogger(name string) bool {
	name = strings.TrimRight(name, "123456789")
	return name == "flp" || name == "fileloggerparameters"
}

// dotnetLoggerSwitches load a logger class from an assembly (-logger:CLASS,ASSEMBLY;PARAMS, -l:,
// and a distributed logger's central and forwarding ones, -dl:A*B). dotnet test's own --logger
// names a test logger (trx;LogFileName=...), without an assembly.
var dotnetLoggerSwitches = map[string]bool{"logger": true, "l": true, "distributedlogger": true, "dl": true}

// msbuildPropertySwitches set properties (-p:NAME=VALUE;NAME=VALUE).
//
//nolint:goconst // switch names read best literally
var msbuildPropertySwitches = map[string]bool{"p": true, "property": true}

// msbuildCodeProps are the properties that make MSBuild import a targets or props file, or run a
// tool, from the path they hold (besides any property ending in ToolPath or ToolExe: CscToolPath),
// and where restore puts the packages whose build/*.targets MSBuild then imports (a package found
// there already extracted is not fetched again: a planted one is imported as is).
var msbuildCodeProps = map[string]bool{
	"custombeforemicrosoftcommontargets": true, "customaftermicrosoftcommontargets": true,
	"custombeforemicrosoftcommonprops": true, "customaftermicrosoftcommonprops": true,
	"custombeforemicrosoftcsharptargets": true, "customaftermicrosoftcsharptargets": true,
	"directorybuildpropspath": true, "directorybuildtargetspath": true, "msbuildextensionspath": true,
	"msbuilduserextensionspath": true, "dotnethostpath": true, "restorepackagespath": true, "nuget_packages": true,
	// restore's NuGet config and package sources, and the folders it takes packages from as
	// they are; the SDKs' directory, whose Sdk.props and Sdk.targets every project imports.
	"restoreconfigfile": true, "restoresources": true, "restorefallbackfolders": true,
	"restoreadditionalprojectsources": true, "restoreadditionalprojectfallbackfolders": true, "msbuildsdkspath": true,
	// NuGet's variables: the folders it takes packages from as they are, the plugins (assemblies)
	// it loads, the cache of packages fetched before.
	"nuget_fallback_packages": true, "nuget_plugin_paths": true, "nuget_http_cache_path": true,
	// dotnet's home: NuGet reads its user config (package sources) and keeps its packages below it.
	"dotnet_cli_home": true,
}

// msbuildCodeName reports whether a property (or variable) name, in any case, is one of
// msbuildCodeProps or ends in ToolPath or ToolExe.
func msbuildCodeName(name string) bool {
	if len(name) <= len("toolexe") {
		return false
	}
	k := strings.ToLower(name)
	return msbuildCodeProps[k] || strings.HasSuffix(k, "toolpath") || strings.HasSuffix(k, "toolexe")
}

// msbuildCodeVar reports whether an environment variable makes dotnet's MSBuild load code from
// outside the project: MSBuild reads every variable of its environment as a property of the same
// name (in any case), so CustomBeforeMicrosoftCommonTargets=/tmp/x.targets dotnet build imports
// what -p:CustomBeforeMicrosoftCommonTargets=/tmp/x.targets does; NuGet reads NUGET_PACKAGES as
// restore's RestorePackagesPath.
func msbuildCodeVar(name, val string) bool {
	return msbuildCodeName(name) && val != "" && !entriesBelow(val, ";")
}

// dotnetSwitch reads a word as a switch with its value after a colon: its name in lower case
// without its leading "-", "--" or "/", and the value. False for a word without one.
func dotnetSwitch(w string) (name, val string, ok bool) {
	var rest string
	switch {
	case strings.HasPrefix(w, "--"):
		rest = w[2:]
	case strings.HasPrefix(w, "-"), strings.HasPrefix(w, "/"):
		rest = w[1:]
	default:
		return "", "", false
	}
	name, val, ok = strings.Cut(rest, ":")
	if !ok || name == "" || strings.ContainsAny(name, "/=") {
		return "", "", false
	}
	return strings.ToLower(name), val, true
}

// dotnetOutputs records the files dotnet's and MSBuild's switches after a colon write.
func (a *analyzer) dotnetOutputs(seg *segment) {
	for _, w := range seg.words[1:] {
		if w.s == "--" {
			return // run settings follow (dotnetColonValue)
		}
		name, val, ok := dotnetSwitch(w.s)
		switch {
		case !ok:
		case dotnetWriteSwitches[name]:
			if name == "bl" || name == "binarylogger" {
				val = msbuildParam(val, "logfile", true)
			}
			if val != "" {
				a.touch(w.with(val), opWrite)
			}
		case dotnetFileLogger(name):
			if f := msbuildParam(val, "logfile", false); f != "" {
				a.touch(w.with(f), opWrite)
			}
		}
	}
}

// msbuildParam returns the value of a logger's parameter key ("LogFile=FILE;Verbosity=diag"), or
// with bare, the first parameter given without a key (-bl:FILE).
func msbuildParam(params, key string, bare bool) string {
	for p := range strings.SplitSeq(params, ";") {
		k, v, ok := strings.Cut(p, "=")
		if ok && strings.EqualFold(strings.TrimSpace(k), key) || !ok && bare && p != "" {
			if !ok {
				v = k
			}
			return v
		}
	}
	return ""
}

// dotnetMSBuildCode returns the MSBuild switch that loads code from outside the project: a logger
// whose assembly is a path from elsewhere, or a property (-p:, -property:, several joined by ";")
// naming targets, props or a tool there.
func dotnetMSBuildCode(s *segment) string {
	if s.name != cmdDotnet {
		return ""
	}
	for _, w := range s.words[1:] {
		if w.s == "--" {
			return ""
		}
		name, val, ok := dotnetSwitch(w.s)
		switch {
		case !ok:
		case dotnetLoggerSwitches[name]:
			// CLASS,ASSEMBLY;PARAMS; a distributed logger's two joined by "*".
			for l := range strings.SplitSeq(val, "*") {
				l, _, _ = strings.Cut(l, ";")
				if _, asm, ok := strings.Cut(l, ","); ok && (w.dynamic || !entriesBelow(strings.TrimSpace(asm), ",")) {
					return w.s
				}
			}
		case msbuildPropertySwitches[name]:
			for kv := range strings.SplitSeq(val, ";") {
				k, v, _ := strings.Cut(kv, "=")
				if msbuildCodeName(strings.TrimSpace(k)) && (w.dynamic || !entriesBelow(v, ";")) {
					return w.s
				}
			}
		}
	}
	return ""
}
