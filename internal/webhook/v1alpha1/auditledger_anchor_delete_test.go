package v1alpha1_test

import (
	"os"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/yaml"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/audit"
	"github.com/toolgate/toolgate/internal/testenv"
)

// The signed heads in AuditLedger.status are the ledger's anchor outside the volume: what lets
// verify catch records cut from the end, and what the CRD guards so that no one can move a
// writer's head back (seq only grows, a marked entry is frozen; removing an entry is a person's
// deliberate status write, docs/ledger.md). But anyone who may delete the AuditLedger — the
// shipped auditledger-editor role, meant for tuning retention and flood control, grants delete —
// removes every anchor at once, and the object is recreated empty (the webhook always admits a
// change of the AuditLedger), after which every writer publishes its current head as if nothing
// had been cut: a rolled-back or truncated volume then verifies against the new heads. While
// heads are published, deleting the AuditLedger must be refused (or the heads kept elsewhere).
var _ = Describe("the published heads as an anchor", func() {
	It("cannot be erased by an AuditLedger editor deleting the AuditLedger", func() {
		path, err := testenv.Path("config", "rbac", "auditledger_editor_role.yaml")
		Expect(err).NotTo(HaveOccurred())
		data, err := os.ReadFile(path)
		Expect(err).NotTo(HaveOccurred())
		role := &rbacv1.ClusterRole{}
		Expect(yaml.Unmarshal(data, role)).To(Succeed())
		role.Name, role.ResourceVersion = "anchor-test-auditledger-editor", ""
		Expect(client.IgnoreAlreadyExists(k8sClient.Create(ctx, role))).To(Succeed())
		const editor = "ledger-editor@example.com"
		binding := &rbacv1.ClusterRoleBinding{ObjectMeta: metav1.ObjectMeta{Name: "anchor-test-auditledger-editor"},
			RoleRef:  rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "ClusterRole", Name: role.Name},
			Subjects: []rbacv1.Subject{{APIGroup: rbacv1.GroupName, Kind: "User", Name: editor}}}
		Expect(client.IgnoreAlreadyExists(k8sClient.Create(ctx, binding))).To(Succeed())
		asEditor := rest.CopyConfig(cluster.Config)
		asEditor.Impersonate = rest.ImpersonationConfig{UserName: editor, Groups: []string{"system:authenticated"}}
		editorClient, err := client.New(asEditor, client.Options{Scheme: cluster.Scheme})
		Expect(err).NotTo(HaveOccurred())

		al := &safetyv1alpha1.AuditLedger{}
		err = k8sClient.Get(ctx, client.ObjectKey{Name: audit.LedgerName}, al)
		if apierrors.IsNotFound(err) {
			al = &safetyv1alpha1.AuditLedger{ObjectMeta: metav1.ObjectMeta{Name: audit.LedgerName}}
			Expect(k8sClient.Create(ctx, al)).To(Succeed())
		} else {
			Expect(err).NotTo(HaveOccurred())
		}
		spec := *al.Spec.DeepCopy()
		DeferCleanup(func() {
			cur := &safetyv1alpha1.AuditLedger{}
			err := k8sClient.Get(ctx, client.ObjectKey{Name: audit.LedgerName}, cur)
			if apierrors.IsNotFound(err) {
				Expect(client.IgnoreAlreadyExists(k8sClient.Create(ctx, &safetyv1alpha1.AuditLedger{
					ObjectMeta: metav1.ObjectMeta{Name: audit.LedgerName}, Spec: spec}))).To(Succeed())
				return
			}
			Expect(err).NotTo(HaveOccurred())
			cur.Status.SignedHeads = nil // the made-up head must not outlive this spec (an entry may be removed)
			Expect(k8sClient.Status().Update(ctx, cur)).To(Succeed())
		})
		al.Status.SignedHeads = []safetyv1alpha1.LedgerSignedHead{{Writer: "toolgate-controller-manager-7c9f-x2k4q", Seq: 4211,
			Hash: "5bc5939fd61c0a1a9a2b3cbd9b20d3179e16b5ffdca0e7545138e9a053da4350", Segment: "2026-11-30.00000007.jsonl",
			SignedAt: metav1.NewTime(time.Now().UTC().Truncate(time.Second)), KeyID: "d9d22edebcf71217",
			Signature: "kweBjYA3yY5o06HkAk1KyhxddvGGArSkCT2jYsf9j4trxXOawhTMycrBL27G30ye7k3+e+kXL1StakjZO/AfBg=="}}
		Expect(k8sClient.Status().Update(ctx, al)).To(Succeed())

		err = editorClient.Delete(ctx, &safetyv1alpha1.AuditLedger{ObjectMeta: metav1.ObjectMeta{Name: audit.LedgerName}})
		Expect(err).To(HaveOccurred(),
			"an AuditLedger editor deleted the AuditLedger and with it every published head, the ledger's only anchor outside the volume")
	})
})
