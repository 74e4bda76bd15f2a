package serving

import (
	"crypto/x509"
	"encoding/pem"
	"fmt"
)

// sharedCA returns the subject of a certificate that both PEM bundles hold, or "" when they share
// none. The webhook's client CA bundle holding the cluster's CA (the one the API server's serving
// certificate is verified with) trusts every client certificate that CA signs: on kubeadm and its
// kin, kubelets' and administrators' as well as the API server's.
func sharedCA(clientCAs, clusterCAs []byte) string {
	cluster := map[string]bool{}
	for _, c := range pemCertificates(clusterCAs) {
		cluster[string(c.Raw)] = true
	}
	for _, c := range pemCertificates(clientCAs) {
		if cluster[string(c.Raw)] {
			return c.Subject.String()
		}
	}
	return ""
}

func pemCertificates(data []byte) []*x509.Certificate {
	var out []*x509.Certificate
	for {
		var block *pem.Block
		if block, data = pem.Decode(data); block == nil {
			return out
		}
		if block.Type != "CERTIFICATE" {
			continue
		}
		if c, err := x509.ParseCertificate(block.Bytes); err == nil {
			out = append(out, c)
		}
	}
}

// errClusterCAWithoutNames is the start refused for a client CA bundle that holds the cluster's CA
// while no client name is pinned.
func errClusterCAWithoutNames(subject string) error {
	return fmt.Errorf("the webhook client CA bundle holds the cluster's CA (%s), which signs kubelets' and "+
		"administrators' client certificates too: name the API server's certificate (webhook client names), "+
		"or give its client certificate a CA of its own", subject)
}
