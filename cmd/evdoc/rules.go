package main

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/generator/report"
)

func newRulesCmd(stdout io.Writer) *cobra.Command {
	var format string
	cmd := &cobra.Command{
		Use: "rules",
		Example: "  evdoc rules\n" +
			"  evdoc rules --format=json",
		Short: "List the rules evdoc reports (the rule catalogue)",
		Long: "rules lists every rule evdoc reports, with its default severity and what it finds\n" +
			"(docs/guide/rules.md has the same table with how to resolve each finding). A project\n" +
			"changes a rule's severity, or turns it off, in evdoc.toml:\n\n" +
			"  [rules]\n  link-missing-page = \"error\"   # error, warning, note or off\n\n" +
			"The core rules, which judge the numbers a page publishes (docs/guide/rules.md names\n" +
			"them), cannot be lowered by the repository being checked: a setting other than\n" +
			"\"error\" is an error at its evdoc.toml line.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if !slices.Contains(report.RuleFormats, format) {
				return &exitError{2, fmt.Errorf("--format=%s: expected one of %s", format, strings.Join(report.RuleFormats, ", "))}
			}
			if err := report.WriteRules(stdout, format, diag.Catalogue()); err != nil {
				return &exitError{2, err}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&format, "format", "text", "output `FORMAT`: text, markdown (the rule table of docs/guide/rules.md) or json")
	return cmd
}
