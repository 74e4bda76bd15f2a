package safety

import (
	"fmt"
	"path"
	"slices"
	"strings"
)

// git finds its repository from the directory it runs in: a .git there or in a parent, or the
// directory itself when it holds HEAD, objects and refs (a bare repository, which git opens
// without being asked). It then reads that repository's config, which can run any command
// (core.fsmonitor, core.pager, diff.external, aliases), and its objects, which are not the
// project's. The path policy guards config and hooks only inside a directory named .git; a bare
// repository or a .git file pointing elsewhere that the agent wrote outside the project is not
// guarded. So git run in a directory outside the workspace (cd /tmp/e.git && git log, git -C
// ../other show HEAD:x, a call whose working directory is elsewhere), or in one the engine does
// not know, opens a repository the engine cannot see: code it does not admit unasked. The
// repository git is pointed at by --git-dir or GIT_DIR is judged as such (gitDir). One the line
// made itself, with git clone, git init or git worktree add, is known: a fresh .git (or, cloned --bare, a fresh
// config) is what git finds there, and only there (a clone's subdirectory may hold a bare
// repository it committed).

// gitRepositoryFree are the git subcommands that open no repository.
var gitRepositoryFree = []string{"", "version", "help", gitClone, gitInit}

// gitInit is git's subcommand that makes a repository.
const gitInit = "init"

// gitWorktree is git's subcommand that adds a work tree of the repository it runs in.
const gitWorktree = "worktree"

// gitRepositoryFindings adds a finding for the first git command that opens a repository found
// from a directory outside the workspace, or from one not known. Without a workspace the project
// is the call's working directory and its siblings (projectBoundary).
func (p *Policy) gitRepositoryFindings(an *analysis) {
	if an == nil {
		return
	}
	bound := p.projectBoundary(an.cwd)
	if bound == "" {
		return
	}
	for i := range an.segments {
		s := &an.segments[i]
		if s.name != cmdGit || s.hasFlag("--version") || s.hasFlag("--help") || s.hasExactFlag("-h") {
			continue
		}
		if slices.Contains(an.inRepos, i) || slices.Contains(gitRepositoryFree, gitSub(s)) {
			continue
		}
		dir, judged := gitRepoDir(s)
		if judged {
			continue // a repository named otherwise than .git is gitDir's to ask for
		}
		if dir != cwdUnknown && under(dir, bound) {
			continue
		}
		where := fmt.Sprintf("the directory %q", dir)
		if dir == cwdUnknown {
			where = "a directory computed at run time"
		}
		an.findings = append(an.findings, finding{rule: RuleOpaqueCode, msg: fmt.Sprintf(
			"command %q runs git in %s, outside %s: git opens the repository it finds there, whose config can run any command and which the path policy does not guard; it needs human approval",
			truncate(s.text, 120), where, p.boundaryName(bound))})
		return
	}
}

// gitRepoDir returns the directory whose repository a git command opens: the one it runs in, or,
// pointed at a .git by --git-dir or GIT_DIR (the option wins), the directory that holds it, as
// if git had found it there (git --git-dir=/tmp/x/.git log opens what cd /tmp/x && git log
// does, a .git file pointing elsewhere included). judged: the git directory is computed or named
// otherwise than .git, which gitDir already asks for.
func gitRepoDir(s *segment) (dir string, judged bool) {
	gd, given := word{}, false
	for _, kv := range s.env {
		if v, ok := strings.CutPrefix(kv, envGitDir+"="); ok {
			gd, given = word{s: v, dynamic: strings.ContainsRune(v, '$')}, true
		}
	}
	w := s.words
	for i := 1; i < len(w) && strings.HasPrefix(w[i].s, "-") && !w[i].dynamic; i++ {
		switch v := w[i].s; {
		case v == gitDirOption && i+1 < len(w):
			i++
			gd, given = w[i], true
		case strings.HasPrefix(v, gitDirOption+"="):
			gd, given = w[i].with(v[len(gitDirOption)+1:]), true
		case gitGlobalsWithValue[v]:
			i++
		}
	}
	run := gitRunDir(s)
	switch {
	case !given:
		return run, false
	case gd.dynamic || path.Base(path.Clean(gd.s)) != ".git":
		return "", true
	case run == cwdUnknown:
		return cwdUnknown, false
	}
	return path.Dir(resolvePath(run, gd.s)), false
}

// gitRunDir returns the directory a git command runs in: the segment's, moved by each -C (an
// empty one moves nothing), or cwdUnknown.
func gitRunDir(s *segment) string {
	dir := s.cwd
	w := s.words
	for i := 1; i < len(w) && strings.HasPrefix(w[i].s, "-") && !w[i].dynamic && dir != cwdUnknown; i++ {
		v := w[i].s
		switch {
		case v == "-C" && i+1 < len(w):
			i++
			switch {
			case w[i].dynamic:
				dir = cwdUnknown
			case w[i].s != "":
				dir = resolvePath(dir, w[i].s)
			}
		case gitGlobalsWithValue[v]:
			i++
		}
	}
	if dir == "" || !strings.HasPrefix(dir, "/") {
		return cwdUnknown
	}
	return dir
}

// gitRepositoryMade marks a git command run in a directory the line made a repository in, and
// records the one a git clone or git worktree add makes. git init makes none the engine knows: run
// where a repository already is (bare or not, or with --separate-git-dir) it re-initialises it and
// keeps its config, so "git init /tmp/x && cd /tmp/x && git log" runs the pager a planted
// /tmp/x/.git/config names, as "cd /tmp/x && git log" would.
func (a *analyzer) gitRepositoryMade(idx int) {
	seg := &a.out.segments[idx]
	if seg.name != cmdGit {
		// A build in a tree the line made (a worktree of this repository, a clone, judged as
		// fetched code) is not one in a directory the engine knows nothing of (buildsElsewhereFindings).
		if a.line != nil && buildsHere(seg) && slices.ContainsFunc(a.line.repos, func(r string) bool { return seg.cwd == r || under(seg.cwd, r) }) {
			a.out.inRepos = append(a.out.inRepos, idx)
		}
		return
	}
	if dir, _ := gitRepoDir(seg); a.line != nil && slices.Contains(a.line.repos, dir) {
		a.out.inRepos = append(a.out.inRepos, idx)
	}
	var d word
	switch sub := gitSub(seg); sub {
	case gitClone:
		var ok bool
		if d, ok = a.gitFetchedTree(seg); !ok {
			return
		}
	case gitWorktree:
		// git worktree add DIR writes DIR/.git, a file naming a directory in the repository the
		// command runs in (its .git/worktrees/NAME), whose config is that repository's: git run
		// in DIR reads what git run here reads, and the add itself is judged where it runs.
		args := gitSubArgs(seg)
		ops := positionals(args, nil)
		if len(ops) == 0 || ops[0].s != gitSubAdd {
			return
		}
		made, _ := gitMadePath(sub, args)
		if len(made) == 0 {
			return
		}
		d = made[0]
	default:
		return
	}
	if dir := gitRunDir(seg); !d.dynamic && dir != cwdUnknown {
		ls := a.state()
		ls.repos = append(ls.repos, resolvePath(dir, d.s))
	}
}
