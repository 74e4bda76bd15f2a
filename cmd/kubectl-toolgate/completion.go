package main

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"
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

// completionTimeout bounds what a <TAB> waits for a cluster that does not answer.
const completionTimeout = 5 * time.Second

// completePlans completes a PLAN argument with the AgentPlans in the namespace the connection
// flags name; it completes nothing when the cluster cannot be read.
func (c *cli) completePlans(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
	if len(args) > 0 {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	cl, ns, err := c.kube.client()
	if err != nil {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	ctx, cancel := context.WithTimeout(cmd.Context(), completionTimeout)
	defer cancel()
	var plans safetyv1alpha1.AgentPlanList
	if err := cl.List(ctx, &plans, client.InNamespace(ns)); err != nil {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	names := make([]string, 0, len(plans.Items))
	for _, p := range plans.Items {
		names = append(names, p.Name)
	}
	return completions(names, toComplete)
}

// completeTools completes --tool with the registered AgentTools.
func (c *cli) completeTools(cmd *cobra.Command, _ []string, toComplete string) ([]string, cobra.ShellCompDirective) {
	cl, _, err := c.kube.client()
	if err != nil {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	ctx, cancel := context.WithTimeout(cmd.Context(), completionTimeout)
	defer cancel()
	var tools safetyv1alpha1.AgentToolList
	if err := cl.List(ctx, &tools); err != nil {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	names := make([]string, 0, len(tools.Items))
	for _, t := range tools.Items {
		names = append(names, t.Name)
	}
	return completions(names, toComplete)
}

// completions are the names that start with what was typed, sorted; never file names.
func completions(names []string, toComplete string) ([]string, cobra.ShellCompDirective) {
	names = slices.DeleteFunc(names, func(n string) bool { return !strings.HasPrefix(n, toComplete) })
	slices.Sort(names)
	return names, cobra.ShellCompDirectiveNoFileComp
}
