package serving

import (
	"context"
	"crypto/tls"
	"net"
	"path/filepath"

	"sigs.k8s.io/controller-runtime/pkg/certwatcher"
	logf "sigs.k8s.io/controller-runtime/pkg/log"
)

// newTLSConfig is every listener's TLS: 1.2 or newer, HTTP/2 offered, then adjusted by opts (for
// example to turn HTTP/2 off).
func newTLSConfig(opts []func(*tls.Config)) *tls.Config {
	cfg := &tls.Config{MinVersion: tls.VersionTLS12, NextProtos: []string{"h2"}}
	for _, op := range opts {
		op(cfg)
	}
	return cfg
}

// HTTP1Only is the TLS option that turns HTTP/2 off: the listener offers HTTP/1.1 alone.
func HTTP1Only(c *tls.Config) { c.NextProtos = []string{"http/1.1"} }

// serveCertificateFrom makes cfg serve the pair certName/keyName in dir, re-read whenever the
// files change (a rotated Secret), until ctx ends.
func serveCertificateFrom(ctx context.Context, cfg *tls.Config, dir, certName, keyName, logName string) error {
	return serveCertificateFiles(ctx, cfg, filepath.Join(dir, certName), filepath.Join(dir, keyName), logName)
}

// serveCertificateFiles makes cfg serve the pair certFile/keyFile, re-read whenever the files
// change, until ctx ends.
func serveCertificateFiles(ctx context.Context, cfg *tls.Config, certFile, keyFile, logName string) error {
	watcher, err := certwatcher.New(certFile, keyFile)
	if err != nil {
		return err
	}
	cfg.GetCertificate = watcher.GetCertificate
	go func() {
		if err := watcher.Start(ctx); err != nil {
			logf.Log.WithName(logName).Error(err, "certificate watcher error")
		}
	}()
	return nil
}

// ListenTLS listens on addr with TLS, serving the pair certFile/keyFile (re-read when the files
// change, as a mounted Secret is rotated) until ctx ends, with its handshakes bounded by o
// (handshakes.go): toolgate-gateway's MCP listener.
func ListenTLS(ctx context.Context, addr, certFile, keyFile string, o HandshakeOptions,
	tlsOpts ...func(*tls.Config)) (net.Listener, error) {
	cfg := newTLSConfig(tlsOpts)
	if err := serveCertificateFiles(ctx, cfg, certFile, keyFile, o.Name); err != nil {
		return nil, err
	}
	inner, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	return NewTLSListener(inner, cfg, o), nil
}
