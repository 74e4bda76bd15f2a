//go:build e2e

package e2e

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = Describe("the manager binary", Ordered, func() {
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
	})

	It("admits every sample through kubectl apply -k, via its webhooks", func() {
		Expect(local.ApplySamples(ctx, GinkgoWriter)).To(Succeed())
	})

	It("rejects a bad profile through its webhook, naming the field", func() {
		file := filepath.Join(GinkgoT().TempDir(), "bad.yaml")
		Expect(os.WriteFile(file, []byte(`apiVersion: safety.toolgate.dev/v1alpha1
kind: SafetyProfile
metadata: {name: bad-glob}
spec: {deniedTools: ["deploy-["]}
`), 0o600)).To(Succeed())
		out, err := runKubectl("apply", "-f", file)
		Expect(err).To(HaveOccurred())
		Expect(out).To(ContainSubstring("spec.deniedTools[0]"))
		Expect(out).To(ContainSubstring("glob"))
	})

	DescribeTable("kubectl get shows the columns a platform engineer wants",
		func(resource string, columns ...string) {
			out, err := runKubectl("get", resource, "-A")
			Expect(err).NotTo(HaveOccurred())
			header := strings.Fields(strings.SplitN(out, "\n", 2)[0])
			for _, c := range columns {
				Expect(header).To(ContainElement(c), "columns of %s: %v", resource, header)
			}
		},
		Entry("SafetyProfile", "safetyprofiles",
			"SANDBOX", "CHECKPOINTS", "UNSAFE", "APPROVAL", "MAX-COST", "MODE", "PLANS", "AGE"),
		Entry("AutomationProfile", "automationprofiles", "LEVEL", "SAFETY", "DEFAULT", "PLANS", "AGE"),
		Entry("AgentTool", "agenttools", "CLASS", "WRITES", "UNSAFE", "CHECKPOINTABLE", "CATEGORY", "AGE"),
		Entry("ProjectPolicy", "projectpolicies", "PROFILE", "PLANS", "TOTAL-COST", "AGE"),
		Entry("AgentPlan", "agentplans", "PROFILE", "PROVENANCE", "LOCKED", "COST", "CALLS", "DENIED", "AGE"),
		Entry("AuditLedger", "auditledgers", "POLICY", "RECORDS", "SEGMENTS", "BYTES", "AGE"),
	)
})
