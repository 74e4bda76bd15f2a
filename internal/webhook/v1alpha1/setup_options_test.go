package v1alpha1

import (
	"strconv"
	"strings"
	"testing"

	"k8s.io/client-go/rest"
	ctrl "sigs.k8s.io/controller-runtime"

	"github.com/toolgate/toolgate/internal/safety"
)

// A --loop-memory or --loop-memory-total out of range is refused by name before the manager asks the API server
// anything (the config here reaches no server): a negative one would fall back to the default
// silently, and a huge one would make the floors' count overflow (a division by zero at the
// first call) or their memory unbounded.
func TestSetupRefusesALoopMemoryOutOfRange(t *testing.T) {
	mgr, err := ctrl.NewManager(&rest.Config{Host: "https://127.0.0.1:1"}, ctrl.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, memory := range []int{-1, safety.MaxLoopKeys + 1, 1 << 61} {
		err = SetupWithManager(mgr, Options{LoopMemory: memory})
		if err == nil || !strings.Contains(err.Error(), "--loop-memory is "+strconv.Itoa(memory)) {
			t.Errorf("setup with a loop memory of %d: %v", memory, err)
		}
	}
	for _, total := range []int64{-1, safety.MinLoopMemoryBytes - 1, MaxLoopMemoryTotal + 1} {
		err = SetupWithManager(mgr, Options{LoopMemoryTotal: total})
		if err == nil || !strings.Contains(err.Error(), "--loop-memory-total is "+strconv.FormatInt(total, 10)+" bytes") {
			t.Errorf("setup with a total loop memory of %d bytes: %v", total, err)
		}
	}
}
