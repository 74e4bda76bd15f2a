package v1alpha1

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	admissionv1 "k8s.io/api/admission/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	kjson "sigs.k8s.io/json"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
)

// The one-pass review decode must see exactly what controller-runtime's decode of the review
// followed by decodeCall of each raw object sees: the request's fields and both calls.

func TestOnePassDecodeMatchesTheRawDecode(t *testing.T) {
	full := benchCall("full", "shell", "go test ./... && echo 'quoted \"x\"'")
	full.Labels = map[string]string{"a": "b"}
	full.Annotations = map[string]string{"toolgate.dev/x": "y"}
	full.Spec.Arguments.Cwd = "/work"
	full.Spec.Arguments.Extra = &runtime.RawExtension{Raw: []byte(`{"amount":399,"big":12345678901234567890,"to":["a@example.com"]}`)}
	cost := resource.MustParse("1500m")
	full.Status = safetyv1alpha1.AgentToolCallStatus{Phase: safetyv1alpha1.CallPhaseSucceeded, Cost: &cost,
		FinishedAt: &metav1.Time{}, Conditions: []metav1.Condition{{Type: "Done", Status: metav1.ConditionTrue, Reason: "R", Message: "m"}}}
	for name, body := range map[string][]byte{
		"create, small":      review(t, agentUser, benchCall("a", "read-file", "")),
		"create, every part": review(t, agentUser, full),
		"update":             updateReview(t, benchCall("u", "read-file", ""), full),
		"v1beta1":            bytes.Replace(review(t, agentUser, full), []byte(`admission.k8s.io/v1"`), []byte(`admission.k8s.io/v1beta1"`), 1),
	} {
		t.Run(name, func(t *testing.T) {
			if !decodesAlike(t, body) {
				t.Fatal("the one-pass decode found no call in a review of one")
			}
		})
	}
}

// FuzzOnePassDecode checks decodesAlike on arbitrary bodies.
//
//	go test ./internal/webhook/v1alpha1/ -run '^$' -fuzz '^FuzzOnePassDecode$' -fuzztime 60s
func FuzzOnePassDecode(f *testing.F) {
	f.Add(review(f, agentUser, benchCall("a", "shell", "ls")))
	f.Add(updateReview(f, benchCall("u", "read-file", ""), benchCall("u", "read-file", "")))
	f.Add([]byte(`{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{"uid":"x","operation":"CREATE","object":{"spec":{"plan":"p","Plan":"q"}}}}`))
	f.Add([]byte(`{"request":{"object":{"metadata":{"name":"a"}},"object":{"metadata":{"name":"b"}}}}`))
	// A repeated object is the last one, not the two merged (the fuzzer found the merge).
	f.Add([]byte(`{"request":{"object":{"metadata":{"name":"0"}},"object":{}}}`))
	f.Add([]byte(`{"request":{"object":{"metadata":{"name":"0"}},"object":null,"oldObject":{"spec":{"plan":"p"}},"oldObject":{}}}`))
	f.Fuzz(func(t *testing.T, body []byte) { decodesAlike(t, body) })
}

// decodesAlike fails t when the one-pass decode of body gives a call or request fields that the
// raw decode does not; it reports whether the one-pass decode found a call (otherwise the server
// takes the raw path itself).
func decodesAlike(t *testing.T, body []byte) bool {
	t.Helper()
	one, ok := decodeOnePass(body)
	if !ok {
		return false
	}
	raw := admissionv1.AdmissionReview{}
	if err := kjson.UnmarshalCaseSensitivePreserveInts(body, &raw); err != nil || raw.Request == nil {
		t.Fatalf("the one-pass decode read a review the raw decode cannot (%v): %q", err, body)
	}
	call := &safetyv1alpha1.AgentToolCall{}
	if err := decodeCall(raw.Request.Object, call); err != nil {
		t.Fatalf("the one-pass decode read a call decodeCall cannot (%v): %q", err, body)
	}
	if !equality.Semantic.DeepEqual(call, one.Request.Object.call) {
		t.Fatalf("the calls differ:\none-pass %+v\nraw      %+v", one.Request.Object.call, call)
	}
	if (len(raw.Request.OldObject.Raw) == 0 || string(raw.Request.OldObject.Raw) == "null") != (one.Request.OldObject.call == nil) {
		t.Fatalf("only one decode found an old call: %q", body)
	}
	if one.Request.OldObject.call != nil {
		old := &safetyv1alpha1.AgentToolCall{}
		if err := decodeCall(raw.Request.OldObject, old); err != nil || !equality.Semantic.DeepEqual(old, one.Request.OldObject.call) {
			t.Fatalf("the old calls differ (%v): %q", err, body)
		}
	}
	raw.Request.Object, raw.Request.OldObject = runtime.RawExtension{}, runtime.RawExtension{}
	if !equality.Semantic.DeepEqual(*raw.Request, one.Request.AdmissionRequest) || raw.TypeMeta != one.TypeMeta {
		t.Fatalf("the request fields differ:\none-pass %+v\nraw      %+v", one.Request.AdmissionRequest, *raw.Request)
	}
	return true
}

