package v1alpha1_test

import (
	"os"
	"slices"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/yaml"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/audit"
	"github.com/toolgate/toolgate/internal/testenv"
	webhookv1alpha1 "github.com/toolgate/toolgate/internal/webhook/v1alpha1"
)

// Near misses of the anchor deletion guard: the webhook (not only RBAC) refuses whoever deletes
// an AuditLedger holding heads, with a typed reason naming the field; one holding none may be
// deleted; the editor role still edits the spec.
var _ = Describe("deleting the AuditLedger", func() {
	var al *safetyv1alpha1.AuditLedger
	BeforeEach(func() {
		al = clusterAuditLedger()
		DeferCleanup(func() {
			cur := &safetyv1alpha1.AuditLedger{}
			Expect(k8sClient.Get(ctx, client.ObjectKey{Name: audit.LedgerName}, cur)).To(Succeed())
			cur.Status.SignedHeads = nil
			Expect(k8sClient.Status().Update(ctx, cur)).To(Succeed())
		})
	})

	It("is refused, even to an administrator, while it holds published heads", func() {
		al.Status.SignedHeads = []safetyv1alpha1.LedgerSignedHead{{Writer: "webhook-0", Seq: 7,
			Hash: "5bc5939fd61c0a1a9a2b3cbd9b20d3179e16b5ffdca0e7545138e9a053da4350", Segment: "2026-11-30.00000001.jsonl",
			SignedAt: metav1.NewTime(time.Now().UTC().Truncate(time.Second)), KeyID: "d9d22edebcf71217",
			Signature: "kweBjYA3yY5o06HkAk1KyhxddvGGArSkCT2jYsf9j4trxXOawhTMycrBL27G30ye7k3+e+kXL1StakjZO/AfBg=="}}
		Expect(k8sClient.Status().Update(ctx, al)).To(Succeed())
		// Dry-run: the webhook decides, and nothing is deleted if it wrongly admits.
		err := k8sClient.Delete(ctx, &safetyv1alpha1.AuditLedger{ObjectMeta: metav1.ObjectMeta{Name: audit.LedgerName}},
			client.DryRunAll)
		mustRefusePlan(err, webhookv1alpha1.ReasonPublishedHeadsHeld, "status.signedHeads",
			"writer webhook-0 at seq 7", "uninstall the operator first")
		Expect(k8sClient.Get(ctx, client.ObjectKey{Name: audit.LedgerName}, &safetyv1alpha1.AuditLedger{})).To(Succeed())
	})

	It("is admitted while it holds no published head", func() {
		Expect(al.Status.SignedHeads).To(BeEmpty())
		Expect(k8sClient.Delete(ctx, &safetyv1alpha1.AuditLedger{ObjectMeta: metav1.ObjectMeta{Name: audit.LedgerName}},
			client.DryRunAll)).To(Succeed())
	})

	It("is not granted by the shipped editor role, which still edits the spec", func() {
		path, err := testenv.Path("config", "rbac", "auditledger_editor_role.yaml")
		Expect(err).NotTo(HaveOccurred())
		data, err := os.ReadFile(path)
		Expect(err).NotTo(HaveOccurred())
		role := &rbacv1.ClusterRole{}
		Expect(yaml.Unmarshal(data, role)).To(Succeed())
		var verbs []string
		for _, r := range role.Rules {
			if slices.Contains(r.Resources, "auditledgers") {
				verbs = append(verbs, r.Verbs...)
			}
		}
		Expect(verbs).To(ContainElements("get", "update", "patch"))
		Expect(verbs).NotTo(ContainElements("delete"))
		Expect(verbs).NotTo(ContainElements("deletecollection"))
		Expect(verbs).NotTo(ContainElements("*"))
	})
})
