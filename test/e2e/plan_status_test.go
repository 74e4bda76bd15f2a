//go:build e2e

package e2e

import (
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/testenv"
)

// An AgentPlan's status holds the snapshot the webhook decides by and the counters that only
// grow. RBAC keeps the agent from writing it; config/default's ValidatingAdmissionPolicy
// (plan-status-writers), which the API server evaluates itself, keeps out anyone else a wide role
// lets write agentplans/status, while the operator (the manager's ServiceAccount, under which this
// whole suite runs) locks and counts as before. The schema already keeps the counters growing and
// the snapshot fixed but for a re-lock's next epoch; before, a role granting update on
// agentplans/status let its holder forge that re-lock with a looser snapshot.
var _ = Describe("an AgentPlan's status", func() {
	It("is written by the operator only, even for a ServiceAccount a role lets write it", func() {
		p, err := testenv.LockedProject(ctx, k8sClient, local.Admin, k8sClient.Scheme(), "e2e-status-", "agent", "plan", "",
			safetyv1alpha1.SafetyProfileSpec{RequireSandbox: new(false), RequireCheckpoints: new(false),
				EnforcementMode: safetyv1alpha1.EnforcementModeEnforce})
		Expect(err).NotTo(HaveOccurred())

		By("a ServiceAccount with a Role that grants update on agentplans/status")
		cs, err := kubernetes.NewForConfig(local.Admin)
		Expect(err).NotTo(HaveOccurred())
		meta := metav1.ObjectMeta{Namespace: p.Namespace, Name: "status-writer"}
		_, err = cs.RbacV1().Roles(p.Namespace).Create(ctx, &rbacv1.Role{ObjectMeta: meta, Rules: []rbacv1.PolicyRule{{
			APIGroups: []string{safetyv1alpha1.GroupVersion.Group}, Resources: []string{"agentplans", "agentplans/status"},
			Verbs: []string{"get", "list", "update", "patch"}}}}, metav1.CreateOptions{})
		Expect(err).NotTo(HaveOccurred())
		writer, err := testenv.AgentConfig(ctx, local.Admin, p.Namespace, "status-writer")
		Expect(err).NotTo(HaveOccurred())
		_, err = cs.RbacV1().RoleBindings(p.Namespace).Create(ctx, &rbacv1.RoleBinding{
			ObjectMeta: metav1.ObjectMeta{Namespace: p.Namespace, Name: "status-writer-status"},
			RoleRef:    rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "Role", Name: "status-writer"},
			Subjects:   []rbacv1.Subject{{Kind: "ServiceAccount", Namespace: p.Namespace, Name: "status-writer"}},
		}, metav1.CreateOptions{})
		Expect(err).NotTo(HaveOccurred())
		c, err := client.New(writer, client.Options{Scheme: k8sClient.Scheme()})
		Expect(err).NotTo(HaveOccurred())

		key := client.ObjectKey{Namespace: p.Namespace, Name: "plan"}
		locked := &safetyv1alpha1.AgentPlan{}
		Expect(k8sClient.Get(ctx, key, locked)).To(Succeed())
		rewrite := func() error {
			plan := &safetyv1alpha1.AgentPlan{}
			if err := c.Get(ctx, key, plan); err != nil {
				return err
			}
			// A forged re-lock: the schema lets the snapshot change only with the next epoch, which an
			// authorised re-lock writes; nothing in the schema says who writes it.
			plan.Status.Snapshot.Safety.MaxRetriesPerStep = new(int32(100)) // a looser policy than locked
			plan.Status.Snapshot.Epoch++
			return c.Status().Update(ctx, plan)
		}
		// RBAC lets it (the role is bound once the authorizer's cache has it): the policy refuses.
		Eventually(rewrite).WithTimeout(30 * time.Second).Should(MatchError(And(
			ContainSubstring("only the toolgate operator writes an AgentPlan's status"),
			ContainSubstring("system:serviceaccount:"+p.Namespace+":status-writer"))))

		By("the locked snapshot is unchanged, and the operator still writes the status")
		plan := &safetyv1alpha1.AgentPlan{}
		Expect(k8sClient.Get(ctx, key, plan)).To(Succeed())
		Expect(plan.Status.Snapshot).To(Equal(locked.Status.Snapshot))
		Expect(p.Agent.Create(ctx, &safetyv1alpha1.AgentToolCall{
			ObjectMeta: metav1.ObjectMeta{Namespace: p.Namespace, GenerateName: "call-"},
			Spec: safetyv1alpha1.AgentToolCallSpec{Plan: "plan", Tool: p.Tool, Step: "read",
				Arguments: safetyv1alpha1.ToolArguments{Paths: []string{"README.md"}}}})).To(Succeed())
		Eventually(func(g Gomega) {
			g.Expect(k8sClient.Get(ctx, key, plan)).To(Succeed())
			g.Expect(plan.Status.Usage.Calls).To(Equal(int64(1)), "the operator's counter flush is admitted")
		}).Should(Succeed())
	})
})

