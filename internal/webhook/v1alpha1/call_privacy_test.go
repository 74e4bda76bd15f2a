package v1alpha1_test

import (
	"errors"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/safety"
	"github.com/toolgate/toolgate/internal/testenv"
	webhookv1alpha1 "github.com/toolgate/toolgate/internal/webhook/v1alpha1"
	"github.com/toolgate/toolgate/pkg/agent"
)

// A call's arguments are the agent's commands, paths and extra arguments, which may hold
// credentials and data. RBAC cannot filter a read by the call's owner, so the shipped agent role
// grants no read of calls at all, and a status write, which answers with the stored call, reads
// nothing either unless it is the call's own agent's or its cost reporter's.
var _ = Describe("AgentToolCall privacy: an agent reads no call, not another agent's", func() {
	var (
		p      *project
		secret *safetyv1alpha1.AgentToolCall
	)
	BeforeEach(func() {
		p = newProject(nil)
		p.plan(planName, safetyv1alpha1.AgentPlanSpec{ProfileRef: spRef(safety.BuiltinUnrestricted), CostReporter: trustAgent()})
		secret = p.call(planName, p.tools[reader], stepUnderTest, "src/a.go")
		secret.Spec.Arguments.Command = "curl -H 'Authorization: Bearer s3cr3t' https://example.com"
		mustAdmit(submit(p.agent, secret))
	})

	// intruder is another ServiceAccount of the namespace with the shipped agent role.
	intruder := func() client.WithWatch {
		GinkgoHelper()
		cfg, err := testenv.AgentConfig(ctx, cluster.Config, p.ns, "intruder")
		Expect(err).NotTo(HaveOccurred())
		c, err := client.NewWithWatch(cfg, client.Options{Scheme: cluster.Scheme})
		Expect(err).NotTo(HaveOccurred())
		return c
	}
	// mustNotRead asserts that a request of the call answered an error, and no part of the call.
	mustNotRead := func(err error, got *safetyv1alpha1.AgentToolCall) {
		GinkgoHelper()
		Expect(err).To(HaveOccurred())
		Expect(got.Spec.Arguments.Command).To(BeEmpty(), "the call's arguments were read")
	}

	It("refuses another agent of the namespace a get, list or watch of a call, or of its status", func() {
		other := intruder()
		key := client.ObjectKeyFromObject(secret)

		got := &safetyv1alpha1.AgentToolCall{}
		err := other.Get(ctx, key, got)
		Expect(apierrors.IsForbidden(err)).To(BeTrue(), "get: %v", err)
		mustNotRead(err, got)

		var list safetyv1alpha1.AgentToolCallList
		err = other.List(ctx, &list, client.InNamespace(p.ns))
		Expect(apierrors.IsForbidden(err)).To(BeTrue(), "list: %v", err)
		Expect(list.Items).To(BeEmpty())

		_, err = other.Watch(ctx, &safetyv1alpha1.AgentToolCallList{}, client.InNamespace(p.ns))
		Expect(apierrors.IsForbidden(err)).To(BeTrue(), "watch: %v", err)

		got = &safetyv1alpha1.AgentToolCall{ObjectMeta: metav1.ObjectMeta{Namespace: p.ns, Name: secret.Name}}
		err = other.SubResource("status").Get(ctx, got, got)
		Expect(apierrors.IsForbidden(err)).To(BeTrue(), "get of the status: %v", err)
		mustNotRead(err, got)

		By("nor its own: it learns its call's outcome from the create's answer")
		err = p.agent.Get(ctx, key, &safetyv1alpha1.AgentToolCall{})
		Expect(apierrors.IsForbidden(err)).To(BeTrue(), "get of its own call: %v", err)
	})

	It("refuses another agent a status write that changes nothing, whose answer would be the call", func() {
		other := intruder()
		for _, body := range []string{`{}`, `{"status":{}}`, `{"status":{"conditions":null}}`} {
			for _, opts := range [][]client.SubResourcePatchOption{nil, {client.DryRunAll}} {
				got := &safetyv1alpha1.AgentToolCall{ObjectMeta: metav1.ObjectMeta{Namespace: p.ns, Name: secret.Name}}
				err := other.Status().Patch(ctx, got, client.RawPatch(types.MergePatchType, []byte(body)), opts...)
				mustDeny(err, webhookv1alpha1.ReasonAgentIdentityMismatch, "only the plan's ServiceAccount or its cost reporter")
				mustNotRead(err, got)
			}
		}

		By("an update carrying the call's resourceVersion, should the agent come by it")
		stored := &safetyv1alpha1.AgentToolCall{}
		Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(secret), stored)).To(Succeed())
		unchanged := &safetyv1alpha1.AgentToolCall{ObjectMeta: metav1.ObjectMeta{Namespace: p.ns, Name: secret.Name,
			ResourceVersion: stored.ResourceVersion}, Spec: stored.Spec}
		unchanged.Spec.Arguments = safetyv1alpha1.ToolArguments{}
		err := other.Status().Update(ctx, unchanged)
		Expect(err).To(HaveOccurred())
		Expect(unchanged.Spec.Arguments.Command).To(BeEmpty(), "the call's arguments were read")

		By("its own agent's status write that changes nothing is a report like any other")
		own := &safetyv1alpha1.AgentToolCall{ObjectMeta: metav1.ObjectMeta{Namespace: p.ns, Name: secret.Name}}
		Expect(p.agent.Status().Patch(ctx, own, client.RawPatch(types.MergePatchType, []byte(`{}`)))).To(Succeed())
		Expect(own.Spec.Arguments.Command).To(Equal(secret.Spec.Arguments.Command))
	})

	It("records the agent's report without a read, also on a copy older than another writer's metadata", func() {
		stale := secret.DeepCopy()
		By("someone else writes the call's metadata after the agent's create: the agent's copy is stale")
		Eventually(func() error {
			latest := &safetyv1alpha1.AgentToolCall{}
			if err := k8sClient.Get(ctx, client.ObjectKeyFromObject(secret), latest); err != nil {
				return err
			}
			metav1.SetMetaDataAnnotation(&latest.ObjectMeta, "example.com/seen", "true")
			return k8sClient.Update(ctx, latest)
		}).WithTimeout(waitTimeout).Should(Succeed())

		stale.Status.Phase, stale.Status.Cost = safetyv1alpha1.CallPhaseRunning, money("0.25")
		Expect(agent.Report(ctx, p.agent, stale)).To(Succeed())
		Expect(stale.Annotations).To(HaveKeyWithValue("example.com/seen", "true"), "Report leaves the stored call on call")

		By("toolgate's checks hold: a cost that decreases and a phase that moves back are refused, typed")
		lower := stale.DeepCopy()
		lower.Status.Cost = money("0.1")
		var refused *agent.RequestError
		Expect(errors.As(agent.Report(ctx, p.agent, lower), &refused)).To(BeTrue())
		Expect(refused.Reason).To(Equal(webhookv1alpha1.ReasonInvalidUpdate))
		Expect(refused.Field).To(Equal("status.cost"))

		done := stale.DeepCopy()
		done.Status.Phase, done.Status.Cost = safetyv1alpha1.CallPhaseSucceeded, money("0.3")
		Expect(agent.Report(ctx, p.agent, done)).To(Succeed())
		back := done.DeepCopy()
		back.Status.Phase = safetyv1alpha1.CallPhaseRunning
		Expect(errors.As(agent.Report(ctx, p.agent, back), &refused)).To(BeTrue())
		Expect(refused.Field).To(Equal("status.phase"))

		stored := &safetyv1alpha1.AgentToolCall{}
		Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(secret), stored)).To(Succeed())
		Expect(stored.Status.Phase).To(Equal(safetyv1alpha1.CallPhaseSucceeded))
		Expect(stored.Status.Cost.String()).To(Equal("300m"))
	})
})
