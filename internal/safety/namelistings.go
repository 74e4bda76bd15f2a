package safety

import "strconv"

// listsTree reports whether a command lists the names below its path operands, not only the
// operands' own entries: ls -R, tree (unless -L 1), du -a and find (unless -maxdepth 0 or 1).
// A listing of a directory that holds a zero-access one lists that one too: as "ls ~/.ssh" is a
// read of ~/.ssh (the keys' names), so is "ls -R ~", and containment applies as it does to
// grep -r. "ls -la ~", which shows the name .ssh and nothing in it, stays admitted. ls -R and
// tree without -a skip hidden directories, but a protected one need not be hidden
// (/var/run/secrets), so they count whatever their other options.
func listsTree(s *segment) bool {
	switch s.name {
	case "ls":
		return s.hasFlag("-R") || s.hasFlag("--recursive")
	case "tree":
		return !depthAtMost1(s, "-L")
	case "du":
		return s.hasFlag("-a") || s.hasFlag("--all")
	case cmdFind:
		return !depthAtMost1(s, "-maxdepth")
	}
	return false
}

// depthAtMost1 says whether a depth option (tree -L, find -maxdepth) limits a listing to its
// operands and their own entries; a computed depth could be any.
func depthAtMost1(s *segment, opt string) bool {
	for i, w := range s.words[:len(s.words)-1] {
		if w.s == opt {
			v := s.words[i+1]
			n, err := strconv.Atoi(v.s)
			return !v.dynamic && err == nil && n <= 1
		}
	}
	return false
}
