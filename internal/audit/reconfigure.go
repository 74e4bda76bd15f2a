package audit

import (
	"errors"
	"fmt"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/ledger"
)

// specPaths names the AuditLedger spec field each journal setting comes from (see Config).
var specPaths = map[string]string{
	"MaxSegmentBytes": "spec.rotation.maxSegmentBytes",
	"Daily":           "spec.rotation.daily",
	"Compress":        "spec.compression",
	"MaxAge":          "spec.retention.maxAgeDays",
	"MaxSegments":     "spec.retention.maxSegments",
	"RedactKeys":      "spec.redaction.extraKeys",
	"MaxStringLength": "spec.redaction.maxStringLength",
}

// SpecPath is the AuditLedger spec field a ledger.Config field comes from, or the Config field's
// own name when none does.
func SpecPath(configField string) string {
	if p, ok := specPaths[configField]; ok {
		return p
	}
	return configField
}

// Reconfigure applies spec's rotation, compression, retention and redaction to the running
// journal (nil spec: the defaults, as at start-up without an AuditLedger) and returns the spec
// fields that changed. A refused spec changes nothing; the error names the spec field.
func Reconfigure(j *ledger.Journal, spec *safetyv1alpha1.AuditLedgerSpec) ([]string, error) {
	changed, err := j.Reconfigure(Config(spec, "", "", nil))
	if err != nil {
		return nil, SpecError(err)
	}
	paths := make([]string, len(changed))
	for i, f := range changed {
		paths[i] = SpecPath(f)
	}
	return paths, nil
}

// SettingError is a spec setting the journal refuses: Path names the spec field
// ("spec.redaction.extraKeys[1]"), Detail what is wrong with it. It wraps the *ledger.ConfigError.
type SettingError struct {
	Path   string
	Detail string
	cause  *ledger.ConfigError
}

func (e *SettingError) Error() string { return e.Path + " " + e.Detail }

func (e *SettingError) Unwrap() error { return e.cause }

// SpecError restates a *ledger.ConfigError as a *SettingError naming the AuditLedger spec field;
// other errors are returned as they are.
func SpecError(err error) error {
	var ce *ledger.ConfigError
	if !errors.As(err, &ce) {
		return err
	}
	path := SpecPath(ce.Field)
	if ce.Index >= 0 {
		path = fmt.Sprintf("%s[%d]", path, ce.Index)
	}
	return &SettingError{Path: path, Detail: ce.Detail, cause: ce}
}
