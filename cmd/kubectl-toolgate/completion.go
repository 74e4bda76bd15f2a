package main

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"
	corev1 "k8s.io/api/core/v1"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
)

// Shell completion is cobra's: `kubectl toolgate completion bash|zsh|fish|powershell` prints the
// script for the plugin run on its own (as kubectl-toolgate), and the hidden __complete command
// answers both that script and kubectl, which runs kubectl_complete-toolgate (completionName,
// main.go) for `kubectl toolgate <TAB>`.

// completionShells are the shells cobra's completion command writes scripts for.
const completionShells = "bash, zsh, fish or powershell"

// strictCompletion adds cobra's completion command to root and makes it a usage error without a
// shell or with one it has no script for: cobra prints its help and exits 0 for both, which a
// script redirecting the output to a completion file takes for success.
func strictCompletion(root *cobra.Command, c *cli) {
	root.InitDefaultCompletionCmd()
	for _, cmd := range root.Commands() {
		if cmd.Name() != "completion" {
			continue
		}
		cmd.Args = func(_ *cobra.Command, args []string) error {
			if len(args) > 0 {
				return fmt.Errorf("unsupported shell %q: want %s", args[0], completionShells)
			}
			return nil
		}
		cmd.RunE = func(cmd *cobra.Command, _ []string) error {
			sayf(c.stderr, "completion: name a shell: %s\n%s", completionShells, cmd.UsageString())
			return exitStatus(exitUsage)
		}
	}
}

// completeConnectionFlags completes the values of kubectl's connection flags on root (and so on
// every command) as kubectl does: -n with the namespaces of the cluster the line's other flags
// reach, --context, --cluster and --user with the kubeconfig's names. Without it the shell offered
// file names for them.
func (c *cli) completeConnectionFlags(root *cobra.Command) {
	_ = root.RegisterFlagCompletionFunc("namespace", c.completeNamespaces)
	kubeconfigNames := map[string]func(clientcmdapi.Config) []string{
		"context": func(cfg clientcmdapi.Config) []string { return keys(cfg.Contexts) },
		"cluster": func(cfg clientcmdapi.Config) []string { return keys(cfg.Clusters) },
		"user":    func(cfg clientcmdapi.Config) []string { return keys(cfg.AuthInfos) },
	}
	for flag, names := range kubeconfigNames {
		_ = root.RegisterFlagCompletionFunc(flag,
			func(_ *cobra.Command, _ []string, toComplete string) ([]string, cobra.ShellCompDirective) {
				cfg, err := c.kube.config.ToRawKubeConfigLoader().RawConfig()
				if err != nil {
					return nil, cobra.ShellCompDirectiveNoFileComp
				}
				return completions(names(cfg), toComplete)
			})
	}
}

// keys are a kubeconfig map's names.
func keys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}

// completeNamespaces completes -n with the cluster's namespaces.
func (c *cli) completeNamespaces(cmd *cobra.Command, _ []string, typed string) ([]string, cobra.ShellCompDirective) {
	return c.completeNames(cmd, typed, &corev1.NamespaceList{}, false)
}

// completionTimeout bounds what a <TAB> waits for a cluster that does not answer.
const completionTimeout = 5 * time.Second

// completePlans completes a PLAN argument with the AgentPlans in the namespace the connection
// flags name.
func (c *cli) completePlans(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
	if len(args) > 0 {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	return c.completeNames(cmd, toComplete, &safetyv1alpha1.AgentPlanList{}, true)
}

// completeTools completes --tool with the registered AgentTools.
func (c *cli) completeTools(cmd *cobra.Command, _ []string, toComplete string) ([]string, cobra.ShellCompDirective) {
	return c.completeNames(cmd, toComplete, &safetyv1alpha1.AgentToolList{}, false)
}

// completeNames completes with the names of the objects the cluster lists into list (in the
// namespace the connection flags name, when inNamespace); nothing when it cannot be read.
func (c *cli) completeNames(cmd *cobra.Command, typed string, list client.ObjectList,
	inNamespace bool) ([]string, cobra.ShellCompDirective) {
	cl, ns, err := c.kube.client()
	if err != nil {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	ctx, cancel := context.WithTimeout(cmd.Context(), completionTimeout)
	defer cancel()
	var opts []client.ListOption
	if inNamespace {
		opts = append(opts, client.InNamespace(ns))
	}
	if err := cl.List(ctx, list, opts...); err != nil {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	items, err := apimeta.ExtractList(list)
	if err != nil {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	names := make([]string, 0, len(items))
	for _, o := range items {
		if m, ok := o.(metav1.Object); ok {
			names = append(names, m.GetName())
		}
	}
	return completions(names, typed)
}

// completions are the names that start with what was typed, sorted; never file names.
func completions(names []string, toComplete string) ([]string, cobra.ShellCompDirective) {
	names = slices.DeleteFunc(names, func(n string) bool { return !strings.HasPrefix(n, toComplete) })
	slices.Sort(names)
	return names, cobra.ShellCompDirectiveNoFileComp
}
