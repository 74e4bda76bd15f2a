package ledger

import (
	"crypto/ed25519"
	"errors"
	"fmt"
	"slices"
	"time"
)

// Clock tells the time. It is injected so rotation and retention are testable.
type Clock interface {
	Now() time.Time
}

type realClock struct{}

func (realClock) Now() time.Time { return time.Now() }

// Defaults applied by Open to zero-valued Config fields.
const (
	DefaultMaxSegmentBytes = 64 << 20
	// DefaultMaxStringLength is the longest argument an AgentToolCall can carry, in bytes: a
	// command of 8192 characters of up to 4 bytes each (paths and cwd are 1024 characters, extra's
	// strings at most 16 KiB). Below it an agent could pad a command past the cut and so choose
	// which of its decisions no longer hash to argumentsDigest and cannot be replayed.
	DefaultMaxStringLength = 32 << 10
)

// Config configures a Journal. Dir and Writer are required.
type Config struct {
	// Dir is the ledger's root directory (on the PersistentVolume). Each writer's chain lives
	// in Dir/Writer.
	Dir string
	// Writer names this writer's chain (the pod name). Two journals must never share a writer:
	// Open takes an exclusive lock on the chain.
	Writer string
	// MaxSegmentBytes seals the live segment once it reaches this size. Default 64 MiB.
	MaxSegmentBytes int64
	// Daily seals the live segment at each UTC day boundary.
	Daily bool
	// Compress gzips sealed segments during Maintain.
	Compress bool
	// MaxAge deletes sealed segments sealed longer ago than this during Maintain. 0 keeps them.
	MaxAge time.Duration
	// MaxSegments keeps at most this many sealed segments during Maintain. 0 means no limit.
	MaxSegments int
	// RedactKeys are key substrings redacted besides password, token, secret, key, auth and
	// credential. Matching is case-insensitive.
	RedactKeys []string
	// MaxStringLength truncates longer strings, with a marker. Default DefaultMaxStringLength.
	MaxStringLength int
	// Clock is the time source; nil means the wall clock.
	Clock Clock
	// SigningKey, when set, signs every sealed segment's seal (<segment>.sig) and the live head
	// (head.sig, and SignHead for publishing outside the volume). Nil signs nothing.
	SigningKey ed25519.PrivateKey
	// SignEvery is how often the live head is signed. Default DefaultSignEvery.
	SignEvery time.Duration
	// ObserveCommit, when set, is told after each batch is made durable how many records it
	// held and how long its write and sync took, by the wall clock: the disk's share of every
	// appender's wait, which the manager exports as metrics. It runs on the commit path, between
	// the sync and the appenders' receipts, so it must be quick.
	ObserveCommit func(records int, took time.Duration)

	// openFile opens segment files. Tests replace it to inject write and sync failures; nil
	// means os.OpenFile.
	openFile openFunc
	// syncEach commits every record with its own write and fsync, for the benchmark that
	// measures what group commit saves. Never set in production.
	syncEach bool
}

func (c Config) withDefaults() (Config, error) {
	if c.Dir == "" {
		return c, errors.New("ledger: Config.Dir is required")
	}
	if err := validateWriter(c.Writer); err != nil {
		return c, err
	}
	if err := c.validateSettings(); err != nil {
		return c, err
	}
	c.RedactKeys = slices.Clone(c.RedactKeys) // Reconfigure compares with it; the caller keeps theirs
	if c.MaxSegmentBytes == 0 {
		c.MaxSegmentBytes = DefaultMaxSegmentBytes
	}
	if c.MaxStringLength == 0 {
		c.MaxStringLength = DefaultMaxStringLength
	}
	if c.SigningKey != nil && len(c.SigningKey) != ed25519.PrivateKeySize {
		return c, fmt.Errorf("ledger: Config.SigningKey is %d bytes, want an Ed25519 private key of %d", len(c.SigningKey), ed25519.PrivateKeySize)
	}
	if c.SignEvery < 0 {
		return c, fmt.Errorf("ledger: Config.SignEvery is %s, want a positive interval or 0 for the default", c.SignEvery)
	}
	if c.SignEvery == 0 {
		c.SignEvery = DefaultSignEvery
	}
	if c.Clock == nil {
		c.Clock = realClock{}
	}
	if c.openFile == nil {
		c.openFile = openOSFile
	}
	return c, nil
}

// validateWriter keeps writer names to what a pod name can be, so a writer is always one plain
// directory under Dir and can never escape it.
func validateWriter(w string) error {
	if w == "" || len(w) > 253 || w[0] == '.' {
		return fmt.Errorf("ledger: invalid writer %q: want 1-253 characters [A-Za-z0-9._-], not starting with a dot", w)
	}
	for i := 0; i < len(w); i++ {
		c := w[i]
		ok := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-'
		if !ok {
			return fmt.Errorf("ledger: invalid writer %q: want 1-253 characters [A-Za-z0-9._-], not starting with a dot", w)
		}
	}
	return nil
}
