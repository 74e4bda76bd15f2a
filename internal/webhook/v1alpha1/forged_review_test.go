package v1alpha1_test

import (
	"bytes"
	"context"
	"crypto/tls"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	admissionv1 "k8s.io/api/admission/v1"
	authenticationv1 "k8s.io/api/authentication/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/safety"
	"github.com/toolgate/toolgate/internal/serving"
	"github.com/toolgate/toolgate/internal/testenv"
)

const callWebhookPath = "/validate-safety-toolgate-dev-v1alpha1-agenttoolcall"

// forger posts AdmissionReviews of its own making straight to a webhook server, as any pod that
// can reach the webhook Service could, presenting cert (none when nil).
type forger struct {
	addr string
	cert *tls.Certificate
	sent int
}

// post sends a CREATE review of call as the plan's ServiceAccount; it returns the transport error.
func (f *forger) post(call *safetyv1alpha1.AgentToolCall) error {
	f.sent++
	call = call.DeepCopy()
	call.Name, call.GenerateName = fmt.Sprintf("forged-%d", f.sent), ""
	call.UID = types.UID(fmt.Sprintf("00000000-0000-0000-0000-%012d", f.sent))
	raw, err := json.Marshal(call)
	Expect(err).NotTo(HaveOccurred())
	review := admissionv1.AdmissionReview{
		TypeMeta: metav1.TypeMeta{APIVersion: "admission.k8s.io/v1", Kind: "AdmissionReview"},
		Request: &admissionv1.AdmissionRequest{
			UID:      types.UID("forged-review-" + strconv.Itoa(f.sent)),
			Kind:     metav1.GroupVersionKind{Group: safetyv1alpha1.GroupVersion.Group, Version: "v1alpha1", Kind: "AgentToolCall"},
			Resource: metav1.GroupVersionResource{Group: safetyv1alpha1.GroupVersion.Group, Version: "v1alpha1", Resource: "agenttoolcalls"},
			Name:     call.Name, Namespace: call.Namespace, Operation: admissionv1.Create,
			UserInfo: authenticationv1.UserInfo{Username: "system:serviceaccount:" + call.Namespace + ":" + agentSA},
			Object:   runtime.RawExtension{Raw: raw},
			DryRun:   new(false),
		},
	}
	body, err := json.Marshal(review)
	Expect(err).NotTo(HaveOccurred())
	tlsConfig := &tls.Config{InsecureSkipVerify: true} //nolint:gosec // the attacker does not care who the server is
	if f.cert != nil {
		tlsConfig.Certificates = []tls.Certificate{*f.cert}
	}
	hc := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{TLSClientConfig: tlsConfig}}
	resp, err := hc.Post("https://"+f.addr+callWebhookPath, "application/json", bytes.NewReader(body))
	if err != nil {
		return err
	}
	_ = resp.Body.Close()
	return nil
}

// forgeryTarget is a project set up so that a forged review that reached the handler leaves a
// trace: a person's single-use approval it could spend, a step with one retry it could use up, and
// a call it could repeat past the loop limit.
type forgeryTarget struct {
	approved, retried *project
	approvedCall      *safetyv1alpha1.AgentToolCall
	approval          *safetyv1alpha1.ToolApproval
}

func newForgeryTarget() *forgeryTarget {
	GinkgoHelper()
	t := &forgeryTarget{approved: approvalRequired(nil)}
	t.approvedCall = t.approved.call(planName, t.approved.tools[reader], "read", "src/main.go")
	t.approval = t.approved.approve(newPerson(), t.approved.tools[reader], func(s *safetyv1alpha1.ToolApprovalSpec) {
		s.Step, s.Arguments = "read", &safetyv1alpha1.ToolArguments{Paths: []string{"src/main.go"}}
	})
	t.retried = newProject(nil)
	t.retried.plan(planName, safetyv1alpha1.AgentPlanSpec{ProfileRef: t.retried.profile(profileWith(func(s *safetyv1alpha1.SafetyProfileSpec) {
		s.MaxRetriesPerStep = new(int32(1))
	}))})
	return t
}

// forge sends every kind of forgery once through f and returns the transport errors.
func (t *forgeryTarget) forge(f *forger) []error {
	var errs []error
	send := func(c *safetyv1alpha1.AgentToolCall) { errs = append(errs, f.post(c)) }
	for range 3 { // spend the approval: an allow record and an approval use
		send(t.approvedCall)
	}
	for range 3 { // use up step "build" (one retry: two attempts)
		send(t.retried.call(planName, t.retried.tools[reader], "build", "src/build.go"))
	}
	for i := range safety.DefaultLoopMaxRepeats + 1 { // repeat one call past the loop limit, in fresh steps
		send(t.retried.call(planName, t.retried.tools[reader], fmt.Sprintf("loop-%d", i), "src/loop.go"))
	}
	return errs
}

