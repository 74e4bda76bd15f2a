package safety

import (
	"cmp"
	"path"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// A file a command line downloads and then runs is a download piped into an interpreter, one
// step apart: curl -o /tmp/i x && chmod +x /tmp/i && /tmp/i, curl -O https://x/i.sh && sh i.sh,
// wget https://x/i.sh; bash i.sh, curl x > i.py; python3 i.py. The files curl and wget write
// (-o, --output, -O and wget's URL name, a redirect of their output) are remembered; a later
// command that runs one — as its program, or as the script of a shell, an interpreter or
// source — is blocked as download-exec is.

// curlValueShorts are curl's short options that take a value: in a bundle ("-sLo f") the first
// of them takes the rest of the word, or the next word.
const curlValueShorts = "dHuXAebcDFKmrTwxYyzCEPQtUoh"

// downloads checks whether a segment runs a file or tree the command line downloaded, then
// records the files a curl or wget segment writes and the trees a segment fetches
// (fetchedtrees.go).
func (a *analyzer) downloads(idx int, redirs []*syntax.Redirect) {
	seg := &a.out.segments[idx]
	if a.line != nil && len(a.line.fetched)+len(a.line.trees) > 0 {
		a.runsFetched(seg)
	}
	if f, ok := a.buildsWritten(seg); ok {
		a.opaque(idx, "it runs what "+f+" says, which this command line wrote before it")
	} else if why := cmp.Or(a.unseenDefinition(seg), a.pytestWritten(seg)); why != "" {
		a.opaque(idx, why)
	}
	if a.line != nil && len(a.line.applied) > 0 {
		a.runsApplied(idx)
	}
	a.decompressedFetched(seg)
	a.fetchedTrees(idx)
	a.appliedTrees(seg)
	a.gitRepositoryMade(idx)
	if seg.name != cmdCurl && seg.name != cmdWget {
		return
	}
	for _, f := range downloadedFiles(seg) {
		ls := a.state()
		ls.fetched = append(ls.fetched, a.fetchKey(f))
	}
	for _, r := range redirs {
		if (r.N == nil || r.N.Value == "1") && (r.Op == syntax.RdrOut || r.Op == syntax.AppOut || r.Op == syntax.RdrClob || r.Op == syntax.RdrAll || r.Op == syntax.AppAll) && r.Word != nil {
			if t := a.render(r.Word); !t.dynamic {
				ls := a.state()
				ls.fetched = append(ls.fetched, a.fetchKey(t.s))
			}
		}
	}
}

// fetchKey is the form a downloaded file and a run file are compared in: resolved against the
// working directory when it is known.
func (a *analyzer) fetchKey(f string) string {
	cwd := a.cwd
	if cwd == cwdUnknown {
		cwd = ""
	}
	return resolvePath(cwd, f)
}

// runsFile returns the file a segment runs: its program when it names a path ("./i", "/tmp/i"),
// or the script operand of a shell, an interpreter or source (Python's as readPython reads it:
// "python -W ignore x.py" runs x.py, not ignore).
func (a *analyzer) runsFile(seg *segment) (string, bool) {
	if w := seg.words[0]; strings.ContainsRune(w.s, '/') && !w.dynamic {
		return w.s, true
	}
	if p, ok := readPython(seg); ok {
		return p.target.s, p.kind == pyScript && !p.target.dynamic
	}
	_, interp := interpreters[seg.name]
	if (shells[seg.name] || interp || seg.name == cmdSource || seg.name == ".") && len(seg.operands) > 0 && !seg.operands[0].dynamic {
		return seg.operands[0].s, true
	}
	return "", false
}

// downloadedFiles are the files a curl or wget segment writes: curl's -o/--output values (also
// at the end of a short bundle), and with -O/--remote-name the last part of its URLs' paths;
// wget's -O/--output-document, or without it the last part of its URLs' paths, below -P.
func downloadedFiles(seg *segment) []string {
	var out []string
	remote := false
	if seg.name == cmdCurl {
		out, remote = curlOutputs(seg.words)
	} else {
		out = wgetOutputs(seg.words)
		remote = len(out) == 0
	}
	if !remote {
		return out
	}
	dir := ""
	if seg.name == cmdWget {
		if p, ok := optionValue(seg, "-P", "--directory-prefix"); ok {
			dir = p.s
		}
	}
	for p := range urlPaths(seg.operands) {
		if !strings.HasSuffix(p.s, "/") {
			out = append(out, path.Join(dir, path.Base(p.s)))
		}
	}
	return out
}

// curlOutputs reads curl's -o/--output values (also ending a short bundle: -sLo FILE) and whether
// -O/--remote-name names a file after each URL.
func curlOutputs(words []word) (out []string, remote bool) {
	for i := 1; i < len(words); i++ {
		v := words[i].s
		switch {
		case v == "--":
			return out, remote
		case v == optOutput && i+1 < len(words):
			i++
			out = append(out, words[i].s)
		case strings.HasPrefix(v, optOutput+"="):
			out = append(out, v[len(optOutput)+1:])
		case v == "--remote-name" || v == "--remote-name-all":
			remote = true
		case len(v) > 1 && v[0] == '-' && v[1] != '-':
			var o string
			var took bool
			o, took, remote = curlBundle(words, i, remote)
			if o != "" {
				out = append(out, o)
			}
			if took {
				i++
			}
		}
	}
	return out, remote
}

// curlBundle reads a short-option bundle of curl's at words[i]: the -o value it ends with (and
// whether that was the next word), and whether it holds -O.
func curlBundle(words []word, i int, remote bool) (out string, tookNext, isRemote bool) {
	v := words[i].s
	for k := 1; k < len(v); k++ {
		if v[k] == 'O' {
			remote = true
			continue
		}
		if strings.IndexByte(curlValueShorts, v[k]) < 0 {
			continue
		}
		val := v[k+1:]
		if val == "" && i+1 < len(words) {
			val, tookNext = words[i+1].s, true
		}
		if v[k] == 'o' {
			out = val
		}
		break
	}
	return out, tookNext, remote
}

// wgetOutputs reads wget's -O/--output-document values, up to "--" (optionValues would read on:
// a "-Ofoo" after it is a URL, and taking it for an output would hide the URL's own file name).
func wgetOutputs(words []word) []string {
	var out []string
	for i := 1; i < len(words); i++ {
		switch v := words[i].s; {
		case v == "--":
			return out
		case (v == "-O" || v == "--output-document") && i+1 < len(words):
			i++
			out = append(out, words[i].s)
		case strings.HasPrefix(v, "--output-document="):
			out = append(out, v[len("--output-document="):])
		case len(v) > 2 && strings.HasPrefix(v, "-O"):
			out = append(out, v[2:])
		}
	}
	return out
}

// otherDecompressors decompress as the compressors of the path reading do (with -d or
// --decompress, or by their un- name), but are not read there for the files they write or delete.
var otherDecompressors = map[string]bool{"zstd": true, "pzstd": true, "unzstd": true, "brotli": true, "unbrotli": true,
	"lzop": true, "pigz": true, "unpigz": true, "pbzip2": true, "lbzip2": true, "plzip": true, "lunzip": true, "unlz4": true}

// fetchedSuffixes are the suffixes a decompressor takes off (decompressedSuffixes and the other
// decompressors'); a tarball's short suffix leaves a .tar.
var fetchedSuffixes = append(slices.Clip(decompressedSuffixes), ".zst", ".zstd", ".tzst", ".br", ".lzo", ".txz", ".tbz2", ".tbz")

// decompressedFetched records the files a decompressor writes from a file the line downloaded as
// downloaded too (curl -o i.xz URL && unxz i.xz && ./i runs what it fetched): the input's name
// without its suffix, an -o/--output, or lz4's second operand.
func (a *analyzer) decompressedFetched(seg *segment) {
	if a.line == nil || len(a.line.fetched) == 0 || !decompresses(seg) {
		return
	}
	var outs []string
	for i, op := range seg.operands {
		switch {
		case op.dynamic:
		case slices.Contains(a.line.fetched, a.fetchKey(op.s)):
			if out, ok := decompressedName(op.s); ok {
				outs = append(outs, out)
			}
		case i == 1 && len(outs) > 0 && strings.HasSuffix(seg.name, "lz4"):
			outs = append(outs, op.s) // lz4 -d IN OUT
		}
	}
	if len(outs) == 0 {
		return
	}
	for o := range optionValues(seg, "-o", "--output") {
		if !o.dynamic {
			outs = append(outs, o.s)
		}
	}
	for _, o := range outs {
		a.line.fetched = append(a.line.fetched, a.fetchKey(o))
	}
}

// decompresses says whether a segment decompresses the files it is given.
func decompresses(seg *segment) bool {
	if !compressors[seg.name] && !otherDecompressors[seg.name] {
		return false
	}
	return decompressing(seg) || strings.HasPrefix(seg.name, "un") || seg.name == "lunzip"
}

// decompressedName is the name a decompressor gives the file it writes from f: f without its
// suffix, a tarball's short suffix (.tgz, .taz, .txz, .tbz2, .tzst) leaving a .tar.
func decompressedName(f string) (string, bool) {
	for _, suf := range fetchedSuffixes {
		if base, cut := strings.CutSuffix(f, suf); cut && base != "" && !strings.HasSuffix(base, "/") {
			if len(suf) > 3 && suf[1] == 't' {
				base += ".tar"
			}
			return base, true
		}
	}
	return "", false
}
