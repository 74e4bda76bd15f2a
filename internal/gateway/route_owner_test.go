package gateway_test

import (
	"fmt"
	"syscall"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
)

// closedURL is the address of a port nothing listens on: a connect to it is refused at once, as
// one to a ToolServer whose pods are down. The port stays bound, by a socket that never listens,
// until the container ends: a listener closed at once left the port free for the kernel to hand
// to the next server that listens, this suite's or another package's running beside it, which
// the gateway would then reach and list as this ToolServer.
func closedURL() string {
	GinkgoHelper()
	syscall.ForkLock.RLock() // close-on-exec before any exec (node, claude) could inherit it
	fd, err := syscall.Socket(syscall.AF_INET, syscall.SOCK_STREAM, 0)
	if err == nil {
		syscall.CloseOnExec(fd)
	}
	syscall.ForkLock.RUnlock()
	Expect(err).NotTo(HaveOccurred())
	DeferCleanup(syscall.Close, fd)
	Expect(syscall.Bind(fd, &syscall.SockaddrInet4{Addr: [4]byte{127, 0, 0, 1}})).To(Succeed())
	bound, err := syscall.Getsockname(fd)
	Expect(err).NotTo(HaveOccurred())
	return fmt.Sprintf("http://127.0.0.1:%d/mcp", bound.(*syscall.SockaddrInet4).Port)
}

// Two ToolServers may name one AgentTool; the first by name serves it. Which one does decides how
// a call is judged (its argument map: which arguments are paths, the working directory) and
// charged (reportsCost), so it must not depend on which upstream answers at the moment: a call
// routed to the second while the first is down is judged by the second's map, and a path the
// first maps (the one the platform wrote for the tool) reaches the upstream unjudged.
var _ = Describe("toolgate-gateway and a tool that two ToolServers name", Ordered, func() {
	var (
		w        *world
		upstream *recordingServer
		other    string // a tool only the second ToolServer names
	)

	BeforeAll(func() {
		var stop func()
		upstream, stop = startUpstream(notesAndEnv())
		DeferCleanup(stop)
		By("the ToolServer first by name maps the tool's path, and cannot be reached")
		w = newWorld("gw-owner-", closedURL(), "read_file")
		other = w.ns + "-other"
		tool := &safetyv1alpha1.AgentTool{ObjectMeta: metav1.ObjectMeta{Name: other},
			Spec: safetyv1alpha1.AgentToolSpec{ActionClass: safetyv1alpha1.ActionClassRead, Description: "read a file"}}
		Expect(k8sClient.Create(ctx, tool)).To(Succeed())
		DeferCleanup(func() { _ = k8sClient.Delete(ctx, tool) })
		By("a second ToolServer, after it by name, names the same tool with no argument map")
		second := &safetyv1alpha1.ToolServer{ObjectMeta: metav1.ObjectMeta{Name: w.ns + "-zz-unmapped"},
			Spec: safetyv1alpha1.ToolServerSpec{URL: upstream.URL, Tools: []safetyv1alpha1.ServedTool{
				{AgentTool: w.readTool, UpstreamName: "read_file"},
				{AgentTool: other, UpstreamName: "read_file", Arguments: safetyv1alpha1.ToolArgumentMap{Paths: []string{"path"}}},
			}}}
		Expect(k8sClient.Create(ctx, second)).To(Succeed())
		DeferCleanup(func() { _ = k8sClient.Delete(ctx, second) })
		Eventually(func(g Gomega) {
			res, err := w.session.ListTools(ctx, nil)
			g.Expect(err).NotTo(HaveOccurred())
			g.Expect(res.Tools).To(ContainElement(HaveField("Name", other)))
		}).WithTimeout(waitTimeout).WithPolling(waitInterval).Should(Succeed())
	})

	It("never sends the tool by the second ToolServer while the first, which serves it, is down", func() {
		_, err := w.session.CallTool(ctx, &mcp.CallToolParams{Name: w.readTool, Arguments: map[string]any{"path": ".env"}})
		Expect(upstream.Calls()).To(BeEmpty(), "the unmapped route read .env")
		Expect(err).To(MatchError(MatchRegexp(`ToolServer %s-files serves it, but the gateway cannot offer it now: `+
			`(the gateway is still connecting to it|its last connect failed)`, w.ns)))
		Expect(w.callStatuses()).To(BeEmpty(), "nothing is created for a tool the gateway cannot offer")
		res, err := w.session.ListTools(ctx, nil)
		Expect(err).NotTo(HaveOccurred())
		Expect(res.Tools).NotTo(ContainElement(HaveField("Name", w.readTool)))
	})

	It("still serves, and judges, what the second ToolServer alone names", func() {
		res, err := w.session.CallTool(ctx, &mcp.CallToolParams{Name: other, Arguments: map[string]any{"path": "notes.txt"}})
		Expect(err).NotTo(HaveOccurred())
		Expect(res.IsError).To(BeFalse(), "%v", res.Content)
		res, err = w.session.CallTool(ctx, &mcp.CallToolParams{Name: other, Arguments: map[string]any{"path": ".env"}})
		Expect(err).NotTo(HaveOccurred())
		Expect(reasonIn(res)).To(Equal("ToolAccessDenied"))
		Expect(upstream.Calls()).To(ConsistOf(upstreamCall{Tool: "read_file", Path: "notes.txt"}))
	})
})
