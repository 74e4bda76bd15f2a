package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"go.uber.org/zap/zapcore"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
	logf "sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"
	"sigs.k8s.io/yaml"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/operator"
	"github.com/toolgate/toolgate/internal/testenv"
)

// The tests of explain and the equivalence test run against a real kube-apiserver and etcd (the
// pinned control plane that hack/build-control-plane.sh builds) with toolgate's manager, wired by
// operator.Setup exactly as main.go wires it. The control plane starts with the first test that
// needs it and stops after the last test of the package; the offline tests never start it.
var (
	clusterOnce sync.Once
	shared      *testenv.Cluster
	clusterErr  error
)

const (
	waitTimeout  = 30 * time.Second
	waitInterval = 50 * time.Millisecond
)

func TestMain(m *testing.M) {
	code := m.Run()
	if shared != nil {
		if err := shared.Stop(); err != nil {
			fmt.Fprintln(os.Stderr, "stopping the control plane:", err)
			code = 1
		}
	}
	os.Exit(code)
}

func startCluster(t *testing.T) *testenv.Cluster {
	t.Helper()
	clusterOnce.Do(func() {
		logf.SetLogger(zap.New(zap.WriteTo(os.Stderr), zap.Level(zapcore.ErrorLevel)))
		shared, clusterErr = testenv.Start(func(mgr ctrl.Manager) error {
			return operator.Setup(mgr, operator.Options{})
		})
	})
	if clusterErr != nil {
		t.Fatalf("starting the control plane and the manager: %v", clusterErr)
	}
	return shared
}

// namespace creates a fresh namespace for one test.
func namespace(t *testing.T, c client.Client, prefix string) string {
	t.Helper()
	n := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{GenerateName: prefix}}
	if err := c.Create(context.Background(), n); err != nil {
		t.Fatal(err)
	}
	return n.Name
}

// create creates obj as the cluster admin; a cluster-scoped object is deleted when the test ends.
func create(t *testing.T, c client.Client, obj client.Object) {
	t.Helper()
	if err := c.Create(context.Background(), obj); err != nil {
		t.Fatalf("creating %T %s: %v", obj, obj.GetName(), err)
	}
	if obj.GetNamespace() == "" {
		t.Cleanup(func() { _ = c.Delete(context.Background(), obj) })
	}
}

// eventually retries check until it returns nil or the timeout passes.
func eventually(t *testing.T, what string, check func() error) {
	t.Helper()
	deadline := time.Now().Add(waitTimeout)
	for {
		err := check()
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: %v", what, err)
		}
		time.Sleep(waitInterval)
	}
}

// awaitLocked waits until the plan controller has locked the plan and returns it.
func awaitLocked(t *testing.T, c client.Client, ns, name string) *safetyv1alpha1.AgentPlan {
	t.Helper()
	plan := &safetyv1alpha1.AgentPlan{}
	eventually(t, "plan "+ns+"/"+name+" locked", func() error {
		if err := c.Get(context.Background(), client.ObjectKey{Namespace: ns, Name: name}, plan); err != nil {
			return err
		}
		locked := meta.IsStatusConditionTrue(plan.Status.Conditions, safetyv1alpha1.AgentPlanLockedCondition)
		if plan.Status.Snapshot == nil || !locked {
			return errors.New("not locked yet")
		}
		return nil
	})
	return plan
}

// kubeconfig writes a kubeconfig for a cluster administrator of the test control plane, whose
// context's namespace is ns, and returns its path: what `explain` reads, like kubectl.
func kubeconfig(t *testing.T, env *envtest.Environment, ns string) string {
	t.Helper()
	user, err := env.AddUser(envtest.User{Name: "platform-engineer", Groups: []string{"system:masters"}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	data, err := user.KubeConfig()
	if err != nil {
		t.Fatal(err)
	}
	var cfg map[string]any
	if err := yaml.Unmarshal(data, &cfg); err != nil {
		t.Fatal(err)
	}
	if contexts, _ := cfg["contexts"].([]any); len(contexts) > 0 && ns != "" {
		c0 := contexts[0].(map[string]any)
		c0["context"].(map[string]any)["namespace"] = ns
	}
	if data, err = yaml.Marshal(cfg); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "kubeconfig")
	if err := os.WriteFile(p, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}
