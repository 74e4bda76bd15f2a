package testenv

import (
	"context"
	"fmt"

	authenticationv1 "k8s.io/api/authentication/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// PodAgent is an agent running in a Pod: the Pod object and a client whose token is bound to it.
type PodAgent struct {
	Pod    *corev1.Pod
	Config *rest.Config
	Client client.Client
}

// AgentPod creates a ServiceAccount with the agent role (as Agent does), a Pod named pod that runs
// as it, and returns a client authenticating with a real token bound to that Pod: a TokenRequest
// with a boundObjectRef, which is what a projected ServiceAccount token in the Pod is. The API
// server puts the Pod's name and UID into the token's userInfo.extra and rejects the token once
// the Pod is gone. The Pod never runs (there is no kubelet); only its object matters.
func AgentPod(ctx context.Context, admin *rest.Config, scheme *runtime.Scheme, namespace, serviceAccount, pod string) (*PodAgent, error) {
	if _, err := AgentConfig(ctx, admin, namespace, serviceAccount); err != nil {
		return nil, err
	}
	cs, err := kubernetes.NewForConfig(admin)
	if err != nil {
		return nil, err
	}
	p := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: pod},
		Spec: corev1.PodSpec{
			ServiceAccountName: serviceAccount,
			Containers:         []corev1.Container{{Name: agentContainer, Image: "registry.invalid/agent:never"}},
		},
	}
	if p, err = cs.CoreV1().Pods(namespace).Create(ctx, p, metav1.CreateOptions{}); err != nil {
		return nil, fmt.Errorf("creating Pod %s/%s: %w", namespace, pod, err)
	}
	return PodToken(ctx, admin, scheme, p)
}

// PodToken returns a client for pod's ServiceAccount whose token is bound to pod.
func PodToken(ctx context.Context, admin *rest.Config, scheme *runtime.Scheme, pod *corev1.Pod) (*PodAgent, error) {
	cs, err := kubernetes.NewForConfig(admin)
	if err != nil {
		return nil, err
	}
	tr, err := cs.CoreV1().ServiceAccounts(pod.Namespace).CreateToken(ctx, pod.Spec.ServiceAccountName, &authenticationv1.TokenRequest{
		Spec: authenticationv1.TokenRequestSpec{
			ExpirationSeconds: new(int64(3600)),
			BoundObjectRef:    &authenticationv1.BoundObjectReference{Kind: "Pod", APIVersion: "v1", Name: pod.Name, UID: pod.UID},
		},
	}, metav1.CreateOptions{})
	if err != nil {
		return nil, fmt.Errorf("requesting a token bound to Pod %s/%s: %w", pod.Namespace, pod.Name, err)
	}
	cfg := rest.AnonymousClientConfig(admin)
	cfg.BearerToken = tr.Status.Token
	cfg.QPS, cfg.Burst = 500, 1000
	c, err := client.New(cfg, client.Options{Scheme: scheme})
	if err != nil {
		return nil, err
	}
	return &PodAgent{Pod: pod, Config: cfg, Client: c}, nil
}
