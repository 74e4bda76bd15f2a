package main

import (
	"errors"
	"fmt"

	"github.com/spf13/pflag"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
)

// kubeFlags are kubectl's connection flags (cli-runtime's ConfigFlags, on the root command): the
// kubeconfig comes from --kubeconfig, else $KUBECONFIG, else ~/.kube/config; --context, --cluster,
// --user, --server, --token, --as, --as-group, --as-uid, --request-timeout and the TLS flags
// override it; the namespace is -n, else the context's, else "default". Nothing is loaded until a
// command connects, so the offline commands run without a kubeconfig.
type kubeFlags struct {
	config *genericclioptions.ConfigFlags
	flags  *pflag.FlagSet // where config's flags are, to tell -n "" from no -n
}

// namespaceFlag is -n as given, "" when it is not.
func (k *kubeFlags) namespaceFlag() string {
	if k.config.Namespace == nil {
		return ""
	}
	return *k.config.Namespace
}

// client returns a client for toolgate's API and the namespace to use.
func (k *kubeFlags) client() (client.Client, string, error) {
	c, _, ns, err := k.connect()
	return c, ns, err
}

// connect returns a client for toolgate's API, the REST config it uses and the namespace.
func (k *kubeFlags) connect() (client.Client, *rest.Config, string, error) {
	// Before the kubeconfig is read or anything sent: a namespace no object can be in.
	if p := k.namespaceFlagProblem(); p != "" {
		return nil, nil, "", errors.New(p)
	}
	cfg, err := k.config.ToRESTConfig()
	if err != nil {
		return nil, nil, "", fmt.Errorf("loading the kubeconfig: %w", err)
	}
	ns, _, err := k.config.ToRawKubeConfigLoader().Namespace()
	if err != nil {
		return nil, nil, "", fmt.Errorf("reading the namespace from the kubeconfig: %w", err)
	}
	if p := nameProblem("the kubeconfig context's namespace", ns, dnsLabel); p != "" {
		return nil, nil, "", errors.New(p)
	}
	scheme := runtime.NewScheme()
	if err := safetyv1alpha1.AddToScheme(scheme); err != nil {
		return nil, nil, "", err
	}
	if err := corev1.AddToScheme(scheme); err != nil { // namespaces, for -n's completion
		return nil, nil, "", err
	}
	c, err := client.New(cfg, client.Options{Scheme: scheme})
	if err != nil {
		return nil, nil, "", fmt.Errorf("connecting to %s: %w", cfg.Host, err)
	}
	return c, cfg, ns, nil
}
