// Package fallbackroots gives a binary Mozilla's CA roots, compiled in, for use only where the
// system has none. The images are built from scratch (internal/image, the Dockerfile) and hold no
// /etc/ssl/certs, so without it an https ToolServer upstream or OTLP collector with a public
// certificate would not verify; a bundle mounted at the system's paths (or named by SSL_CERT_FILE)
// still replaces them. A binary imports it for that effect alone.
package fallbackroots

import _ "golang.org/x/crypto/x509roots/fallback"
