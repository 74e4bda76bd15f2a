package safety

// cmdDitto is macOS's copier.
const cmdDitto = "ditto"

// copiesTree reports whether a copy writes, below its destination, names the engine does not
// see: cp -r/-a, rsync -r/-a (or -d, which copies a directory's files one level deep), ditto
// (macOS's, which always copies a directory's contents into its destination) and scp -r
// copy what a source directory holds, so "cp -a dotfiles/. ~" or "rsync -a dotfiles/ ~/" write
// ~/.bashrc when dotfiles holds one. Their destinations are marked as an extraction's are
// (extractInto): a directory outside the project that holds a protected path asks.
func copiesTree(seg *segment, recursive bool) bool {
	switch seg.name {
	case "cp", cmdScp:
		return recursive
	case cmdDitto:
		return true
	case cmdRsync:
		return recursive || seg.hasFlag("-d") || seg.hasFlag("--dirs")
	}
	return false
}
