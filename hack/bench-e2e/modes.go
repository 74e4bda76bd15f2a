package main

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	admissionv1 "k8s.io/api/admission/v1"
	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	certutil "k8s.io/client-go/util/cert"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/toolgate/toolgate/internal/serving"
	"github.com/toolgate/toolgate/internal/testenv"
)

// The comparison's three groups: the same AgentToolCall schema, served by the same API server.
const (
	groupNone     = "none.bench.toolgate.dev" // no webhook
	groupNull     = "null.bench.toolgate.dev" // a webhook that allows everything, over the same mutual TLS
	groupToolgate = "safety.toolgate.dev"
)

// callWebhooks name each group's AgentToolCall webhook, as kube-apiserver's metrics label it.
var callWebhooks = map[string]string{
	groupNull: "null.bench.toolgate.dev", groupToolgate: "vagenttoolcall-v1alpha1.toolgate.dev"}

// copyCallCRD installs toolgate's AgentToolCall CRD under another group.
func copyCallCRD(ctx context.Context, admin client.Client, group string) error {
	crd, err := testenv.ReadObject[apiextensionsv1.CustomResourceDefinition](
		"config", "crd", "bases", "safety.toolgate.dev_agenttoolcalls.yaml")
	if err != nil {
		return err
	}
	crd.Name = "agenttoolcalls." + group
	crd.Spec.Group = group
	crd.Spec.Names.Categories = nil
	if err := admin.Create(ctx, crd); err != nil {
		return err
	}
	return waitFor(ctx, time.Minute, func() bool {
		got := &apiextensionsv1.CustomResourceDefinition{}
		if admin.Get(ctx, client.ObjectKeyFromObject(crd), got) != nil {
			return false
		}
		for _, c := range got.Status.Conditions {
			if c.Type == apiextensionsv1.Established && c.Status == apiextensionsv1.ConditionTrue {
				return true
			}
		}
		return false
	})
}

// startNullWebhook serves a webhook that admits every review, with toolgate's listener, the same
// client-certificate check and the same protocol (HTTP/1.1: the manager serves HTTP/2 only with
// --enable-http2), and registers it for the null group. The listener offers HTTP/2 unless told
// otherwise, so the null webhook spoke HTTP/2 to the API server and toolgate HTTP/1.1 before.
// It waits delay before each answer (0 in the comparison).
func startNullWebhook(ctx context.Context, local *testenv.Local, admin client.Client, dir string,
	delay time.Duration) error {
	certPEM, keyPEM, err := certutil.GenerateSelfSignedCertKey("localhost", nil, []string{"localhost"})
	if err != nil {
		return err
	}
	caFile := filepath.Join(dir, "null-client-ca.crt")
	files := map[string][]byte{"tls.crt": certPEM, "tls.key": keyPEM, "null-client-ca.crt": local.WebhookClientCA.PEM}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o600); err != nil {
			return err
		}
	}
	server, err := serving.NewWebhookServer(serving.WebhookOptions{
		Host: "127.0.0.1", Port: 0, CertDir: dir, ClientCAFile: caFile,
		TLSOpts: []func(*tls.Config){serving.HTTP1Only}})
	if err != nil {
		return err
	}
	server.Register("/allow", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		review := admissionv1.AdmissionReview{}
		if err := json.NewDecoder(r.Body).Decode(&review); err != nil || review.Request == nil {
			http.Error(w, "bad review", http.StatusBadRequest)
			return
		}
		time.Sleep(delay)
		review.Response = &admissionv1.AdmissionResponse{UID: review.Request.UID, Allowed: true}
		review.Request = nil
		_ = json.NewEncoder(w).Encode(review)
	}))
	go func() { _ = server.Start(ctx) }()
	if err := waitFor(ctx, 10*time.Second, func() bool { return server.Addr() != "" }); err != nil {
		return err
	}
	port := server.Addr()[strings.LastIndex(server.Addr(), ":")+1:]
	url := "https://localhost:" + port + "/allow"
	none, fail := admissionregistrationv1.SideEffectClassNone, admissionregistrationv1.Fail
	return admin.Create(ctx, &admissionregistrationv1.ValidatingWebhookConfiguration{
		ObjectMeta: metav1.ObjectMeta{Name: "bench-null-webhook"},
		Webhooks: []admissionregistrationv1.ValidatingWebhook{{
			Name:         callWebhooks[groupNull],
			ClientConfig: admissionregistrationv1.WebhookClientConfig{URL: &url, CABundle: certPEM},
			Rules: []admissionregistrationv1.RuleWithOperations{{
				Operations: []admissionregistrationv1.OperationType{admissionregistrationv1.Create},
				Rule: admissionregistrationv1.Rule{APIGroups: []string{groupNull}, APIVersions: []string{"v1alpha1"},
					Resources: []string{"agenttoolcalls"}},
			}},
			SideEffects: &none, FailurePolicy: &fail, AdmissionReviewVersions: []string{"v1"}, TimeoutSeconds: new(int32(5)),
		}},
	})
}

// callObject is one small AgentToolCall in group for plan, unique by i (so no loop detection).
func callObject(group, ns, plan string, i int) *unstructured.Unstructured {
	u := &unstructured.Unstructured{}
	u.SetGroupVersionKind(schema.GroupVersionKind{Group: group, Version: "v1alpha1", Kind: "AgentToolCall"})
	u.SetNamespace(ns)
	u.SetName(fmt.Sprintf("%s-%s-%d", plan, strings.SplitN(group, ".", 2)[0], i))
	u.Object["spec"] = map[string]any{
		"plan": plan, "tool": benchTool, "step": fmt.Sprintf("s%d", i/90),
		"arguments": map[string]any{"paths": []any{fmt.Sprintf("src/f%d.go", i)}},
	}
	return u
}

func waitFor(ctx context.Context, timeout time.Duration, ok func() bool) error {
	deadline := time.Now().Add(timeout)
	for !ok() {
		if time.Now().After(deadline) {
			return fmt.Errorf("timed out after %s", timeout)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
	return nil
}
