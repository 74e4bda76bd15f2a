package v1alpha1

import (
	"context"
	"testing"

	admissionv1 "k8s.io/api/admission/v1"
	authenticationv1 "k8s.io/api/authentication/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"
	"sigs.k8s.io/controller-runtime/pkg/webhook/admission"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
)

// A report judged while the plan cannot be read (the API server failing) is an error, which the
// API server answers 500 and a reporter tries again, not a refusal, which would lose its cost; a
// plan that does not exist is still a refusal.
func TestAReportWhosePlanCannotBeReadIsAnErrorNotARefusal(t *testing.T) {
	h, _ := newBenchAgentToolCallHandler(t)
	scheme := runtime.NewScheme()
	if err := safetyv1alpha1.AddToScheme(scheme); err != nil {
		t.Fatal(err)
	}
	old := benchCall("c", "read-file", "")
	reported := old.DeepCopy()
	reported.Status.Phase = safetyv1alpha1.CallPhaseSucceeded
	reported.Status.Cost = new(resource.MustParse("0.4"))
	reporter := "system:serviceaccount:toolgate-system:gateway"

	failing := interceptor.NewClient(fake.NewClientBuilder().WithScheme(scheme).Build(), interceptor.Funcs{
		Get: func(context.Context, client.WithWatch, client.ObjectKey, client.Object, ...client.GetOption) error {
			return apierrors.NewServiceUnavailable("etcd is away")
		},
	})
	h.Reader, h.Live = failing, nil
	asReporter := admission.Request{AdmissionRequest: admissionv1.AdmissionRequest{UserInfo: authenticationv1.UserInfo{Username: reporter}}}
	d, err := h.checkUpdate(t.Context(), asReporter, old, reported)
	if d != nil || !apierrors.IsServiceUnavailable(err) {
		t.Fatalf("plan unreadable: refusal %v, error %v; want no refusal and the read's error", d, err)
	}

	h.Reader = fake.NewClientBuilder().WithScheme(scheme).Build() // no plan at all
	d, err = h.checkUpdate(t.Context(), asReporter, old, reported)
	if err != nil || d == nil || d.Reason != ReasonAgentIdentityMismatch {
		t.Fatalf("plan gone: refusal %v, error %v; want a refusal %s", d, err, ReasonAgentIdentityMismatch)
	}
}
