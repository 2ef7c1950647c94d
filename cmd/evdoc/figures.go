package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/generator/figure/output"
)

func newFiguresCmd(root *string, opts *globalOptions, stdout, stderr io.Writer) *cobra.Command {
	var checkOnly bool
	cmd := &cobra.Command{
		Use:     "figures",
		Example: "  evdoc figures            # render into assets/figures\n  evdoc figures --check    # CI: fail when a committed figure is stale",
		Short:   "Render every figure (PNG and SVG per language) into " + output.OutputDir,
		Long: "Renders every figures/NAME.toml from the evidence into " + output.OutputDir + "/NAME.LANG.png,\n" +
			"NAME.LANG.svg (text as outlines) and NAME.json (the evidence values it was drawn from).\n" +
			"The output is byte-identical across runs. With --check nothing is written: each stale\n" +
			"or missing figure is reported with the evidence change that made it stale (exit 1).",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			s, err := loadSite(cmd.Context(), *root, opts.load())
			if err != nil {
				return &exitError{2, err}
			}
			var ds diag.List
			for _, f := range s.Findings {
				if f.Rule == diag.FigureSpec || f.Rule == diag.FigureData {
					ds = append(ds, f)
				}
			}
			proj, err := s.FigureProject()
			if err != nil {
				return &exitError{2, err}
			}
			for _, f := range s.Figures {
				ds = append(ds, f.Validate(s.Store, proj.Langs, proj.Fonts, opts.check, s.Config.Markdown)...)
			}
			if ds.HasErrors() {
				ds.Sort()
				printDiags(stdout, ds)
				return &exitError{1, nil}
			}
			if checkOnly {
				stale := proj.Check()
				printDiags(stdout, stale)
				if len(stale) > 0 {
					return &exitError{1, fmt.Errorf("%d figure file(s) stale or missing", len(stale))}
				}
				return nil
			}
			written, err := proj.Write()
			for _, w := range written {
				fmt.Fprintln(stderr, "evdoc: wrote", w)
			}
			// A file that cannot be written (a full disk, a directory
			// leading out of the project) is evdoc unable to run (2); a
			// figure that cannot be drawn is a finding (1).
			var we *output.WriteError
			if errors.As(err, &we) {
				return &exitError{2, err}
			}
			if err != nil {
				return &exitError{1, err}
			}
			fmt.Fprintf(stderr, "evdoc: %d figure(s), %d file(s) changed\n", len(s.Figures), len(written))
			return nil
		},
	}
	cmd.Flags().BoolVar(&checkOnly, "check", false, "write nothing; exit 1 naming each stale or missing figure")
	opts.addJudgeFlags(cmd, root)
	return cmd
}
