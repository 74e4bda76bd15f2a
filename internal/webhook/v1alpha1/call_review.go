package v1alpha1

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/go-logr/logr"
	admissionv1 "k8s.io/api/admission/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	logf "sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/webhook/admission"
	kjson "sigs.k8s.io/json"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/tracing"
)

// callReviewServer serves the gate's AdmissionReviews as controller-runtime's admission.Webhook
// does (the same limits, checks and answers), but decodes each review in one pass, its objects
// straight into AgentToolCalls. controller-runtime's path reads a review about six times — a parse
// to find its kind, a decode keeping the objects raw, then a decode of each object — and that was
// a sixth of the manager's CPU under load (the bench-e2e profile); every call is reviewed.
type callReviewServer struct {
	handler *AgentToolCallHandler
	log     logr.Logger
}

// maxCallReviewBytes is controller-runtime's bound on a review: two objects of at most 3 MiB
// each, and the rest.
const maxCallReviewBytes = 7 << 20

// callReview is an AdmissionReview whose objects are AgentToolCalls: Object and OldObject here
// are shallower than the embedded request's raw ones, so they are the fields that decode.
type callReview struct {
	metav1.TypeMeta `json:",inline"`
	Request         *callRequest `json:"request,omitempty"`
}

type callRequest struct {
	admissionv1.AdmissionRequest `json:",inline"`
	Object                       lastCall `json:"object,omitempty"`
	OldObject                    lastCall `json:"oldObject,omitempty"`
}

// lastCall decodes an object of the review as the raw path's RawExtension keeps it: of a repeated
// key, the last value wins, and null leaves what came before. A pointer field would instead merge
// the repeats into one call that is neither of them. The API server never repeats a key; only a
// forged review could.
type lastCall struct{ call *safetyv1alpha1.AgentToolCall }

func (c *lastCall) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		return nil
	}
	call := &safetyv1alpha1.AgentToolCall{}
	if err := kjson.UnmarshalCaseSensitivePreserveInts(b, call); err != nil {
		return err
	}
	c.call = call
	return nil
}

func (s *callReviewServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	arrived := time.Now() // the decision span starts here: reading and decoding are its work too
	body, status, err := readReview(r)
	if err != nil {
		s.log.Error(err, "bad admission request")
		writeReview(w, metav1.TypeMeta{}, admission.Errored(status, err))
		return
	}
	review, ok := decodeOnePass(body)
	if !ok {
		// Not a review of well-formed calls of a bounded size: decode it as controller-runtime
		// does, objects raw, so that a call the gate cannot (or will not) decode is denied and
		// recorded rather than refused as an unreadable request.
		s.serveRaw(w, r, body)
		return
	}
	req := admission.Request{AdmissionRequest: review.Request.AdmissionRequest}
	s.answer(w, r, review.TypeMeta, req, func(ctx context.Context) admission.Response {
		return s.handler.handleDecoded(tracing.WithStart(ctx, arrived), req, review.Request.Object.call, review.Request.OldObject.call)
	})
}

// decodeOnePass decodes a review holding at most maxCallValues JSON values in one pass; ok is
// false when body is not such a review of a call. A larger review takes the raw path, which
// decodes each of its objects only if it holds at most maxCallValues (Handle): an update's two
// calls may together hold more, and a forged envelope is then decoded with its objects kept raw.
func decodeOnePass(body []byte) (review callReview, ok bool) {
	if !withinValues(body, maxCallValues) {
		return review, false
	}
	err := kjson.UnmarshalCaseSensitivePreserveInts(body, &review)
	return review, err == nil && review.Request != nil && review.Request.Object.call != nil
}

