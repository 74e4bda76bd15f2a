package safety

import (
	"slices"
	"strings"
)

// Maven's and Gradle's operands are goals and tasks, all of which run: mvn test deploy publishes
// the artifacts after testing them, mvn verify exec:exec runs the program exec.executable names,
// gradle build publish uploads. A recognised prefix (mvn test, gradle build) covers only the
// validating lifecycle: the command is recognised when every goal or task is one of it, whatever
// options come before or between them (mvn -q -DskipTests package, gradle --offline clean build),
// and not recognised, whatever prefix it starts with, when one is not (a plugin's goal, install,
// deploy, publish, run), unless the project declares it. Options that name code or files are
// judged on their own (outsideCodeOptions, jvmPropertyCode, defFileOptions).

// validatingGoals are, per build tool, the goals or tasks that compile, test, package and check
// the project and write below its build directory.
//
//nolint:goconst // goal and task names read best literally, next to their neighbours
var validatingGoals = map[string][]string{
	cmdMvn: {"clean", "validate", "initialize", "compile", "test-compile", "test", "package", "verify"},
	cmdGradle: {"clean", subBuild, "check", "assemble", "test", "classes", "testClasses", "compileJava", "compileTestJava",
		"compileKotlin", "compileTestKotlin", "jar", "javadoc", "lint", "dependencies", "tasks", "projects", subHelp},
}

// goalValueOptions are, per build tool, its options whose value is the next word (not a goal).
var goalValueOptions = map[string][]string{
	cmdMvn: strings.Fields(`-f --file -s --settings -gs --global-settings -t --toolchains -gt --global-toolchains -P
		--activate-profiles -pl --projects -rf --resume-from -T --threads -l --log-file -D --define -b --builder -emp
		--encrypt-master-password -ep --encrypt-password --color`),
	cmdGradle: strings.Fields(`-b --build-file -c --settings-file -I --init-script -g --gradle-user-home -p --project-dir
		-x --exclude-task -D --system-prop -P --project-prop --include-build -M --write-verification-metadata --console
		--warning-mode --max-workers --priority -F --dependency-verification --configuration-cache-problems
		--project-cache-dir --update-locks --tests --args`),
}

// cmdGradle is Gradle's command.
const cmdGradle = "gradle"

// buildGoals returns a build tool's goals or tasks, and whether all of them could be read (a
// computed word could be any goal).
func buildGoals(s *segment) ([]string, bool) {
	var goals []string
	valued := goalValueOptions[s.name]
	for i := 1; i < len(s.words); i++ {
		w := s.words[i]
		switch {
		case w.dynamic:
			return nil, false
		case slices.Contains(valued, w.s):
			i++
		case !strings.HasPrefix(w.s, "-"):
			goals = append(goals, w.s)
		}
	}
	return goals, true
}

// validatingBuild says whether a Maven or Gradle command runs goals, every one of them validating.
// A Gradle task path (:app:test) is judged by its last part.
func validatingBuild(s *segment) bool {
	valid, ok := validatingGoals[s.name]
	if !ok {
		return false
	}
	goals, known := buildGoals(s)
	if !known || len(goals) == 0 {
		return false
	}
	for _, g := range goals {
		if s.name == cmdGradle {
			g = g[strings.LastIndexByte(g, ':')+1:]
		}
		if !slices.Contains(valid, g) {
			return false
		}
	}
	return true
}

// beyondValidation says whether a Maven or Gradle command runs a goal or task beyond the
// validating ones, which no recognised prefix covers.
func beyondValidation(s *segment) bool {
	_, ok := validatingGoals[s.name]
	return ok && !validatingBuild(s)
}

// subHelp is the help subcommand or task of a build tool.
const subHelp = "help"
