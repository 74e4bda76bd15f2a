package main

import (
	"io"
	"runtime/debug"

	"github.com/spf13/cobra"
)

// version is the plugin's release, stamped at build time (-ldflags "-X main.version=v0.1.0").
var version = ""

// pluginVersion is the stamped version, else the module version `go install ...@v0.1.0`
// records in the binary, else "dev" (a build from a clone).
func pluginVersion() string {
	if version != "" {
		return version
	}
	if info, ok := debug.ReadBuildInfo(); ok && info.Main.Version != "" && info.Main.Version != "(devel)" {
		return info.Main.Version
	}
	return "dev"
}

// newVersionCommand prints the plugin's version, as `kubectl version --client` prints kubectl's.
func newVersionCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "print the plugin's version",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			printVersion(cmd.OutOrStdout())
			return nil
		},
	}
}

// printVersion is what `version` and `--version` print.
func printVersion(w io.Writer) { sayln(w, "kubectl-toolgate", pluginVersion()) }
