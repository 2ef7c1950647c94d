package main

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"

	udiff "github.com/aymanbagabas/go-udiff"
	"github.com/spf13/cobra"

	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/generator/fix"
	"github.com/evdoc-lab/evdoc/generator/site"
)

func newFixCmd(root *string, opts *globalOptions, stdout, stderr io.Writer) *cobra.Command {
	var dryRun bool
	cmd := &cobra.Command{
		Use:   "fix",
		Short: "Rewrite stale claim literals to their evidence values, in the style written",
		Long: "fix rewrites every claim number that does not match its evidence to the evidence value,\n" +
			"keeping the precision, sign convention, full-width digits, separators, unit word and\n" +
			"approximation mark as written. Bytes outside the rewritten numbers never change.\n" +
			"Pages are written atomically; a page that changed since evdoc read it is left alone.\n" +
			"Exit status: 0 when nothing is left to fix, 1 when findings remain (with --dry-run: when\n" +
			"the diff is not empty), 2 when evdoc cannot run.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			s, err := site.Load(*root)
			if err != nil {
				return &exitError{2, err}
			}
			opt := opts.check
			var problems diag.List
			rewritten, pending := 0, 0
			for _, p := range s.Pages {
				edits, ds := fix.Edits(p.Parsed, s.Store, opt)
				problems = append(problems, ds...)
				if len(edits) == 0 {
					continue
				}
				old := p.Parsed.Source
				nw := fix.Apply(old, edits)
				if dryRun {
					fmt.Fprint(stdout, udiff.Unified("a/"+p.Path, "b/"+p.Path, string(old), string(nw)))
					pending += len(edits)
					continue
				}
				err := fix.WriteAtomic(filepath.Join(*root, filepath.FromSlash(p.Path)), old, nw)
				if errors.Is(err, fix.ErrChanged) {
					problems = append(problems, diag.Errorf(diag.Position{File: p.Path}, diag.FixChanged, "%v", err))
					continue
				}
				if err != nil {
					return &exitError{2, err}
				}
				for _, e := range edits {
					fmt.Fprintf(stderr, "%s: %q -> %q (%s)\n", e.Pos, e.Old, e.New, e.Ref)
				}
				rewritten += len(edits)
			}
			if !dryRun {
				fmt.Fprintf(stderr, "evdoc: %d literal(s) rewritten\n", rewritten)
				if s, err = site.Load(*root); err != nil {
					return &exitError{2, err}
				}
			}
			_, ds := s.Check(opt)
			if !dryRun {
				problems = append(problems, ds...)
			}
			problems = s.Rules.Apply(problems) // evdoc.toml [rules], as Check applied them
			problems.Sort()
			printDiags(stdout, problems)
			if problems.HasErrors() || pending > 0 {
				return &exitError{1, nil} // --dry-run: stale numbers remain
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&dryRun, "dry-run", false, "print a unified diff instead of writing")
	return cmd
}
