package main

import (
	"flag"
	"fmt"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
)

// kubeFlags are the connection flags, as kubectl users know them: the kubeconfig
// comes from --kubeconfig, else $KUBECONFIG, else ~/.kube/config; --context picks a context; the
// namespace is -n, else the context's, else "default".
type kubeFlags struct {
	kubeconfig string
	context    string
	namespace  string
}

func (k *kubeFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&k.kubeconfig, "kubeconfig", "", "kubeconfig file")
	fs.StringVar(&k.context, "context", "", "kubeconfig context")
	fs.StringVar(&k.namespace, "n", "", "namespace")
	fs.StringVar(&k.namespace, "namespace", "", "namespace")
}

// client returns a client for toolgate's API and the namespace to use.
func (k *kubeFlags) client() (client.Client, string, error) {
	c, _, ns, err := k.connect()
	return c, ns, err
}

// connect returns a client for toolgate's API, the REST config it uses and the namespace.
func (k *kubeFlags) connect() (client.Client, *rest.Config, string, error) {
	rules := clientcmd.NewDefaultClientConfigLoadingRules()
	rules.ExplicitPath = k.kubeconfig
	overrides := &clientcmd.ConfigOverrides{CurrentContext: k.context}
	overrides.Context.Namespace = k.namespace
	cc := clientcmd.NewNonInteractiveDeferredLoadingClientConfig(rules, overrides)
	cfg, err := cc.ClientConfig()
	if err != nil {
		return nil, nil, "", fmt.Errorf("loading the kubeconfig: %w", err)
	}
	ns, _, err := cc.Namespace()
	if err != nil {
		return nil, nil, "", fmt.Errorf("reading the namespace from the kubeconfig: %w", err)
	}
	scheme := runtime.NewScheme()
	if err := safetyv1alpha1.AddToScheme(scheme); err != nil {
		return nil, nil, "", err
	}
	c, err := client.New(cfg, client.Options{Scheme: scheme})
	if err != nil {
		return nil, nil, "", fmt.Errorf("connecting to %s: %w", cfg.Host, err)
	}
	return c, cfg, ns, nil
}
