package gateway_test

import (
	"os"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/testenv"
)

var _ = Describe("the ToolServer API", func() {
	It("admits the shipped sample", func() {
		path, err := testenv.Path("config", "samples", "gateway", "toolserver.yaml")
		Expect(err).NotTo(HaveOccurred())
		data, err := os.ReadFile(path)
		Expect(err).NotTo(HaveOccurred())
		objs, err := testenv.DecodeYAML(data)
		Expect(err).NotTo(HaveOccurred())
		Expect(objs).To(HaveLen(2))
		for _, obj := range objs {
			Expect(k8sClient.Create(ctx, obj, client.DryRunAll)).To(Succeed(), obj.GetKind())
		}
	})

	It("ships NetworkPolicies and an agent Pod the API server accepts", func() {
		path, err := testenv.Path("config", "samples", "gateway", "networkpolicy.yaml")
		Expect(err).NotTo(HaveOccurred())
		data, err := os.ReadFile(path)
		Expect(err).NotTo(HaveOccurred())
		objs, err := testenv.DecodeYAML(data)
		Expect(err).NotTo(HaveOccurred())
		kinds := make([]string, 0, len(objs))
		for _, obj := range objs {
			kinds = append(kinds, obj.GetKind())
			ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: obj.GetNamespace()}}
			if err := k8sClient.Create(ctx, ns); err != nil {
				Expect(apierrors.IsAlreadyExists(err)).To(BeTrue(), "namespace %s: %v", ns.Name, err)
			}
			Expect(k8sClient.Create(ctx, obj, client.DryRunAll)).To(Succeed(), obj.GetKind()+" "+obj.GetName())
		}
		Expect(kinds).To(Equal([]string{"NetworkPolicy", "NetworkPolicy", "Pod"}))
	})

	DescribeTable("rejects a bad registration, naming the field",
		func(spec safetyv1alpha1.ToolServerSpec, field string) {
			ts := &safetyv1alpha1.ToolServer{ObjectMeta: metav1.ObjectMeta{GenerateName: "bad-"}, Spec: spec}
			err := k8sClient.Create(ctx, ts, client.DryRunAll)
			Expect(apierrors.IsInvalid(err)).To(BeTrue(), "got %v", err)
			Expect(err.Error()).To(ContainSubstring(field))
		},
		Entry("a URL that is not http", safetyv1alpha1.ToolServerSpec{URL: "file:///etc/passwd",
			Tools: []safetyv1alpha1.ServedTool{{AgentTool: "t"}}}, "spec.url"),
		Entry("no tools", safetyv1alpha1.ToolServerSpec{URL: "http://x"}, "spec.tools"),
		Entry("a tool name MCP cannot carry", safetyv1alpha1.ToolServerSpec{URL: "http://x",
			Tools: []safetyv1alpha1.ServedTool{{AgentTool: "a tool"}}}, "spec.tools[0].agentTool"),
		Entry("a tool no AgentTool can be named, its MCP spelling", safetyv1alpha1.ToolServerSpec{URL: "http://x",
			Tools: []safetyv1alpha1.ServedTool{{AgentTool: "read_file"}}}, "spec.tools[0].agentTool"),
		Entry("a tool no AgentTool can be named, in upper case", safetyv1alpha1.ToolServerSpec{URL: "http://x",
			Tools: []safetyv1alpha1.ServedTool{{AgentTool: "Read-File"}}}, "spec.tools[0].agentTool"),
		Entry("an unknown transport", safetyv1alpha1.ToolServerSpec{URL: "http://x", Transport: "stdio",
			Tools: []safetyv1alpha1.ServedTool{{AgentTool: "t"}}}, "spec.transport"),
		Entry("neither a URL nor a Service", safetyv1alpha1.ToolServerSpec{
			Tools: []safetyv1alpha1.ServedTool{{AgentTool: "t"}}}, "exactly one of url and service must be set"),
		Entry("both", safetyv1alpha1.ToolServerSpec{URL: "http://x", Service: &safetyv1alpha1.ToolServerService{Namespace: "n", Name: "s"},
			Tools: []safetyv1alpha1.ServedTool{{AgentTool: "t"}}}, "exactly one of url and service must be set"),
		Entry("a Service name that is no DNS label", safetyv1alpha1.ToolServerSpec{
			Service: &safetyv1alpha1.ToolServerService{Namespace: "n", Name: "evil.example.com"},
			Tools:   []safetyv1alpha1.ServedTool{{AgentTool: "t"}}}, "spec.service.name"),
		Entry("a Service namespace that is no DNS label", safetyv1alpha1.ToolServerSpec{
			Service: &safetyv1alpha1.ToolServerService{Namespace: "n:81@evil", Name: "s"},
			Tools:   []safetyv1alpha1.ServedTool{{AgentTool: "t"}}}, "spec.service.namespace"),
		Entry("a Service without a namespace", safetyv1alpha1.ToolServerSpec{
			Service: &safetyv1alpha1.ToolServerService{Name: "s"},
			Tools:   []safetyv1alpha1.ServedTool{{AgentTool: "t"}}}, "spec.service.namespace"),
		Entry("a path with a query or another host", safetyv1alpha1.ToolServerSpec{
			Service: &safetyv1alpha1.ToolServerService{Namespace: "n", Name: "s", Path: "/mcp?x=1"},
			Tools:   []safetyv1alpha1.ServedTool{{AgentTool: "t"}}}, "spec.service.path"),
		Entry("a relative path", safetyv1alpha1.ToolServerSpec{
			Service: &safetyv1alpha1.ToolServerService{Namespace: "n", Name: "s", Path: "@evil/mcp"},
			Tools:   []safetyv1alpha1.ServedTool{{AgentTool: "t"}}}, "spec.service.path"),
		Entry("a port out of range", safetyv1alpha1.ToolServerSpec{
			Service: &safetyv1alpha1.ToolServerService{Namespace: "n", Name: "s", Port: 65536},
			Tools:   []safetyv1alpha1.ServedTool{{AgentTool: "t"}}}, "spec.service.port"),
	)

	It("defaults a Service's port to 80 and its path to /mcp", func() {
		ts := &safetyv1alpha1.ToolServer{ObjectMeta: metav1.ObjectMeta{GenerateName: "svc-"},
			Spec: safetyv1alpha1.ToolServerSpec{Service: &safetyv1alpha1.ToolServerService{Namespace: "mcp-tools", Name: "filesystem"},
				Tools: []safetyv1alpha1.ServedTool{{AgentTool: "t"}}}}
		Expect(k8sClient.Create(ctx, ts, client.DryRunAll)).To(Succeed())
		Expect(ts.Spec.Service.Port).To(BeEquivalentTo(80))
		Expect(ts.Spec.Service.Path).To(Equal("/mcp"))
		Expect(ts.Spec.Endpoint()).To(Equal("http://filesystem.mcp-tools.svc:80/mcp"))
	})
})
