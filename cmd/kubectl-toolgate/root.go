package main

import (
	"fmt"
	"io"
	"strings"

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
before or after the command and its arguments, with every command but 'ledger tail' (which reads
files only, and whose -n is its number of records); 'kubectl toolgate options' lists them.

Exit status: 0 success, 1 the check ran and failed (a denied call, an unlocked plan, a broken
ledger, a refused approval), 2 usage, input or I/O error.`

// newRootCommand builds the plugin's command tree, with c's streams.
func newRootCommand(c *cli) *cobra.Command {
	var showVersion bool
	root := &cobra.Command{
		Use:   "kubectl-toolgate",
		Short: "toolgate's kubectl plugin",
		Long:  rootLong,
		// Shown as kubectl shows a plugin's commands: "kubectl toolgate explain".
		Annotations:   map[string]string{cobra.CommandDisplayNameAnnotation: "kubectl toolgate"},
		SilenceErrors: true, // runWith says what went wrong, and maps it to an exit status
		SilenceUsage:  true,
		// Arguments are commands: a word that is none is an unknown command, with or without
		// --version (cobra's own --version printed the version and ignored the rest of the line).
		RunE: func(cmd *cobra.Command, _ []string) error {
			if showVersion {
				printVersion(cmd.OutOrStdout())
				return nil
			}
			say(c.stderr, cmd.UsageString())
			return exitStatus(exitUsage)
		},
	}
	root.Flags().BoolVar(&showVersion, "version", false, "print the plugin's version, as the version command does")
	root.SetIn(c.stdin)
	root.SetOut(c.stdout)
	root.SetErr(c.stderr)
	root.SetUsageTemplate(usageTemplate)
	config := genericclioptions.NewConfigFlags(true)
	config.AddFlags(root.PersistentFlags())
	c.kube = &kubeFlags{config: config, flags: root.PersistentFlags()}
	root.AddCommand(commands(c)...)
	strictHelp(root)
	strictCompletion(root, c)
	c.completeConnectionFlags(root)
	return root
}

// newOptionsCommand lists the global flags, as 'kubectl options' does: each command's help
// names them but does not repeat them.
func newOptionsCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "options",
		Short: "list the kubectl connection flags (all commands take them but ledger tail)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			say(cmd.OutOrStdout(), "The following flags can be passed to any command but 'ledger tail':\n\n",
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
--server, --request-timeout, ...), taken by every command but 'ledger tail';
'kubectl toolgate options' lists them.{{end}}{{if .HasAvailableSubCommands}}

Use "{{.CommandPath}} [command] --help" for more information about a command.{{end}}
`

// strictHelp makes `help TOPIC` for a command that does not exist a usage error (exit 2, said on
// standard error), as an unknown command is; cobra's help command printed "Unknown help topic"
// and the root's usage on standard output, and exited 0.
func strictHelp(root *cobra.Command) {
	root.InitDefaultHelpCmd()
	for _, h := range root.Commands() {
		if h.Name() != "help" {
			continue
		}
		show := h.Run
		h.Run = nil
		h.RunE = func(cmd *cobra.Command, args []string) error {
			if target, rest, err := root.Find(args); err != nil || target == nil || len(rest) > 0 {
				return fmt.Errorf("unknown help topic %q", strings.Join(args, " "))
			}
			show(cmd, args)
			return nil
		}
	}
}
