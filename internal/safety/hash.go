package safety

import (
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"strconv"
	"strings"
)

// canonicalHeader versions the encoding: a change to it is a change of every hash, so it is
// deliberate and visible.
const canonicalHeader = "toolgate.dev/safety-profile/v1"

// CanonicalEncoding returns the canonical text form of an effective profile: a version header,
// then one "key=value" line per field in a fixed (alphabetical) order. It is written by hand, not
// by a general encoder, so it does not change with field order, restarts or Go versions. Lists
// whose order has no meaning are sorted and de-duplicated; a nil and an empty list encode the same
// (both mean "all allowed"); a missing limit encodes as "none"; the empty mode encodes as Enforce.
// A nil profile (no profile at all) encodes as the header followed by "profile=none".
func CanonicalEncoding(p *Profile) []byte {
	var b strings.Builder
	b.WriteString(canonicalHeader)
	b.WriteByte('\n')
	if p == nil {
		b.WriteString("profile=none\n")
		return []byte(b.String())
	}
	writeBool := func(k string, v bool) { b.WriteString(k + "=" + strconv.FormatBool(v) + "\n") }
	writeList := func(k string, v []string) {
		s := slices.Clone(v)
		slices.Sort(s)
		s = slices.Compact(s)
		b.WriteString(k + "=[")
		for i, e := range s {
			if i > 0 {
				b.WriteByte(',')
			}
			writeQuoted(&b, e)
		}
		b.WriteString("]\n")
	}
	writeMoney := func(k string, v *Money) {
		if v == nil {
			b.WriteString(k + "=none\n")
			return
		}
		b.WriteString(k + "=" + v.String() + "\n")
	}
	writeBool("allowUnsafeTools", p.AllowUnsafeTools)
	writeList("allowedSkillCategories", p.AllowedSkillCategories)
	writeList("allowedTools", p.AllowedTools)
	writeList("deniedTools", p.DeniedTools)
	writeMoney("maxCostPerPlan", p.MaxCostPerPlan)
	if p.MaxRetriesPerStep == nil {
		b.WriteString("maxRetriesPerStep=none\n")
	} else {
		b.WriteString("maxRetriesPerStep=" + strconv.FormatInt(int64(*p.MaxRetriesPerStep), 10) + "\n")
	}
	// Written only when it is not the default, so the hashes of profiles locked before the field
	// existed do not change; an unset limit and the default one are the same policy.
	if n := p.StepLimit(); n != DefaultMaxStepsPerPlan {
		b.WriteString("maxStepsPerPlan=" + strconv.FormatInt(int64(n), 10) + "\n")
	}
	writeMoney("maxTotalCost", p.MaxTotalCost)
	b.WriteString("mode=")
	writeQuoted(&b, string(p.Mode.effective()))
	b.WriteByte('\n')
	writeBool("readOnly", p.ReadOnly)
	writeBool("requireCheckpoints", p.RequireCheckpoints)
	writeBool("requireHumanApproval", p.RequireHumanApproval)
	writeBool("requireSandbox", p.RequireSandbox)
	return []byte(b.String())
}

// writeQuoted quotes byte by byte so the result never depends on Unicode tables (strconv.Quote's
// notion of "printable" can change between Go versions).
func writeQuoted(b *strings.Builder, s string) {
	const hexdigits = "0123456789abcdef"
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c < 0x20 || c == 0x7f:
			b.WriteString(`\x`)
			b.WriteByte(hexdigits[c>>4])
			b.WriteByte(hexdigits[c&0xf])
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
}

// Hash returns the lowercase hex sha256 of CanonicalEncoding(p): the snapshot hash the webhook
// stamps on every decision.
func Hash(p *Profile) string {
	sum := sha256.Sum256(CanonicalEncoding(p))
	return hex.EncodeToString(sum[:])
}
