package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
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

// reportOutput is -o for a command that prints a report rather than an object (ledger verify,
// replay): text, the summary for a person, or json, the whole report. --json, those commands'
// first spelling, stays as another way to say -o json, so scripts written for it keep working.
type reportOutput struct {
	format string
	json   bool
	flags  *pflag.FlagSet
}

// addReportOutput registers -o and --json on cmd, and completes -o with its two formats.
func addReportOutput(cmd *cobra.Command) *reportOutput {
	r := &reportOutput{flags: cmd.Flags()}
	r.flags.StringVarP(&r.format, "output", "o", outputText,
		"output `FORMAT`: text (the summary) or json (the full report)")
	r.flags.BoolVar(&r.json, "json", false, "the same as -o json")
	_ = cmd.RegisterFlagCompletionFunc("output",
		func(_ *cobra.Command, _ []string, toComplete string) ([]string, cobra.ShellCompDirective) {
			return completions([]string{outputText, outputJSON}, toComplete)
		})
	return r
}

// asJSON says whether the report is printed as JSON. An unknown format, or --json beside an
// explicit -o text, is a usage error naming the flag, found before the command reads anything:
// said on stderr and returned as the command's exit status.
func (r *reportOutput) asJSON(stderr io.Writer) (bool, error) {
	err := checkReportFormat(r.format)
	if err == nil && r.json && r.format == outputText && r.flags.Changed("output") {
		err = fmt.Errorf("--json and -o text disagree: give one of them")
	}
	if err != nil {
		sayVisible(stderr, "error: "+err.Error())
		return false, status(exitUsage)
	}
	return r.json || r.format == outputJSON, nil
}

// checkReportFormat is the one check of a report's -o (test's too).
func checkReportFormat(format string) error {
	if format != outputText && format != outputJSON {
		return fmt.Errorf("-o %s: want text or json", format)
	}
	return nil
}
