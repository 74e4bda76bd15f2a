package gateway

import (
	"errors"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
)

// TestAnAdmittedCallIsSentOnlyByTheRouteItWasRoutedBy: before each try, an admitted call takes its
// ToolServer as the gateway's cache holds it now. An edit that leaves the call's route as it was
// (another tool added) changes nothing for it, and the call goes on with the current spec, so it
// never connects an older one (which would take the current spec's sessions from every other
// call); a new address (its URL, or its Service's), a change of the call's own tool entry, or a ToolServer deleted or made anew
// under its name refuses it unsent.
func TestAnAdmittedCallIsSentOnlyByTheRouteItWasRoutedBy(t *testing.T) {
	scheme := runtime.NewScheme()
	if err := safetyv1alpha1.AddToScheme(scheme); err != nil {
		t.Fatal(err)
	}
	served := safetyv1alpha1.ServedTool{AgentTool: "fs-read", UpstreamName: "read_file",
		Arguments: safetyv1alpha1.ToolArgumentMap{Paths: []string{"path"}}}
	routed := &safetyv1alpha1.ToolServer{ObjectMeta: metav1.ObjectMeta{Name: "files", UID: "uid-1", Generation: 1},
		Spec: safetyv1alpha1.ToolServerSpec{URL: "http://files.tools.svc:80/mcp", Tools: []safetyv1alpha1.ServedTool{served}}}
	rt := &route{server: routed, served: served}
	for _, tc := range []struct {
		name    string
		now     func() *safetyv1alpha1.ToolServer // nil: deleted
		changed bool
	}{
		{"unchanged", func() *safetyv1alpha1.ToolServer { return routed.DeepCopy() }, false},
		{"another tool added", func() *safetyv1alpha1.ToolServer {
			ts := routed.DeepCopy()
			ts.Generation, ts.Spec.Tools = 2, append(ts.Spec.Tools, safetyv1alpha1.ServedTool{AgentTool: "fs-write"})
			return ts
		}, false},
		{"a new URL", func() *safetyv1alpha1.ToolServer {
			ts := routed.DeepCopy()
			ts.Generation, ts.Spec.URL = 2, "http://files-v2.tools.svc/mcp"
			return ts
		}, true},
		{"the same address, as a Service", func() *safetyv1alpha1.ToolServer {
			ts := routed.DeepCopy()
			ts.Generation, ts.Spec.URL, ts.Spec.Service = 2, "", &safetyv1alpha1.ToolServerService{Namespace: "tools", Name: "files"}
			return ts
		}, false},
		{"a Service at another port", func() *safetyv1alpha1.ToolServer {
			ts := routed.DeepCopy()
			ts.Generation, ts.Spec.URL, ts.Spec.Service = 2, "", &safetyv1alpha1.ToolServerService{Namespace: "tools", Name: "files", Port: 8080}
			return ts
		}, true},
		{"another argument is the path", func() *safetyv1alpha1.ToolServer {
			ts := routed.DeepCopy()
			ts.Generation, ts.Spec.Tools[0].Arguments.Paths = 2, []string{"file"}
			return ts
		}, true},
		{"the tool no longer served", func() *safetyv1alpha1.ToolServer {
			ts := routed.DeepCopy()
			ts.Generation, ts.Spec.Tools[0].AgentTool = 2, "fs-list"
			return ts
		}, true},
		{"made anew under its name", func() *safetyv1alpha1.ToolServer {
			ts := routed.DeepCopy()
			ts.UID = "uid-2"
			return ts
		}, true},
		{"deleted", nil, true},
	} {
		builder := fake.NewClientBuilder().WithScheme(scheme)
		var now *safetyv1alpha1.ToolServer
		if tc.now != nil {
			now = tc.now()
			builder = builder.WithObjects(now)
		}
		g := &Gateway{opts: Options{Reader: builder.Build()}}
		current, err := g.currentRoute(t.Context(), rt)
		switch {
		case tc.changed && !errors.Is(err, errRouteChanged):
			t.Errorf("%s: %v, want %v", tc.name, err, errRouteChanged)
		case !tc.changed && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case !tc.changed && (current.server.Generation != now.Generation || current.served.AgentTool != served.AgentTool):
			t.Errorf("%s: the call goes on with generation %d, want the current %d", tc.name, current.server.Generation, now.Generation)
		}
	}
}