func updateReview(tb testing.TB, old, call *safetyv1alpha1.AgentToolCall) []byte {
	tb.Helper()
	body := review(tb, agentUser, call)
	r := admissionv1.AdmissionReview{}
	if err := json.Unmarshal(body, &r); err != nil {
		tb.Fatal(err)
	}
	raw, err := json.Marshal(old)
	if err != nil {
		tb.Fatal(err)
	}
	r.Request.Operation, r.Request.OldObject = admissionv1.Update, runtime.RawExtension{Raw: raw}
	out, err := json.Marshal(&r)
	if err != nil {
		tb.Fatal(err)
	}
	return out
}

// Bad requests get an AdmissionReview that refuses, with controller-runtime's codes; a review
// whose object is not a readable call is denied BadRequest, as before the one-pass decode.
func TestTheReviewServerRefusesBadRequests(t *testing.T) {
	h, _, _ := newBenchHandler(t)
	valid := review(t, agentUser, benchCall("a", "read-file", ""))
	bloated := benchCall("b", "read-file", "")
	for i := range maxCallValues + 1 {
		bloated.Finalizers = append(bloated.Finalizers, fmt.Sprintf("example.com/f%d", i))
	}
	for _, tc := range []struct {
		name, contentType string
		body              []byte
		limit             int64 // the listener's bound on the body (serving.Limits), when set
		code              int32
		cause, message    string
	}{
		{name: "empty body", contentType: "application/json", code: http.StatusBadRequest},
		{name: "not JSON", contentType: "application/json", body: []byte("{"), code: http.StatusBadRequest},
		{name: "wrong content type", contentType: "text/plain", body: valid, code: http.StatusBadRequest},
		{name: "too large", contentType: "application/json", body: bytes.Repeat([]byte(" "), maxCallReviewBytes+1),
			code: http.StatusRequestEntityTooLarge},
		{name: "larger than the listener allows", contentType: "application/json", body: valid, limit: 64,
			code: http.StatusRequestEntityTooLarge},
		{name: "a call of more JSON values than any call needs, denied undecoded", contentType: "application/json",
			body: review(t, agentUser, bloated), code: http.StatusForbidden, cause: ReasonBadRequest,
			message: fmt.Sprintf("holds more than %d JSON values", maxCallValues)},
		{name: "not an AdmissionReview", contentType: "application/json",
			body: bytes.Replace(valid, []byte(`"kind":"AdmissionReview"`), []byte(`"kind":"Pod"`), 1), code: http.StatusBadRequest},
		{name: "no request", contentType: "application/json",
			body: []byte(`{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview"}`), code: http.StatusBadRequest},
		{name: "the call is not a call", contentType: "application/json",
			body: bytes.Replace(valid, []byte(`"plan":"p"`), []byte(`"plan":5`), 1), code: http.StatusForbidden, cause: ReasonBadRequest},
		{name: "an update without its old call", contentType: "application/json",
			body: bytes.Replace(valid, []byte(`"operation":"CREATE"`), []byte(`"operation":"UPDATE"`), 1),
			code: http.StatusForbidden, cause: ReasonBadRequest},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := httptest.NewRecorder()
			req := httptest.NewRequest(http.MethodPost, AgentToolCallPath, bytes.NewReader(tc.body))
			req.Header.Set("Content-Type", tc.contentType)
			if tc.limit > 0 {
				req.Body = http.MaxBytesReader(rec, req.Body, tc.limit)
			}
			h.ServeHTTP(rec, req)
			out := &admissionv1.AdmissionReview{}
			if err := json.Unmarshal(rec.Body.Bytes(), out); err != nil || out.Response == nil {
				t.Fatalf("no AdmissionReview in the answer (%v): %q", err, rec.Body.String())
			}
			r := out.Response
			if r.Allowed || r.Result == nil || r.Result.Code != tc.code {
				t.Fatalf("want a refusal with code %d, got %+v", tc.code, r)
			}
			if tc.cause != "" && (r.Result.Details == nil || len(r.Result.Details.Causes) == 0 ||
				string(r.Result.Details.Causes[0].Type) != tc.cause) {
				t.Fatalf("want cause %s, got %+v", tc.cause, r.Result)
			}
			if !strings.Contains(r.Result.Message, tc.message) {
				t.Fatalf("want %q in the message, got %q", tc.message, r.Result.Message)
			}
		})
	}
}

