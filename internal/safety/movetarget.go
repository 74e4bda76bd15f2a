package safety

import "strings"

// mvGetopt is GNU mv's option table (coreutils 9): -S and -t take a value, long options abbreviate
// (--t, --target are --target-directory).
var mvGetopt = getoptSpec{shortValue: "St", long: longOptionTable("backup? debug exchange force interactive " +
	"no-clobber no-copy strip-trailing-slashes suffix= target-directory= no-target-directory update? verbose " +
	"context help version")}

// longOptionTable spells a getopt_long table as words: a name, then "=" when it takes a value,
// "?" when the value is optional.
func longOptionTable(s string) map[string]string {
	table := map[string]string{}
	for f := range strings.FieldsSeq(s) {
		name := strings.TrimRight(f, "=?")
		table["--"+name] = f[len(name):]
	}
	return table
}

// moveToTarget records what mv -t DIR (--target-directory, abbreviated, bundled: -ft DIR, -tDIR)
// takes away: every operand is a source, each moved out of where it is, so each is judged as a
// delete. Read as the last operand, mv -t /tmp LICENSE moved LICENSE away unjudged. What DIR gets
// is targetDirectory's.
func (a *analyzer) moveToTarget(seg *segment) {
	if seg.name != "mv" {
		return
	}
	opts, operands := getopt(seg.words, mvGetopt)
	for _, o := range opts {
		if o.opt == "-t" || o.opt == optTargetDirectory {
			for _, w := range operands {
				a.operandPath(w, opDelete)
			}
			return
		}
	}
}
