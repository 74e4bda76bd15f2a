package hook

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/jsonobject"
	"github.com/toolgate/toolgate/pkg/toolcall"
	"golang.org/x/text/unicode/norm"
)

// withLinkTargets adds to call's paths, for each path that reaches through a symbolic link on
// this filesystem, the path the link leads to. The engine judges paths as written (it does no
// I/O, and the webhook cannot see the agent's files), so a link in the project that points at a
// secret (made by an archive extracted, a patch applied, a checkout: notes.txt -> .env) read
// with the coding agent's own Read was judged as reading notes.txt, and Claude Code's file tools
// run in its process, outside any sandbox that would stop it. The hook runs beside those tools,
// on the files they open, so it follows the links as the kernel will and the engine judges both
// names: the path as written, and where it leads. A path that does not exist yet (a file to be
// written) is followed as far as it exists (a linked directory). A target inside the working
// project directory's own resolution is written below the project directory as named, so that a
// project reached through a link (/workspace -> /data/ws) does not have every path judged twice,
// outside its write roots. The project directory is the session's (anchor: Claude Code's
// CLAUDE_PROJECT_DIR, which the agent's own commands do not change), not the working directory,
// which the agent moves with cd: in a link out of the project (lnk -> /etc) the working
// directory's resolution is /etc, and every path below it would have been written back below the
// link, as the project's. A link changed between this look and the tool's open is not seen: the
// sandbox, where there is one, is the backstop for that.
func withLinkTargets(call *safetyv1alpha1.AgentToolCall, cwd, anchor string) error {
	a := &call.Spec.Arguments
	var targets []string
	for _, p := range a.Paths {
		if target, ok := linkTarget(p, cwd, anchor); ok && !slices.Contains(a.Paths, target) && !slices.Contains(targets, target) {
			targets = append(targets, target)
		}
	}
	if len(targets) == 0 {
		return nil
	}
	if len(a.Paths)+len(targets) > toolcall.MaxPaths {
		return fmt.Errorf("the tool input's paths and the paths their symbolic links lead to are %d, more than %d",
			len(a.Paths)+len(targets), toolcall.MaxPaths)
	}
	a.Paths = append(a.Paths, targets...)
	return nil
}

// withTreeLinkTargets is a tool input whose tree paths (keys, the directories a search reads
// whole: Grep's path) that lead through a symbolic link name the link's target too, as a list:
// the engine judges a tree path as the search command that reads it (toolcall.SearchCommand), so
// the target must be a root of that command, not only one more path (a Grep of conf, a link to
// /etc, was judged as a search of conf). The other members keep their bytes, a repeated key
// included, for toolcall.Build to refuse.
func withTreeLinkTargets(raw json.RawMessage, keys []string, cwd, anchor string) (json.RawMessage, error) {
	if len(keys) == 0 || len(bytes.TrimSpace(raw)) == 0 {
		return raw, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return raw, nil // not an object: toolcall.Build says what it is
	}
	out, changed := []byte{'{'}, false
	for key, err := range jsonobject.Members(dec) {
		if err != nil {
			return raw, nil
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return raw, nil
		}
		var root string
		if slices.Contains(keys, key) && json.Unmarshal(v, &root) == nil && root != "" {
			if target, ok := linkTarget(root, cwd, anchor); ok {
				if v, err = json.Marshal([]string{root, target}); err != nil {
					return nil, err
				}
				changed = true
			}
		}
		if len(out) > 1 {
			out = append(out, ',')
		}
		k, _ := json.Marshal(key)
		out = append(append(append(out, k...), ':'), v...)
	}
	if !changed {
		return raw, nil
	}
	return append(out, '}'), nil
}

// linkTarget is where p leads, as the tool opens it (openedPath), with its links followed, when
// that is not p as written; a target inside the resolution of anchor (the project directory; cwd
// when there is none) is written below anchor as named.
func linkTarget(p, cwd, anchor string) (string, bool) {
	named, ok := openedPath(p, cwd)
	if !ok {
		return "", false
	}
	target, ok := followed(named)
	if !ok {
		return "", false
	}
	if !filepath.IsAbs(anchor) {
		anchor = cwd
	}
	if root, err := filepath.EvalSymlinks(anchor); err == nil && anchor != "" {
		if rest, inside := strings.CutPrefix(target, root+string(filepath.Separator)); inside {
			target = filepath.Join(anchor, rest)
		} else if target == root {
			target = filepath.Clean(anchor)
		}
	}
	return target, target != filepath.Clean(named)
}

// openedPath is the path Claude Code's file tools open for p (its expandPath): p with
// JavaScript's white space trimmed from both ends, "~" and a leading "~/" in the home directory
// (the hook's $HOME, which it shares with the agent that runs it), a relative path below cwd,
// cleaned lexically (Node's normalize: "a/../b" is b, whatever a links to) and in Unicode's NFC.
// The engine judges the path as written (trimmed, "~" both ways, names compared in NFC), so the
// links that matter are those of the path the tool opens: followed as written, " notes.txt",
// "~/notes.txt", "x/../notes.txt" or "notes.txt" in NFD (each a link to .env) led nowhere, and
// the tool read .env. False when there is nothing here to follow it from (a relative path with
// no absolute cwd: the engine judges it from the project's workspace; "~" with no $HOME).
func openedPath(p, cwd string) (string, bool) {
	p = strings.TrimFunc(p, jsSpace)
	home := os.Getenv("HOME")
	switch {
	case p == "~" || strings.HasPrefix(p, "~/"):
		if !filepath.IsAbs(home) {
			return "", false
		}
		p = home + p[1:]
	case !filepath.IsAbs(p):
		if !filepath.IsAbs(cwd) {
			return "", false
		}
		p = cwd + string(filepath.Separator) + p
	}
	return norm.NFC.String(filepath.Clean(p)), true
}

// jsSpace is the white space JavaScript's String.prototype.trim removes (ECMA-262's WhiteSpace
// and LineTerminator): unlike Go's unicode.IsSpace it takes U+FEFF and not U+0085.
func jsSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', '\u00a0', '\u1680', '\u2028', '\u2029', '\u202f', '\u205f', '\u3000', '\ufeff':
		return true
	}
	return r >= '\u2000' && r <= '\u200a'
}

// maxLinkHops bounds the dangling links followed for one path, as the kernel's own bound (40)
// does.
const maxLinkHops = 40

// followed is p with every symbolic link in it followed: of its longest part that exists, with
// the rest as written. A dangling link is followed too, to the target it names: a file written
// through it is created there (open with O_CREAT follows it). False when nothing of it exists or
// it cannot be read (the tool fails too).
func followed(p string) (string, bool) {
	rest := ""
	for hops := 0; ; {
		if r, err := filepath.EvalSymlinks(p); err == nil {
			return filepath.Join(r, rest), true
		} else if !os.IsNotExist(err) {
			return "", false
		}
		if link, err := os.Readlink(p); err == nil { // p is a link to what does not exist
			if hops++; hops > maxLinkHops {
				return "", false
			}
			if !filepath.IsAbs(link) {
				parent, err := filepath.EvalSymlinks(filepath.Dir(p))
				if err != nil {
					return "", false
				}
				link = parent + string(filepath.Separator) + link // not cleaned: EvalSymlinks takes its ".." as the kernel does
			}
			p = link
			continue
		}
		i := strings.LastIndexByte(p, filepath.Separator)
		if i <= 0 {
			if hops > 0 { // a link to where nothing exists: where it leads, as written
				return filepath.Join(p, rest), true
			}
			return "", false
		}
		rest = filepath.Join(p[i+1:], rest)
		p = p[:i]
	}
}
