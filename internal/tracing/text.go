package tracing

import (
	"github.com/toolgate/toolgate/internal/ledger"
	"github.com/toolgate/toolgate/pkg/toolcall"
)

// StatusText is a free text (an error, a message) as a span may carry it: redacted as the ledger
// redacts record values (ledger.RedactSecrets: bearer tokens, credential options, basic-auth
// URLs, provider token shapes ...), then shortened to 80 bytes. Redaction comes first, so a cut
// never leaves part of a credential the rules no longer recognise. Traces reach more readers
// than the ledger: every span text that may quote what an agent or an upstream sent goes
// through here.
func StatusText(s string) string {
	return toolcall.Shortened(ledger.RedactSecrets(s))
}
