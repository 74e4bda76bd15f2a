package safety

import (
	"slices"
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
// test's results directory, output and diagnostic log; MSBuild's preprocessed project (-pp:FILE),
// its list of targets (-ts:FILE), a build's results (-getResultOutputFile:FILE), the evaluation
// profile (-profileEvaluation:FILE) and the results cache (-orc:FILE).
//
//nolint:goconst // switch names read best literally, next to their neighbours
var dotnetWriteSwitches = map[string]bool{"results-directory": true, "output": true, "o": true, "diag": true, "d": true,
	"pp": true, "preprocess": true, "ts": true, "targets": true, "getresultoutputfile": true, "profileevaluation": true,
	"orc": true, "outputresultscache": true}

// msbuildLogSwitches are MSBuild's loggers that write a log file: the binary log (-bl, or
// -bl:FILE, or -bl:LogFile=FILE;...), a text file logger (-fl, -fl1 ... -fileLogger9, and its
// parameters -flp: ... -fileLoggerParameters9:, whose LogFile= parameter is the log: every
// message of the build, the caller's text) and the distributed file logger (-dfl: one
// MSBuild<node>.log per node). Without a file named, each writes in the working directory.
func msbuildLogSwitch(name string) bool {
	name = strings.TrimRight(name, "123456789")
	switch name {
	case "bl", "binarylogger", "fl", "filelogger", "flp", "fileloggerparameters", "dfl", "distributedfilelogger":
		return true
	}
	return false
}

// dotnetLoggerSwitches load a logger class from an assembly (-logger:CLASS,ASSEMBLY;PARAMS, -l:,
// and a distributed logger's central and forwarding ones, -dl:A*B). dotnet test's own --logger
// names a test logger (trx;LogFileName=...), without an assembly.
var dotnetLoggerSwitches = map[string]bool{"logger": true, "l": true, "distributedlogger": true, "dl": true}

// msbuildPropertySwitches set properties (-p:NAME=VALUE;NAME=VALUE), or restore's alone
// (-rp:, -restoreProperty:), which is where its package sources are read.
//
//nolint:goconst // switch names read best literally
var msbuildPropertySwitches = map[string]bool{"p": true, "property": true, "rp": true, "restoreproperty": true}

// cmdMSBuild is MSBuild run by itself (Mono's, or a script of the SDK's).
const cmdMSBuild = "msbuild"

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
	// The SDKs' directory the SDK resolver takes every project's Sdk.props and Sdk.targets from,
	// and the dotnet directory it finds them below; the folders of more SDK resolvers
	// (assemblies MSBuild loads); the MSBuild dotnet runs; NuGet's plugins by runtime.
	"dotnet_msbuild_sdk_resolver_sdks_dir": true, "dotnet_msbuild_sdk_resolver_cli_dir": true,
	"msbuildadditionalsdkresolversfolder": true, "msbuildadditionalsdkresolversfolder_net": true,
	"msbuildadditionalsdkresolversfolder_netframework": true, "msbuild_exe_path": true,
	"nuget_netcore_plugin_paths": true, "nuget_netfx_plugin_paths": true,
	// Where restore's generated nuget.g.props and nuget.g.targets are imported from (obj/ by
	// default), and the packages folder they import each package's build/*.targets from.
	"msbuildprojectextensionspath": true, "baseintermediateoutputpath": true, "nugetpackageroot": true,
	"nugetpackagefolders": true, "roslyntargetspath": true,
	// Microsoft.Common.props and .targets take Directory.Build.props and .targets from these
	// when they are set: the folder, and the file's name (an absolute one is the file).
	"_directorybuildpropsbasepath": true, "_directorybuildpropsfile": true,
	"_directorybuildtargetsbasepath": true, "_directorybuildtargetsfile": true,
}

// msbuildCommandProps are the properties whose value is a command MSBuild runs (the PreBuildEvent
// and PostBuildEvent targets' <Exec Command="$(PreBuildEvent)"/>): any value runs.
var msbuildCommandProps = map[string]bool{"prebuildevent": true, "postbuildevent": true}

// msbuildCodeSuffixes end the names of properties that name a tool MSBuild runs (CscToolPath,
// CscToolExe) or a file or folder it imports from (CustomAfterMicrosoftCommonTargets,
// MSBuildExtensionsPath32): an open family, so judged by its ending.
// A task assembly MSBuild loads (MicrosoftNETBuildTasksAssembly, a UsingTask's AssemblyFile) or
// the folder it loads it from (MicrosoftNETBuildTasksDirectory), and the test adapters dotnet
// test loads (VSTestTestAdapterPath, run settings' TestAdaptersPaths) are the same family.
var msbuildCodeSuffixes = []string{"toolpath", "toolexe", "toolspath", "targetspath", "propspath", "extensionspath", "targets", "props",
	"assembly", "assemblyfile", "tasksdirectory", "adapterpath", "adapterspaths", "vstestsetting"}

