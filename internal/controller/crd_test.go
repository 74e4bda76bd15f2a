package controller_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/discovery"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
)

var _ = Describe("toolgate CRDs on the pinned control plane", func() {
	It("serves every kind in the toolgate category", func() {
		dc, err := discovery.NewDiscoveryClientForConfig(cfg)
		Expect(err).NotTo(HaveOccurred())
		list, err := dc.ServerResourcesForGroupVersion(safetyv1alpha1.GroupVersion.String())
		Expect(err).NotTo(HaveOccurred())
		inCategory := map[string]bool{}
		for _, r := range list.APIResources {
			for _, c := range r.Categories {
				if c == "toolgate" {
					inCategory[r.Kind] = true
				}
			}
		}
		Expect(inCategory).To(Equal(map[string]bool{
			"SafetyProfile": true, "AutomationProfile": true, "AgentTool": true, "AuditLedger": true,
			"ProjectPolicy": true, "AgentPlan": true, "AgentToolCall": true, "ToolApproval": true, "ToolServer": true,
		}))
	})

	It("fills in the specification's defaults for an empty SafetyProfile", func() {
		sp := &safetyv1alpha1.SafetyProfile{ObjectMeta: metav1.ObjectMeta{Name: "defaults-probe"}}
		Expect(k8sClient.Create(ctx, sp)).To(Succeed())
		DeferCleanup(k8sClient.Delete, ctx, sp)
		Expect(sp.Spec.RequireSandbox).To(Equal(new(true)))
		Expect(sp.Spec.RequireCheckpoints).To(Equal(new(true)))
		Expect(sp.Spec.AllowUnsafeTools).To(Equal(new(false)))
		Expect(sp.Spec.RequireHumanApproval).To(Equal(new(false)))
		Expect(sp.Spec.MaxRetriesPerStep).To(Equal(new(int32(3))))
		Expect(sp.Spec.EnforcementMode).To(Equal(safetyv1alpha1.EnforcementModeEnforce))
		Expect(sp.Spec.MaxCostPerPlan).To(BeNil())
	})

	It("rejects maxRetriesPerStep above 100, naming the field", func() {
		sp := &safetyv1alpha1.SafetyProfile{
			ObjectMeta: metav1.ObjectMeta{Name: "too-many-retries"},
			Spec:       safetyv1alpha1.SafetyProfileSpec{MaxRetriesPerStep: new(int32(101))},
		}
		err := k8sClient.Create(ctx, sp)
		Expect(apierrors.IsInvalid(err)).To(BeTrue(), "got %v", err)
		Expect(err.Error()).To(ContainSubstring("spec.maxRetriesPerStep"))
	})
})
