package v1alpha1_test

import (
	"context"
	"fmt"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/safety"
	"github.com/toolgate/toolgate/internal/testenv"
	webhookv1alpha1 "github.com/toolgate/toolgate/internal/webhook/v1alpha1"
)

// An outside tester's cases of issues 8 and 15 with three webhook replicas behind one API server:
// what replicas_test.go holds for one step and one plan's budget, for a person's single-use
// approval, for the project's budget shared by two plans, and across a change of the replica that
// decides (the leader stopped as a rollout stops a pod). The last two specs each stop the leader,
// so they run last.
var _ = Describe("AgentToolCall admission with three replicas: approvals, the project's budget, a new leader", Ordered, func() {
	const replicas = 3
	var (
		r      *testenv.Replicas
		admin  client.Client
		stores [replicas]*webhookv1alpha1.CounterStore
	)
	BeforeAll(func() {
		r = startDeciders(stores[:])
		admin = r.Client
	})

	world := func(cost string, restrict func(*safetyv1alpha1.SafetyProfileSpec)) *testenv.Project {
		GinkgoHelper()
		wait, cancel := context.WithTimeout(ctx, waitTimeout)
		defer cancel()
		p, err := testenv.LockedProject(wait, admin, r.Config, r.Scheme, "failover-", agentSA, planName, cost, profileWith(restrict))
		Expect(err).NotTo(HaveOccurred())
		return p
	}
	call := func(ns, plan, tool, step string, i int) *safetyv1alpha1.AgentToolCall {
		return &safetyv1alpha1.AgentToolCall{ObjectMeta: metav1.ObjectMeta{Namespace: ns, GenerateName: "call-"},
			Spec: safetyv1alpha1.AgentToolCallSpec{Plan: plan, Tool: tool, Step: step,
				Arguments: safetyv1alpha1.ToolArguments{Paths: []string{fmt.Sprintf("src/%d.go", i)}}}}
	}
	// answer submits a call until it gets an answer the agent can act on: admitted, or a typed
	// denial. An error without a reason (a replica that stopped deciding answers 503, one that
	// stopped serving cannot be reached) is retried, as pkg/agent retries it.
	answer := func(agent client.Client, mk func() *safetyv1alpha1.AgentToolCall) error {
		deadline := time.Now().Add(waitTimeout)
		for {
			err := agent.Create(ctx, mk())
			if reasonOf(err) != "?" || time.Now().After(deadline) {
				return err
			}
		}
	}
	burst := func(n int, submit func(i int) error) []error {
		var wg sync.WaitGroup
		errs := make([]error, n)
		for i := range errs {
			wg.Go(func() { errs[i] = submit(i) })
		}
		wg.Wait()
		return errs
	}
	storedCalls := func(ns string) int {
		GinkgoHelper()
		var calls safetyv1alpha1.AgentToolCallList
		Expect(admin.List(ctx, &calls, client.InNamespace(ns))).To(Succeed())
		return len(calls.Items)
	}

	It("issue 8: a single-use approval admits exactly one of twelve concurrent calls, whichever replica decides each", func() {
		p := world("", func(s *safetyv1alpha1.SafetyProfileSpec) { s.RequireHumanApproval = new(true) })
		alice, err := testenv.Person(ctx, r.Env, r.Scheme, "alice@example.com")
		Expect(err).NotTo(HaveOccurred())
		approval := &safetyv1alpha1.ToolApproval{ObjectMeta: metav1.ObjectMeta{Namespace: p.Namespace, Name: "once"},
			Spec: safetyv1alpha1.ToolApprovalSpec{Plan: planName, Tool: p.Tool, Approver: "alice@example.com", Reason: "reviewed"}}
		Expect(alice.Client.Create(ctx, approval)).To(Succeed())
		errs := burst(12, func(i int) error {
			return answer(p.Agent, func() *safetyv1alpha1.AgentToolCall {
				return call(p.Namespace, planName, p.Tool, fmt.Sprintf("s-%d", i), i)
			})
		})
		Expect(admittedAmong(errs, safety.ReasonToolHumanApprovalRequired)).To(Equal(1))
		Expect(storedCalls(p.Namespace)).To(Equal(1))
		Expect(admin.Get(ctx, client.ObjectKeyFromObject(approval), approval)).To(Succeed())
		Expect(approval.Status.Used).To(Equal(int32(1)))
	})

	It("issue 15: never lets two plans' concurrent calls on three replicas overrun maxTotalCost by more than the last call", func() {
		p := world("0.3", func(s *safetyv1alpha1.SafetyProfileSpec) { s.MaxTotalCost = money("1") })
		other, err := testenv.Agent(ctx, r.Config, r.Scheme, p.Namespace, "other")
		Expect(err).NotTo(HaveOccurred())
		second := &safetyv1alpha1.AgentPlan{ObjectMeta: metav1.ObjectMeta{Namespace: p.Namespace, Name: "second"},
			Spec: safetyv1alpha1.AgentPlanSpec{ServiceAccountName: "other", ProfileRef: spRef(p.Namespace)}}
		Expect(admin.Create(ctx, second)).To(Succeed())
		Eventually(func(g Gomega) {
			g.Expect(admin.Get(ctx, client.ObjectKeyFromObject(second), second)).To(Succeed())
			g.Expect(second.Status.Snapshot).NotTo(BeNil())
		}).WithTimeout(waitTimeout).WithPolling(waitInterval).Should(Succeed())
		errs := burst(16, func(i int) error {
			agent, plan := p.Agent, planName
			if i%2 == 1 {
				agent, plan = other, second.Name
			}
			return answer(agent, func() *safetyv1alpha1.AgentToolCall {
				return call(p.Namespace, plan, p.Tool, fmt.Sprintf("s-%d", i), i)
			})
		})
		// 0, 0.3, 0.6 and 0.9 are below 1: four calls fit in the namespace, whichever plans they are of.
		Expect(admittedAmong(errs, safety.ReasonToolCostLimitExceeded, "max_total_cost")).To(Equal(4))
		Expect(storedCalls(p.Namespace)).To(Equal(4))
	})

	It("issue 15: admits exactly maxRetriesPerStep+1 attempts of a step across a change of the deciding replica, "+
		"even with the earlier attempts deleted", func() {
		p := world("", func(s *safetyv1alpha1.SafetyProfileSpec) { s.MaxRetriesPerStep = new(int32(3)) })
		mk := func(i int) func() *safetyv1alpha1.AgentToolCall {
			return func() *safetyv1alpha1.AgentToolCall { return call(p.Namespace, planName, p.Tool, stepUnderTest, i) }
		}
		By("two attempts decided by the first leader")
		for i := range 2 {
			mustAdmit(answer(p.Agent, mk(i)))
		}
		By("an administrator deleting them: deleting calls gives no attempt back")
		Expect(admin.DeleteAllOf(ctx, &safetyv1alpha1.AgentToolCall{}, client.InNamespace(p.Namespace))).To(Succeed())
		Eventually(func() int { return storedCalls(p.Namespace) }).WithTimeout(waitTimeout).WithPolling(waitInterval).Should(BeZero())
		leader := r.Leader()
		Expect(leader).NotTo(Equal(-1))
		By(fmt.Sprintf("stopping the leader, replica %d, as a rollout stops its pod", leader))
		Expect(r.StopReplica(leader)).To(Succeed())
		Eventually(r.Leader).WithTimeout(waitTimeout).WithPolling(waitInterval).Should(
			And(Not(Equal(-1)), Not(Equal(leader))), "another replica takes the lead")

		By("twelve concurrent attempts decided by the new leader")
		errs := burst(12, func(i int) error { return answer(p.Agent, mk(2+i)) })
		Expect(admittedAmong(errs, safety.ReasonToolRetryLimitExceeded, "max_retries_per_step 3")).To(Equal(2),
			"the first attempt and 3 retries in all, two of them before the change")
		Expect(storedCalls(p.Namespace)).To(Equal(2), "the two deleted and the two the new leader admitted")
	})

	It("issue 15: admits exactly maxRetriesPerStep+1 attempts when the deciding replica stops in the middle of a burst", func() {
		p := world("", func(s *safetyv1alpha1.SafetyProfileSpec) { s.MaxRetriesPerStep = new(int32(3)) })
		leader := r.Leader()
		Expect(leader).NotTo(Equal(-1))
		first := make(chan struct{})
		var once sync.Once
		stopped := make(chan error, 1)
		go func() {
			<-first
			stopped <- r.StopReplica(leader)
		}()
		errs := burst(24, func(i int) error {
			err := answer(p.Agent, func() *safetyv1alpha1.AgentToolCall { return call(p.Namespace, planName, p.Tool, stepUnderTest, i) })
			if err == nil {
				once.Do(func() { close(first) }) // the leader stops while the others are in flight
			}
			return err
		})
		Expect(<-stopped).To(Succeed())
		Expect(r.Leader()).NotTo(Equal(leader))
		Expect(admittedAmong(errs, safety.ReasonToolRetryLimitExceeded, "max_retries_per_step 3")).To(Equal(4))
		Expect(storedCalls(p.Namespace)).To(Equal(4))
	})
})
