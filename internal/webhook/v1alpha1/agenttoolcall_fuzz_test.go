package v1alpha1

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-logr/logr"
	admissionv1 "k8s.io/api/admission/v1"
	authenticationv1 "k8s.io/api/authentication/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/clock"
	clocktesting "k8s.io/utils/clock/testing"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/webhook"
	"sigs.k8s.io/controller-runtime/pkg/webhook/admission"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/audit"
	"github.com/toolgate/toolgate/internal/controller"
	"github.com/toolgate/toolgate/internal/ledger"
	"github.com/toolgate/toolgate/internal/policy"
	"github.com/toolgate/toolgate/internal/safety"
)

// The fuzz target and benchmark serve admission reviews through the real HTTP handler, decoder and
// engine. Facts come from controller-runtime's in-memory client instead of a cluster: fuzzing needs
// hundreds of thousands of requests a minute, which no API server round trip allows. The envtest
// suite covers the same handler through a real kube-apiserver.

// newBenchHandler returns the HTTP admission endpoint with a locked plan "p" in namespace "ns"
// (ServiceAccount "agent", the sandboxed profile) and registered tools "read-file" and "shell".
func newBenchHandler(tb testing.TB) (http.Handler, *AgentToolCallHandler, *clocktesting.FakePassiveClock) {
	h, clk := newBenchAgentToolCallHandler(tb)
	return newCallReviewServer(h), h, clk
}

// newCallReviewServer is the gate's production endpoint for h, as Setup registers it.
func newCallReviewServer(h *AgentToolCallHandler) http.Handler {
	return &callReviewServer{handler: h, log: logr.Discard()}
}

// benchStart is the fake clock's start.
var benchStart = time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)

func newBenchAgentToolCallHandler(tb testing.TB) (*AgentToolCallHandler, *clocktesting.FakePassiveClock) {
	tb.Helper()
	scheme := runtime.NewScheme()
	if err := safetyv1alpha1.AddToScheme(scheme); err != nil {
		tb.Fatal(err)
	}
	profile := benchProfile()
	spec := policy.SpecFromProfile(profile)
	hash, err := policy.SnapshotHash(profile, safetyv1alpha1.AutonomyLevelDefault, nil)
	if err != nil {
		tb.Fatal(err)
	}
	plan := &safetyv1alpha1.AgentPlan{
		// Created when the fake clock starts, active for longer than any benchmark advances it.
		ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "p", CreationTimestamp: metav1.NewTime(benchStart)},
		Spec:       safetyv1alpha1.AgentPlanSpec{ServiceAccountName: "agent", ActiveDeadlineSeconds: new(int64(10 * 365 * 86400))},
		Status: safetyv1alpha1.AgentPlanStatus{Snapshot: &safetyv1alpha1.PlanSnapshot{
			Provenance: safetyv1alpha1.ProvenanceDefault, Level: safetyv1alpha1.AutonomyLevelDefault, Safety: spec, Hash: hash, Epoch: 1,
		}},
	}
	tools := []*safetyv1alpha1.AgentTool{
		{ObjectMeta: metav1.ObjectMeta{Name: "read-file"}, Spec: safetyv1alpha1.AgentToolSpec{ActionClass: safetyv1alpha1.ActionClassRead}},
		{ObjectMeta: metav1.ObjectMeta{Name: "shell"}, Spec: safetyv1alpha1.AgentToolSpec{Writes: true, Checkpointable: true, ActionClass: safetyv1alpha1.ActionClassExecute}},
	}
	c := fake.NewClientBuilder().WithScheme(scheme).
		WithIndex(&safetyv1alpha1.AgentToolCall{}, controller.CallPlanIndex, controller.IndexCallPlan).
		WithIndex(&safetyv1alpha1.ToolApproval{}, safetyv1alpha1.ToolApprovalPlanField, controller.IndexApprovalPlan).
		WithStatusSubresource(&safetyv1alpha1.AgentPlan{}).
		WithObjects(plan, tools[0], tools[1]).Build()
	clk := clocktesting.NewFakePassiveClock(benchStart)
	h := NewAgentToolCallHandler(c, admission.NewDecoder(scheme), clk)
	h.usage.writer = acceptedStatus{}
	return h, clk
}

