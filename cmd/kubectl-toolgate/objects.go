package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	kjson "k8s.io/apimachinery/pkg/runtime/serializer/json"
	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/manifest"
)

// testKinds are the kinds `test` reads, each with whether it is namespaced. Every one of them
// takes part in the decision the way it does in the cluster.
var testKinds = map[string]bool{
	kindSafetyProfile:     false,
	kindAutomationProfile: false,
	"AgentTool":           false,
	"ProjectPolicy":       true,
	"AgentPlan":           true,
	"AgentToolCall":       true,
	"ToolApproval":        true,
}

// The profile kinds, as ProfileRefs and snapshot sources name them.
const (
	kindSafetyProfile     = string(safetyv1alpha1.ProfileKindSafetyProfile)
	kindAutomationProfile = string(safetyv1alpha1.ProfileKindAutomationProfile)
)

const testKindList = "SafetyProfile, AutomationProfile, ProjectPolicy, AgentTool, AgentPlan, AgentToolCall, " +
	"ToolApproval"

// inputObject is one object read from a file, with where it came from for error messages.
type inputObject struct {
	obj  client.Object
	kind string
	file string
	doc  int // 1-based document number in the file
}

// where names the object and its place: `calls.yaml, document 2 (AgentToolCall "c1")`.
func (o *inputObject) where() string {
	return fmt.Sprintf("%s, document %d (%s %q)", o.file, o.doc, o.kind, o.obj.GetName())
}

// inputError is a problem with the input: a bad file, a missing object, an ambiguous choice.
// `test` exits 2 on it.
type inputError struct{ msg string }

func (e *inputError) Error() string { return e.msg }

func inputErrorf(format string, args ...any) error {
	return &inputError{msg: fmt.Sprintf(format, args...)}
}

// readObjects reads every file ("-" is standard input) and decodes each YAML or JSON document into
// its typed object. A document may be a List (what `kubectl get -o yaml` prints for several
// objects) or a typed list; its items are read in order (internal/manifest, as replay -f
// reads). Unknown fields are errors, as they are for the API server.
// Objects that do not decide a call (a Namespace, a ServiceAccount, an AuditLedger beside the
// profiles in a manifest) are skipped, each with a note; an unknown toolgate kind is an error.
func readObjects(files []string, stdin io.Reader, scheme *runtime.Scheme) ([]*inputObject, []string, error) {
	var objs []*inputObject
	var notes []string
	for _, file := range files {
		var data []byte
		var err error
		if file == "-" {
			data, err = io.ReadAll(stdin)
		} else {
			data, err = os.ReadFile(file)
		}
		if err != nil {
			return nil, nil, inputErrorf("reading %s: %v", file, err)
		}
		read, skipped, err := decodeDocuments(file, data, scheme)
		if err != nil {
			return nil, nil, err
		}
		objs, notes = append(objs, read...), append(notes, skipped...)
	}
	return objs, notes, nil
}

func decodeDocuments(file string, data []byte, scheme *runtime.Scheme) ([]*inputObject, []string, error) {
	items, err := manifest.Objects(data)
	if err != nil {
		return nil, nil, inputErrorf("%s, %v", file, err)
	}
	var objs []*inputObject
	var notes []string
	for _, item := range items {
		o, skip, err := decodeObject(item.Fields, scheme)
		if err != nil {
			return nil, nil, inputErrorf("%s, document %d: %v", file, item.Doc, err)
		}
		if skip != "" {
			notes = append(notes, fmt.Sprintf("%s, document %d: %s", file, item.Doc, skip))
			continue
		}
		objs = append(objs, &inputObject{obj: o, kind: o.GetObjectKind().GroupVersionKind().Kind, file: file, doc: item.Doc})
	}
	return objs, notes, nil
}

// decodeObject turns one document into a typed toolgate object, strictly, or says why it skips it.
func decodeObject(m map[string]any, scheme *runtime.Scheme) (client.Object, string, error) {
	apiVersion, _ := m["apiVersion"].(string)
	kind, _ := m["kind"].(string)
	if apiVersion == "" || kind == "" {
		return nil, "", errors.New("apiVersion and kind are required")
	}
	gv, err := schema.ParseGroupVersion(apiVersion)
	if err != nil {
		return nil, "", fmt.Errorf("apiVersion %q: %w", apiVersion, err)
	}
	if _, ok := testKinds[kind]; !ok || gv != safetyv1alpha1.GroupVersion {
		switch {
		case gv.Group != safetyv1alpha1.GroupVersion.Group:
			return nil, fmt.Sprintf("%s %s %q is not a toolgate object; skipped", apiVersion, kind, nameOf(m)), nil
		case scheme.Recognizes(gv.WithKind(kind)):
			return nil, fmt.Sprintf("%s %q does not decide a tool call; skipped", kind, nameOf(m)), nil
		}
		return nil, "", fmt.Errorf("%s %s is not a kind that decides a tool call; want %s of %s",
			apiVersion, kind, testKindList, safetyv1alpha1.GroupVersion)
	}
	data, err := json.Marshal(m)
	if err != nil {
		return nil, "", err
	}
	strict := kjson.NewSerializerWithOptions(kjson.DefaultMetaFactory, scheme, scheme,
		kjson.SerializerOptions{Strict: true})
	ro, _, err := strict.Decode(data, nil, nil)
	if err != nil {
		msg := strings.TrimPrefix(err.Error(), "strict decoding error: ")
		return nil, "", fmt.Errorf("%s %q: %s", kind, nameOf(m), strings.TrimPrefix(msg, "json: "))
	}
	obj := ro.(client.Object)
	obj.GetObjectKind().SetGroupVersionKind(gv.WithKind(kind))
	return obj, "", nil
}

func nameOf(m map[string]any) string {
	meta, _ := m["metadata"].(map[string]any)
	if name, _ := meta["name"].(string); name != "" {
		return name
	}
	name, _ := meta["generateName"].(string)
	return name
}
