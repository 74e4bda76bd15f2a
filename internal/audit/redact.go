package audit

import "github.com/toolgate/toolgate/internal/ledger"

// RedactSecrets hides credential-shaped parts of a text (bearer tokens, basic-auth URLs,
// --password style options, private key blocks, AWS, GitHub, GitLab, Slack, Stripe, Google,
// OpenAI and npm tokens, JWTs) as "[REDACTED:<rule>]". The webhook calls it on every denial
// message and approval hint before a person or a client sees them; records get it from the
// journal, for every string value. The rules are documented in internal/ledger/secrets.go.
func RedactSecrets(s string) string { return ledger.RedactSecrets(s) }
