//go:build e2e

package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	authenticationv1 "k8s.io/api/authentication/v1"
	authorizationv1 "k8s.io/api/authorization/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"
	"sigs.k8s.io/yaml"

	"github.com/toolgate/toolgate/internal/testenv"
)

var _ = Describe("the operator's own identity", func() {
	operatorUser := "system:serviceaccount:" + testenv.OperatorNamespace + ":" + testenv.OperatorServiceAccount

	It("is the manager's ServiceAccount, not an admin", func() {
		cfg, err := clientcmd.BuildConfigFromFlags("", local.OperatorKubeconfig)
		Expect(err).NotTo(HaveOccurred())
		cs, err := kubernetes.NewForConfig(cfg)
		Expect(err).NotTo(HaveOccurred())
		review, err := cs.AuthenticationV1().SelfSubjectReviews().Create(ctx,
			&authenticationv1.SelfSubjectReview{}, metav1.CreateOptions{})
		Expect(err).NotTo(HaveOccurred())
		Expect(review.Status.UserInfo.Username).To(Equal(operatorUser))
	})

	DescribeTable("may do only what config/default grants it",
		func(attrs authorizationv1.ResourceAttributes, allowed bool) {
			cs, err := kubernetes.NewForConfig(local.Admin)
			Expect(err).NotTo(HaveOccurred())
			sar, err := cs.AuthorizationV1().SubjectAccessReviews().Create(ctx, &authorizationv1.SubjectAccessReview{
				Spec: authorizationv1.SubjectAccessReviewSpec{User: operatorUser, ResourceAttributes: &attrs,
					Groups: []string{"system:serviceaccounts", "system:serviceaccounts:" + testenv.OperatorNamespace,
						"system:authenticated"}},
			}, metav1.CreateOptions{})
			Expect(err).NotTo(HaveOccurred())
			Expect(sar.Status.Allowed).To(Equal(allowed), "%+v: %s", attrs, sar.Status.Reason)
		},
		Entry("update its certificate Secret", authorizationv1.ResourceAttributes{
			Namespace: testenv.OperatorNamespace, Verb: "update", Resource: "secrets", Name: testenv.CertSecretName}, true),
		Entry("read another Secret of its namespace", authorizationv1.ResourceAttributes{
			Namespace: testenv.OperatorNamespace, Verb: "get", Resource: "secrets", Name: "someone-elses"}, false),
		Entry("list Secrets cluster-wide", authorizationv1.ResourceAttributes{Verb: "list", Resource: "secrets"}, false),
		Entry("read a Secret of an agent's namespace", authorizationv1.ResourceAttributes{Namespace: "payments",
			Verb: "get", Resource: "secrets", Name: "db"}, false),
		Entry("update its own webhook configuration", authorizationv1.ResourceAttributes{
			Group: "admissionregistration.k8s.io", Verb: "update", Resource: "validatingwebhookconfigurations",
			Name: testenv.WebhookConfigurationName}, true),
		Entry("update another webhook configuration", authorizationv1.ResourceAttributes{
			Group: "admissionregistration.k8s.io", Verb: "update", Resource: "validatingwebhookconfigurations",
			Name: "gatekeeper-validating-webhook-configuration"}, false),
		Entry("create pods", authorizationv1.ResourceAttributes{
			Namespace: "payments", Verb: "create", Resource: "pods"}, false),
		Entry("create ToolApprovals (only people approve)", authorizationv1.ResourceAttributes{Namespace: "payments",
			Group: "safety.toolgate.dev", Verb: "create", Resource: "toolapprovals"}, false),
		Entry("impersonate", authorizationv1.ResourceAttributes{Verb: "impersonate", Resource: "serviceaccounts"}, false),
	)

	It("is installable: config/default is accepted by the API server (server-side dry run)", func() {
		objs, _, err := testenv.RenderDefault(ctx)
		Expect(err).NotTo(HaveOccurred())
		dryRunInstall(objs)
	})

	It("is installable with the gateway: config/gateway is accepted by the API server (server-side dry run)", func() {
		objs, _, err := testenv.RenderKustomization(ctx, "config", "gateway")
		Expect(err).NotTo(HaveOccurred())
		var apply []byte
		for _, o := range objs {
			data, err := yaml.Marshal(o.Object)
			Expect(err).NotTo(HaveOccurred())
			apply = append(append(apply, "---\n"...), data...)
		}
		file := filepath.Join(GinkgoT().TempDir(), "gateway.yaml")
		Expect(os.WriteFile(file, apply, 0o600)).To(Succeed())
		out, err := runKubectl("apply", "--dry-run=server", "-f", file)
		Expect(err).NotTo(HaveOccurred(), out)
		Expect(out).To(ContainSubstring("deployment.apps/toolgate-gateway created (server dry run)"))
		Expect(out).To(ContainSubstring("clusterrolebinding.rbac.authorization.k8s.io/toolgate-gateway-rolebinding created"))
	})

	It("is installable with Helm: dist/chart is accepted by the API server (server-side dry run)", func() {
		script, err := testenv.Path("hack", "build-helm.sh")
		Expect(err).NotTo(HaveOccurred())
		helm, err := exec.CommandContext(ctx, script, "--print-path").Output()
		Expect(err).NotTo(HaveOccurred())
		chart, err := testenv.Path("dist", "chart")
		Expect(err).NotTo(HaveOccurred())
		// With the gateway too, and its policy for a tool servers' namespace that exists here.
		out, err := exec.CommandContext(ctx, strings.TrimSpace(string(helm)), "template", "toolgate", chart,
			"--namespace", testenv.OperatorNamespace, "--set", "gateway.enabled=true",
			"--set", "gateway.toolServerNamespaces={default}").Output()
		Expect(err).NotTo(HaveOccurred())
		objs, err := testenv.DecodeYAML(out)
		Expect(err).NotTo(HaveOccurred())
		applied := dryRunInstall(objs)
		for _, created := range []string{"deployment.apps/toolgate-gateway", "service/toolgate-gateway",
			"clusterrole.rbac.authorization.k8s.io/toolgate-gateway-role",
			"networkpolicy.networking.k8s.io/toolgate-tool-servers-only-from-gateway"} {
			Expect(applied).To(ContainSubstring(created + " created (server dry run)"))
		}
	})
})

