package v1alpha1_test

import (
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/audit"
)

// The flood control's limits come from the AuditLedger: what the API server defaults is what
// the Go defaults are, and a platform's values reach the webhook's next denial.
var _ = Describe("the AuditLedger's flood control limits", func() {
	var al *safetyv1alpha1.AuditLedger
	BeforeEach(func() {
		al = clusterAuditLedger()
		saved := al.Spec.DeepCopy()
		DeferCleanup(func() {
			cur := &safetyv1alpha1.AuditLedger{}
			Expect(k8sClient.Get(ctx, client.ObjectKey{Name: audit.LedgerName}, cur)).To(Succeed())
			cur.Spec = *saved
			Expect(k8sClient.Update(ctx, cur)).To(Succeed())
		})
	})

	It("are defaulted by the API server as the webhook defaults them", func() {
		al.Spec.FloodControl = safetyv1alpha1.LedgerFloodControl{MinFreePercent: 20} // present, the rest left out
		Expect(k8sClient.Update(ctx, al, client.DryRunAll)).To(Succeed())
		Expect(al.Spec.FloodControl.DeniedBytesPerMinute).To(BeEquivalentTo(audit.DefaultDeniedBytesPerMinute))
		Expect(audit.FloodSettingsOf(&al.Spec)).To(Equal(audit.FloodSettings{DeniedPerWindow: audit.DefaultDeniedPerWindow,
			Window: audit.DefaultFloodWindow, DeniedBytesPerMinute: audit.DefaultDeniedBytesPerMinute}))
	})

	It("reach the flood control as the platform sets them", func() {
		al.Spec.FloodControl = safetyv1alpha1.LedgerFloodControl{DeniedPerWindow: ptr.To[int32](7), WindowSeconds: 120,
			DeniedBytesPerMinute: 2048, MinFreePercent: 20}
		Expect(k8sClient.Update(ctx, al)).To(Succeed())
		Expect(audit.FloodSettingsFrom(k8sClient)(ctx)).To(Equal(audit.FloodSettings{DeniedPerWindow: 7,
			Window: 2 * time.Minute, DeniedBytesPerMinute: 2048}))
	})
})

// clusterAuditLedger is the cluster's AuditLedger, created with the API server's defaults when
// there is none yet.
func clusterAuditLedger() *safetyv1alpha1.AuditLedger {
	GinkgoHelper()
	al := &safetyv1alpha1.AuditLedger{}
	err := k8sClient.Get(ctx, client.ObjectKey{Name: audit.LedgerName}, al)
	if apierrors.IsNotFound(err) {
		al = &safetyv1alpha1.AuditLedger{ObjectMeta: metav1.ObjectMeta{Name: audit.LedgerName}}
		Expect(k8sClient.Create(ctx, al)).To(Succeed())
	} else {
		Expect(err).NotTo(HaveOccurred())
	}
	return al
}
