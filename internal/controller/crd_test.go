package controller_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/discovery"
	"sigs.k8s.io/controller-runtime/pkg/client"

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

	// printerColumns maps the names of the columns kubectl get shows for a resource to their paths.
	printerColumns := func(resource string) map[string]string {
		GinkgoHelper()
		crd := &unstructured.Unstructured{}
		crd.SetAPIVersion("apiextensions.k8s.io/v1")
		crd.SetKind("CustomResourceDefinition")
		Expect(k8sClient.Get(ctx, client.ObjectKey{Name: resource + "." + safetyv1alpha1.GroupVersion.Group}, crd)).To(Succeed())
		versions, _, _ := unstructured.NestedSlice(crd.Object, "spec", "versions")
		Expect(versions).To(HaveLen(1))
		columns, _, _ := unstructured.NestedSlice(versions[0].(map[string]any), "additionalPrinterColumns")
		paths := map[string]string{}
		for _, c := range columns {
			col := c.(map[string]any)
			paths[col["name"].(string)] = col["jsonPath"].(string)
		}
		return paths
	}

	It("shows, in kubectl get -o wide, whose plan it is, its action and why it has not locked", func() {
		paths := printerColumns("agentplans")
		Expect(paths).To(HaveKeyWithValue("Agent", ".spec.serviceAccountName"))
		Expect(paths).To(HaveKeyWithValue("Action", ".spec.action"))
		Expect(paths).To(HaveKeyWithValue("Lock-Reason", `.status.conditions[?(@.type=="Locked")].reason`))
	})

	It("shows what a tool costs per call, the figure budgets reserve", func() {
		paths := printerColumns("agenttools")
		Expect(paths).To(HaveKeyWithValue("Cost", ".spec.costPerCall"))
		Expect(paths).To(HaveKeyWithValue("Max-Cost", ".spec.maxCostPerCall"))
	})

	It("shows when an approval expires, not how many seconds it was given", func() {
		paths := printerColumns("toolapprovals")
		Expect(paths).To(HaveKeyWithValue("Expires", ".status.expiresAt"))
		Expect(paths).NotTo(HaveKey("Expires-In"))
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
