//go:build e2e

package e2e

import (
	"net/http"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = Describe("the manager binary", func() {
	It("answers its health and readiness probes", func() {
		Expect(probe("/healthz")).To(Equal(http.StatusOK))
		Expect(probe("/readyz")).To(Equal(http.StatusOK))
	})

	It("lets kubectl list every toolgate kind through the toolgate category", func() {
		out, err := runKubectl("api-resources", "--categories=toolgate", "-o", "name")
		Expect(err).NotTo(HaveOccurred())
		for _, r := range []string{"safetyprofiles", "automationprofiles", "agenttools", "auditledgers",
			"projectpolicies", "agentplans", "agenttoolcalls"} {
			Expect(out).To(ContainSubstring(r + ".safety.toolgate.dev"))
		}
		_, err = runKubectl("get", "toolgate", "-A")
		Expect(err).NotTo(HaveOccurred())
	})
})
