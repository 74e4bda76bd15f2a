//go:build !linux

package ledger

import "os"

// datasync falls back to a full fsync where fdatasync(2) is not available: the journal only
// writes on Linux (the manager's image), but the package also builds into kubectl-toolgate.
func datasync(f *os.File) error { return f.Sync() }