// serveRaw answers a review whose objects did not decode as AgentToolCalls through Handle, which
// decodes them itself and denies what it cannot read.
func (s *callReviewServer) serveRaw(w http.ResponseWriter, r *http.Request, body []byte) {
	review := admissionv1.AdmissionReview{}
	if err := kjson.UnmarshalCaseSensitivePreserveInts(body, &review); err != nil || review.Request == nil {
		if err == nil {
			err = errors.New("the admission review has no request")
		}
		s.log.Error(err, "unable to decode the request")
		writeReview(w, metav1.TypeMeta{}, admission.Errored(http.StatusBadRequest, err))
		return
	}
	req := admission.Request{AdmissionRequest: *review.Request}
	s.answer(w, r, review.TypeMeta, req, func(ctx context.Context) admission.Response {
		return s.handler.Handle(ctx, req)
	})
}

// answer refuses a review that is not one controller-runtime serves; otherwise it runs handle
// with the request's logger, completes its response for req and writes it in the review's
// version. A panic is answered as an internal error, as controller-runtime does, rather than
// dropping the connection.
func (s *callReviewServer) answer(w http.ResponseWriter, r *http.Request, tm metav1.TypeMeta, req admission.Request,
	handle func(context.Context) admission.Response) {
	if err := checkReviewKind(tm); err != nil {
		writeReview(w, metav1.TypeMeta{}, admission.Errored(http.StatusBadRequest, err))
		return
	}
	ctx := logf.IntoContext(r.Context(), requestLogger(s.log, &req))
	resp := func() (resp admission.Response) {
		defer func() {
			if v := recover(); v != nil {
				s.log.Error(fmt.Errorf("panic: %v", v), "the gate panicked", "requestID", req.UID)
				resp = admission.Errored(http.StatusInternalServerError, fmt.Errorf("panic: %v [recovered]", v))
			}
		}()
		return handle(ctx)
	}()
	if err := resp.Complete(req); err != nil {
		resp = admission.Errored(http.StatusInternalServerError, errors.New("unable to encode response"))
	}
	resp.UID = req.UID
	writeReview(w, tm, resp)
}

// readReview reads a review's body as controller-runtime does: present, at most
// maxCallReviewBytes, and JSON.
func readReview(r *http.Request) ([]byte, int32, error) {
	if r.Body == nil || r.Body == http.NoBody {
		return nil, http.StatusBadRequest, errors.New("request body is empty")
	}
	defer func() { _ = r.Body.Close() }()
	limited := &io.LimitedReader{R: r.Body, N: maxCallReviewBytes}
	body, err := io.ReadAll(limited)
	if tooLarge, ok := errors.AsType[*http.MaxBytesError](err); ok { // the listener's own, smaller bound (serving.Limits)
		return nil, http.StatusRequestEntityTooLarge, fmt.Errorf("request entity is too large; limit is %d bytes", tooLarge.Limit)
	}
	if err != nil {
		return nil, http.StatusBadRequest, err
	}
	if limited.N <= 0 {
		return nil, http.StatusRequestEntityTooLarge, fmt.Errorf("request entity is too large; limit is %d bytes", maxCallReviewBytes)
	}
	if ct := r.Header.Get("Content-Type"); ct != "application/json" {
		return nil, http.StatusBadRequest, fmt.Errorf("contentType=%s, expected application/json", ct)
	}
	return body, 0, nil
}

// checkReviewKind accepts the AdmissionReview versions controller-runtime serves (v1 and
// v1beta1 have the same shape).
func checkReviewKind(tm metav1.TypeMeta) error {
	if tm.Kind != "AdmissionReview" || tm.APIVersion != "admission.k8s.io/v1" && tm.APIVersion != "admission.k8s.io/v1beta1" {
		return fmt.Errorf("not an AdmissionReview of admission.k8s.io/v1 or v1beta1: apiVersion %q, kind %q", tm.APIVersion, tm.Kind)
	}
	return nil
}

// writeReview writes resp as an AdmissionReview of the request's version (v1 when unknown).
func writeReview(w http.ResponseWriter, tm metav1.TypeMeta, resp admission.Response) {
	if tm.APIVersion == "" {
		tm = metav1.TypeMeta{APIVersion: admissionv1.SchemeGroupVersion.String(), Kind: "AdmissionReview"}
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(admissionv1.AdmissionReview{TypeMeta: tm, Response: &resp.AdmissionResponse})
}
