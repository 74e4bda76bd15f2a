package safety

import (
	"slices"
	"strconv"
	"strings"
)

// Turning off what would let a deleted database, bucket or instance be recovered is a delete
// waiting to happen, and some of it deletes at once: an RDS backup retention of 0 deletes the
// automated backups, DynamoDB's point-in-time recovery turned off drops its history. Deletion and
// termination protection turned off, versioning suspended, a lifecycle configuration (whose
// expiry rules delete objects, from a file the engine does not read) and backups disabled are
// asked about as cloud-resource-delete's deletes are.

// protectionOffWords are the names of the boolean options whose --no- form turns recovery or
// protection off (--no-deletion-protection, --no-deletion-protection-enabled,
// --no-disable-api-termination, --no-enable-termination-protection, --no-backup,
// --no-versioning, --no-enable-point-in-time-recovery).
var protectionOffWords = []string{"deletion-protection", "termination-protection", "api-termination", "backup",
	"versioning", "point-in-time-recovery", "drop-protection", "delete-protection"}

// retentionOptions keep backups or deleted data for their value's time: 0 keeps none.
var retentionOptions = []string{"--backup-retention-period", "--snapshot-retention-limit", "--retained-backups-count",
	"--soft-delete-duration", "--retained-transaction-log-days"}

// azEnableOptions are az's options whose value false turns versioning or deleted-data retention off.
var azEnableOptions = []string{"--enable-versioning", "--enable-delete-retention", "--enable-container-delete-retention"}

// recoveryOffValues are texts of a parameter's value that turn recovery or protection off (lower
// case): DynamoDB's point-in-time recovery, S3 versioning, a load balancer's deletion protection.
var recoveryOffValues = []string{"pointintimerecoveryenabled=false", `"pointintimerecoveryenabled":false`, "status=suspended",
	`"status":"suspended"`, "deletion_protection.enabled,value=false", "delete_protection_disabled"}

// recoveryOffCommands are subcommands that set what expires or is versioned from text the engine
// does not judge: S3 and GCS lifecycle rules, GCS versioning set off, Azure backup protection
// disabled.
var recoveryOffCommands = [][]string{{"s3api", "put-bucket-lifecycle-configuration"}, {"s3api", "put-bucket-lifecycle"},
	{"lifecycle", subSet}, {"versioning", subSet, "off"}, {"backup", "protection", "disable"}}

// disablesRecovery is recovery-disabled's check: an option that turns recovery or protection
// off, a value that does, or a subcommand that sets expiry or versioning from text not judged.
func disablesRecovery(s *segment) bool {
	for _, f := range s.flags {
		if rest, ok := strings.CutPrefix(f, "--no-"); ok && slices.ContainsFunc(protectionOffWords, func(w string) bool { return strings.Contains(rest, w) }) {
			return true
		}
		if f == "--lifecycle-file" || f == "--clear-soft-delete" {
			return true // gcloud storage buckets update
		}
	}
	for i, w := range s.words[1:] {
		// JSON may space its keys and values ('{"Status": "Suspended"}'): the values are read
		// without blanks.
		l := strings.ToLower(w.s)
		if strings.ContainsAny(l, " \t\n") {
			l = strings.Join(strings.Fields(l), "")
		}
		if slices.ContainsFunc(recoveryOffValues, func(v string) bool { return strings.Contains(l, v) }) || recoveryOffOption(s, i+1) {
			return true
		}
	}
	return slices.ContainsFunc(recoveryOffCommands, func(seq []string) bool { return hasOperandRun(s, seq) })
}

// recoveryOffOption reports whether the long option at word i, with its value attached or the
// next word, keeps no backups (a retention of 0, 0s, 0d; aws takes the option abbreviated), turns
// az's versioning or retention off, or sets S3 versioning from a file or a run-time value.
func recoveryOffOption(s *segment, i int) bool {
	name, val, hasVal := strings.Cut(s.words[i].s, "=")
	if !strings.HasPrefix(name, "--") {
		return false
	}
	dynamic := s.words[i].dynamic
	if !hasVal {
		if i+1 >= len(s.words) {
			return false
		}
		val, dynamic = s.words[i+1].s, s.words[i+1].dynamic
	}
	val = strings.TrimSpace(val)
	switch {
	case slices.ContainsFunc(retentionOptions, func(o string) bool {
		return o == name || s.name == cmdAWS && len(name) > 4 && strings.HasPrefix(o, name)
	}):
		n := strings.TrimLeft(val, "0")
		return n == "" || n == "s" || n == "d" || dynamic
	case slices.Contains(azEnableOptions, name):
		return strings.EqualFold(val, "false") || dynamic
	case name == "--versioning-configuration":
		return strings.HasPrefix(val, "file") || dynamic // put-bucket-versioning from a file, which may suspend it
	}
	return terminationProtectionOff(s, name, val, hasVal, dynamic)
}

// terminationProtectionOff reports whether an aws ec2 modify-instance-attribute option turns
// termination protection off: --disable-api-termination Value=false or '{"Value": false}' (given
// alone, a boolean, it turns it on), or --attribute disableApiTermination --value false.
func terminationProtectionOff(s *segment, name, val string, hasVal, dynamic bool) bool {
	switch {
	case name == "--disable-api-termination":
		return hasVal && falseValue(val) || !hasVal && !strings.HasPrefix(val, "-") && (falseValue(val) || dynamic)
	case name == "--value" && (falseValue(val) || dynamic):
		attr, ok := optionValue(s, "--attribute", "--attribute")
		return ok && (strings.EqualFold(attr.s, "disableApiTermination") || attr.dynamic)
	}
	return false
}

// falseValue says whether an option's value is false, or a shorthand or JSON structure whose
// Value is false (Value=false, {"Value": false}).
func falseValue(v string) bool {
	l := strings.Join(strings.Fields(strings.ToLower(v)), "")
	if b, err := strconv.ParseBool(l); err == nil {
		return !b
	}
	return strings.Contains(l, "value=false") || strings.Contains(l, `"value":false`)
}

// hasOperandRun reports whether a segment's operands hold the words of seq one after another.
func hasOperandRun(s *segment, seq []string) bool {
	for i := 0; i+len(seq) <= len(s.operands); i++ {
		if slices.EqualFunc(s.operands[i:i+len(seq)], seq, func(w word, v string) bool { return w.s == v }) {
			return true
		}
	}
	return false
}
