package controller_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	clocktesting "k8s.io/utils/clock/testing"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/audit"
	"github.com/toolgate/toolgate/internal/controller"
	"github.com/toolgate/toolgate/internal/ledger"
)

// Each pod of the manager's Deployment is a writer of its own (its pod name), and every rollout,
// eviction or reschedule replaces the pod: the old writer's chain stays on the volume and no
// process maintains it again, since a journal seals, compresses and applies retention to its own
// chain only. So spec.retention.maxAgeDays (90 by default) never deletes what a replaced pod
// wrote: its records stay on the volume for ever (arguments, paths, messages a retention policy
// promises to drop), and with weekly upgrades the volume fills with past pods' chains until
// every call is refused LedgerUnavailable. Retention must reach the chains of writers that are
// gone.
var _ = Describe("AuditLedger retention of replaced pods' chains", func() {
	It("deletes a replaced writer's segments older than maxAgeDays", func() {
		dir := GinkgoT().TempDir()
		start := time.Date(2026, 6, 1, 10, 0, 0, 0, time.UTC)
		clk := clocktesting.NewFakeClock(start)

		// The pod of last June's release: it wrote, sealed at midnight, and was replaced.
		old, err := ledger.Open(audit.Config(nil, dir, "toolgate-controller-manager-5d8f-old01", clk))
		Expect(err).NotTo(HaveOccurred())
		for day := range 3 { // June 1st and 2nd sealed at midnight, June 3rd live when the pod went
			clk.SetTime(start.Add(time.Duration(day) * 24 * time.Hour))
			_, err = old.Maintain(clk.Now())
			Expect(err).NotTo(HaveOccurred())
			for i := range 20 {
				Expect((&audit.Log{Journal: old}).RecordDecision(ctx, audit.Decision{Decision: "allow",
					Call: fmt.Sprintf("june-%d-%d", day, i), Plan: "p", Namespace: "ns"})).To(Succeed())
			}
		}
		Expect(old.Close()).To(Succeed())

		// Half a year later, the current pod maintains the ledger under a 30-day retention.
		clk.SetTime(start.Add(180 * 24 * time.Hour))
		cur, err := ledger.Open(audit.Config(nil, dir, "toolgate-controller-manager-7c9f-new02", clk))
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(cur.Close)
		Expect((&audit.Log{Journal: cur}).RecordDecision(ctx, audit.Decision{Decision: "allow", Call: "now", Plan: "p", Namespace: "ns"})).To(Succeed())
		al := &safetyv1alpha1.AuditLedger{ObjectMeta: metav1.ObjectMeta{Name: audit.LedgerName},
			Spec: safetyv1alpha1.AuditLedgerSpec{Retention: safetyv1alpha1.LedgerRetention{MaxAgeDays: new(int32(30))}}}
		create(al)
		r := &controller.AuditLedgerReconciler{Client: k8sClient, Clock: clk, Journal: cur, Dir: dir}
		_, err = r.Reconcile(ctx, ctrl.Request{NamespacedName: client.ObjectKeyFromObject(al)})
		Expect(err).NotTo(HaveOccurred())

		entries, err := os.ReadDir(filepath.Join(dir, "toolgate-controller-manager-5d8f-old01"))
		Expect(err).NotTo(HaveOccurred())
		var kept []string
		for _, e := range entries {
			// The sealed ones; the live segment of June 3rd holds the chain's head.
			if (strings.HasPrefix(e.Name(), "2026-06-01.") || strings.HasPrefix(e.Name(), "2026-06-02.")) &&
				(strings.HasSuffix(e.Name(), ".jsonl") || strings.HasSuffix(e.Name(), ".jsonl.gz")) {
				kept = append(kept, e.Name())
			}
		}
		Expect(kept).To(BeEmpty(), "a replaced pod's sealed segments from June are still on the volume half a year later, under a 30-day retention")
	})
})