// msbuildCodeName reports whether a property (or variable) name, in any case, is one of
// msbuildCodeProps or ends in one of msbuildCodeSuffixes, or is dotnet test's: VSTest*Path, and
// any that names run settings (VSTestSetting, RunSettingsFilePath, VSTestCLIRunSettings), which
// say where test adapters and the dotnet host are loaded from.
func msbuildCodeName(name string) bool {
	if len(name) <= len("toolexe") {
		return false
	}
	k := strings.ToLower(name)
	return msbuildCodeProps[k] || slices.ContainsFunc(msbuildCodeSuffixes, func(suf string) bool { return strings.HasSuffix(k, suf) }) ||
		strings.HasPrefix(k, "vstest") && strings.HasSuffix(k, "path") || strings.Contains(k, "runsettings")
}

// msbuildCodeVar reports whether an environment variable makes dotnet's MSBuild load code from
// outside the project: MSBuild reads every variable of its environment as a property of the same
// name (in any case), so CustomBeforeMicrosoftCommonTargets=/tmp/x.targets dotnet build imports
// what -p:CustomBeforeMicrosoftCommonTargets=/tmp/x.targets does; NuGet reads NUGET_PACKAGES as
// restore's RestorePackagesPath.
func msbuildCodeVar(name, val string) bool {
	return val != "" && (msbuildCommandProps[strings.ToLower(name)] || msbuildCodeName(name) && !msbuildEntriesBelow(val, ";"))
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

// dotnetOutputs records the files dotnet's and MSBuild's switches (msbuildSwitches) write; a log
// whose file no switch names stands for the working directory it is written in (cd .git/hooks &&
// dotnet build -dfl writes there).
func (a *analyzer) dotnetOutputs(seg *segment) {
	for _, sw := range msbuildSwitches(seg) {
		switch {
		case dotnetWriteSwitches[sw.name] && sw.val != "":
			a.touch(sw.w.with(sw.val), opWrite)
		case msbuildLogSwitch(sw.name), dotnetLoggerSwitches[sw.name]:
			// -bl:FILE names its file bare; a logger's LogFile= parameter is the file it
			// writes, the file logger's class (-l:FileLogger,Microsoft.Build;LogFile=F) too.
			f := msbuildParam(sw.val, "logfile", sw.name == "bl" || sw.name == "binarylogger")
			if f == "" && msbuildLogSwitch(sw.name) {
				f = "."
			}
			if f != "" {
				a.touch(sw.w.with(f), opWrite)
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
// whose assembly is a path from elsewhere, a property (several joined by ";" or ",") naming
// targets, props, a tool or package sources there, or a response file from elsewhere, whose
// switches the engine has not seen. msbuild itself reads the same switches.
func dotnetMSBuildCode(s *segment) string {
	if s.name != cmdDotnet && s.name != cmdMSBuild {
		return ""
	}
	for _, sw := range msbuildSwitches(s) {
		switch {
		case sw.name == "@":
			// dotnet's parser and MSBuild both read more switches from @FILE.
			if sw.w.dynamic || !inThisProject(sw.val) {
				return sw.w.s
			}
		case dotnetLoggerSwitches[sw.name]:
			// [CLASS,]ASSEMBLY[;PARAMS]: the class is optional, so without a comma the whole is
			// the assembly; a distributed logger's two are joined by "*".
			for l := range strings.SplitSeq(sw.val, "*") {
				l, _, _ = strings.Cut(l, ";")
				if _, asm, ok := strings.Cut(l, ","); ok {
					l = asm
				}
				if sw.w.dynamic || !msbuildEntriesBelow(strings.TrimSpace(l), ",") {
					return sw.w.s
				}
			}
		case msbuildPropertySwitches[sw.name] && msbuildPropertiesCode(sw.val, sw.w.dynamic):
			return sw.w.s
		}
	}
	return ""
}

// msbuildPropertiesCode reports whether a property switch's value (NAME=VALUE, several separated
// by ";" or ",", MSBuild's quotes removed) sets a code property (msbuildCodeName) to a path from
// outside the project. A part without "=" is read as the previous value's continuation
// (-p:RestoreSources="a;/tmp/x"), so either reading of a separator inside quotes is judged.
func msbuildPropertiesCode(val string, dynamic bool) bool {
	key := ""
	for part := range strings.FieldsFuncSeq(strings.ReplaceAll(val, `"`, ""), func(r rune) bool { return r == ';' || r == ',' }) {
		k, v, ok := strings.Cut(part, "=")
		if ok {
			key = strings.TrimSpace(k)
		} else {
			v = part
		}
		if msbuildCodeName(key) && (dynamic || !msbuildEntriesBelow(v, ";")) ||
			msbuildCommandProps[strings.ToLower(key)] && strings.TrimSpace(v) != "" {
			return true
		}
	}
	return false
}

// msbuildEntriesBelow is entriesBelow for an MSBuild value, which MSBuild unescapes (%2F is "/"):
// a value with a "%" is not known. NuGet and the SDK trim each entry ("x; /tmp/feed" names
// /tmp/feed), so blanks around one do not count; an entry that is itself a setting
// (RunConfiguration.TestAdaptersPaths=/tmp/x in run settings) is judged by its value too.
func msbuildEntriesBelow(val, sep string) bool {
	if strings.Contains(val, "%") {
		return false
	}
	for e := range strings.SplitSeq(val, sep) {
		e = strings.TrimSpace(e)
		if !entriesBelow(e, sep) || strings.Contains(e, "=") && !entriesBelow(strings.TrimSpace(e[strings.LastIndex(e, "=")+1:]), sep) {
			return false
		}
	}
	return true
}

// dashesEndSwitches says whether "--" ends the MSBuild switches of a dotnet command line: the
// words after it are dotnet test's run settings, or the program's own arguments (dotnet run, exec,
// an assembly). Elsewhere (dotnet build -- -p:X=Y) the words after it may reach MSBuild, so they
// are read as switches too.
func dashesEndSwitches(s *segment) bool {
	if s.name != cmdDotnet || len(s.operands) == 0 {
		return false
	}
	op := strings.ToLower(s.operands[0].s)
	return op == subTest || op == subRun || op == subExec || op == "vstest" || strings.HasSuffix(op, ".dll")
}

// msbuildSwitch is a switch of dotnet's or msbuild's command line: its name in lower case ("@"
// for a response file), its value, and the word that holds it.
type msbuildSwitch struct {
	name, val string
	w         word
}

// msbuildSwitches returns the switches of a dotnet or msbuild command line (up to a "--" that
// ends them, dashesEndSwitches), in every
// spelling its two parsers read: MSBuild's -name:value, /name:value and --name:value in any case;
// dotnet's own parser's (System.CommandLine) value after "=" as after ":" (-p=NAME=VALUE), whichever
// comes first, both readings kept; a property switch's value as the next word (-p NAME=VALUE,
// --property NAME=VALUE); a logger switch without a value (-bl, -fl, -dfl); and @FILE, a
// response file.
func msbuildSwitches(s *segment) []msbuildSwitch {
	var out []msbuildSwitch
	ws := s.words[1:]
	stop := dashesEndSwitches(s)
	for i := 0; i < len(ws); i++ {
		// MSBuild unquotes a whole argument before it reads the switch: '"-p:X=Y"' and
		// '-"p":X=Y' are -p:X=Y.
		w := ws[i].with(strings.ReplaceAll(ws[i].s, `"`, ""))
		if ws[i].s == "--" && stop { // dotnet's own parser reads '"--"' as no end of options
			break
		}
		if f, ok := strings.CutPrefix(w.s, "@"); ok {
			out = append(out, msbuildSwitch{"@", f, w})
			continue
		}
		if name, val, ok := dotnetSwitch(w.s); ok {
			out = append(out, msbuildSwitch{name, val, w})
		}
		name, val, ok := strings.Cut(strings.TrimLeft(w.s, "-/"), "=")
		if !strings.HasPrefix(w.s, "-") && !strings.HasPrefix(w.s, "/") || strings.ContainsAny(name, ":/") {
			continue
		}
		name = strings.ToLower(name)
		switch {
		case ok:
			out = append(out, msbuildSwitch{name, val, w})
		case msbuildLogSwitch(name) && !strings.Contains(w.s, ":"):
			out = append(out, msbuildSwitch{name, "", w}) // -bl, -fl, -dfl: a log in the working directory
		case msbuildPropertySwitches[name] && i+1 < len(ws):
			i++
			out = append(out, msbuildSwitch{name, ws[i].s, ws[i]})
		}
	}
	return out
}