// benchProfile is the bench plan's profile: the sandboxed one with the most retries the API
// allows, so a benchmark's admissions (each counted in the plan's usage, over the default 100
// steps) keep getting the same decision until forgetUsage.
func benchProfile() *safety.Profile {
	profile, _ := safety.Builtin(safety.BuiltinSandboxed)
	profile.MaxRetriesPerStep = new(safety.MaxRetriesLimit)
	return profile
}

// acceptedStatus stands in for the API server's status endpoint: the in-memory client's own
// Update costs JSON round trips and managed-fields bookkeeping of the whole plan, which would
// swamp the handler's work; the API server's cost of the write is measured end to end
// (replicas_test.go counts the writes). The usage committer keeps the plan it wrote.
type acceptedStatus struct{}

func (acceptedStatus) Status() client.SubResourceWriter { return acceptedStatus{} }
func (acceptedStatus) Create(context.Context, client.Object, client.Object, ...client.SubResourceCreateOption) error {
	return nil
}
func (acceptedStatus) Update(context.Context, client.Object, ...client.SubResourceUpdateOption) error {
	return nil
}
func (acceptedStatus) Patch(context.Context, client.Object, client.Patch, ...client.SubResourcePatchOption) error {
	return nil
}
func (acceptedStatus) Apply(context.Context, runtime.ApplyConfiguration, ...client.SubResourceApplyOption) error {
	return nil
}

// forgetUsage makes the handler forget the counters it wrote, every benchUsageReset submissions,
// so a long benchmark stays below the bench plan's retry limit.
func forgetUsage(h *AgentToolCallHandler, n int64) {
	if n%benchUsageReset != 0 {
		return
	}
	h.usage.mu.Lock()
	h.usage.plans = map[types.NamespacedName]*planCounters{}
	h.usage.mu.Unlock()
}

// benchUsageReset is below 100 steps times 101 attempts.
const benchUsageReset = 5000

// review encodes an AdmissionReview creating call as the given user.
func review(tb testing.TB, user string, call *safetyv1alpha1.AgentToolCall) []byte {
	tb.Helper()
	call.APIVersion, call.Kind = safetyv1alpha1.GroupVersion.String(), "AgentToolCall"
	raw, err := json.Marshal(call)
	if err != nil {
		tb.Fatal(err)
	}
	body, err := json.Marshal(&admissionv1.AdmissionReview{
		TypeMeta: metav1.TypeMeta{APIVersion: "admission.k8s.io/v1", Kind: "AdmissionReview"},
		Request: &admissionv1.AdmissionRequest{
			UID: types.UID("req-1"), Kind: metav1.GroupVersionKind{Group: "safety.toolgate.dev", Version: "v1alpha1", Kind: "AgentToolCall"},
			Resource:  metav1.GroupVersionResource{Group: "safety.toolgate.dev", Version: "v1alpha1", Resource: "agenttoolcalls"},
			Namespace: call.Namespace, Name: call.Name, Operation: admissionv1.Create,
			UserInfo: authenticationv1.UserInfo{Username: user}, Object: runtime.RawExtension{Raw: raw},
		},
	})
	if err != nil {
		tb.Fatal(err)
	}
	return body
}

func benchCall(name, tool, command string) *safetyv1alpha1.AgentToolCall {
	return &safetyv1alpha1.AgentToolCall{
		ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: name},
		Spec: safetyv1alpha1.AgentToolCallSpec{Plan: "p", Tool: tool, Step: name, SandboxID: "sb-1",
			Arguments: safetyv1alpha1.ToolArguments{Command: command, Paths: []string{"src/" + name + ".go"}}},
	}
}

