package main

import (
	"io"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericclioptions"
)

// cli is what every command shares: the standard streams and kubectl's connection flags.
type cli struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	kube           *kubeFlags
}

// commands are the plugin's commands, one file each; a new command is a new file and one line here.
func commands(c *cli) []*cobra.Command {
	return []*cobra.Command{
		newTestCommand(c),
		newExplainCommand(c),
		newLedgerCommand(c),
		newReplayCommand(c),
		newApproveCommand(c),
		newOptionsCommand(),
		newVersionCommand(),
	}
}

const rootLong = `toolgate's kubectl plugin: decide a tool call offline as the admission webhook would, explain
the profile a plan is locked to, approve calls that need a person, verify and read the audit
ledger, and replay its decisions under candidate policies.

The kubectl connection flags (--kubeconfig, --context, -n, --as, --token, ...) work as with kubectl,
before or after the command and its arguments; 'kubectl toolgate options' lists them.

Exit status: 0 success, 1 the check ran and failed (a denied call, an unlocked plan, a broken
ledger, a refused approval), 2 usage, input or I/O error.`

// newRootCommand builds the plugin's command tree, with c's streams.
func newRootCommand(c *cli) *cobra.Command {
	root := &cobra.Command{
		Use:   "kubectl-toolgate",
		Short: "toolgate's kubectl plugin",
		Long:  rootLong,
		// Shown as kubectl shows a plugin's commands: "kubectl toolgate explain".
		Annotations:   map[string]string{cobra.CommandDisplayNameAnnotation: "kubectl toolgate"},
		Version:       pluginVersion(), // --version, as the version command
		SilenceErrors: true,            // runWith says what went wrong, and maps it to an exit status
		SilenceUsage:  true,
		RunE: func(cmd *cobra.Command, _ []string) error {
			say(c.stderr, cmd.UsageString())
			return exitStatus(exitUsage)
		},
	}
	root.SetIn(c.stdin)
	root.SetOut(c.stdout)
	root.SetErr(c.stderr)
	root.SetUsageTemplate(usageTemplate)
	config := genericclioptions.NewConfigFlags(true)
	config.AddFlags(root.PersistentFlags())
	c.kube = &kubeFlags{config: config, flags: root.PersistentFlags()}
	root.AddCommand(commands(c)...)
	strictCompletion(root, c)
	c.completeConnectionFlags(root)
	return root
}

// newOptionsCommand lists the global flags, as 'kubectl options' does: each command's help
// names them but does not repeat them.
func newOptionsCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "options",
		Short: "list the kubectl connection flags every command takes",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			say(cmd.OutOrStdout(), "The following flags can be passed to any command:\n\n",
				cmd.InheritedFlags().FlagUsages())
			return nil
		},
	}
}

// usageTemplate is cobra's, with the global flags named in one line instead of listed in every
// command's help (as kubectl does).
const usageTemplate = `Usage:{{if .Runnable}}
  {{.UseLine}}{{end}}{{if .HasAvailableSubCommands}}
  {{.CommandPath}} [command]{{end}}{{if .HasExample}}

Examples:
{{.Example}}{{end}}{{if .HasAvailableSubCommands}}

Available Commands:{{range .Commands}}{{if (or .IsAvailableCommand (eq .Name "help"))}}
  {{rpad .Name .NamePadding }} {{.Short}}{{end}}{{end}}{{end}}{{if .HasAvailableLocalFlags}}

Flags:
{{.LocalFlags.FlagUsages | trimTrailingWhitespaces}}{{end}}{{if .HasAvailableInheritedFlags}}

Global flags: the kubectl connection flags (--kubeconfig, --context, -n/--namespace, --as, --token,
--server, --request-timeout, ...); 'kubectl toolgate options' lists them.{{end}}{{if .HasAvailableSubCommands}}

Use "{{.CommandPath}} [command] --help" for more information about a command.{{end}}
`
