package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/spf13/cobra"

	"github.com/evdoc-lab/evdoc/generator/claim"
	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/generator/fix"
	"github.com/evdoc-lab/evdoc/generator/report"
	"github.com/evdoc-lab/evdoc/generator/site"
	"github.com/evdoc-lab/evdoc/internal/atomicfile"
	"github.com/evdoc-lab/evdoc/internal/interrupt"
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
			findings, err := interrupt.Wait(ctx, func() diag.List {
				return site.NewCheckerWith(s, site.CheckerOptions{Check: opts.check, CountsOnly: true}).Diagnostics()
			})
			if err != nil {
				return &exitError{2, err}
			}
			// The mismatches of each page are planned with that page's
			// parse (fix.Plan); every other finding remains as it is.
			isPage := make(map[string]bool, len(s.Pages))
			for _, p := range s.Pages {
				isPage[p.Path] = true
			}
			mismatches := map[string]diag.List{}
			var rest diag.List
			for _, d := range findings {
				if d.Rule == diag.ClaimMismatch && isPage[d.Pos.File] {
					mismatches[d.Pos.File] = append(mismatches[d.Pos.File], d)
				} else {
					rest = append(rest, d)
				}
			}
			_, problems, _ := fix.Plan(nil, rest, fix.Options{AllowScale: allowScale})
			rewritten, pending := 0, 0
			md := claim.NewMarkdown()
			for _, p := range s.Pages {
				if ctx.Err() != nil {
					// Stop between pages; the ones done stay done.
					_ = report.WriteFixSummary(stderr, rewritten, true)
					return &exitError{1, nil}
				}
				if len(mismatches[p.Path]) == 0 {
					continue
				}
				var edits map[string][]fix.Edit
				var old []byte
				err := s.WithParsed(p, md, func(pp *claim.Page) error {
					var remaining diag.List
					edits, remaining, _ = fix.Plan([]*claim.Page{pp}, mismatches[p.Path], fix.Options{AllowScale: allowScale})
					problems = append(problems, remaining...)
					old = pp.Source
					return nil
				})
				if err != nil {
					// Changed or gone since it was judged: left alone.
					problems = append(problems, diag.Errorf(diag.Position{File: p.Path}, diag.FixChanged, "%v", atomicfile.ErrChanged))
					continue
				}
				es := edits[p.Path]
				if len(es) == 0 {
					continue
				}
				nw := fix.Apply(old, es)
				if dryRun {
					if err := report.WriteFixDiff(stdout, p.Path, old, nw); err != nil {
						return &exitError{2, err}
					}
					pending += len(es)
					continue
				}
				err = atomicfile.ReplaceIfUnchanged(filepath.Join(*root, filepath.FromSlash(p.Path)), old, nw, site.TempDir(*root))
				if errors.Is(err, atomicfile.ErrChanged) {
					problems = append(problems, diag.Errorf(diag.Position{File: p.Path}, diag.FixChanged, "%v", err))
					continue
				}
				if err != nil {
					return &exitError{2, err}
				}
				_ = report.WriteRewrites(stderr, es)
				rewritten += len(es)
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
	return cmd
}

// staleTemp matches the temporary files fix.WriteAtomic creates
// (".PAGE.md.evdoc-RANDOM"); one left behind means a run was killed.
var staleTemp = regexp.MustCompile(`^\..+\.evdoc-[0-9]+$`)

// removeStaleTemps deletes the temporary page files a killed fix left:
// in the project's temporary directory and, from older evdoc versions
// that wrote them beside the page, in the content directories. The
// caller holds the project lock, so no running fix owns them.
func removeStaleTemps(s *site.Site, stderr io.Writer) {
	_ = os.RemoveAll(site.TempDir(s.Root))
	for _, lang := range s.Config.Ordered() {
		dir := filepath.Join(s.Root, lang.ContentDir)
		_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			if d.Type().IsRegular() && staleTemp.MatchString(d.Name()) {
				if os.Remove(p) == nil {
					fmt.Fprintf(stderr, "evdoc: removed %s, left by an interrupted fix\n", p)
				}
			}
			return nil
		})
	}
}
