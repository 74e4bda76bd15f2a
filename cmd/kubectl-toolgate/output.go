package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/printers"
)

// Output formats of test; explain and approve also take kubectl's (objectOutput).
const (
	outputText = "text"
	outputJSON = "json"
)

// objectOutput is -o for a command that prints an object: text, the default, is the command's own
// words for a person; json, yaml, name, jsonpath=..., go-template=... and the rest are
// cli-runtime's printers, exactly as kubectl prints objects.
type objectOutput struct {
	flags *genericclioptions.PrintFlags
}

// addObjectOutput registers -o and the printers' flags (--template, --allow-missing-template-keys,
// --show-managed-fields) on cmd; operation is what -o name says was done ("created").
func addObjectOutput(cmd *cobra.Command, operation string) *objectOutput {
	o := &objectOutput{flags: genericclioptions.NewPrintFlags(operation)}
	o.flags.AddFlags(cmd)
	cmd.Flags().Lookup("output").Usage = "Output `FORMAT`: text (the default, for a person) or one of: " +
		strings.Join(o.flags.AllowedFormats(), ", ") + "."
	// As kubectl completes -o: the formats, never file names.
	_ = cmd.RegisterFlagCompletionFunc("output",
		func(_ *cobra.Command, _ []string, toComplete string) ([]string, cobra.ShellCompDirective) {
			return completions(append([]string{outputText}, o.flags.AllowedFormats()...), toComplete)
		})
	return o
}

// text reports whether the command prints its own words.
func (o *objectOutput) text() bool {
	f := *o.flags.OutputFormat
	return f == "" || f == outputText
}

// format is -o as given.
func (o *objectOutput) format() string { return *o.flags.OutputFormat }

// printer returns the printer for -o, nil for text. Commands ask for it before they do anything,
// so a misspelt format or a template that does not parse changes nothing.
func (o *objectOutput) printer() (printers.ResourcePrinter, error) {
	if o.text() {
		return nil, nil
	}
	p, err := o.flags.ToPrinter()
	if genericclioptions.IsNoCompatiblePrinterError(err) {
		return nil, fmt.Errorf("-o %s: want text or one of: %s", o.format(), strings.Join(o.flags.AllowedFormats(), ", "))
	}
	if err != nil {
		return nil, fmt.Errorf("-o %s: %w", o.format(), err)
	}
	return p, nil
}
