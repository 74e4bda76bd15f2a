package controller_test

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	clocktesting "k8s.io/utils/clock/testing"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	ac "github.com/toolgate/toolgate/api/v1alpha1/applyconfiguration/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/audit"
	"github.com/toolgate/toolgate/internal/controller"
	"github.com/toolgate/toolgate/internal/ledger"
)

// Each replaced pod of the manager's Deployment is a new writer with an entry of its own: the
// entries must not fill the list so that later writers can no longer publish.
var _ = Describe("Published heads of writers long gone", func() {
	It("leave room for every new writer: entries older than the retention are removed, newer ones kept", func() {
		now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
		clk := clocktesting.NewFakeClock(now)
		al := ledgerWith30DayRetention()
		publish := func(writer string, signedAt time.Time) error {
			return publishHead(writer, "2026-11-01.00000001.jsonl", signedAt)
		}
		By("more writers than the list used to hold, each publishing")
		for i := range 70 {
			Expect(publish(fmt.Sprintf("toolgate-controller-manager-7c9f-%05d", i), now.Add(-40*24*time.Hour))).To(Succeed())
		}
		Expect(publish("toolgate-controller-manager-7c9f-live", now.Add(-time.Hour))).To(Succeed())

		dir := GinkgoT().TempDir()
		reconcileHeads(al, dir, clk)
		Expect(al.Status.SignedHeads).To(HaveLen(1))
		Expect(al.Status.SignedHeads[0].Writer).To(Equal("toolgate-controller-manager-7c9f-live"))

		By("a removed writer that is alive after all publishes again")
		Expect(publish("toolgate-controller-manager-7c9f-00003", now)).To(Succeed())
		Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(al), al)).To(Succeed())
		Expect(al.Status.SignedHeads).To(HaveLen(2))
	})

	It("keep an old entry whose segment is still on the volume: it anchors the records there", func() {
		now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
		clk := clocktesting.NewFakeClock(now)
		al := ledgerWith30DayRetention()
		dir := GinkgoT().TempDir()
		const segment = "2026-10-01.00000001.jsonl"
		Expect(os.MkdirAll(filepath.Join(dir, "writer-on-volume"), 0o750)).To(Succeed())
		Expect(os.WriteFile(filepath.Join(dir, "writer-on-volume", segment), []byte("{}\n"), 0o640)).To(Succeed())
		for _, writer := range []string{"writer-on-volume", "writer-gone"} {
			Expect(publishHead(writer, segment, now.Add(-40*24*time.Hour))).To(Succeed())
		}
		reconcileHeads(al, dir, clk)
		Expect(al.Status.SignedHeads).To(HaveLen(1))
		Expect(al.Status.SignedHeads[0].Writer).To(Equal("writer-on-volume"))
	})
})

// ledgerWith30DayRetention creates the AuditLedger with a retention of 30 days.
func ledgerWith30DayRetention() *safetyv1alpha1.AuditLedger {
	GinkgoHelper()
	al := &safetyv1alpha1.AuditLedger{ObjectMeta: metav1.ObjectMeta{Name: audit.LedgerName},
		Spec: safetyv1alpha1.AuditLedgerSpec{Retention: safetyv1alpha1.LedgerRetention{MaxAgeDays: new(int32(30))}}}
	create(al)
	return al
}

// publishHead applies writer's signed head naming segment, as that writer's field manager does.
func publishHead(writer, segment string, signedAt time.Time) error {
	h := ledger.SignedHead{Writer: writer, Seq: 7, Hash: fmt.Sprintf("%064x", 7), Segment: segment,
		SignedAt: signedAt, KeyID: "0123456789abcdef", Signature: "c2lnbmF0dXJl"}
	obj := ac.AuditLedger(audit.LedgerName).WithStatus(ac.AuditLedgerStatus().WithSignedHeads(audit.SignedHeadApply(h)))
	return k8sClient.Status().Apply(ctx, obj, client.FieldOwner("toolgate-ledger-"+writer), client.ForceOwnership)
}

// reconcileHeads runs the AuditLedger reconciler once with a journal in dir, and reads al back.
func reconcileHeads(al *safetyv1alpha1.AuditLedger, dir string, clk *clocktesting.FakeClock) {
	GinkgoHelper()
	j, err := ledger.Open(audit.Config(nil, dir, "test", clk))
	Expect(err).NotTo(HaveOccurred())
	DeferCleanup(j.Close)
	r := &controller.AuditLedgerReconciler{Client: k8sClient, Clock: clk, Journal: j, Dir: dir}
	_, err = r.Reconcile(ctx, ctrl.Request{NamespacedName: client.ObjectKeyFromObject(al)})
	Expect(err).NotTo(HaveOccurred())
	Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(al), al)).To(Succeed())
}
