package controller_test

import (
	"context"
	"crypto/ed25519"
	"fmt"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	clocktesting "k8s.io/utils/clock/testing"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/audit"
	"github.com/toolgate/toolgate/internal/controller"
	"github.com/toolgate/toolgate/internal/ledger"
)

var _ = Describe("The ledger signing key", func() {
	It("is generated once into its Secret, kept on later starts, and a malformed one is refused, not replaced", func() {
		ns := newNamespace()
		key := client.ObjectKey{Namespace: ns, Name: audit.SigningSecretName}
		first, err := audit.LoadSigningKey(ctx, k8sClient, key)
		Expect(err).NotTo(HaveOccurred())
		again, err := audit.LoadSigningKey(ctx, k8sClient, key)
		Expect(err).NotTo(HaveOccurred())
		Expect(again.Equal(first)).To(BeTrue(), "a restart signs with the same key")
		s := &corev1.Secret{}
		Expect(k8sClient.Get(ctx, key, s)).To(Succeed())
		pub, err := ledger.ParsePublicKey(s.Data[audit.PublicKeyData])
		Expect(err).NotTo(HaveOccurred())
		Expect(pub.Equal(first.Public())).To(BeTrue(), "the Secret holds the public half for auditors")

		shipped := client.ObjectKey{Namespace: ns, Name: "shipped-empty"}
		create(&corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: shipped.Name}})
		filled, err := audit.LoadSigningKey(ctx, k8sClient, shipped)
		Expect(err).NotTo(HaveOccurred())
		Expect(filled.Equal(first)).To(BeFalse())

		bad := client.ObjectKey{Namespace: ns, Name: "malformed"}
		create(&corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: bad.Name}, Data: map[string][]byte{audit.SigningKeyData: []byte("junk")}})
		_, err = audit.LoadSigningKey(ctx, k8sClient, bad)
		Expect(err).To(MatchError(ContainSubstring(`data["ed25519.key"]`)))
		Expect(k8sClient.Get(ctx, bad, s)).To(Succeed())
		Expect(string(s.Data[audit.SigningKeyData])).To(Equal("junk"), "a key that does not parse is never overwritten")
	})
})

var _ = Describe("Published signed heads", func() {
	It("each writer publishes its own head; the controller's status writes keep them; verify proves the chains with them", func() {
		clk := clocktesting.NewFakeClock(time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC))
		dir := GinkgoT().TempDir()
		key, err := ledger.GenerateKey()
		Expect(err).NotTo(HaveOccurred())
		journals := map[string]*ledger.Journal{}
		for _, w := range []string{"webhook-a", "webhook-b"} {
			cfg := audit.Config(nil, dir, w, clk)
			cfg.SigningKey = key
			j, err := ledger.Open(cfg)
			Expect(err).NotTo(HaveOccurred())
			DeferCleanup(j.Close)
			journals[w] = j
			for i := range 3 {
				Expect((&audit.Log{Journal: j}).RecordDecision(ctx, audit.Decision{Decision: "deny", Call: fmt.Sprintf("c-%d", i), Namespace: "ns"})).To(Succeed())
			}
		}
		al := &safetyv1alpha1.AuditLedger{ObjectMeta: metav1.ObjectMeta{Name: audit.LedgerName}}
		create(al)
		pubs := map[string]*audit.HeadPublisher{}
		for w, j := range journals {
			pubs[w] = &audit.HeadPublisher{Client: k8sClient, Journal: j}
			Expect(pubs[w].Publish(ctx)).To(Succeed())
		}
		r := &controller.AuditLedgerReconciler{Client: k8sClient, Clock: clk, Journal: journals["webhook-a"], Dir: dir}
		_, err = r.Reconcile(ctx, ctrl.Request{NamespacedName: client.ObjectKeyFromObject(al)})
		Expect(err).NotTo(HaveOccurred())

		Expect((&audit.Log{Journal: journals["webhook-a"]}).RecordDecision(ctx, audit.Decision{Decision: "deny", Call: "c-9", Namespace: "ns"})).To(Succeed())
		Expect(pubs["webhook-a"].Publish(ctx)).To(Succeed())

		Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(al), al)).To(Succeed())
		Expect(al.Status.SignedHeads).To(HaveLen(2))
		Expect(al.Status.SigningKey).NotTo(BeNil())
		Expect(al.Status.SigningKey.KeyID).To(Equal(ledger.KeyID(key.Public().(ed25519.PublicKey))))
		Expect(meta.FindStatusCondition(al.Status.Conditions, safetyv1alpha1.ReadyCondition)).NotTo(BeNil(), "the controller's status write landed too")
		heads, err := audit.PublishedHeads(al.Status)
		Expect(err).NotTo(HaveOccurred())
		for _, h := range heads {
			st := journals[h.Writer].Stats()
			Expect(h.Seq).To(Equal(st.HeadSeq), "writer %s published its newest head", h.Writer)
		}
		pub, err := ledger.ParsePublicKey([]byte(al.Status.SigningKey.PublicKey))
		Expect(err).NotTo(HaveOccurred())
		rep, err := ledger.VerifyWith(dir, ledger.VerifyOptions{PublicKey: pub, Heads: heads})
		Expect(err).NotTo(HaveOccurred(), rep.Summary())
		Expect(rep.Limits).To(BeEmpty())
	})

	It("reports the volume's headroom and a VolumeHeadroom condition against the spec's threshold", func() {
		clk := clocktesting.NewFakeClock(time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC))
		dir := GinkgoT().TempDir()
		j, err := ledger.Open(audit.Config(nil, dir, "test", clk))
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(j.Close)
		al := &safetyv1alpha1.AuditLedger{ObjectMeta: metav1.ObjectMeta{Name: audit.LedgerName},
			Spec: safetyv1alpha1.AuditLedgerSpec{FloodControl: safetyv1alpha1.LedgerFloodControl{MinFreePercent: 90}}}
		create(al)
		r := &controller.AuditLedgerReconciler{Client: k8sClient, Clock: clk, Journal: j, Dir: dir}
		_, err = r.Reconcile(context.Background(), ctrl.Request{NamespacedName: client.ObjectKeyFromObject(al)})
		Expect(err).NotTo(HaveOccurred())
		Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(al), al)).To(Succeed())
		vol := al.Status.Volume
		Expect(vol).NotTo(BeNil())
		Expect(vol.CapacityBytes).To(BeNumerically(">", vol.AvailableBytes))
		c := meta.FindStatusCondition(al.Status.Conditions, safetyv1alpha1.AuditLedgerVolumeHeadroomCondition)
		Expect(c).NotTo(BeNil())
		// The test cannot choose the disk's fill; it checks the condition against the numbers reported.
		want := metav1.ConditionTrue
		if vol.AvailablePercent < 90 {
			want = metav1.ConditionFalse
		}
		Expect(c.Status).To(Equal(want), c.Message)
	})
})
