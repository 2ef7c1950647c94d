package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/evdoc-lab/evdoc/generator/claim"
	"github.com/evdoc-lab/evdoc/generator/evidence"
	"github.com/evdoc-lab/evdoc/generator/impact"
	"github.com/evdoc-lab/evdoc/generator/project"
	"github.com/evdoc-lab/evdoc/generator/report"
	"github.com/evdoc-lab/evdoc/internal/safefile"
	"github.com/spf13/cobra"
)

func newImpactCmd(root *string, opts *globalOptions, stdout, stderr io.Writer) *cobra.Command {
	var format, base string
	cmd := &cobra.Command{
		Use:   "impact --base REV",
		Short: "List the evidence values changed since a git revision and the claims, figures and pages they move",
		Long: "impact compares every evidence value of the project with the same value at the git revision\n" +
			"--base names (a commit, branch or tag; the repository's git reads it, running no hook or filter)\n" +
			"and lists each value that changed (old → new, the raw line on both sides), was added or removed;\n" +
			"every claim citing a changed value, with its verdict on the old and on the new value and, where it\n" +
			"still passes, whether it now rounds to another literal at its precision; the figures drawn from\n" +
			"changed values (render them again with evdoc figures), the pages whose claims or figures changed,\n" +
			"and the translations quoting a changed value their source page quotes. An edit that changes no\n" +
			"value prints that it changes none. --format=markdown writes a GitHub job summary or pull-request\n" +
			"comment (the claims beyond the first ten, the values and the pages in collapsed sections; under\n" +
			"GitHub's 1 MiB summary limit). Exit status 0 whatever the verdicts (evdoc check judges them),\n" +
			"2 when the revision or the project cannot be read.",
		Example: "  evdoc impact --base origin/main\n" +
			"  evdoc impact --base HEAD~1 --format=json\n" +
			"  evdoc impact --base origin/main --format=markdown >> \"$GITHUB_STEP_SUMMARY\"",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			switch format {
			case "text", "json", "markdown":
			default:
				return &exitError{2, fmt.Errorf("--format=%s: expected text, json or markdown", format)}
			}
			if base == "" {
				return &exitError{2, fmt.Errorf("--base: expected the git revision to compare with (origin/main, HEAD~1, a tag)")}
			}
			// Pages are read lazily: only those that name a changed value
			// are parsed (Input.Read, Input.WithParsed).
			lopt := opts.load()
			lopt.Lazy = true
			s, err := project.LoadWith(*root, lopt)
			if err != nil {
				return &exitError{2, err}
			}
			md := s.Config.NewMarkdown()
			tmp, err := os.MkdirTemp("", "evdoc-impact-")
			if err != nil {
				return &exitError{2, err}
			}
			defer os.RemoveAll(tmp)
			dir, err := impact.ExtractTree(cmd.Context(), *root, base, tmp, []string{project.EvidenceDir})
			if err != nil {
				return &exitError{2, err}
			}
			old, _ := evidence.LoadWith(dir, project.EvidenceDir, opts.load().Evidence)
			r := impact.Compute(impact.Input{
				Base: base, Old: old, New: s.Store, Pages: s.Pages, Figures: s.Figures,
				Source: s.Config.SourceCode(), Options: opts.check,
				Read: func(p *project.Page) ([]byte, error) {
					return safefile.ReadPath(filepath.Join(s.Root, filepath.FromSlash(p.Path)), safefile.TextMaxSize) // as pages are loaded
				},
				WithParsed: func(p *project.Page, fn func(*claim.Page) error) error { return s.WithParsed(p, md, fn) },
			})
			if err := report.WriteImpact(stdout, format, r); err != nil {
				return &exitError{2, err}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&base, "base", "", "git `REV` to compare the evidence with (a commit, branch or tag)")
	cmd.Flags().StringVar(&format, "format", "text", "output `FORMAT`: text, json or markdown")
	opts.addJudgeFlags(cmd, root)
	return cmd
}
