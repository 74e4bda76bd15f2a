package controller_test

import (
	"path/filepath"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
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

var _ = Describe("AuditLedger maintenance", func() {
	It("seals the day's segment after midnight, reports the ledger in status, and comes back before the next midnight", func() {
		clk := clocktesting.NewFakeClock(time.Date(2026, 11, 30, 23, 58, 0, 0, time.UTC))
		dir := GinkgoT().TempDir()
		j, err := ledger.Open(audit.Config(nil, dir, "test", clk))
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(j.Close)
		log := &audit.Log{Journal: j}
		for _, call := range []string{"a", "b", "c"} {
			Expect(log.RecordDecision(ctx, audit.Decision{Decision: "allow", Call: call, Plan: "p", Namespace: "ns"})).To(Succeed())
		}

		al := &safetyv1alpha1.AuditLedger{ObjectMeta: metav1.ObjectMeta{Name: audit.LedgerName}}
		create(al)
		r := &controller.AuditLedgerReconciler{Client: k8sClient, Clock: clk, Journal: j, Dir: dir}
		req := ctrl.Request{NamespacedName: client.ObjectKeyFromObject(al)}

		res, err := r.Reconcile(ctx, req)
		Expect(err).NotTo(HaveOccurred())
		Expect(res.RequeueAfter).To(Equal(time.Minute))
		Expect(k8sClient.Get(ctx, req.NamespacedName, al)).To(Succeed())
		Expect(al.Status.Records).To(BeNumerically(">=", 3))
		Expect(al.Status.HeadHash).NotTo(BeEmpty())
		Expect(al.Status.LastRotationTime).To(BeNil(), "nothing is sealed before midnight")
		Expect(meta.IsStatusConditionTrue(al.Status.Conditions, safetyv1alpha1.ReadyCondition)).To(BeTrue())
		Expect(meta.FindStatusCondition(al.Status.Conditions, safetyv1alpha1.AuditLedgerVolumeNearlyFullCondition)).NotTo(BeNil())

		clk.SetTime(time.Date(2026, 11, 30, 23, 59, 30, 0, time.UTC))
		res, err = r.Reconcile(ctx, req)
		Expect(err).NotTo(HaveOccurred())
		Expect(res.RequeueAfter).To(Equal(31*time.Second), "the next run lands just after midnight")

		clk.SetTime(time.Date(2026, 12, 1, 0, 0, 1, 0, time.UTC))
		_, err = r.Reconcile(ctx, req)
		Expect(err).NotTo(HaveOccurred())
		Expect(k8sClient.Get(ctx, req.NamespacedName, al)).To(Succeed())
		Expect(al.Status.LastRotationTime).NotTo(BeNil(), "the 2026-11-30 segment is sealed after midnight")
		sealed, err := filepath.Glob(filepath.Join(dir, "*", "*2026-11-30*.gz"))
		Expect(err).NotTo(HaveOccurred())
		Expect(sealed).To(HaveLen(1), "the sealed day is compressed")

		Expect(log.RecordDecision(ctx, audit.Decision{Decision: "deny", Call: "d", Plan: "p", Namespace: "ns"})).To(Succeed())
		_, err = r.Reconcile(ctx, req)
		Expect(err).NotTo(HaveOccurred())
		Expect(k8sClient.Get(ctx, req.NamespacedName, al)).To(Succeed())
		Expect(al.Status.Segments).To(Equal(int32(2)), "the sealed 2026-11-30 segment and the live 2026-12-01 one")

		report, err := ledger.Verify(dir)
		Expect(err).NotTo(HaveOccurred())
		Expect(report.OK()).To(BeTrue(), report.Summary())
	})
})
