package ledger

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"
)

// ConfigError is a Config value the journal refuses. Field is the Config field's name (and
// Index the position in a list field, or -1), so an adapter can name the setting it came from.
type ConfigError struct {
	Field  string
	Index  int
	Detail string
}

func (e *ConfigError) Error() string {
	f := e.Field
	if e.Index >= 0 {
		f = fmt.Sprintf("%s[%d]", f, e.Index)
	}
	return fmt.Sprintf("ledger: Config.%s %s", f, e.Detail)
}

// validateSettings checks the settings a running journal may change, for Open and Reconfigure.
func (c Config) validateSettings() error {
	for _, f := range []struct {
		name string
		v    int64
	}{
		{"MaxSegmentBytes", c.MaxSegmentBytes},
		{"MaxAge", int64(c.MaxAge)},
		{"MaxSegments", int64(c.MaxSegments)},
		{"MaxStringLength", int64(c.MaxStringLength)},
	} {
		if f.v < 0 {
			return &ConfigError{Field: f.name, Index: -1, Detail: fmt.Sprintf("must not be negative, got %d", f.v)}
		}
	}
	for i, k := range c.RedactKeys {
		switch {
		case !utf8.ValidString(k):
			return &ConfigError{Field: "RedactKeys", Index: i, Detail: "is not valid UTF-8"}
		case strings.TrimSpace(k) == "":
			return &ConfigError{Field: "RedactKeys", Index: i,
				Detail: fmt.Sprintf("is blank (%q): a redaction key is a key substring to hide, and a blank one would hide nothing", k)}
		}
	}
	return nil
}

// Reconfigure changes the running journal's rotation (MaxSegmentBytes, Daily), compression
// (Compress), retention (MaxAge, MaxSegments) and redaction (RedactKeys, MaxStringLength) to
// cfg's, with Open's defaults for zero values, and returns the names of the fields that changed.
//
// Dir and Writer never change: they must be empty or equal the journal's. Clock and the other
// fields are ignored. A refused cfg (a *ConfigError, or a Dir or Writer change) changes nothing.
//
// Reconfigure is safe with concurrent Appends and Maintain. Rotation applies from the committer's
// next write (a live segment already past a smaller MaxSegmentBytes is sealed before it) and from
// the next Maintain; compression and retention from the next Maintain. Redaction applies to
// records whose Append starts after Reconfigure returns; records already appended keep what they
// were written with, so nothing on disk changes and the chain still verifies.
func (j *Journal) Reconfigure(cfg Config) ([]string, error) {
	if cfg.Dir != "" && cfg.Dir != j.cfg.Dir {
		return nil, &ConfigError{Field: "Dir", Index: -1, Detail: fmt.Sprintf("cannot change on a running journal (it is %s)", j.cfg.Dir)}
	}
	if cfg.Writer != "" && cfg.Writer != j.cfg.Writer {
		return nil, &ConfigError{Field: "Writer", Index: -1, Detail: fmt.Sprintf("cannot change on a running journal (it is %s)", j.cfg.Writer)}
	}
	if err := cfg.validateSettings(); err != nil {
		return nil, err
	}
	if cfg.MaxSegmentBytes == 0 {
		cfg.MaxSegmentBytes = DefaultMaxSegmentBytes
	}
	if cfg.MaxStringLength == 0 {
		cfg.MaxStringLength = DefaultMaxStringLength
	}

	// Lock order as in Maintain and Close. maintMu guards the fields Maintain reads (Compress,
	// MaxAge, MaxSegments); wmu those the committer reads (MaxSegmentBytes, Daily).
	j.maintMu.Lock()
	defer j.maintMu.Unlock()
	if j.isClosed() {
		return nil, ErrClosed
	}
	j.wmu.Lock()
	defer j.wmu.Unlock()
	cur := &j.cfg
	var changed []string
	set := func(name string, differs bool, apply func()) {
		if differs {
			changed = append(changed, name)
			apply()
		}
	}
	set("MaxSegmentBytes", cur.MaxSegmentBytes != cfg.MaxSegmentBytes, func() { cur.MaxSegmentBytes = cfg.MaxSegmentBytes })
	set("Daily", cur.Daily != cfg.Daily, func() { cur.Daily = cfg.Daily })
	set("Compress", cur.Compress != cfg.Compress, func() { cur.Compress = cfg.Compress })
	set("MaxAge", cur.MaxAge != cfg.MaxAge, func() { cur.MaxAge = cfg.MaxAge })
	set("MaxSegments", cur.MaxSegments != cfg.MaxSegments, func() { cur.MaxSegments = cfg.MaxSegments })
	keys := slices.Clone(cfg.RedactKeys)
	set("RedactKeys", !slices.Equal(cur.RedactKeys, keys), func() { cur.RedactKeys = keys })
	set("MaxStringLength", cur.MaxStringLength != cfg.MaxStringLength, func() { cur.MaxStringLength = cfg.MaxStringLength })
	if slices.Contains(changed, "RedactKeys") || slices.Contains(changed, "MaxStringLength") {
		red := newRedactor(cur.RedactKeys, cur.MaxStringLength)
		j.red.Store(&red)
	}
	return changed, nil
}

// Settings returns the journal's current configuration, with defaults filled in. Its openFile,
// test hooks and ObserveCommit are left out, and so is the signing key: settings get logged and compared,
// and the private key must never travel with them (PublicKey gives its public half).
func (j *Journal) Settings() Config {
	j.maintMu.Lock()
	defer j.maintMu.Unlock()
	j.wmu.Lock()
	defer j.wmu.Unlock()
	c := j.cfg
	c.RedactKeys = slices.Clone(c.RedactKeys)
	c.openFile, c.syncEach, c.ObserveCommit = nil, false, nil
	c.SigningKey = nil
	return c
}
