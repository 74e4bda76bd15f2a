package gateway_test

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/argrules"
	"github.com/toolgate/toolgate/internal/testenv"
)

// A ToolServer's map may leave a tool's bulk content out of the AgentToolCall (omit), as
// toolgate-hook does with a coding agent's Write: server-filesystem's write_file of a file larger
// than the call's 16 KiB of other arguments is then decided by its path, and written. Without it
// such a write is refused, since its content would be the call's.
var _ = Describe("toolgate-gateway with a ToolServer map that leaves bulk content out of the call", Ordered, func() {
	var (
		w               *world
		dir             string
		omitting, whole string // the AgentTools of write_file with content omitted, and kept
	)
	large := strings.Repeat("0123456789abcdef", argrules.MaxExtraBytes/8) // twice the bound of the call's other arguments

	BeforeAll(func() {
		dir = GinkgoT().TempDir()
		Expect(os.WriteFile(filepath.Join(dir, ".env"), []byte("SECRET=1"), 0o600)).To(Succeed())
		fs, err := testenv.StartFilesystemServer(dir, GinkgoWriter)
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(fs.Close)
		w = newWorld("npm-omit-", fs.URL, "read_text_file", func(o *worldObjects) {
			omitting, whole = o.server.Name+"-write", o.server.Name+"-write-whole"
			for _, name := range []string{omitting, whole} {
				o.tools = append([]*safetyv1alpha1.AgentTool{{ObjectMeta: metav1.ObjectMeta{Name: name},
					Spec: safetyv1alpha1.AgentToolSpec{ActionClass: safetyv1alpha1.ActionClassWrite, Writes: true, Description: "write a file"}}},
					o.tools...)
			}
			o.server.Spec.Tools = append(o.server.Spec.Tools,
				safetyv1alpha1.ServedTool{AgentTool: omitting, UpstreamName: "write_file",
					Arguments: safetyv1alpha1.ToolArgumentMap{Paths: []string{"path"}, Omit: []string{"content"}}},
				safetyv1alpha1.ServedTool{AgentTool: whole, UpstreamName: "write_file",
					Arguments: safetyv1alpha1.ToolArgumentMap{Paths: []string{"path"}}})
		})
	})

	write := func(tool, path, content string) (*mcp.CallToolResult, error) {
		return w.session.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: map[string]any{"path": path, "content": content}})
	}

	It("admits a large write by its path, and the upstream writes all of it", func() {
		res, err := write(omitting, "large.txt", large)
		Expect(err).NotTo(HaveOccurred())
		Expect(res.IsError).To(BeFalse(), "%v", res.Content)
		Expect(os.ReadFile(filepath.Join(dir, "large.txt"))).To(Equal([]byte(large)))
		By("with only the content's digest in the AgentToolCall, which names the path: an approval pins it")
		sent, _ := json.Marshal(large)
		sum := sha256.Sum256(sent)
		var calls safetyv1alpha1.AgentToolCallList
		Expect(k8sClient.List(ctx, &calls, client.InNamespace(w.ns))).To(Succeed())
		Expect(calls.Items).To(ContainElement(And(HaveField("Spec.Tool", omitting),
			HaveField("Spec.Arguments.Paths", ConsistOf("large.txt")),
			HaveField("Spec.Arguments.Extra.Raw", MatchJSON(`{"omitted":{"content":"sha256:`+hex.EncodeToString(sum[:])+`"}}`)))))
	})

	It("still judges the path of a write whose content it leaves out", func() {
		res, err := write(omitting, ".env", "SECRET=2")
		Expect(err).NotTo(HaveOccurred())
		Expect(reasonIn(res)).To(Equal("ToolAccessDenied"))
		Expect(os.ReadFile(filepath.Join(dir, ".env"))).To(Equal([]byte("SECRET=1")))
	})

	It("refuses a respelling of the omitted key, which the upstream might read", func() {
		// Refused before the SDK reads it (envelope.go: keys differing only in case), and by
		// toolcall.Build's respelling check behind it.
		// The SDK's client closes its session on an HTTP error: this one is its own.
		session := connectedTo(gatewayURL, w.token)
		DeferCleanup(session.Close)
		_, err := session.CallTool(ctx, &mcp.CallToolParams{Name: omitting,
			Arguments: map[string]any{"path": "other.txt", "content": "a", "Content": "b"}})
		Expect(err).To(MatchError(ContainSubstring("Bad Request")))
		Expect(filepath.Join(dir, "other.txt")).NotTo(BeAnExistingFile())
	})

	It("refuses the same write through a map that keeps the content, naming the bound", func() {
		_, err := write(whole, "refused.txt", large)
		Expect(rpcCode(err)).To(BeEquivalentTo(-32602), "%v", err)
		Expect(err.Error()).To(ContainSubstring("more than %d", argrules.MaxExtraBytes))
		Expect(filepath.Join(dir, "refused.txt")).NotTo(BeAnExistingFile())
	})

	It("refuses a ToolServer that leaves out a key it also judges, naming the field", func() {
		ts := &safetyv1alpha1.ToolServer{}
		Expect(k8sClient.Get(ctx, client.ObjectKey{Name: w.ns + "-files"}, ts)).To(Succeed())
		for i := range ts.Spec.Tools {
			if ts.Spec.Tools[i].AgentTool == omitting {
				ts.Spec.Tools[i].Arguments.Omit = []string{"content", "path"}
			}
		}
		Expect(k8sClient.Update(ctx, ts)).To(MatchError(And(ContainSubstring("omit"),
			ContainSubstring("cannot also be its command, cwd, a path or a tree path"))))
	})
})
