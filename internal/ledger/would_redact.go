package ledger

import (
	"bytes"
	"math"
	"sync"
)

// defaultRedactor is the redaction of a journal opened without extra keys, not truncating.
var defaultRedactor = sync.OnceValue(func() redactor { return newRedactor(nil, math.MaxInt) })

// WouldRedact reports whether a record's redaction (key names, named entries, option values in
// lists, JSON documents in strings, credential shapes; a journal's default keys) changes fields.
// A caller that shows fields as text, where only RedactSecrets' text rules reach them, asks it
// first: the approval command pins such arguments by their digest rather than spell them out.
func WouldRedact(fields map[string]any) (bool, error) {
	tree, err := jsonTree(fields)
	if err != nil {
		return false, err
	}
	plain, err := appendCanonical(nil, tree)
	if err != nil {
		return false, err
	}
	// value redacts the tree in place: plain was written first.
	redacted, err := appendCanonical(nil, defaultRedactor().value(tree))
	if err != nil {
		return false, err
	}
	return !bytes.Equal(plain, redacted), nil
}
