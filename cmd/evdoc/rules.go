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
	var long strings.Builder
	long.WriteString("List every rule evdoc reports, with its default severity and what it finds.\n" +
		"A project changes a rule's severity, or turns it off, in evdoc.toml:\n\n" +
		"  [rules]\n  link-missing-page = \"error\"   # error, warning, note or off\n\nRules:\n\n")
	_ = report.WriteRules(&long, "text", diag.Catalogue())
	cmd := &cobra.Command{
		Use:     "rules",
		Example: "  evdoc rules",
		Short:   "List the rules evdoc reports (the rule catalogue)",
		Long:    long.String(),
		Args:    cobra.NoArgs,
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
	cmd.Flags().StringVar(&format, "format", "text", "output format: text, markdown (README's rule table) or json")
	return cmd
}
