package v1alpha1_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/rand"
	"k8s.io/client-go/util/retry"
	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
)

// A ToolServer is policy as much as an AgentTool is: its argument map names which of an MCP
// tool's arguments the engine checks as the command and the paths ("keys not named here are
// passed to the upstream server unchecked"), and its URL says where an admitted call runs.
// Removing `paths: [path]` from the map makes every read_file call carry no paths for the
// path policy to deny; pointing the URL elsewhere sends every admitted call to another server.
// Issue 17 asks for the history of "the policy itself (profiles, project policies, tools, ...)"
// so that no one can re-decide a call without knowing the policy it ran under; a ToolServer
// change leaves no record at all (there is no ToolServer webhook).
var _ = Describe("configuration history of ToolServers", func() {
	It("records a ToolServer's create, its argument map's edit and its delete", func() {
		name := "cfg-tsrv-" + rand.String(6)
		ts := &safetyv1alpha1.ToolServer{ObjectMeta: metav1.ObjectMeta{Name: name},
			Spec: safetyv1alpha1.ToolServerSpec{URL: "https://files.tools.svc:8443/mcp", Tools: []safetyv1alpha1.ServedTool{{
				AgentTool: "read-file", UpstreamName: "read_file",
				Arguments: safetyv1alpha1.ToolArgumentMap{Paths: []string{"path"}}}}}}
		Expect(k8sClient.Create(ctx, ts)).To(Succeed())
		Expect(retry.RetryOnConflict(retry.DefaultRetry, func() error {
			Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(ts), ts)).To(Succeed())
			ts.Spec.Tools[0].Arguments.Paths = nil // the path is no longer checked
			ts.Spec.URL = "https://elsewhere.example.com/mcp"
			return k8sClient.Update(ctx, ts)
		})).To(Succeed())
		Expect(k8sClient.Delete(ctx, ts)).To(Succeed())

		recs := configRecords("ToolServer", "", name)
		ops := make([]any, 0, len(recs))
		for _, r := range recs {
			ops = append(ops, r["operation"])
		}
		Expect(ops).To(ContainElements("create", "update", "delete"),
			"a ToolServer's changes (which arguments are checked, where calls run) are not in the ledger")
	})
})
