package safety

import (
	"slices"
	"strings"
)

// Cloud storage commands that delete objects without saying delete: a move deletes its source
// (aws s3 mv, gsutil mv, gcloud storage mv, rclone move, mc mv, s3cmd mv), a sync's delete
// option deletes what the destination holds that the source does not — everything, from an
// empty source (aws s3 sync --delete, gsutil rsync -d, gcloud storage rsync
// --delete-unmatched-destination-objects, rclone sync always, azcopy sync --delete-destination,
// mc mirror --remove, s3cmd sync --delete-removed) — and rclone's, azcopy's, mc's and s3cmd's
// own removals (rclone purge, azcopy remove, mc rm, s3cmd del). Objects deleted in a bucket are
// cloud-storage-delete's to ask about; a local side is judged by the path policy (cloudCopyPaths).

// deleteSide is which operands a storage command deletes.
type deleteSide uint8

const (
	deletesNone   deleteSide = iota
	deletesSource            // every operand but the last: a move's sources
	deletesDest              // the last operand: a sync's destination
	deletesAll               // every operand: a removal, or rclone bisync's two sides
)

// cloudDelete is a deleting subcommand: the side it deletes and, when it deletes only with one,
// its options that make it do so (any value but false turns them on).
type cloudDelete struct {
	side deleteSide
	opts []string
}

// cloudDeleteVerbs are keyed as cloudCopyVerbs are.
var cloudDeleteVerbs = map[string]cloudDelete{
	"aws s3 mv":            {side: deletesSource},
	"aws s3 sync":          {side: deletesDest, opts: []string{"--delete"}},
	"gsutil mv":            {side: deletesSource},
	"gsutil rsync":         {side: deletesDest, opts: []string{"-d"}},
	"gcloud storage mv":    {side: deletesSource},
	"gcloud storage rsync": {side: deletesDest, opts: []string{"--delete-unmatched-destination-objects"}},
	"rclone move":          {side: deletesSource},
	"rclone moveto":        {side: deletesSource},
	"rclone sync":          {side: deletesDest},
	"rclone bisync":        {side: deletesAll},
	"rclone purge":         {side: deletesAll},
	"rclone delete":        {side: deletesAll},
	"rclone deletefile":    {side: deletesAll},
	"rclone rmdir":         {side: deletesAll},
	"rclone rmdirs":        {side: deletesAll},
	"rclone cleanup":       {side: deletesAll},
	"azcopy remove":        {side: deletesAll},
	"azcopy rm":            {side: deletesAll},
	"azcopy sync":          {side: deletesDest, opts: []string{"--delete-destination"}},
	"mc rm":                {side: deletesAll},
	"mc rb":                {side: deletesAll},
	"mc mv":                {side: deletesSource},
	"mc mirror":            {side: deletesDest, opts: []string{"--remove"}},
	"s3cmd del":            {side: deletesAll},
	"s3cmd rm":             {side: deletesAll},
	"s3cmd rb":             {side: deletesAll},
	"s3cmd mv":             {side: deletesSource},
	"s3cmd sync":           {side: deletesDest, opts: []string{"--delete-removed", "--delete-after"}},
}

// cloudDeleting reports whether a storage command's delete option is on: it has none to need, or
// one of them is given (abbreviated, as aws and getopt_long take it) with no false value, or a
// computed word could be one.
func cloudDeleting(s *segment, d cloudDelete) bool {
	if len(d.opts) == 0 || s.unknownFlags {
		return true
	}
	for _, o := range d.opts {
		if !s.hasFlag(o) && (s.name != cmdAWS || !awsAbbreviates(s, o)) {
			continue
		}
		if v, ok := optionValue(s, o, o); !ok || !strings.EqualFold(strings.TrimSpace(v.s), "false") || v.dynamic {
			return true
		}
	}
	return false
}

// awsAbbreviates reports whether an aws command gives a unique prefix of the long option o (aws
// s3 sync --dele), which aws takes for it.
func awsAbbreviates(s *segment, o string) bool {
	return slices.ContainsFunc(s.flags, func(f string) bool { return len(f) > 4 && strings.HasPrefix(o, f) })
}

// deletesCloudObjects is cloud-storage-delete's check: a storage command deletes objects in a
// bucket or remote — an operand on the side it deletes that is not a local path (a computed one
// could be either; mc's aliases look like local paths, so every mc operand is taken for one).
func deletesCloudObjects(s *segment) bool {
	d, at, ok := cloudVerbIn(s, cloudDeleteVerbs)
	if !ok || !cloudDeleting(s, d) {
		return false
	}
	copyVerb, _, _ := cloudVerb(s)
	ops := cloudOperands(s, at, copyVerb)
	for i, w := range ops {
		last := i == len(ops)-1
		switch {
		case d.side == deletesSource && last && len(ops) > 1, d.side == deletesDest && !last:
			continue
		}
		if remoteStorage(s, w) {
			return true
		}
	}
	return false
}

// remoteStorage says whether a storage command's operand names a bucket or remote rather than
// a local path.
func remoteStorage(s *segment, w word) bool {
	switch {
	case w.dynamic || s.name == "mc":
		return true
	case s.name == cmdRclone:
		_, local := rcloneLocal(s, w)
		return !local
	}
	return !cloudLocal(s.name, w.s)
}
