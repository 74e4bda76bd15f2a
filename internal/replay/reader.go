package replay

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/controller"
)

// Kinds replay keeps objects of.
const (
	kindSafetyProfile     = "SafetyProfile"
	kindAutomationProfile = "AutomationProfile"
	kindProjectPolicy     = "ProjectPolicy"
	kindPlan              = "AgentPlan"
)

type objKey struct{ kind, namespace, name string }

func kindOf(o any) string {
	switch o.(type) {
	case *safetyv1alpha1.SafetyProfile:
		return kindSafetyProfile
	case *safetyv1alpha1.AutomationProfile:
		return kindAutomationProfile
	case *safetyv1alpha1.ProjectPolicy:
		return kindProjectPolicy
	case *safetyv1alpha1.AgentPlan:
		return kindPlan
	}
	return ""
}

func keyOf(o client.Object) objKey { return objKey{kindOf(o), o.GetNamespace(), o.GetName()} }

// memReader is the client.Reader the resolution reads from: the objects of the configuration
// history with the candidates over them. A built-in SafetyProfile the ledger holds no record of is
// the built-in definition, which the operator keeps in the cluster.
type memReader struct {
	objects map[objKey]client.Object
}

func (m memReader) Get(_ context.Context, key client.ObjectKey, obj client.Object, _ ...client.GetOption) error {
	k := objKey{kindOf(obj), key.Namespace, key.Name}
	src, ok := m.objects[k]
	if !ok && k.kind == kindSafetyProfile {
		if spec, builtin := controller.BuiltinSpec(key.Name); builtin {
			sp := &safetyv1alpha1.SafetyProfile{Spec: spec}
			sp.Name = key.Name
			src, ok = sp, true
		}
	}
	if !ok {
		return apierrors.NewNotFound(schema.GroupResource{Group: safetyv1alpha1.GroupVersion.Group, Resource: strings.ToLower(k.kind) + "s"}, key.Name)
	}
	reflect.ValueOf(obj).Elem().Set(reflect.ValueOf(src.DeepCopyObject()).Elem())
	return nil
}

func (m memReader) List(_ context.Context, list client.ObjectList, _ ...client.ListOption) error {
	l, ok := list.(*safetyv1alpha1.AutomationProfileList)
	if !ok {
		return fmt.Errorf("replay cannot list %T", list)
	}
	l.Items = nil
	for k, o := range m.objects {
		if k.kind == kindAutomationProfile {
			l.Items = append(l.Items, *o.(*safetyv1alpha1.AutomationProfile).DeepCopy())
		}
	}
	// Map order must not decide which of two defaults the ambiguity message names first.
	slices.SortFunc(l.Items, func(a, b safetyv1alpha1.AutomationProfile) int { return strings.Compare(a.Name, b.Name) })
	return nil
}
