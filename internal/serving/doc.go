// Package serving runs toolgate's network listeners (admission webhooks, metrics, health probes)
// with the same hardening: read, header, write and idle timeouts, header and body size limits,
// a cap on connections in their TLS handshake with failed handshakes counted rather than each
// logged (handshakes.go), and, for the webhooks, a client certificate that only the API server
// holds.
//
// controller-runtime's own servers leave the read and write timeouts unset and accept 1 MiB of
// headers, so a client that trickles bytes holds a connection (and a goroutine) for as long as it
// likes; these servers replace them.
package serving
