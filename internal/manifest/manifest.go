// Package manifest splits YAML or JSON manifests into their objects as kubectl reads them:
// documents separated by "---", and lists (what `kubectl get -o yaml` writes) expanded into
// their items. The plugin's offline test (-f) and replay's candidates (-f) read files with it.
package manifest

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/yaml"
)

// Object is one object of a manifest: its fields, and the document (from 1) it is in.
type Object struct {
	Fields map[string]any
	Doc    int
}

// DocumentError says which document (from 1) of a manifest could not be read.
type DocumentError struct {
	Doc int
	Err error
}

func (e *DocumentError) Error() string { return fmt.Sprintf("document %d: %v", e.Doc, e.Err) }
func (e *DocumentError) Unwrap() error { return e.Err }

// Objects reads every document of data (YAML or JSON), skipping empty ones, and returns its
// objects in order. A list is read as its items: the v1 List `kubectl get -o yaml` writes for
// several objects (or kinds), and a typed list (SafetyProfileList, as a client writes one),
// whose items may leave out their apiVersion and kind (they are the list's, without "List").
func Objects(data []byte) ([]Object, error) {
	reader := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(data)))
	var objs []Object
	for doc := 1; ; doc++ {
		raw, err := reader.Read()
		if errors.Is(err, io.EOF) {
			return objs, nil
		}
		if err != nil {
			return nil, &DocumentError{doc, err}
		}
		var m map[string]any
		if err := yaml.Unmarshal(raw, &m); err != nil {
			return nil, &DocumentError{doc, fmt.Errorf("not valid YAML: %w", err)}
		}
		if len(m) == 0 {
			continue // an empty document, e.g. after a trailing "---"
		}
		if !IsList(m) {
			objs = append(objs, Object{Fields: m, Doc: doc})
			continue
		}
		items, err := listItems(m)
		if err != nil {
			return nil, &DocumentError{doc, err}
		}
		for _, item := range items {
			objs = append(objs, Object{Fields: item, Doc: doc})
		}
	}
}

// IsList reports whether a document is a list: kind List, or a kind ending in List with items.
func IsList(m map[string]any) bool {
	kind, _ := m["kind"].(string)
	if kind == "List" {
		return true
	}
	_, hasItems := m["items"]
	return strings.HasSuffix(kind, "List") && len(kind) > len("List") && hasItems
}

func listItems(list map[string]any) ([]map[string]any, error) {
	kind, _ := list["kind"].(string)
	apiVersion, _ := list["apiVersion"].(string)
	itemKind := strings.TrimSuffix(kind, "List")
	raw, _ := list["items"].([]any)
	items := make([]map[string]any, 0, len(raw))
	for i, r := range raw {
		m, ok := r.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("item %d of the %s is not an object", i, kind)
		}
		if kind != "List" { // a typed list's items are of its kind
			if _, set := m["apiVersion"]; !set && apiVersion != "" {
				m["apiVersion"] = apiVersion
			}
			if _, set := m["kind"]; !set {
				m["kind"] = itemKind
			}
		}
		items = append(items, m)
	}
	return items, nil
}
