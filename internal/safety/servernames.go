package safety

import (
	"slices"
	"strings"
)

// serverName stands for a file name a download takes from the server: a path with it is computed
// at run time, so writing it asks as any write to a name the engine cannot see does.
const serverName = "$SERVER_FILE_NAME"

// serverNamedDownload reports whether a download writes files whose names the server chooses,
// not the command line: curl -O with -J (--remote-header-name, the Content-Disposition header's
// name), wget with --content-disposition, --trust-server-names (the redirect's last URL),
// -i/--input-file (URLs from a file), or a recursive download (-r, -m, -p) whose files land in
// the directory itself (-nd, -nH, --cut-dirs) under the names the server's links give. A
// curl -OJ in ~ can write ~/.bashrc and wget --content-disposition in the project .envrc.
func serverNamedDownload(s *segment) bool {
	if s.name == cmdCurl {
		return s.hasFlag("-J") || s.hasFlag("--remote-header-name")
	}
	if wgetOn(s, "--content-disposition") || wgetOn(s, "--trust-server-names") || s.hasFlag("-i") || s.hasFlag("--input-file") {
		return true
	}
	return wgetRecursive(s) && (wgetShort(s, "nd") || wgetShort(s, "nH") || s.hasFlag("--no-directories") ||
		s.hasFlag("--no-host-directories")) || s.hasFlag("--cut-dirs")
}

// wgetRecursive reports whether wget follows links: -r/--recursive, -m/--mirror or
// -p/--page-requisites (a -p inside -np is no-parent, read by wgetShort).
func wgetRecursive(s *segment) bool {
	return s.hasFlag("-r") || s.hasFlag("--recursive") || s.hasFlag("-m") || s.hasFlag("--mirror") ||
		s.hasFlag("--page-requisites") || anyWord(s, func(v string) bool { return v == "-p" })
}

// wgetOn reports whether a wget boolean option is given and not turned off (--name=off, =no, =0).
func wgetOn(s *segment, long string) bool {
	if !s.hasFlag(long) {
		return false
	}
	return !anyWord(s, func(v string) bool {
		name, val, ok := strings.Cut(v, "=")
		return ok && strings.HasPrefix(long, name) && len(name) > 2 && (val == "off" || val == "no" || val == "0")
	})
}

// wgetShort reports whether one of wget's two-letter -n options (-nd, -nH) is given, alone or at
// the end of a bundle (-rnd): wget's -n takes the next letter as its own.
func wgetShort(s *segment, opt string) bool {
	return anyWord(s, func(v string) bool {
		return len(v) > 1 && v[0] == '-' && v[1] != '-' && strings.Contains(v[1:], opt)
	})
}

// anyWord reports whether one of the segment's words (not its name) satisfies f.
func anyWord(s *segment, f func(string) bool) bool {
	for _, w := range s.words[1:] {
		if f(w.s) {
			return true
		}
	}
	return false
}

// wgetTreePaths returns the paths below dir that a wget making directories writes for its URLs:
// -x (--force-directories), or a recursive download for the pages it is given, writes each URL's
// whole path below a directory named after its host, or below dir itself with -nH
// (--no-host-directories): wget -x -nH http://x/.git/hooks/pre-commit writes
// .git/hooks/pre-commit. -nd writes the last part only, which downloadNames already judges;
// --cut-dirs drops leading parts the engine does not count, and is read as server-named.
func wgetTreePaths(s *segment, dir string) []word {
	makesTree := s.hasFlag("-x") || s.hasFlag("--force-directories") || wgetRecursive(s)
	if s.name != cmdWget || !makesTree || wgetShort(s, "nd") || s.hasFlag("--no-directories") {
		return nil
	}
	noHost := wgetShort(s, "nH") || s.hasFlag("--no-host-directories")
	var out []word
	for _, w := range s.operands {
		host, p, ok := urlHostPath(w.s)
		if !ok {
			continue
		}
		if k := strings.LastIndexByte(host, '@'); k >= 0 {
			host = host[k+1:] // user:password@
		}
		host, _, _ = strings.Cut(host, ":")
		if noHost {
			host = ""
		}
		out = append(out, w.with(strings.TrimRight(dir, "/")+"/"+host+"/"+p))
	}
	return out
}

// Other downloaders name their file as curl -OJ does. aria2c saves each URL below -d/--dir under
// the name the server's Content-Disposition gives, else the URL's last part, unless -o/--out
// names it; httpie (http, https) and xh (xhs) with -d/--download do the same in the working
// directory unless -o/--output names it.
const (
	cmdAria2c  = "aria2c"
	cmdHTTPie  = "http"
	cmdHTTPieS = "https"
	cmdXh      = "xh"
	cmdXhs     = "xhs"
	cmdGh      = "gh"
)

// otherDownloads records the files aria2c, httpie and xh name after the URL or the server, and
// gh release download and gh run download after the release's assets and the run's artifacts
// (below -D/--dir, unless -O/--output names the file).
func (a *analyzer) otherDownloads(s *segment) {
	dir := word{s: "."}
	if s.name == cmdGh {
		if d, ok := optionValue(s, "-D", "--dir"); ok {
			dir = d
		}
		if _, named := optionValue(s, "-O", "--output"); named {
			return // its -O is judged as a written path
		}
	} else if s.name == cmdAria2c {
		if d, ok := optionValue(s, "-d", "--dir"); ok {
			dir = d
		}
		if out, named := optionValue(s, "-o", "--out"); named {
			// aria2c -d ~ -o .bashrc writes ~/.bashrc, --dir=/etc --out=cron.d/x /etc/cron.d/x.
			a.operandPath(word{s: strings.TrimRight(dir.s, "/") + "/" + out.s, dynamic: dir.dynamic || out.dynamic}, opWrite)
			return
		}
	} else if download := s.hasFlag("-d") || s.hasFlag("--download"); !download || s.hasFlag("-o") || s.hasFlag("--output") {
		return
	}
	if dir.dynamic {
		return // judged, and asked for, as itself
	}
	a.intoDirectory(slices.Collect(urlPaths(s.operands)), dir)
	a.operandPath(word{s: strings.TrimRight(dir.s, "/") + "/" + serverName, dynamic: true}, opWrite)
}

// ghDownloads records what gh release download and gh run download write.
func (a *analyzer) ghDownloads(s *segment) {
	if sub, verb, _ := firstOperands(s); s.name == cmdGh && (sub == "release" || sub == subRun) && verb == "download" {
		a.otherDownloads(s)
	}
}