// The answer is in the review's own version, with its UID.
func TestTheReviewServerAnswersInTheReviewsVersion(t *testing.T) {
	h, _, _ := newBenchHandler(t)
	for _, version := range []string{"admission.k8s.io/v1", "admission.k8s.io/v1beta1"} {
		body := bytes.Replace(review(t, agentUser, benchCall("a", "read-file", "")),
			[]byte(`"admission.k8s.io/v1"`), []byte(`"`+version+`"`), 1)
		out := serve(t, h, body)
		if out.APIVersion != version || out.Kind != "AdmissionReview" || out.Response.UID != "req-1" || !out.Response.Allowed {
			t.Errorf("%s: answered %s %s, UID %q, allowed %v", version, out.APIVersion, out.Kind, out.Response.UID, out.Response.Allowed)
		}
		if strings.Contains(string(body), "v1beta1") != (version == "admission.k8s.io/v1beta1") {
			t.Fatalf("the review was not rewritten to %s", version)
		}
	}
}

// BenchmarkReviewDecode decodes one review of a call: in one pass, as the gate does, and as
// controller-runtime's admission.Webhook and decodeCall did (a parse for the kind, a decode
// keeping the object raw, a decode of the object), in the same run.
func BenchmarkReviewDecode(b *testing.B) {
	scheme := runtime.NewScheme()
	if err := admissionv1.AddToScheme(scheme); err != nil {
		b.Fatal(err)
	}
	deserializer := serializer.NewCodecFactory(scheme).UniversalDeserializer()
	call := benchCall("a", "shell", "go test ./internal/... -run TestFoo -count=1 | tee out.log")
	call.Spec.Arguments.Paths = []string{"src/a.go", "src/b.go", "docs/c.md"}
	asCreated(call)
	body := review(b, agentUser, call)
	b.Run("one-pass", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, ok := decodeOnePass(body); !ok {
				b.Fatal("the review did not decode")
			}
		}
	})
	b.Run("controller-runtime", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			r := admissionv1.AdmissionReview{}
			if _, _, err := deserializer.Decode(body, nil, &r); err != nil {
				b.Fatal(err)
			}
			if err := decodeCall(r.Request.Object, &safetyv1alpha1.AgentToolCall{}); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// asCreated gives call what the API server has set on a call it reviews for creation: a UID, a
// creation time and the creating client's managed fields.
func asCreated(call *safetyv1alpha1.AgentToolCall) {
	now := metav1.Now()
	call.UID, call.CreationTimestamp, call.Generation = "0b6b8a0e-4f0e-4b43-9a57-4c8f0c1d2e3f", now, 1
	call.ManagedFields = []metav1.ManagedFieldsEntry{{
		Manager: "agent", Operation: metav1.ManagedFieldsOperationUpdate, APIVersion: "safety.toolgate.dev/v1alpha1",
		Time: &now, FieldsType: "FieldsV1", FieldsV1: metav1.NewFieldsV1(`{"f:spec":{".":{},"f:arguments":{".":{},` +
			`"f:command":{},"f:paths":{}},"f:plan":{},"f:sandboxID":{},"f:step":{},"f:tool":{}}}`),
	}}
}
