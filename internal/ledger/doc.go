// Package ledger is toolgate's audit ledger: a durable, hash-chained journal of admission
// decisions on a PersistentVolume, and the verifier that proves it was not altered.
//
// Each writer (a webhook pod) owns one chain in its own directory, <Dir>/<Writer>/. A chain is a
// sequence of segments named YYYY-MM-DD.NNNNNNNN.jsonl, sealed ones optionally gzipped. Every line
// is one canonical JSON record carrying its sequence number, the previous record's hash and its
// own sha256. A segment starts with a "segment" header record naming its predecessor and ends,
// once sealed, with a "seal" record holding the digest of everything before it, so the chain runs
// unbroken across files and a missing middle segment is visible.
//
// [Journal.Append] returns only after the record is written and fsynced; concurrent appends share
// one fsync (group commit). [Open] recovers a torn tail by cutting it off and appending a "gap"
// record that says what was lost. [Journal.Maintain] seals, compresses and enforces retention;
// retention records which segments it deleted, so [Verify] can tell retention from tampering.
//
// The package is pure: standard library only, no Kubernetes. Time enters through [Clock].
// The format, the guarantees and recovery are described in docs/ledger.md.
package ledger