// dryRunInstall sends objs to the API server as a server-side dry run. The local control plane
// already holds the webhook configuration (pointing at a URL on loopback); applying one that points
// at the Service would merge the two, so that one object is replaced, and every other is applied.
func dryRunInstall(objs []*unstructured.Unstructured) (applied string) {
	GinkgoHelper()
	var apply, replace []byte
	for _, o := range objs {
		data, err := yaml.Marshal(o.Object)
		Expect(err).NotTo(HaveOccurred())
		doc := append([]byte("---\n"), data...)
		if o.GetKind() == "ValidatingWebhookConfiguration" {
			replace = append(replace, doc...)
		} else {
			apply = append(apply, doc...)
		}
	}
	dir := GinkgoT().TempDir()
	Expect(os.WriteFile(filepath.Join(dir, "apply.yaml"), apply, 0o600)).To(Succeed())
	Expect(os.WriteFile(filepath.Join(dir, "replace.yaml"), replace, 0o600)).To(Succeed())
	out, err := runKubectl("apply", "--dry-run=server", "-f", filepath.Join(dir, "apply.yaml"))
	Expect(err).NotTo(HaveOccurred(), out)
	applied = out
	Expect(out).To(ContainSubstring("deployment.apps/toolgate-controller-manager created (server dry run)"))
	Expect(out).To(ContainSubstring(
		"networkpolicy.networking.k8s.io/toolgate-webhook-from-apiserver created (server dry run)"))
	out, err = runKubectl("replace", "--dry-run=server", "-f", filepath.Join(dir, "replace.yaml"))
	Expect(err).NotTo(HaveOccurred(), out)
	Expect(out).To(ContainSubstring(testenv.WebhookConfigurationName + " replaced (server dry run)"))
	return applied
}
