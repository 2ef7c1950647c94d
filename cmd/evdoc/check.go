package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/evdoc-lab/evdoc/generator/check"
	"github.com/evdoc-lab/evdoc/generator/checker"
	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/generator/project"
	"github.com/evdoc-lab/evdoc/generator/report"
	"github.com/evdoc-lab/evdoc/generator/site"
	"github.com/evdoc-lab/evdoc/generator/verify"
	"github.com/evdoc-lab/evdoc/internal/gctune"
	"github.com/evdoc-lab/evdoc/internal/interrupt"
	"github.com/spf13/cobra"
)

func newCheckCmd(root *string, opts *globalOptions, stdout, stderr io.Writer) *cobra.Command {
	var format string
	var strict, verbose bool
	cmd := &cobra.Command{
		Use:   "check",
		Short: "Compare every quoted number with its evidence; report mismatches as path:line:col",
		Long: "check judges every claim of every page against its evidence and reports each finding as\n" +
			"path:line:col: severity: message [rule], then one summary line on standard error\n" +
			"(-v adds each page's coverage before it). `evdoc rules` lists the rules; evdoc.toml [rules]\n" +
			"changes a rule's severity or turns it off.\n" +
			"Exit status: 0 clean (warnings allowed unless --strict), 1 error findings (or warnings\n" +
			"under --strict), 2 evdoc cannot run.",
		Example: "  evdoc check\n" +
			"  evdoc check --strict                 # CI: warnings fail too\n" +
			"  evdoc check --format=github          # GitHub Actions annotations\n" +
			"  evdoc check --format=sarif > evdoc.sarif\n" +
			"  evdoc check --root ~/lab-site --format=json",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if !slices.Contains(report.Formats, format) {
				return &exitError{2, fmt.Errorf("--format=%s: expected one of %s", format, strings.Join(report.Formats, ", "))}
			}
			// A one-shot run: the collector paced for a small heap
			// (internal/gctune), its goal held under 120 MiB.
			defer gctune.Start(120<<20, 400)()
			// Pages are read lazily: the Checker parses each translation
			// group when it judges it and drops it afterwards.
			lopt := opts.load()
			lopt.Lazy = true
			s, err := loadSite(cmd.Context(), *root, lopt)
			if err != nil {
				return &exitError{2, err}
			}
			// Only the json format prints every claim's verdict: each
			// page's are written to a spool file as the page is judged,
			// then copied out in page order. The others need the counts.
			copt := checker.CheckerOptions{Check: opts.check, CountsOnly: true}
			var spool *claimSpool
			if format == "json" {
				spool, err = newClaimSpool()
				if err != nil {
					return &exitError{2, err}
				}
				defer spool.close()
				copt.PageResults = spool.add
			}
			type judged struct {
				c  *checker.Checker
				ds diag.List
			}
			j, err := interrupt.Wait(cmd.Context(), func() judged {
				c := checker.NewCheckerWith(s, copt)
				return judged{c, c.Diagnostics()}
			})
			if err != nil {
				return &exitError{2, err}
			}
			c, ds := j.c, j.ds
			run := report.Run{Diagnostics: ds, Pages: len(s.Pages), Verbose: verbose}
			run.Matched, run.Total = c.Counts()
			if spool != nil {
				run.ClaimLines = func(w io.Writer) error { return spool.writeTo(w, s.Pages, c.FigureResults()) }
			}
			for _, cov := range c.Coverage() {
				run.Coverage = append(run.Coverage, report.Coverage{Page: cov.Page, Bound: cov.Bound, Measured: cov.Measured(), Exempt: cov.Exempt})
			}
			if err := report.WriteRun(stdout, stderr, format, run, report.FileSource(*root)); err != nil {
				return &exitError{2, err}
			}
			if ds.HasErrors() {
				return &exitError{1, nil}
			}
			if strict && ds.Count(diag.Warning) > 0 {
				return &exitError{1, fmt.Errorf("--strict: %d warning(s) fail the check", ds.Count(diag.Warning))}
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&strict, "strict", false, "fail (exit 1) on warnings too, for CI")
	cmd.Flags().StringVar(&format, "format", "text", "output `FORMAT`: text, json (every claim, finding and page coverage), github (workflow annotations) or sarif (SARIF 2.1.0)")
	addVerboseFlag(cmd, &verbose, "also print each page's coverage (measured numbers bound, exempt numbers)")
	opts.addJudgeFlags(cmd, root)
	return cmd
}

func newBuildCmd(root *string, opts *globalOptions, stdout, stderr io.Writer) *cobra.Command {
	var out string
	var lf lockFlags
	var hugoTimeout time.Duration
	var hugoFlag, keepStage string
	var strict, verbose bool
	cmd := &cobra.Command{
		Use:   "build",
		Short: "Check, render figures, and build the site with the pinned Hugo into --out",
		Long: "build checks the site like check, renders the figures, and runs Hugo on the project with\n" +
			"evdoc's generated pages and data; --out is replaced only after Hugo succeeded. It prints\n" +
			"the same findings as check; an error finding stops it (exit 1). Hugo's warnings are shown;\n" +
			"under --strict a warning finding stops it too, and so does a warning of Hugo's but its deprecation\n" +
			"notices (a theme's templates cause them; they are printed). It ends with\n" +
			"one summary line; -v also prints each step (check, staging, figures, Hugo's own report)\n" +
			"with its wall and CPU time (evdoc's, and Hugo's while Hugo runs).\n\n" + hugoLookupHelp,
		Example: "  evdoc build\n" +
			"  evdoc build --root ~/lab-site --out /tmp/site\n" +
			"  EVDOC_HUGO=/usr/local/bin/hugo evdoc build\n" +
			"  evdoc build --hugo=pinned\n" +
			"  evdoc build --strict                 # CI: warnings (evdoc's and Hugo's) fail the build",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			hugo, err := findHugo(cmd.Context(), hugoFlag, osHugoEnv(stderr))
			if err != nil {
				return errNoHugo(err)
			}
			l, err := lockProject(cmd.Context(), *root, "build", lf, stderr)
			if err != nil {
				return err
			}
			defer l.Unlock()
			// Pages are read lazily, as check reads them: Build's check
			// parses a translation group at a time.
			lopt := opts.load()
			lopt.Lazy = true
			s, err := loadSite(cmd.Context(), *root, lopt)
			if err != nil {
				return &exitError{2, err}
			}
			err = site.Build(cmd.Context(), s, site.BuildOptions{Out: out, Log: stderr, Check: opts.check, HugoTimeout: hugoTimeout, Hugo: hugo, Strict: strict, KeepStage: keepStage, Verbose: verbose,
				Findings: func(ds diag.List) { _ = report.Write(stdout, "text", ds, report.FileSource(*root)) }})
			var ds diag.List
			if asList(err, &ds) {
				if !ds.HasErrors() {
					return &exitError{1, fmt.Errorf("not built: %d warning(s) under --strict", ds.Count(diag.Warning))}
				}
				return &exitError{1, fmt.Errorf("not built: %d error(s)", ds.Count(diag.Error))}
			}
			var oe *verify.OutputError
			if errors.As(err, &oe) {
				return &exitError{1, err} // the site's templates, not the run, failed
			}
			if err != nil {
				return &exitError{2, err}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&out, "out", "public", "output `DIR`, relative to --root")
	cmd.Flags().BoolVar(&strict, "strict", false, "fail (exit 1, nothing built) on warnings too, evdoc's and Hugo's (but Hugo's deprecation notices)")
	cmd.Flags().StringVar(&hugoFlag, "hugo", "", "Hugo binary to run, a `PATH` (overrides EVDOC_HUGO; \"pinned\": the pinned Hugo, see the lookup order above)")
	cmd.Flags().DurationVar(&hugoTimeout, "hugo-timeout", 10*time.Minute, "stop Hugo (and fail, leaving --out as it was) when it runs longer than `DURATION` (0: no limit)")
	cmd.Flags().StringVar(&keepStage, "keep-stage", "", "move the staged Hugo project (generated pages and data/evdoc) to this new `DIR` instead of removing it, for profiling or debugging (hugo --source DIR --templateMetrics)")
	lf.register(cmd)
	addVerboseFlag(cmd, &verbose, "also print each step (check, staging, figures, the Hugo command, the output check) with its wall and CPU time, and Hugo's own report")
	opts.addJudgeFlags(cmd, root)
	return cmd
}

func asList(err error, ds *diag.List) bool {
	l, ok := err.(diag.List)
	if ok {
		*ds = l
	}
	return ok
}

// loadSite is project.LoadWith returning at once, with ctx's error, when
// ctx is done (SIGINT, SIGTERM): loading only reads, so it is abandoned.
func loadSite(ctx context.Context, root string, opt project.LoadOptions) (*project.Site, error) {
	type loaded struct {
		s   *project.Site
		err error
	}
	l, err := interrupt.Wait(ctx, func() loaded {
		s, err := project.LoadWith(root, opt)
		return loaded{s, err}
	})
	if err != nil {
		return nil, err
	}
	return l.s, l.err
}

// claimSpool holds the json claim lines of each page in a temporary file
// while the pages are judged (concurrently, in any order), so that
// `evdoc check --format=json` holds no page's verdicts.
type claimSpool struct {
	mu    sync.Mutex
	f     *os.File
	off   int64
	spans map[string][2]int64 // page path → offset and length in f
	err   error
}

func newClaimSpool() (*claimSpool, error) {
	f, err := os.CreateTemp("", "evdoc-claims-*.jsonl")
	if err != nil {
		return nil, fmt.Errorf("spooling the claims: %v", err)
	}
	return &claimSpool{f: f, spans: map[string][2]int64{}}, nil
}

// add writes the claim lines of page p (a CheckerOptions.PageResults).
func (sp *claimSpool) add(p *project.Page, rs []check.Result) {
	var b bytes.Buffer
	err := report.WriteClaims(&b, reportClaims(rs))
	sp.mu.Lock()
	defer sp.mu.Unlock()
	if sp.err != nil {
		return
	}
	if err == nil {
		_, err = sp.f.Write(b.Bytes())
	}
	if err != nil {
		sp.err = fmt.Errorf("spooling the claims: %v", err)
		return
	}
	sp.spans[p.Path] = [2]int64{sp.off, int64(b.Len())}
	sp.off += int64(b.Len())
}

// writeTo writes the claim lines of pages in their order, then those of
// figures: the order of Checker.Results.
func (sp *claimSpool) writeTo(w io.Writer, pages []*project.Page, figures []check.Result) error {
	if sp.err != nil {
		return sp.err
	}
	for _, p := range pages {
		span, ok := sp.spans[p.Path]
		if !ok {
			continue
		}
		if _, err := io.Copy(w, io.NewSectionReader(sp.f, span[0], span[1])); err != nil {
			return err
		}
	}
	return report.WriteClaims(w, reportClaims(figures))
}

func (sp *claimSpool) close() {
	sp.f.Close()
	os.Remove(sp.f.Name())
}

// reportClaims converts verdicts to what the json format writes.
func reportClaims(rs []check.Result) []report.Claim {
	out := make([]report.Claim, 0, len(rs))
	for _, r := range rs {
		out = append(out, report.Claim{Page: r.Claim.Page, Line: r.Claim.Pos.Line, Column: r.Claim.Pos.Column,
			Literal: r.Claim.Literal, Ref: r.Claim.Destination, OK: r.OK, Bindings: r.Bindings})
	}
	return out
}
