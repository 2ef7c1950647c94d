package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/evdoc-lab/evdoc/generator/checker"
	"github.com/evdoc-lab/evdoc/generator/claim"
	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/generator/fix"
	"github.com/evdoc-lab/evdoc/generator/hugorun"
	"github.com/evdoc-lab/evdoc/generator/project"
	"github.com/evdoc-lab/evdoc/generator/report"
	"github.com/evdoc-lab/evdoc/internal/atomicfile"
	"github.com/evdoc-lab/evdoc/internal/interrupt"
	"github.com/spf13/cobra"
)

func newFixCmd(root *string, opts *globalOptions, stdout, stderr io.Writer) *cobra.Command {
	var dryRun, allowScale bool
	var lf lockFlags
	cmd := &cobra.Command{
		Use:     "fix",
		Example: "  evdoc fix --dry-run      # unified diff of the stale numbers (exit 1 if any)\n  evdoc fix                # rewrite them in place",
		Short:   "Rewrite stale claim literals to their evidence values, in the style written",
		Long: "fix rewrites every claim number that does not match its evidence to the evidence value,\n" +
			"keeping the precision, sign convention, full-width digits, separators, unit word and\n" +
			"approximation mark as written. Bytes outside the rewritten numbers never change.\n" +
			"It applies the suggested fixes of one check run: one judgement, one write per page.\n" +
			"A rewrite that changes a number by a factor of 1000 or more is refused (fix-scale)\n" +
			"unless --allow-scale is given.\n" +
			"Pages are written atomically; a page that changed since evdoc read it is left alone.\n" +
			"SIGINT or SIGTERM stops fix between pages: each page is either rewritten or as it was.\n" +
			"Exit status: 0 when nothing is left to fix, 1 when findings remain (with --dry-run: when\n" +
			"the diff is not empty), 2 when evdoc cannot run.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx := cmd.Context()
			if !dryRun {
				l, err := lockProject(ctx, *root, "fix", lf, stderr)
				if err != nil {
					return err
				}
				defer l.Unlock()
			}
			// Pages are loaded lazily and parsed one at a time: to be
			// judged, then again to be rewritten when they have a fix.
			s, err := loadSite(ctx, *root, lazyLoad(opts.load()))
			if err != nil {
				return &exitError{2, err}
			}
			if !dryRun {
				removeStaleTemps(s, stderr)
			}
			// One judgement: the suggested fixes of this check run are
			// applied, and its other findings are what remains.
			plans, problems, err := planFixes(ctx, s, opts, allowScale)
			if err != nil {
				return &exitError{2, err}
			}
			rewritten, pending := 0, 0
			for _, pl := range plans {
				if ctx.Err() != nil {
					// Stop between pages; the ones done stay done.
					_ = report.WriteFixSummary(stderr, rewritten, true)
					return &exitError{1, nil}
				}
				nw := fix.Apply(pl.old, pl.edits)
				if dryRun {
					if err := report.WriteFixDiff(stdout, pl.page, pl.old, nw); err != nil {
						return &exitError{2, err}
					}
					pending += len(pl.edits)
					continue
				}
				err = atomicfile.ReplaceIfUnchanged(filepath.Join(*root, filepath.FromSlash(pl.page)), pl.old, nw, hugorun.TempDir(*root))
				if errors.Is(err, atomicfile.ErrChanged) {
					problems = append(problems, diag.Errorf(diag.Position{File: pl.page}, diag.FixChanged, "%v", err))
					continue
				}
				if err != nil {
					return &exitError{2, err}
				}
				_ = report.WriteRewrites(stderr, pl.edits)
				rewritten += len(pl.edits)
			}
			if rewritten > 0 {
				// What remains is what a check of the rewritten pages
				// finds, not the first judgement's other findings: a
				// translation finding caused by a number just rewritten
				// is gone, and the exit status is a fresh check's.
				s, err := loadSite(ctx, *root, lazyLoad(opts.load()))
				if err != nil {
					return &exitError{2, err}
				}
				again, after, err := planFixes(ctx, s, opts, allowScale)
				if err != nil {
					return &exitError{2, err}
				}
				changed := problems[:0:0]
				for _, d := range problems {
					if d.Rule == diag.FixChanged {
						changed = append(changed, d)
					}
				}
				problems = append(changed, after...)
				for _, pl := range again {
					// Still stale after the rewrite: reported as
					// check reports it.
					problems = append(problems, pl.stale...)
				}
			}
			if !dryRun {
				_ = report.WriteFixSummary(stderr, rewritten, false)
			} else {
				// Only what fix itself cannot do; the diff shows the rest.
				var own diag.List
				for _, d := range problems {
					if strings.HasPrefix(string(d.Rule), "fix-") {
						own = append(own, d)
					}
				}
				problems = own
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
	cmd.Flags().BoolVar(&allowScale, "allow-scale", false, "allow rewriting a number by a factor of 1000 or more (refused by default: such a change is almost always a unit or digit-grouping mistake)")
	lf.register(cmd)
	opts.addJudgeFlags(cmd, root)
	return cmd
}

// removeStaleTemps deletes the temporary page files a killed fix left in
// the project's temporary directory (.evdoc/tmp, evdoc's own, under the
// project lock so no running fix owns them). Nothing else is deleted: a
// file named like a temporary file in a content directory — which may
// lie outside the project (contentDir = "../elsewhere") — is not evdoc's
// to remove.
func removeStaleTemps(s *project.Site, stderr io.Writer) {
	dir := hugorun.TempDir(s.Root)
	if entries, _ := os.ReadDir(dir); len(entries) > 0 {
		fmt.Fprintf(stderr, "evdoc: removed %d temporary file(s) left by an interrupted fix in %s\n", len(entries), dir)
	}
	_ = os.RemoveAll(dir)
}

// pagePlan is the rewrite of one page's stale numbers: the page as read
// and the edits, with the claim-mismatch findings they answer.
type pagePlan struct {
	page  string
	old   []byte
	edits []fix.Edit
	stale diag.List
}

// planFixes judges s once and plans the rewrite of every stale number,
// page by page with that page's parse (fix.Plan). It returns the plans
// and every other finding (those fix cannot act on, and the mismatches it
// refuses, as fix-* findings).
func planFixes(ctx context.Context, s *project.Site, opts *globalOptions, allowScale bool) ([]pagePlan, diag.List, error) {
	findings, err := interrupt.Wait(ctx, func() diag.List {
		return checker.NewCheckerWith(s, checker.CheckerOptions{Check: opts.check, CountsOnly: true}).Diagnostics()
	})
	if err != nil {
		return nil, nil, err
	}
	// the files fix rewrites: pages, and figure specs (their texts'
	// claims, in TOML strings)
	rewritable := make(map[string]bool, len(s.Pages)+len(s.Figures))
	for _, p := range s.Pages {
		rewritable[p.Path] = true
	}
	for _, f := range s.Figures {
		rewritable[f.File] = true
	}
	mismatches := map[string]diag.List{}
	var rest diag.List
	for _, d := range findings {
		if d.Rule == diag.ClaimMismatch && rewritable[d.Pos.File] {
			mismatches[d.Pos.File] = append(mismatches[d.Pos.File], d)
		} else {
			rest = append(rest, d)
		}
	}
	// a mismatch in any other file is listed with the reason
	_, problems, _ := fix.Plan(nil, rest, fix.Options{AllowScale: allowScale})
	var plans []pagePlan
	md := s.Config.NewMarkdown()
	for _, p := range s.Pages {
		if len(mismatches[p.Path]) == 0 {
			continue
		}
		pl := pagePlan{page: p.Path, stale: mismatches[p.Path]}
		err := s.WithParsed(p, md, func(pp *claim.Page) error {
			var edits map[string][]fix.Edit
			var remaining diag.List
			edits, remaining, _ = fix.Plan([]*claim.Page{pp}, pl.stale, fix.Options{AllowScale: allowScale})
			problems = append(problems, remaining...)
			pl.edits, pl.old = edits[p.Path], pp.Source
			return nil
		})
		if err != nil {
			// Changed or gone since it was judged: left alone.
			problems = append(problems, diag.Errorf(diag.Position{File: p.Path}, diag.FixChanged, "%v", atomicfile.ErrChanged))
			continue
		}
		if len(pl.edits) > 0 {
			plans = append(plans, pl)
		}
	}
	for _, f := range s.Figures {
		if len(mismatches[f.File]) == 0 {
			continue
		}
		// a figure text's fixes are edits of the spec file as loaded
		spec := &claim.Page{Path: f.File, Source: f.Src}
		pl := pagePlan{page: f.File, stale: mismatches[f.File], old: f.Src}
		edits, remaining, _ := fix.Plan([]*claim.Page{spec}, pl.stale, fix.Options{AllowScale: allowScale})
		problems = append(problems, remaining...)
		if pl.edits = edits[f.File]; len(pl.edits) > 0 {
			plans = append(plans, pl)
		}
	}
	return plans, problems, nil
}