// traces returns what forged reviews changed, each as a sentence; it checks through the API server,
// with the agents' real tokens, that the approval, the step and the loop count are untouched.
func (t *forgeryTarget) traces() []string {
	GinkgoHelper()
	var found []string
	for _, p := range []*project{t.approved, t.retried} {
		for _, rec := range ledgerRecords("decision", p.ns) {
			if name, _ := rec["call"].(string); len(name) > 7 && name[:7] == "forged-" {
				found = append(found, fmt.Sprintf("the ledger holds a %v record for forged call %s", rec["decision"], name))
			}
		}
	}
	real := t.approvedCall.DeepCopy()
	if reason := reasonOf(submit(t.approved.agent, real)); reason != "" {
		found = append(found, "the approved call through the API server was denied "+reason)
	} else if used := approvalStatus(t.approval).UsedBy; len(used) != 1 || used[0].Call != real.Name {
		found = append(found, fmt.Sprintf("the approval was used by %v", used))
	}
	for _, step := range []string{"build", "build"} { // two attempts are the step's due
		if reason := reasonOf(submit(t.retried.agent, t.retried.call(planName, t.retried.tools[reader], step, "src/build.go"))); reason != "" {
			found = append(found, "an attempt of step build through the API server was denied "+reason)
		}
	}
	if reason := reasonOf(submit(t.retried.agent, t.retried.call(planName, t.retried.tools[reader], "loop-real", "src/loop.go"))); reason != "" {
		found = append(found, "the repeated call through the API server was denied "+reason)
	}
	return found
}

var _ = Describe("Only the API server can ask the gate (mutual TLS)", func() {
	addr := func() string {
		wh := cluster.Env.WebhookInstallOptions
		return net.JoinHostPort(wh.LocalServingHost, strconv.Itoa(wh.LocalServingPort))
	}

	It("refuses forged reviews at the TLS handshake, without a certificate or with another CA's, and nothing changes", func() {
		t := newForgeryTarget()
		other, err := testenv.NewCA("an attacker's CA")
		Expect(err).NotTo(HaveOccurred())
		otherCert, err := other.TLSClientCert(testenv.WebhookClientCN) // even the API server's name
		Expect(err).NotTo(HaveOccurred())

		for _, f := range []*forger{{addr: addr()}, {addr: addr(), cert: &otherCert, sent: 100}} {
			for _, err := range t.forge(f) {
				Expect(err).To(HaveOccurred(), "the webhook answered a client without the API server's certificate")
				Expect(err.Error()).To(Or(ContainSubstring("certificate"), ContainSubstring("tls"), ContainSubstring("reset"),
					ContainSubstring("EOF"), ContainSubstring("broken pipe")))
			}
		}
		By("the same requests through the API server are answered, and find nothing spent")
		Expect(t.traces()).To(BeEmpty())
	})

	It("answers the API server's own client certificate (the positive control of the handshake)", func() {
		cert, err := cluster.APIServerClientCert()
		Expect(err).NotTo(HaveOccurred())
		conn, err := tls.Dial("tcp", addr(), &tls.Config{InsecureSkipVerify: true, Certificates: []tls.Certificate{cert}}) //nolint:gosec // our own server
		Expect(err).NotTo(HaveOccurred())
		Expect(conn.Handshake()).To(Succeed())
		Expect(conn.Close()).To(Succeed())
	})

	It("can fail: the same forgeries against the same handlers with client verification off leave traces", func() {
		// A twin of the suite's webhook server: the same certificate and handlers, no client CA.
		twin, err := serving.NewWebhookServer(serving.WebhookOptions{
			Host: "127.0.0.1", Port: 0, CertDir: cluster.Env.WebhookInstallOptions.LocalServingCertDir,
			Mux: cluster.Webhook.WebhookMux(), AnyClient: true,
		})
		Expect(err).NotTo(HaveOccurred())
		twinCtx, stop := context.WithCancel(ctx)
		done := make(chan error, 1)
		go func() { done <- twin.Start(twinCtx) }()
		DeferCleanup(func() { stop(); Expect(<-done).To(Succeed()) })
		Eventually(twin.Addr).ShouldNot(BeEmpty())

		t := newForgeryTarget()
		for _, err := range t.forge(&forger{addr: twin.Addr()}) {
			Expect(err).NotTo(HaveOccurred())
		}
		found := t.traces()
		Expect(found).To(ContainElement(ContainSubstring("the ledger holds a allow record for forged call")))
		Expect(found).To(ContainElement(ContainSubstring("the approved call through the API server was denied ToolHumanApprovalRequired")))
		Expect(found).To(ContainElement(ContainSubstring("step build through the API server was denied ToolRetryLimitExceeded")))
		Expect(found).To(ContainElement(ContainSubstring("the repeated call through the API server was denied")))
	})
})
