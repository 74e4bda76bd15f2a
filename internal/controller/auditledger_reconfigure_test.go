package controller_test

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/events"
	clocktesting "k8s.io/utils/clock/testing"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/audit"
	"github.com/toolgate/toolgate/internal/controller"
	"github.com/toolgate/toolgate/internal/ledger"
)

var _ = Describe("AuditLedger settings on the running journal", func() {
	var (
		clk      *clocktesting.FakeClock
		dir      string
		j        *ledger.Journal
		log      *audit.Log
		recorder *events.FakeRecorder
		r        *controller.AuditLedgerReconciler
		req      ctrl.Request
	)

	BeforeEach(func() {
		clk = clocktesting.NewFakeClock(time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC))
		dir = GinkgoT().TempDir()
		var err error
		// Opened with the defaults, as the manager does when it starts before the AuditLedger exists.
		j, err = ledger.Open(audit.Config(nil, dir, "test", clk))
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(j.Close)
		log = &audit.Log{Journal: j}
		recorder = events.NewFakeRecorder(16)
		al := &safetyv1alpha1.AuditLedger{ObjectMeta: metav1.ObjectMeta{Name: audit.LedgerName}}
		create(al) // the API server applies the defaults, which are the journal's
		r = &controller.AuditLedgerReconciler{Client: k8sClient, Clock: clk, Journal: j, Dir: dir, Recorder: recorder}
		req = ctrl.Request{NamespacedName: client.ObjectKeyFromObject(al)}
	})

	reconcile := func() *safetyv1alpha1.AuditLedger {
		GinkgoHelper()
		_, err := r.Reconcile(ctx, req)
		Expect(err).NotTo(HaveOccurred())
		al := &safetyv1alpha1.AuditLedger{}
		Expect(k8sClient.Get(ctx, req.NamespacedName, al)).To(Succeed())
		return al
	}
	edit := func(change func(*safetyv1alpha1.AuditLedgerSpec)) {
		GinkgoHelper()
		update(&safetyv1alpha1.AuditLedger{ObjectMeta: metav1.ObjectMeta{Name: req.Name}},
			func(al *safetyv1alpha1.AuditLedger) { change(&al.Spec) })
	}
	record := func(calls ...string) {
		GinkgoHelper()
		for _, c := range calls {
			Expect(log.RecordDecision(ctx, audit.Decision{Decision: "allow", Call: c, Plan: "p", Namespace: "ns",
				Requester: "system:serviceaccount:ns:coder", Message: strings.Repeat("m", 300)})).To(Succeed())
		}
	}
	noEvent := func() {
		GinkgoHelper()
		Consistently(recorder.Events).WithTimeout(100 * time.Millisecond).ShouldNot(Receive())
	}

	It("applies an edited spec without a restart: a smaller maxSegmentBytes seals on the next maintenance, new redaction keys hide later records only", func() {
		record("a", "b", "c", "d", "e", "f", "g", "h", "i", "j") // about 6 KB in the live segment
		al := reconcile()
		Expect(meta.IsStatusConditionTrue(al.Status.Conditions, safetyv1alpha1.ReadyCondition)).To(BeTrue())
		Expect(al.Status.LastRotationTime).To(BeNil(), "64 MiB segments: nothing to seal")
		noEvent()

		edit(func(s *safetyv1alpha1.AuditLedgerSpec) {
			s.Rotation.MaxSegmentBytes = 4096
			s.Redaction.ExtraKeys = []string{"requester"}
		})
		al = reconcile()
		Expect(meta.IsStatusConditionTrue(al.Status.Conditions, safetyv1alpha1.ReadyCondition)).To(BeTrue())
		Expect(al.Status.LastRotationTime).NotTo(BeNil(), "the 6 KB segment is over the new 4 KiB limit")
		Expect(al.Status.LastRotationTime.Time).To(BeTemporally("==", clk.Now()))
		sealed, err := filepath.Glob(filepath.Join(dir, "test", "*.jsonl.gz"))
		Expect(err).NotTo(HaveOccurred())
		Expect(sealed).To(HaveLen(1))
		Expect(recorder.Events).To(Receive(Equal(
			"Normal Reconfigured Applied spec.rotation.maxSegmentBytes, spec.redaction.extraKeys to the running journal of writer test")))
		Expect(j.Settings().MaxSegmentBytes).To(Equal(int64(4096)))

		By("writing later records with the new settings, the earlier ones unchanged")
		record("k")
		requesters := map[string]any{}
		lines, err := ledger.Tail(dir, 100)
		Expect(err).NotTo(HaveOccurred())
		for _, l := range lines {
			var rec struct {
				Kind   string         `json:"kind"`
				Fields map[string]any `json:"fields"`
			}
			Expect(json.Unmarshal(l, &rec)).To(Succeed())
			if rec.Kind == audit.KindDecision {
				requesters[rec.Fields["call"].(string)] = rec.Fields["requester"]
			}
		}
		Expect(requesters).To(HaveKeyWithValue("a", "system:serviceaccount:ns:coder"))
		Expect(requesters).To(HaveKeyWithValue("k", ledger.Redacted))

		By("coming back to the same spec, which changes nothing")
		reconcile()
		noEvent()

		report, err := ledger.Verify(dir)
		Expect(err).NotTo(HaveOccurred())
		Expect(report.OK()).To(BeTrue(), report.Summary())
	})

	It("reports a spec the journal refuses, keeps the previous settings, and applies the fixed spec", func() {
		edit(func(s *safetyv1alpha1.AuditLedgerSpec) { s.Rotation.MaxSegmentBytes = 8192 })
		reconcile()
		Expect(recorder.Events).To(Receive(ContainSubstring("Reconfigured")))

		edit(func(s *safetyv1alpha1.AuditLedgerSpec) {
			s.Rotation.MaxSegmentBytes = 4096
			s.Redaction.ExtraKeys = []string{"session", " "} // the API accepts it; the journal does not
		})
		al := reconcile()
		ready := meta.FindStatusCondition(al.Status.Conditions, safetyv1alpha1.ReadyCondition)
		Expect(ready).NotTo(BeNil())
		Expect(ready.Status).To(Equal(metav1.ConditionFalse))
		Expect(ready.Reason).To(Equal("ConfigRejected"))
		Expect(ready.ObservedGeneration).To(Equal(al.Generation))
		Expect(ready.Message).To(HavePrefix(`spec.redaction.extraKeys[1] is blank (" ")`))
		Expect(ready.Message).To(ContainSubstring("the journal keeps its previous settings"))
		Expect(recorder.Events).To(Receive(HavePrefix(`Warning ConfigRejected The ledger refuses spec.redaction.extraKeys[1] is blank`)))
		Expect(j.Settings().MaxSegmentBytes).To(Equal(int64(8192)), "nothing of a refused spec is applied")
		Expect(j.Settings().RedactKeys).To(BeEmpty())
		record("still-recorded")

		By("not repeating the warning for the same generation")
		reconcile()
		noEvent()

		By("applying the spec once it is fixed")
		edit(func(s *safetyv1alpha1.AuditLedgerSpec) { s.Redaction.ExtraKeys = []string{"session"} })
		al = reconcile()
		Expect(meta.IsStatusConditionTrue(al.Status.Conditions, safetyv1alpha1.ReadyCondition)).To(BeTrue())
		Expect(recorder.Events).To(Receive(Equal(
			"Normal Reconfigured Applied spec.rotation.maxSegmentBytes, spec.redaction.extraKeys to the running journal of writer test")))
		Expect(j.Settings().MaxSegmentBytes).To(Equal(int64(4096)))

		By("going back to the defaults when the AuditLedger is deleted")
		Expect(k8sClient.Delete(ctx, al)).To(Succeed())
		_, err := r.Reconcile(ctx, req)
		Expect(err).NotTo(HaveOccurred())
		Expect(j.Settings().MaxSegmentBytes).To(Equal(int64(ledger.DefaultMaxSegmentBytes)))
		Expect(j.Settings().RedactKeys).To(BeEmpty())
	})

	It("says while spec.redaction.maxStringLength cuts arguments a call can carry, naming the field and the value to set", func() {
		whole := func() *metav1.Condition {
			GinkgoHelper()
			c := meta.FindStatusCondition(reconcile().Status.Conditions, safetyv1alpha1.AuditLedgerArgumentsWholeCondition)
			Expect(c).NotTo(BeNil())
			return c
		}
		Expect(whole().Status).To(Equal(metav1.ConditionTrue), "the default records every argument whole")

		By("a ledger keeping the old default, 1024, as one made before it was raised does")
		edit(func(s *safetyv1alpha1.AuditLedgerSpec) { s.Redaction.MaxStringLength = 1024 })
		c := whole()
		Expect(c.Status).To(Equal(metav1.ConditionFalse))
		Expect(c.Reason).To(Equal(safetyv1alpha1.AuditLedgerArgumentsCutReason))
		Expect(c.Message).To(HavePrefix("spec.redaction.maxStringLength is 1024, below the longest argument a call can carry (32768 bytes)"))
		Expect(c.Message).To(HaveSuffix("set it to 32768"))
		Expect(j.Settings().MaxStringLength).To(Equal(1024), "the setting still applies: the condition only reports it")

		By("one byte short is still short; the longest argument and above are whole")
		edit(func(s *safetyv1alpha1.AuditLedgerSpec) {
			s.Redaction.MaxStringLength = ledger.DefaultMaxStringLength - 1
		})
		Expect(whole().Status).To(Equal(metav1.ConditionFalse))
		edit(func(s *safetyv1alpha1.AuditLedgerSpec) { s.Redaction.MaxStringLength = 65536 })
		c = whole()
		Expect(c.Status).To(Equal(metav1.ConditionTrue))
		Expect(c.Reason).To(Equal(safetyv1alpha1.AuditLedgerArgumentsWholeReason))
	})
})
