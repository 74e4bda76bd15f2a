package manifest

import "testing"

func TestObjectsExpandsListsAndTypedLists(t *testing.T) {
	objs, err := Objects([]byte(`apiVersion: v1
kind: List
items:
- {apiVersion: safety.toolgate.dev/v1alpha1, kind: SafetyProfile, metadata: {name: a}}
- {apiVersion: safety.toolgate.dev/v1alpha1, kind: ProjectPolicy, metadata: {name: b, namespace: n}}
---
---
{"apiVersion": "safety.toolgate.dev/v1alpha1", "kind": "SafetyProfileList", "items": [{"metadata": {"name": "c"}}]}
---
apiVersion: safety.toolgate.dev/v1alpha1
kind: AgentTool
metadata: {name: d}
`))
	if err != nil {
		t.Fatal(err)
	}
	want := []struct{ kind, name string }{{"SafetyProfile", "a"}, {"ProjectPolicy", "b"}, {"SafetyProfile", "c"}, {"AgentTool", "d"}}
	if len(objs) != len(want) {
		t.Fatalf("%d objects, want %d: %v", len(objs), len(want), objs)
	}
	for i, w := range want {
		meta, _ := objs[i].Fields["metadata"].(map[string]any)
		if objs[i].Fields["kind"] != w.kind || meta["name"] != w.name || objs[i].Fields["apiVersion"] != "safety.toolgate.dev/v1alpha1" {
			t.Errorf("object %d: %v, want %s %s", i, objs[i].Fields, w.kind, w.name)
		}
	}
	if _, err := Objects([]byte("kind: List\nitems: [3]\n")); err == nil {
		t.Error("a List item that is no object was read")
	}
}
