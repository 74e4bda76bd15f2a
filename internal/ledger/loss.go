package ledger

import "fmt"

// KindLoss is the kind of record a caller appends for records it failed to make durable earlier
// (the webhook's decisions while the volume was full, say): a loss is counted and recorded, never
// silently dropped. The journal does not write loss records itself, since only the caller knows
// what a failed Append meant, but Verify reports them beside recovery's gaps.
const KindLoss = "loss"

// Field names of a loss record that Verify reads. Callers may add any other fields.
const (
	// FieldLost is the number of records the loss record accounts for.
	FieldLost = "lost"
	// FieldFirstLost and FieldLastLost are when the first and the last of them failed (RFC 3339).
	FieldFirstLost = "firstLost"
	FieldLastLost  = "lastLost"
)

// Loss is a loss record found in a chain.
type Loss struct {
	Writer string
	File   string
	Seq    uint64 // the loss record's own sequence number
	Lost   uint64
	// FirstLost and LastLost are as the record gives them.
	FirstLost string
	LastLost  string
}

func (l Loss) String() string {
	return fmt.Sprintf("writer %s: %d records lost between %s and %s, recorded at seq %d (%s)",
		l.Writer, l.Lost, l.FirstLost, l.LastLost, l.Seq, l.File)
}

func lossOf(writer, file string, p parsed) Loss {
	return Loss{Writer: writer, File: file, Seq: p.Seq, Lost: p.num(FieldLost),
		FirstLost: p.str(FieldFirstLost), LastLost: p.str(FieldLastLost)}
}
