package v1alpha1_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/rand"
	"k8s.io/client-go/util/retry"
	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/audit"
	"github.com/toolgate/toolgate/internal/ledger"
)

// configRecords are the suite ledger's config records of the object kind/name (namespace ns),
// oldest first.
func configRecords(kind, ns, name string) []map[string]any {
	GinkgoHelper()
	var out []map[string]any
	for _, f := range recordsOf(ledgerDir, audit.KindConfig, ns) {
		if f["kind"] == kind && f["name"] == name {
			out = append(out, f)
		}
	}
	return out
}

// configObject is one configuration kind as a test drives it: a fresh object, an edit of its
// spec, and whether the record carries the spec itself.
type configObject struct {
	kind     string
	make     func(ns, name string) client.Object
	edit     func(client.Object)
	withSpec bool
}

var _ = Describe("configuration history", func() {
	DescribeTable("every admitted create, update and delete is a config record with the requester, generation and spec digest",
		func(k configObject) {
			n := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{GenerateName: "config-"}}
			Expect(k8sClient.Create(ctx, n)).To(Succeed())
			name := "cfg-" + rand.String(6)
			obj := k.make(n.Name, name)
			name = obj.GetName()         // a ProjectPolicy and the AuditLedger have fixed names
			if k.kind == "AuditLedger" { // the cluster's one AuditLedger: other specs may have left it
				_ = k8sClient.Delete(ctx, obj.DeepCopyObject().(client.Object))
				Eventually(func() bool {
					return apierrors.IsNotFound(k8sClient.Get(ctx, client.ObjectKeyFromObject(obj), obj.DeepCopyObject().(client.Object)))
				}).Should(BeTrue())
			}
			ns := obj.GetNamespace()
			before := len(configRecords(k.kind, ns, name))

			By("a dry run is validated, not recorded")
			Expect(k8sClient.Create(ctx, obj.DeepCopyObject().(client.Object), client.DryRunAll)).To(Succeed())
			Expect(configRecords(k.kind, ns, name)).To(HaveLen(before))

			By("create")
			Expect(k8sClient.Create(ctx, obj)).To(Succeed())
			recs := configRecords(k.kind, ns, name)
			Expect(recs).To(HaveLen(before + 1))
			created := recs[before]
			Expect(created).To(And(HaveKeyWithValue("operation", "create"), HaveKeyWithValue("uid", string(obj.GetUID())),
				HaveKeyWithValue("generation", float64(1)), HaveKeyWithValue("requester", "admin"),
				HaveKeyWithValue("specDigest", HavePrefix("sha256:"))))
			if k.withSpec {
				Expect(created).To(HaveKeyWithValue("spec", Not(BeEmpty())))
			} else {
				Expect(created).NotTo(HaveKey("spec"))
			}

			By("an update of only a label is no configuration change")
			Expect(retry.RetryOnConflict(retry.DefaultRetry, func() error {
				Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(obj), obj)).To(Succeed())
				obj.SetLabels(map[string]string{"team": "a"})
				return k8sClient.Update(ctx, obj)
			})).To(Succeed())
			Expect(configRecords(k.kind, ns, name)).To(HaveLen(before + 1))

			By("update")
			Expect(retry.RetryOnConflict(retry.DefaultRetry, func() error {
				Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(obj), obj)).To(Succeed())
				k.edit(obj)
				return k8sClient.Update(ctx, obj)
			})).To(Succeed())
			recs = configRecords(k.kind, ns, name)
			Expect(recs).To(HaveLen(before + 2))
			updated := recs[before+1]
			Expect(updated).To(And(HaveKeyWithValue("operation", "update"), HaveKeyWithValue("generation", float64(obj.GetGeneration())),
				HaveKeyWithValue("specDigest", Not(Equal(created["specDigest"])))))

			By("delete, dry run first")
			Expect(k8sClient.Delete(ctx, obj, client.DryRunAll)).To(Succeed())
			Expect(configRecords(k.kind, ns, name)).To(HaveLen(before + 2))
			Expect(k8sClient.Delete(ctx, obj)).To(Succeed())
			recs = configRecords(k.kind, ns, name)
			// The API server validates a delete again when it retries it (an object with finalizers
			// updated meanwhile): repeats carry the same uid.
			Expect(len(recs)).To(BeNumerically(">=", before+3))
			Expect(recs[before+2:]).To(HaveEach(And(HaveKeyWithValue("operation", "delete"), HaveKeyWithValue("uid", string(obj.GetUID())),
				HaveKeyWithValue("specDigest", updated["specDigest"]))))
		},
		Entry("SafetyProfile", configObject{kind: "SafetyProfile", withSpec: true,
			make: func(_, name string) client.Object {
				return &safetyv1alpha1.SafetyProfile{ObjectMeta: metav1.ObjectMeta{Name: name}, Spec: safetyv1alpha1.SafetyProfileSpec{Description: "initial"}}
			},
			edit: func(o client.Object) { o.(*safetyv1alpha1.SafetyProfile).Spec.ReadOnly = new(true) }}),
		Entry("AutomationProfile", configObject{kind: "AutomationProfile", withSpec: true,
			make: func(_, name string) client.Object {
				return &safetyv1alpha1.AutomationProfile{ObjectMeta: metav1.ObjectMeta{Name: name}, Spec: safetyv1alpha1.AutomationProfileSpec{Description: "initial"}}
			},
			edit: func(o client.Object) {
				o.(*safetyv1alpha1.AutomationProfile).Spec.Level = safetyv1alpha1.AutonomyLevelYolo
			}}),
		Entry("ProjectPolicy", configObject{kind: "ProjectPolicy", withSpec: true,
			make: func(ns, _ string) client.Object {
				return &safetyv1alpha1.ProjectPolicy{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "project"},
					Spec: safetyv1alpha1.ProjectPolicySpec{PathPolicy: &safetyv1alpha1.PathPolicy{ZeroAccess: []string{"initial"}}}}
			},
			edit: func(o client.Object) {
				o.(*safetyv1alpha1.ProjectPolicy).Spec.PathPolicy = &safetyv1alpha1.PathPolicy{ZeroAccess: []string{"secrets/"}}
			}}),
		Entry("AgentTool", configObject{kind: "AgentTool",
			make: func(_, name string) client.Object {
				return &safetyv1alpha1.AgentTool{ObjectMeta: metav1.ObjectMeta{Name: name}, Spec: safetyv1alpha1.AgentToolSpec{Description: "initial", ActionClass: safetyv1alpha1.ActionClassRead}}
			},
			edit: func(o client.Object) { o.(*safetyv1alpha1.AgentTool).Spec.Writes = true }}),
		Entry("AuditLedger", configObject{kind: "AuditLedger",
			make: func(_, _ string) client.Object {
				return &safetyv1alpha1.AuditLedger{ObjectMeta: metav1.ObjectMeta{Name: audit.LedgerName}}
			},
			edit: func(o client.Object) { o.(*safetyv1alpha1.AuditLedger).Spec.FinishedCallTTLSeconds = new(int64(120)) }}),
	)

	It("records an AgentPlan's creation, its re-lock request, the controller's lock and re-lock with the snapshot, and its deletion", func() {
		n := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{GenerateName: "config-plan-"}}
		Expect(k8sClient.Create(ctx, n)).To(Succeed())
		p := &safetyv1alpha1.AgentPlan{ObjectMeta: metav1.ObjectMeta{Namespace: n.Name, Name: "p"},
			Spec: safetyv1alpha1.AgentPlanSpec{ServiceAccountName: "coder",
				ProfileRef: &safetyv1alpha1.ProfileRef{Kind: safetyv1alpha1.ProfileKindSafetyProfile, Name: "sandboxed"}}}
		Expect(k8sClient.Create(ctx, p.DeepCopy(), client.DryRunAll)).To(Succeed())
		Expect(k8sClient.Create(ctx, p)).To(Succeed())
		locked := func(epoch int32) func(g Gomega) {
			return func(g Gomega) {
				cur := &safetyv1alpha1.AgentPlan{}
				g.Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(p), cur)).To(Succeed())
				g.Expect(cur.Status.Snapshot).NotTo(BeNil())
				g.Expect(cur.Status.Snapshot.Epoch).To(Equal(epoch))
			}
		}
		Eventually(locked(1)).Should(Succeed())
		Eventually(func() []map[string]any { return configRecords("AgentPlan", n.Name, "p") }).Should(HaveLen(2))

		By("asking for a re-lock: the request is a config update, the re-lock the controller's")
		Expect(retry.RetryOnConflict(retry.DefaultRetry, func() error {
			Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(p), p)).To(Succeed())
			p.Annotations = map[string]string{safetyv1alpha1.RelockAnnotation: "r1"}
			return k8sClient.Update(ctx, p)
		})).To(Succeed())
		Eventually(locked(2)).Should(Succeed())
		Eventually(func() []map[string]any { return configRecords("AgentPlan", n.Name, "p") }).Should(HaveLen(4))
		Expect(k8sClient.Delete(ctx, p)).To(Succeed())
		Eventually(func() []map[string]any { return configRecords("AgentPlan", n.Name, "p") }).Should(HaveLen(5))

		recs := configRecords("AgentPlan", n.Name, "p")
		Expect(recs[0]).To(And(HaveKeyWithValue("operation", "create"), HaveKeyWithValue("requester", "admin"), Not(HaveKey("spec"))))
		Expect(recs[1]).To(And(HaveKeyWithValue("operation", "lock"), HaveKeyWithValue("requester", audit.PlanController),
			HaveKeyWithValue("snapshotHash", HavePrefix("sha256:")),
			HaveKeyWithValue("snapshot", And(HaveKeyWithValue("epoch", float64(1)), HaveKeyWithValue("safety", Not(BeEmpty()))))))
		Expect(recs[2]).To(And(HaveKeyWithValue("operation", "update"),
			HaveKeyWithValue("annotations", HaveKeyWithValue(safetyv1alpha1.RelockAnnotation, "r1"))))
		Expect(recs[3]).To(And(HaveKeyWithValue("operation", "relock"), HaveKeyWithValue("snapshot", HaveKeyWithValue("epoch", float64(2)))))
		Expect(recs[4]).To(And(HaveKeyWithValue("operation", "delete"), HaveKeyWithValue("uid", string(p.UID))))
	})

	It("refuses a change it cannot record, under Fail, but never a change of the AuditLedger, which is how the ledger is repaired", func() {
		closed, err := ledger.Open(audit.Config(nil, GinkgoT().TempDir(), "closed", nil))
		Expect(err).NotTo(HaveOccurred())
		Expect(closed.Close()).To(Succeed())
		al := &safetyv1alpha1.AuditLedger{ObjectMeta: metav1.ObjectMeta{Name: audit.LedgerName}}
		_ = k8sClient.Delete(ctx, al.DeepCopy())
		Eventually(func() bool {
			return apierrors.IsNotFound(k8sClient.Get(ctx, client.ObjectKeyFromObject(al), &safetyv1alpha1.AuditLedger{}))
		}).Should(BeTrue())
		Eventually(func() bool { // the webhook reads the failure policy through the manager's cache
			return apierrors.IsNotFound(managerClient.Get(ctx, client.ObjectKeyFromObject(al), &safetyv1alpha1.AuditLedger{}))
		}).Should(BeTrue())
		prev := decisions.use(&audit.Log{Journal: closed})
		DeferCleanup(func() { decisions.use(prev) })

		sp := &safetyv1alpha1.SafetyProfile{ObjectMeta: metav1.ObjectMeta{Name: "cfg-unrecorded-" + rand.String(6)}}
		Expect(k8sClient.Create(ctx, sp)).To(MatchError(ContainSubstring("[LedgerUnavailable]")))
		Expect(k8sClient.Create(ctx, al)).To(Succeed(), "the AuditLedger is admitted, its record in the loss account")
		Expect(k8sClient.Delete(ctx, al)).To(Succeed())
	})
})
