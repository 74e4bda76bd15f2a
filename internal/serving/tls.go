package serving

import (
	"context"
	"crypto/tls"
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
	watcher, err := certwatcher.New(filepath.Join(dir, certName), filepath.Join(dir, keyName))
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
