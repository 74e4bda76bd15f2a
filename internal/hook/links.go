package hook

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/pkg/toolcall"
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
// directory's own resolution is written below the working directory as named, so that a project
// reached through a link (/workspace -> /data/ws) does not have every path judged twice, outside
// its write roots. A link changed between this look and the tool's open is not seen: the
// sandbox, where there is one, is the backstop for that.
func withLinkTargets(call *safetyv1alpha1.AgentToolCall, cwd string) error {
	a := &call.Spec.Arguments
	root, rootErr := filepath.EvalSymlinks(cwd)
	var targets []string
	for _, p := range a.Paths {
		named := p
		if !filepath.IsAbs(p) {
			if cwd == "" || !filepath.IsAbs(cwd) {
				continue // the engine judges it from the project's workspace; nothing here to follow
			}
			named = cwd + string(filepath.Separator) + p
		}
		target, ok := followed(named)
		if !ok {
			continue
		}
		if rootErr == nil && cwd != "" {
			if rest, inside := strings.CutPrefix(target, root+string(filepath.Separator)); inside {
				target = filepath.Join(cwd, rest)
			} else if target == root {
				target = filepath.Clean(cwd)
			}
		}
		if target != filepath.Clean(named) && !slices.Contains(a.Paths, target) && !slices.Contains(targets, target) {
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

// followed is p with every symbolic link in it followed: of its longest part that exists, with
// the rest as written. False when nothing of it exists or it cannot be read (the tool fails too).
func followed(p string) (string, bool) {
	rest := ""
	for {
		if r, err := filepath.EvalSymlinks(p); err == nil {
			return filepath.Join(r, rest), true
		} else if !os.IsNotExist(err) {
			return "", false
		}
		i := strings.LastIndexByte(p, filepath.Separator)
		if i <= 0 {
			return "", false
		}
		rest = filepath.Join(p[i+1:], rest)
		p = p[:i]
	}
}
