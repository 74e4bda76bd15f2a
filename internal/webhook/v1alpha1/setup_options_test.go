package v1alpha1

import (
	"strings"
	"testing"

	"k8s.io/client-go/rest"
	ctrl "sigs.k8s.io/controller-runtime"
)

// A negative --loop-memory is refused by name before the manager asks the API server anything
// (the config here reaches no server): the detector would otherwise fall back to its default
// silently, and the platform would believe its namespaces had the memory it asked for.
func TestSetupRefusesANegativeLoopMemory(t *testing.T) {
	mgr, err := ctrl.NewManager(&rest.Config{Host: "https://127.0.0.1:1"}, ctrl.Options{})
	if err != nil {
		t.Fatal(err)
	}
	err = SetupWithManager(mgr, Options{LoopMemory: -1})
	if err == nil || !strings.Contains(err.Error(), "--loop-memory is -1") {
		t.Fatalf("setup with a negative loop memory: %v", err)
	}
}
