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

// cpGetopt is GNU cp's option table (coreutils 9): -S and -t take a value, long options
// abbreviate (--t, --target are --target-directory).
var cpGetopt = getoptSpec{shortValue: "St", long: longOptionTable("archive attributes-only backup? copy-contents " +
	"debug dereference force interactive keep-directory-symlink link no-clobber no-dereference no-preserve= " +
	"no-target-directory one-file-system parents preserve? recursive reflink? remove-destination sparse= " +
	"strip-trailing-slashes suffix= symbolic-link target-directory= update? verbose context? help version")}

// targetSources reads cp and mv with -t DIR (--target-directory, abbreviated, bundled: -rt DIR,
// -tDIR) as their parser does: DIR is the destination and every operand a source. Read as
// SOURCE DEST, cp -r -t /tmp . copied the project out unjudged ("." was the destination), and
// mv -t /tmp LICENSE moved LICENSE away; mv -t . ../x.txt deleted ".".
func targetSources(seg *segment) (dir word, sources []word, ok bool) {
	spec := cpGetopt
	switch seg.name {
	case "mv":
		spec = mvGetopt
	case "cp":
	default:
		return word{}, nil, false
	}
	opts, operands := getopt(seg.words, spec)
	for _, o := range opts {
		if (o.opt == "-t" || o.opt == optTargetDirectory) && o.isVal {
			dir, ok = o.val, true // the last -t is the one cp and mv use
		}
	}
	return dir, operands, ok
}

// copyToTarget records what cp or mv with -t DIR does (targetSources): each source read by cp,
// deleted by mv (spec.restOp), and DIR/NAME written for each; false when it is no such command.
func (a *analyzer) copyToTarget(seg *segment, spec argSpec) bool {
	dir, sources, ok := targetSources(seg)
	if !ok {
		return false
	}
	for _, w := range sources {
		a.operandPath(w, spec.restOp)
	}
	a.intoDirectory(sources, dir)
	return true
}
