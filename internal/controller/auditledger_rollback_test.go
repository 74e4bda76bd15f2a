package controller_test

import (
	"crypto/ed25519"
	"fmt"
	"os"
	"os/exec"
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
	ac "github.com/toolgate/toolgate/api/v1alpha1/applyconfiguration/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/audit"
	"github.com/toolgate/toolgate/internal/controller"
	"github.com/toolgate/toolgate/internal/ledger"
)

// The published head is the evidence a rolled-back volume cannot take with it, so nothing may
// move it back: not the writer restarted on the old copy (it checks its chain holds what it
// published before), and not any status write (the CRD's transition rule).
var _ = Describe("A published head after the ledger volume is rolled back", func() {
	It("is kept: the restarted writer refuses to publish over it, the API server refuses a lower seq, and verify shows the cut", func() {
		clk := clocktesting.NewFakeClock(time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC))
		dir := GinkgoT().TempDir()
		key, err := ledger.GenerateKey()
		Expect(err).NotTo(HaveOccurred())
		open := func() *ledger.Journal {
			GinkgoHelper()
			cfg := audit.Config(nil, dir, "toolgate-0", clk)
			cfg.SigningKey = key
			j, err := ledger.Open(cfg)
			Expect(err).NotTo(HaveOccurred())
			return j
		}
		record := func(j *ledger.Journal, n int, prefix string) {
			GinkgoHelper()
			for i := range n {
				Expect((&audit.Log{Journal: j}).RecordDecision(ctx, audit.Decision{Decision: "allow", Call: fmt.Sprintf("%s-%d", prefix, i), Namespace: "ns"})).To(Succeed())
			}
		}
		al := &safetyv1alpha1.AuditLedger{ObjectMeta: metav1.ObjectMeta{Name: audit.LedgerName}}
		create(al)

		j := open()
		record(j, 10, "early")
		Expect(j.Close()).To(Succeed())
		chain, snapshot := filepath.Join(dir, "toolgate-0"), filepath.Join(GinkgoT().TempDir(), "snapshot")
		Expect(exec.Command("cp", "-a", chain, snapshot).Run()).To(Succeed())
		j = open()
		record(j, 10, "later")
		Expect((&audit.HeadPublisher{Client: k8sClient, Journal: j}).Publish(ctx)).To(Succeed())
		Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(al), al)).To(Succeed())
		published := al.Status.SignedHeads[0]
		Expect(j.Close()).To(Succeed())
		original := filepath.Join(GinkgoT().TempDir(), "original")
		Expect(os.MkdirAll(original, 0o755)).To(Succeed())
		Expect(exec.Command("cp", "-a", chain, filepath.Join(original, "toolgate-0")).Run()).To(Succeed())

		By("the volume rolled back to the snapshot, and the same writer restarted on it")
		Expect(os.RemoveAll(chain)).To(Succeed())
		Expect(exec.Command("cp", "-a", snapshot, chain).Run()).To(Succeed())
		j = open()
		DeferCleanup(j.Close)
		record(j, 1, "after")
		err = (&audit.HeadPublisher{Client: k8sClient, Journal: j}).Publish(ctx)
		Expect(err).To(MatchError(ContainSubstring("no longer holds: the volume was rolled back or rewritten")))
		Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(al), al)).To(Succeed())
		Expect(al.Status.SignedHeads).To(HaveLen(1))
		marked := al.Status.SignedHeads[0]
		Expect(marked.NotOnChainSince).NotTo(BeNil(), "the refusal is kept in the entry")
		unmarked := marked.DeepCopy()
		unmarked.NotOnChainSince = nil
		Expect(*unmarked).To(Equal(published))

		By("the mark outlives the process: a writer whose chain holds the head again still refuses")
		// What retention deleting the segments that showed the head missing makes of a restart:
		// here the writer's copy from before the rollback, which does hold the head.
		cfg := audit.Config(nil, original, "toolgate-0", clk)
		cfg.SigningKey = key
		before, err := ledger.Open(cfg)
		Expect(err).NotTo(HaveOccurred())
		record(before, 1, "restarted")
		err = (&audit.HeadPublisher{Client: k8sClient, Journal: before}).Publish(ctx)
		Expect(err).To(MatchError(ContainSubstring("no longer holds")))
		Expect(before.Close()).To(Succeed())

		By("retention keeps the marked entry, and the AuditLedger shows it")
		later := clocktesting.NewFakeClock(clk.Now().Add(400 * 24 * time.Hour))
		r := &controller.AuditLedgerReconciler{Client: k8sClient, Clock: later, Journal: j, Dir: dir}
		_, err = r.Reconcile(ctx, ctrl.Request{NamespacedName: client.ObjectKeyFromObject(al)})
		Expect(err).NotTo(HaveOccurred())
		Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(al), al)).To(Succeed())
		Expect(al.Status.SignedHeads).To(ConsistOf(marked))
		cond := meta.FindStatusCondition(al.Status.Conditions, safetyv1alpha1.AuditLedgerHeadsOnChainCondition)
		Expect(cond).NotTo(BeNil())
		Expect(cond.Status).To(Equal(metav1.ConditionFalse))
		Expect(cond.Reason).To(Equal(safetyv1alpha1.AuditLedgerHeadNotOnChainReason))
		Expect(cond.Message).To(ContainSubstring("toolgate-0 (seq %d", published.Seq))

		By("no status write clears the mark, moves the marked head or edits any of its fields")
		for _, change := range []func(*ac.LedgerSignedHeadApplyConfiguration){
			func(e *ac.LedgerSignedHeadApplyConfiguration) { e.NotOnChainSince = nil },
			func(e *ac.LedgerSignedHeadApplyConfiguration) { e.WithSeq(published.Seq + 5) },
			func(e *ac.LedgerSignedHeadApplyConfiguration) { e.WithSignature("b3RoZXI=") },
			func(e *ac.LedgerSignedHeadApplyConfiguration) { e.WithKeyID("fedcba9876543210") },
			func(e *ac.LedgerSignedHeadApplyConfiguration) { e.WithSegment("2026-01-01.00000001.jsonl") },
			func(e *ac.LedgerSignedHeadApplyConfiguration) {
				e.WithSignedAt(metav1.NewTime(marked.SignedAt.Add(time.Hour)))
			},
			func(e *ac.LedgerSignedHeadApplyConfiguration) {
				e.WithNotOnChainSince(metav1.NewTime(marked.NotOnChainSince.Add(time.Hour)))
			},
		} {
			e := ac.LedgerSignedHead().WithWriter(marked.Writer).WithSeq(marked.Seq).WithHash(marked.Hash).
				WithSegment(marked.Segment).WithSignedAt(marked.SignedAt).WithKeyID(marked.KeyID).
				WithSignature(marked.Signature).WithNotOnChainSince(*marked.NotOnChainSince)
			change(e)
			obj := ac.AuditLedger(audit.LedgerName).WithStatus(ac.AuditLedgerStatus().WithSignedHeads(e))
			err = k8sClient.Status().Apply(ctx, obj, client.FieldOwner("toolgate-ledger-toolgate-0"), client.ForceOwnership)
			Expect(err).To(MatchError(ContainSubstring("a head marked notOnChainSince stays as it is")))
		}

		By("the API server refuses a lower seq from any writer of the status")
		h, ok, err := j.SignHead()
		Expect(err).NotTo(HaveOccurred())
		Expect(ok).To(BeTrue())
		Expect(h.Seq).To(BeNumerically("<", published.Seq))
		obj := ac.AuditLedger(audit.LedgerName).WithStatus(ac.AuditLedgerStatus().WithSignedHeads(audit.SignedHeadApply(h)))
		err = k8sClient.Status().Apply(ctx, obj, client.FieldOwner("toolgate-ledger-toolgate-0"), client.ForceOwnership)
		Expect(err).To(MatchError(ContainSubstring("a writer's published head never goes back")))

		By("verify with the published head shows the records cut")
		heads, err := audit.PublishedHeads(al.Status)
		Expect(err).NotTo(HaveOccurred())
		_, err = ledger.VerifyWith(dir, ledger.VerifyOptions{PublicKey: key.Public().(ed25519.PublicKey), Heads: heads})
		Expect(err).To(MatchError(ContainSubstring("records were cut from the end")))

		By("once a person removes the entry, the same running publisher publishes the new chain's head")
		pub := &audit.HeadPublisher{Client: k8sClient, Journal: j}
		Expect(pub.Publish(ctx)).To(MatchError(ContainSubstring("no longer holds")))
		Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(al), al)).To(Succeed())
		accepted := al.DeepCopy()
		accepted.Status.SignedHeads = nil
		Expect(k8sClient.Status().Patch(ctx, accepted, client.MergeFrom(al))).To(Succeed())
		record(j, 1, "accepted")
		Expect(pub.Publish(ctx)).To(Succeed())
		Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(al), al)).To(Succeed())
		Expect(al.Status.SignedHeads).To(HaveLen(1))
		Expect(al.Status.SignedHeads[0].Seq).To(BeNumerically("<", published.Seq))
		Expect(al.Status.SignedHeads[0].NotOnChainSince).To(BeNil())
		_, err = r.Reconcile(ctx, ctrl.Request{NamespacedName: client.ObjectKeyFromObject(al)})
		Expect(err).NotTo(HaveOccurred())
		Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(al), al)).To(Succeed())
		Expect(meta.IsStatusConditionTrue(al.Status.Conditions, safetyv1alpha1.AuditLedgerHeadsOnChainCondition)).To(BeTrue())

		By("the near miss: a writer restarted on its own volume publishes on")
		Expect(j.Close()).To(Succeed())
		Expect(os.RemoveAll(chain)).To(Succeed())
		other := audit.Config(nil, dir, "toolgate-1", clk)
		other.SigningKey = key
		for range 2 {
			k, err := ledger.Open(other)
			Expect(err).NotTo(HaveOccurred())
			record(k, 2, "own")
			Expect((&audit.HeadPublisher{Client: k8sClient, Journal: k}).Publish(ctx)).To(Succeed())
			Expect(k.Close()).To(Succeed())
		}
	})
})