// serve posts body and returns the decoded response.
func serve(tb testing.TB, h http.Handler, body []byte) *admissionv1.AdmissionReview {
	rec := httptest.NewRecorder()
	req := httptest.NewRequest(http.MethodPost, AgentToolCallPath, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	h.ServeHTTP(rec, req)
	out := &admissionv1.AdmissionReview{}
	if err := json.Unmarshal(rec.Body.Bytes(), out); err != nil {
		tb.Fatalf("the handler answered something that is not an AdmissionReview: %v: %q", err, rec.Body.String())
	}
	if rec.Code != http.StatusOK {
		tb.Fatalf("HTTP %d", rec.Code)
	}
	return out
}

const agentUser = "system:serviceaccount:ns:agent"

func TestHandlerAnswersAllowAndTypedDenyOverHTTP(t *testing.T) {
	h, _, _ := newBenchHandler(t)
	allowed := serve(t, h, review(t, agentUser, benchCall("a", "read-file", "")))
	if allowed.Response == nil || !allowed.Response.Allowed || allowed.Response.UID != "req-1" {
		t.Fatalf("read-file should be admitted: %+v", allowed.Response)
	}
	denied := serve(t, h, review(t, agentUser, benchCall("b", "shell", "git push --force origin main")))
	r := denied.Response
	if r == nil || r.Allowed || r.Result == nil || r.Result.Code != http.StatusForbidden {
		t.Fatalf("a force push should be denied with 403: %+v", r)
	}
	if got := string(r.Result.Details.Causes[0].Type); got != safety.ReasonToolSafetyViolation {
		t.Errorf("cause type = %q, want %s", got, safety.ReasonToolSafetyViolation)
	}
	stranger := serve(t, h, review(t, "system:serviceaccount:ns:intruder", benchCall("c", "read-file", "")))
	if stranger.Response.Allowed || string(stranger.Response.Result.Details.Causes[0].Type) != ReasonAgentIdentityMismatch {
		t.Errorf("another ServiceAccount must be denied AgentIdentityMismatch: %+v", stranger.Response.Result)
	}
}

// FuzzAgentToolCallAdmission feeds random and truncated AdmissionReview bodies to the handler; it
// must always answer with an AdmissionReview and never admit a request it could not decode.
//
//	go test ./internal/webhook/v1alpha1/ -run '^$' -fuzz '^FuzzAgentToolCallAdmission$' -fuzztime 60s
func FuzzAgentToolCallAdmission(f *testing.F) {
	h, _, _ := newBenchHandler(f)
	valid := review(f, agentUser, benchCall("a", "shell", "go test ./... && rm -rf build"))
	f.Add(valid)
	for _, n := range []int{0, 1, len(valid) / 3, len(valid) / 2, len(valid) - 1} {
		f.Add(valid[:n])
	}
	f.Add([]byte(`{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{"uid":"x","operation":"CREATE","object":{"spec":{"plan":5}}}}`))
	f.Add([]byte(`{"request":{"uid":"u","operation":"UPDATE","object":{},"oldObject":null}}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		rec := httptest.NewRecorder()
		req := httptest.NewRequest(http.MethodPost, AgentToolCallPath, bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		h.ServeHTTP(rec, req)
		out := &admissionv1.AdmissionReview{}
		if err := json.Unmarshal(rec.Body.Bytes(), out); err != nil || out.Response == nil {
			t.Fatalf("no AdmissionReview in the answer (%v): %q", err, rec.Body.String())
		}
		in := &admissionv1.AdmissionReview{}
		if json.Unmarshal(body, in) != nil || in.Request == nil {
			if out.Response.Allowed {
				t.Fatalf("admitted a request that is not an AdmissionReview: %q", body)
			}
		}
	})
}

// stepBodies encodes call once for each of the default 100 steps a plan may use.
func stepBodies(tb testing.TB, call *safetyv1alpha1.AgentToolCall) [][]byte {
	bodies := make([][]byte, safety.DefaultMaxStepsPerPlan)
	for i := range bodies {
		c := call.DeepCopy()
		c.Spec.Step = fmt.Sprintf("s-%d", i)
		bodies[i] = review(tb, agentUser, c)
	}
	return bodies
}

// BenchmarkAgentToolCallHandler measures one admission from HTTP body to HTTP answer: decode,
// gather facts, evaluate, count it in the plan's usage and encode, for an allowed call and for a
// denied shell command.
func BenchmarkAgentToolCallHandler(b *testing.B) {
	for _, bc := range []struct {
		name    string
		call    *safetyv1alpha1.AgentToolCall
		allowed bool
	}{
		{"allow/read-file", benchCall("a", "read-file", ""), true},
		{"allow/shell", benchCall("b", "shell", "go test ./internal/... -run TestFoo -count=1 | tee out.log"), true},
		{"deny/shell-force-push", benchCall("c", "shell", "git push --force origin main"), false},
	} {
		for _, decode := range []string{"one-pass", "controller-runtime"} {
			b.Run(bc.name+"/decode="+decode, func(b *testing.B) {
				benchHandler(b, decode, bc.call, bc.allowed)
			})
		}
	}
}

// benchHandler serves bodies for call through the gate's one-pass review server or, for
// comparison in the same run, through controller-runtime's admission.Webhook, which it replaced.
func benchHandler(b *testing.B, decode string, call *safetyv1alpha1.AgentToolCall, allowed bool) {
	h, handler, clk := newBenchHandler(b)
	if decode == "controller-runtime" {
		h = &webhook.Admission{Handler: handler}
	}
	bodies := stepBodies(b, call)
	if out := serve(b, h, bodies[0]); out.Response.Allowed != allowed {
		b.Fatalf("allowed = %v, want %v: %+v", out.Response.Allowed, allowed, out.Response.Result)
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		body := bodies[i%len(bodies)]
		i++
		forgetUsage(handler, int64(i))
		// A minute apart, so the loop detector and the pending-attempt window see each
		// submission afresh and the decision stays the one checked above.
		clk.SetTime(clk.Now().Add(time.Minute))
		rec := httptest.NewRecorder()
		req := httptest.NewRequest(http.MethodPost, AgentToolCallPath, bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		h.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK {
			b.Fatalf("status %d", rec.Code)
		}
	}
}

// BenchmarkAgentToolCallHandlerLedger is the allowed read-file admission with and without the
// durable ledger (a real journal on this machine's disk, fsync per group commit), sequential and
// with concurrent submissions that share fsyncs.
func BenchmarkAgentToolCallHandlerLedger(b *testing.B) {
	for _, withLedger := range []bool{false, true} {
		name := "without-ledger"
		if withLedger {
			name = "with-ledger"
		}
		for _, parallel := range []bool{false, true} {
			mode := "sequential"
			if parallel {
				mode = "parallel-16"
			}
			b.Run(name+"/"+mode, func(b *testing.B) {
				h, _ := newBenchAgentToolCallHandler(b)
				if withLedger {
					j, err := ledger.Open(audit.Config(nil, b.TempDir(), "bench", nil))
					if err != nil {
						b.Fatal(err)
					}
					b.Cleanup(func() { _ = j.Close() })
					h.Ledger = &audit.Log{Journal: j}
				}
				// A real clock, and a fresh path per submission, so no loop or pending-attempt
				// state builds up; the profile allows every retry count.
				h.Clock = clock.RealClock{}
				h.loops = safety.NewLoopDetector(nil, 0)
				srv := newCallReviewServer(h)
				var n atomic.Int64
				body := func() []byte {
					i := n.Add(1)
					c := benchCall(fmt.Sprintf("c%d", i), "read-file", "")
					c.Spec.Step = fmt.Sprintf("s-%d", i%int64(safety.DefaultMaxStepsPerPlan))
					forgetUsage(h, i)
					return review(b, agentUser, c)
				}
				serveOne := func(body []byte) {
					rec := httptest.NewRecorder()
					req := httptest.NewRequest(http.MethodPost, AgentToolCallPath, bytes.NewReader(body))
					req.Header.Set("Content-Type", "application/json")
					srv.ServeHTTP(rec, req)
					if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), `"allowed":true`) {
						b.Fatalf("not admitted: %s", rec.Body.String())
					}
				}
				b.ReportAllocs()
				if !parallel {
					for b.Loop() {
						serveOne(body())
					}
					return
				}
				b.SetParallelism(8) // 16 goroutines on 2 cores
				b.RunParallel(func(pb *testing.PB) {
					for pb.Next() {
						serveOne(body())
					}
				})
			})
		}
	}
}
