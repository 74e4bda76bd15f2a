package safety

import "strings"

// Copies and archivers that delete: rsync --delete (and --delete-before|during|delay|after|
// excluded|missing-args, --del) deletes what the destination holds that the source does not —
// everything, from an empty source; rsync --remove-source-files deletes the files it copied;
// tar --remove-files and zip -m (--move) delete what they archived. Each is judged as the delete
// it is, beside the copy: "rsync -a --delete empty/ ~/" deletes the home directory's files.

// syncDeletes records the deletes of rsync's delete options, below what it copies recursively.
func (a *analyzer) syncDeletes(seg *segment, ops []word) {
	if seg.name != cmdRsync || len(ops) < 2 {
		return
	}
	if rsyncDeletes(seg) {
		a.operandPath(ops[len(ops)-1], opDelete)
	}
	if seg.hasFlag("--remove-source-files") {
		for _, w := range ops[:len(ops)-1] {
			a.operandPath(w, opDelete)
		}
	}
}

// rsyncDeletes reports whether an rsync segment deletes in its destination: any of its
// --delete* options, or --del, spelt whole or abbreviated (rsync takes "--dele" for --delete).
func rsyncDeletes(seg *segment) bool {
	for _, f := range seg.flags {
		if f == "--del" || strings.HasPrefix(f, "--dele") {
			return true
		}
	}
	return seg.unknownFlags
}
