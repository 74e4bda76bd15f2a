package v1alpha1

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	admissionv1 "k8s.io/api/admission/v1"
	"k8s.io/apimachinery/pkg/types"
)

// fixedOwner is a CounterOwner whose answers the test sets.
type fixedOwner struct {
	deciding bool
	addr     string
	err      error
}

func (o fixedOwner) Deciding() bool                        { return o.deciding }
func (o fixedOwner) Owner(context.Context) (string, error) { return o.addr, o.err }

// gateCalled is a gate that records it was asked.
type gateCalled struct{ asked int }

func (g *gateCalled) ServeHTTP(w http.ResponseWriter, _ *http.Request) {
	g.asked++
	_, _ = w.Write([]byte(`{"decided":"here"}`))
}

func reviewBody(t *testing.T, uid types.UID) []byte {
	t.Helper()
	body, err := json.Marshal(admissionv1.AdmissionReview{Request: &admissionv1.AdmissionRequest{UID: uid}})
	if err != nil {
		t.Fatal(err)
	}
	return body
}

func answered(t *testing.T, h http.Handler, body []byte) (*httptest.ResponseRecorder, admissionv1.AdmissionReview) {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, AgentToolCallPath, bytes.NewReader(body)))
	var out admissionv1.AdmissionReview
	_ = json.Unmarshal(rec.Body.Bytes(), &out)
	return rec, out
}

func TestAReplicaThatCannotReachTheOwnerRefusesRetryably(t *testing.T) {
	gate := &gateCalled{}
	f := &forwarder{local: gate, owner: fixedOwner{err: errors.New("no replica holds the leader Lease now")}, client: http.DefaultClient, path: AgentToolCallPath}
	_, out := answered(t, f, reviewBody(t, "u-1"))
	if gate.asked != 0 {
		t.Fatal("a replica that does not decide counters decided")
	}
	if out.Response == nil || out.Response.Allowed || out.Response.UID != "u-1" || out.Response.Result == nil ||
		out.Response.Result.Code != http.StatusServiceUnavailable || !strings.Contains(out.Response.Result.Message, "retry") {
		t.Fatalf("answer %+v: want a refusal of review u-1, 503, saying retry", out.Response)
	}

	// An owner that does not answer is the same refusal.
	down := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusBadGateway) }))
	defer down.Close()
	f.owner = fixedOwner{addr: strings.TrimPrefix(down.URL, "http://")}
	f.client = down.Client()
	if _, out := answered(t, f, reviewBody(t, "u-2")); out.Response == nil || out.Response.Allowed || out.Response.UID != "u-2" {
		t.Fatalf("answer %+v: want a refusal of review u-2", out.Response)
	}
}

func TestTheOwnerDecidesItself(t *testing.T) {
	gate := &gateCalled{}
	f := &forwarder{local: gate, owner: fixedOwner{deciding: true}, path: AgentToolCallPath}
	rec, _ := answered(t, f, reviewBody(t, "u-3"))
	if gate.asked != 1 || rec.Body.String() != `{"decided":"here"}` {
		t.Fatalf("the owner's own review: asked %d, body %q", gate.asked, rec.Body.String())
	}
}

func TestAFormerOwnerRefusesForwardedReviews(t *testing.T) {
	gate := &gateCalled{}
	_, out := answered(t, &decidingOnly{local: gate, owner: fixedOwner{}}, reviewBody(t, "u-4"))
	if gate.asked != 0 || out.Response == nil || out.Response.Allowed || out.Response.UID != "u-4" {
		t.Fatalf("a replica that lost the Lease: asked %d, answer %+v", gate.asked, out.Response)
	}
	gate2 := &gateCalled{}
	if rec, _ := answered(t, &decidingOnly{local: gate2, owner: fixedOwner{deciding: true}}, reviewBody(t, "u-5")); gate2.asked != 1 || rec.Code != http.StatusOK {
		t.Fatalf("the owner refused a forwarded review: asked %d, code %d", gate2.asked, rec.Code)
	}
}
