package safety

import (
	"strings"
	"testing"
)

// worstFuzzSeed is the fuzz corpus input that costs the engine the most work (checked by
// TestWorstFuzzSeedIsBenchmarked): 600 chained commands, past the 512-command bound.
var worstFuzzSeed = strings.Repeat("ls;", 600)

// worstCases are generated 16 KiB commands, each built to make one part of the engine work as
// hard as a command of that size can: brace expansion, globs checked against every path-policy
// entry, plain paths, commands, loops, wrappers, variables and substitutions.
func worstCases() map[string]string {
	fill := func(prefix, unit string) string {
		return prefix + strings.Repeat(unit, (16384-len(prefix))/len(unit))
	}
	nest := func(prefix, open, mid, closing, suffix string) string {
		k := (16384 - len(prefix) - len(mid) - len(suffix)) / (len(open) + len(closing))
		return prefix + strings.Repeat(open, k) + mid + strings.Repeat(closing, k) + suffix
	}
	// Each unit keeps under the pre-parse bound of 1024 command starts, so the engine parses and
	// analyses the whole line.
	return map[string]string{
		"brace-words":   fill("cat ", "{a,b}{c,d}{e,f}{g,h}{i,j}{k,l}{m,n}{o,p} "),
		"brace-globs":   fill("", "cat {a,b}{c,d}{e,f}{g,h}{i,j}{k,l}{m,n}{o,p}/.e*; "),
		"globs":         fill("cat ", "s[a-z]c/*/a*b?.go "),
		"plain-paths":   fill("cat ", "src/pkg/main.go "),
		"commands":      fill("", "ls aaaaaaaaaaaaaaa; "),
		"pipelines":     fill("", "cat aaaaaaaaaaaa | grep bbbbbbbbbbbbbbb | "),
		"loops":         fill("", "for f in a b c d e f g h; do cat $f $f $f $f; done; "),
		"wrappers":      fill("", "timeout 5 nice -n 1 env A=1 ls; "),
		"variables":     fill("", "x=aaaaaaaaaaaaaaaaaaaa; cat $x $x $x $x; "),
		"substitutions": fill("echo ", "$(cat aaaaaaaaaa) "),
		"nested-shells": strings.Repeat(`bash -c "`, 15) + "ls" + strings.Repeat(`"`, 15),
		// Deep nesting, refused by the bracket-depth bound before the parser descends into it.
		"nested-arithmetic": nest("echo $((", "(", "1", ")", "))"),
		"nested-subshells":  nest("", "(", "x", ")", ""),
		"nested-subscripts": nest("echo $(( ", "a[", "1", "]", " ))"),
		// Just under the bracket-depth and arithmetic bounds: parsed and analysed.
		"arithmetic-1024": fill(strings.Repeat("echo $(( "+strings.Repeat("1+", 60)+"1 )); ", 1024/61)+"echo $(( "+strings.Repeat("1+", 1024%61)+"1 )); cat ", "src/pkg/main.go "),
		"nested-64":       strings.Repeat("echo $(("+strings.Repeat("(", 62)+"1"+strings.Repeat(")", 62)+")); ", 16384/140),
		// One glob as long as the line (refused: its cost grows with its length), and the
		// longest the work budget admits, checked against every path-policy entry.
		"long-glob":          "cat " + strings.Repeat("*/", (16384-6)/2) + "x",
		"long-glob-admitted": "cat " + strings.Repeat("*/", 5580) + "x",
		// Chains the parser also descends into, without brackets.
		"unary-chain":      "echo $(( " + strings.Repeat("!", 16384-20) + "1 ))",
		"arithmetic-chain": "echo $(( " + strings.Repeat("1+", (16384-20)/2) + "1 ))",
		// One word of brace groups: refused by counting its words before any is built (0.38 s
		// when the count came at the first word, whose walk copied its prefix at every group).
		"brace-groups": fill("echo ", "{a,b}"),
		// curl's own sets in an upload's name, 64 names as long as the line (1.8 s when each
		// set copied every name built so far).
		"curl-upload-sets": fill("curl -T '{a,b}{c,d}{e,f}{g,h}{i,j}{k,l}", "{x}") + "'",
		// One command as long as the line: every pattern rule written for its program reads all
		// of it (22.9 ms when aws-prints-credential paired every two of its words).
		"one-long-command": fill("aws", " --region x")[:16384-6] + " s3 ls",
		// The same with words the slowest pattern's literal filter looks for, so the pattern must
		// read it (each pass of it was 3.4 ms before the pattern budget), and one command of that
		// program after another.
		"one-long-command-matching": fill("aws", " delete-xxxxxxxxxxxxxxxxxxxx")[:16384-6] + " s3 ls",
		"pattern-commands":          fill("", "az group delete -n x -y --no-wait --subscription s delete; "),
	}
}

func BenchmarkEvaluateWorstCase(b *testing.B) {
	p := mustCompile(b, &Profile{}, bypassRules)
	b.Run("fuzz-corpus-worst", func(b *testing.B) {
		call := shCall(worstFuzzSeed)
		b.ReportAllocs()
		for b.Loop() {
			Evaluate(p, call)
		}
	})
	for name, cmd := range worstCases() {
		b.Run("generated-16KiB/"+name, func(b *testing.B) {
			if len(cmd) > 16384 {
				b.Fatalf("%d bytes", len(cmd))
			}
			call := shCall(cmd)
			b.ReportAllocs()
			for b.Loop() {
				Evaluate(p, call)
			}
		})
	}
}
