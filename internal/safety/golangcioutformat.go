package safety

import "strings"

// golangci-lint v1's --out-format lists its report formats, each with the file it writes them
// to after a ":" (v1.51 on: --out-format=checkstyle:report.xml,json:stdout), where v2 spells the
// same file --output.FORMAT.path (golangciOutputs). "stdout" and "stderr" are its streams; any
// other name is a file written, so --out-format=json:/root/.bashrc writes ~/.bashrc. A computed
// value may name one.

// optGolangciOutFormat is golangci-lint v1's option listing its report formats.
const optGolangciOutFormat = "--out-format"

// golangciOutFormat records the files golangci-lint's --out-format writes its reports to.
func (a *analyzer) golangciOutFormat(s *segment) {
	for val := range optionValues(s, optGolangciOutFormat, optGolangciOutFormat) {
		if val.dynamic {
			a.touch(val, opWrite)
			continue
		}
		for format := range strings.SplitSeq(val.s, ",") {
			if _, file, ok := strings.Cut(format, ":"); ok && file != "stdout" && file != "stderr" && file != "" {
				a.touch(val.with(file), opWrite)
			}
		}
	}
}