// A ProjectPolicy's status holds its project's spend (a plan settled into it leaves the project
// total: its uid in settled.uids drops a live plan's spend), an AuditLedger's the signed heads that
// anchor the ledger outside its volume. The same policy keeps out anyone a wide role lets write
// either, while the operator still writes them.
var _ = Describe("a ProjectPolicy's and an AuditLedger's status", func() {
	It("are written by the operator only, even for a ServiceAccount a role lets write them", func() {
		p, err := testenv.LockedProject(ctx, k8sClient, local.Admin, k8sClient.Scheme(), "e2e-status-", "agent", "plan", "",
			safetyv1alpha1.SafetyProfileSpec{RequireSandbox: new(false), RequireCheckpoints: new(false),
				EnforcementMode: safetyv1alpha1.EnforcementModeEnforce})
		Expect(err).NotTo(HaveOccurred())
		project := &safetyv1alpha1.ProjectPolicy{ObjectMeta: metav1.ObjectMeta{Namespace: p.Namespace, Name: "project"}}
		Expect(k8sClient.Create(ctx, project)).To(Succeed())
		// The cluster's one AuditLedger, as the samples install it, made here when no spec made it
		// yet. It stays: once its writers publish their heads, it may not be deleted.
		ledger := &safetyv1alpha1.AuditLedger{ObjectMeta: metav1.ObjectMeta{Name: "default"}}
		if err := k8sClient.Create(ctx, ledger); err != nil {
			Expect(apierrors.IsAlreadyExists(err)).To(BeTrue(), "creating the AuditLedger: %v", err)
		}

		By("a ServiceAccount a ClusterRole lets write both statuses")
		cs, err := kubernetes.NewForConfig(local.Admin)
		Expect(err).NotTo(HaveOccurred())
		name := p.Namespace + "-status-writer"
		_, err = cs.RbacV1().ClusterRoles().Create(ctx, &rbacv1.ClusterRole{ObjectMeta: metav1.ObjectMeta{Name: name},
			Rules: []rbacv1.PolicyRule{{APIGroups: []string{safetyv1alpha1.GroupVersion.Group},
				Resources: []string{"projectpolicies", "projectpolicies/status", "auditledgers", "auditledgers/status"},
				Verbs:     []string{"get", "list", "update", "patch"}}}}, metav1.CreateOptions{})
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(func() { _ = cs.RbacV1().ClusterRoles().Delete(ctx, name, metav1.DeleteOptions{}) })
		writer, err := testenv.AgentConfig(ctx, local.Admin, p.Namespace, "status-writer")
		Expect(err).NotTo(HaveOccurred())
		_, err = cs.RbacV1().ClusterRoleBindings().Create(ctx, &rbacv1.ClusterRoleBinding{
			ObjectMeta: metav1.ObjectMeta{Name: name},
			RoleRef:    rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "ClusterRole", Name: name},
			Subjects:   []rbacv1.Subject{{Kind: "ServiceAccount", Namespace: p.Namespace, Name: "status-writer"}},
		}, metav1.CreateOptions{})
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(func() { _ = cs.RbacV1().ClusterRoleBindings().Delete(ctx, name, metav1.DeleteOptions{}) })
		c, err := client.New(writer, client.Options{Scheme: k8sClient.Scheme()})
		Expect(err).NotTo(HaveOccurred())
		user := "system:serviceaccount:" + p.Namespace + ":status-writer"

		By("the project's spend: a live plan's uid written as settled")
		planned := &safetyv1alpha1.AgentPlan{}
		Expect(k8sClient.Get(ctx, client.ObjectKey{Namespace: p.Namespace, Name: "plan"}, planned)).To(Succeed())
		forgeProject := func() error {
			pp := &safetyv1alpha1.ProjectPolicy{}
			if err := c.Get(ctx, client.ObjectKeyFromObject(project), pp); err != nil {
				return err
			}
			pp.Status.Settled = &safetyv1alpha1.SettledPlans{Cost: "0", UIDs: []string{string(planned.UID)}}
			return c.Status().Update(ctx, pp)
		}
		Eventually(forgeProject).WithTimeout(30 * time.Second).Should(MatchError(And(
			ContainSubstring("only the toolgate operator writes a ProjectPolicy's status"), ContainSubstring(user))))

		By("the ledger's anchors: a signed head published for a writer")
		forgeLedger := func() error {
			al := &safetyv1alpha1.AuditLedger{}
			if err := c.Get(ctx, client.ObjectKeyFromObject(ledger), al); err != nil {
				return err
			}
			al.Status.HeadHash = "sha256:" + strings.Repeat("0", 64)
			return c.Status().Update(ctx, al)
		}
		Eventually(forgeLedger).WithTimeout(30 * time.Second).Should(MatchError(And(
			ContainSubstring("only the toolgate operator writes an AuditLedger's status"), ContainSubstring(user))))

		By("the operator still writes both")
		Eventually(func(g Gomega) {
			pp := &safetyv1alpha1.ProjectPolicy{}
			g.Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(project), pp)).To(Succeed())
			g.Expect(pp.Status.Plans).To(Equal(int32(1)), "the operator counts the project's plan")
			g.Expect(pp.Status.Settled).To(BeNil())
		}).Should(Succeed())
	})
})
