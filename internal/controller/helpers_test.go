package controller_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
)

// newNamespace creates a namespace for one test and returns its name.
func newNamespace() string {
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{GenerateName: "t-"}}
	Expect(k8sClient.Create(ctx, ns)).To(Succeed())
	return ns.Name
}

func create(obj client.Object) {
	GinkgoHelper()
	Expect(k8sClient.Create(ctx, obj)).To(Succeed())
	DeferCleanup(func() {
		if al, ok := obj.(*safetyv1alpha1.AuditLedger); ok {
			retireLedger(al)
			return
		}
		_ = k8sClient.Delete(ctx, obj)
	})
}

// retireLedger deletes the AuditLedger as an administrator retires one on purpose: the webhook
// refuses deleting it while it holds published heads, so its heads are removed first (a status
// write, which the CRD allows entry by entry).
func retireLedger(al *safetyv1alpha1.AuditLedger) {
	GinkgoHelper()
	Eventually(func(g Gomega) {
		cur := &safetyv1alpha1.AuditLedger{}
		err := k8sClient.Get(ctx, client.ObjectKeyFromObject(al), cur)
		if apierrors.IsNotFound(err) {
			return
		}
		g.Expect(err).NotTo(HaveOccurred())
		if len(cur.Status.SignedHeads) > 0 {
			cur.Status.SignedHeads = nil
			g.Expect(k8sClient.Status().Update(ctx, cur)).To(Succeed())
		}
		g.Expect(client.IgnoreNotFound(k8sClient.Delete(ctx, cur))).To(Succeed())
	}).Should(Succeed())
}

func safetyProfile(name string, spec safetyv1alpha1.SafetyProfileSpec) *safetyv1alpha1.SafetyProfile {
	return &safetyv1alpha1.SafetyProfile{ObjectMeta: metav1.ObjectMeta{Name: name}, Spec: spec}
}

func automationProfile(name string, spec safetyv1alpha1.AutomationProfileSpec) *safetyv1alpha1.AutomationProfile {
	return &safetyv1alpha1.AutomationProfile{ObjectMeta: metav1.ObjectMeta{Name: name}, Spec: spec}
}

// plan builds an AgentPlan for ServiceAccount "agent" (unless spec names another) that trusts its
// agent's cost reports (unless spec names another reporter): these specs are about counting what
// is reported, not about who may report it (the webhook suite covers that).
func plan(ns, name string, spec safetyv1alpha1.AgentPlanSpec) *safetyv1alpha1.AgentPlan {
	if spec.ServiceAccountName == "" {
		spec.ServiceAccountName = "agent"
	}
	if spec.CostReporter == nil {
		spec.CostReporter = &safetyv1alpha1.CostReporter{Kind: safetyv1alpha1.CostReporterServiceAccount, Name: spec.ServiceAccountName}
	}
	return &safetyv1alpha1.AgentPlan{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}, Spec: spec}
}

// ownPlan is a plan for a ServiceAccount named after it: a ServiceAccount may have one active
// plan without a pod in a namespace (PlanConflict), and these tests lock several side by side.
func ownPlan(ns, name string, spec safetyv1alpha1.AgentPlanSpec) *safetyv1alpha1.AgentPlan {
	spec.ServiceAccountName = "agent-" + name
	return plan(ns, name, spec)
}

func spRef(name string) *safetyv1alpha1.ProfileRef {
	return &safetyv1alpha1.ProfileRef{Kind: safetyv1alpha1.ProfileKindSafetyProfile, Name: name}
}

func apRef(name string) *safetyv1alpha1.ProfileRef {
	return &safetyv1alpha1.ProfileRef{Kind: safetyv1alpha1.ProfileKindAutomationProfile, Name: name}
}

// lockedSnapshot waits for the plan's snapshot and returns it.
func lockedSnapshot(p *safetyv1alpha1.AgentPlan) *safetyv1alpha1.PlanSnapshot {
	GinkgoHelper()
	got := &safetyv1alpha1.AgentPlan{}
	Eventually(func(g Gomega) {
		g.Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(p), got)).To(Succeed())
		g.Expect(got.Status.Snapshot).NotTo(BeNil())
		g.Expect(meta.IsStatusConditionTrue(got.Status.Conditions, safetyv1alpha1.AgentPlanLockedCondition)).To(BeTrue())
	}).Should(Succeed())
	return got.Status.Snapshot
}

func money(s string) *resource.Quantity { return new(resource.MustParse(s)) }

// update applies mutate to the latest version of obj until the API server takes it. A write
// that fails for a passing cause (a conflict with a controller's status write, or the webhook
// slowed by a loaded machine) is tried again: five quick retries on conflicts alone once failed a
// CI run, with a cause its log did not keep. A write that keeps failing fails the spec with its
// last error.
func update[T client.Object](obj T, mutate func(T)) {
	GinkgoHelper()
	Eventually(func() error {
		if err := k8sClient.Get(ctx, client.ObjectKeyFromObject(obj), obj); err != nil {
			return err
		}
		mutate(obj)
		return k8sClient.Update(ctx, obj)
	}).Should(Succeed())
}

// registerReadFile registers the read-only tool "read-file" in the cluster-wide registry unless a
// test already did.
func registerReadFile() {
	GinkgoHelper()
	t := &safetyv1alpha1.AgentTool{ObjectMeta: metav1.ObjectMeta{Name: "read-file"},
		Spec: safetyv1alpha1.AgentToolSpec{ActionClass: safetyv1alpha1.ActionClassRead}}
	if err := k8sClient.Create(ctx, t); err != nil && !apierrors.IsAlreadyExists(err) {
		Expect(err).NotTo(HaveOccurred())
	}
}
