package main

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/evdoc-lab/evdoc/generator/project"
	"github.com/evdoc-lab/evdoc/generator/report"
	"github.com/evdoc-lab/evdoc/generator/translation"
	"github.com/spf13/cobra"
)

// newI18nCmd is `evdoc i18n`: translation state (status) and recording
// the source version a translation matches (mark).
func newI18nCmd(root *string, stdout, stderr io.Writer) *cobra.Command {
	cmd := &cobra.Command{
		Use:     "i18n",
		Example: "  evdoc i18n status\n  evdoc i18n status --format=json\n  evdoc i18n mark content/ja/docs/page.md",
		Short:   "Translation state of each page (status) and marking a translation in sync with its source (mark)",
	}
	cmd.AddCommand(newI18nStatusCmd(root, stdout), newI18nMarkCmd(root, stdout, stderr))
	addRootFlag(cmd, root)
	return cmd
}

// pageArg resolves a page argument (relative to the current directory or
// to --root, or repository-relative) to a repository-relative path.
func pageArg(root, arg string) string {
	if abs, err := filepath.Abs(arg); err == nil {
		if rootAbs, err := filepath.Abs(root); err == nil {
			if rel, err := filepath.Rel(rootAbs, abs); err == nil && !strings.HasPrefix(rel, "..") {
				return filepath.ToSlash(rel)
			}
		}
	}
	return filepath.ToSlash(filepath.Clean(arg))
}

func newI18nMarkCmd(root *string, stdout, stderr io.Writer) *cobra.Command {
	var lf lockFlags
	cmd := &cobra.Command{
		Use:     "mark PAGE...",
		Example: "  evdoc i18n mark content/ja/docs/page.md",
		Short:   "Record in each translation's front matter the version (content hash) of its source page it now matches",
		Long: `mark writes evdoc_source_hash (the SHA-256 of the source page's body) and
evdoc_source_blocks (short hashes of its blocks) into the front matter of a
translation, so that check can warn when the source changes and name the
changed sections. PAGE is a translation, or a source page (all its non-empty
translations are marked). Only those two front matter lines change; each
file is replaced atomically.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			l, err := lockProject(cmd.Context(), *root, "i18n mark", lf, stderr)
			if err != nil {
				return err
			}
			defer l.Unlock()
			s, err := project.Load(*root)
			if err != nil {
				return &exitError{2, err}
			}
			set := s.Translations
			var failed bool
			for _, a := range args {
				p := set.Find(pageArg(*root, a))
				if p == nil {
					return &exitError{2, fmt.Errorf("%s: not a content page of this site; expected a path such as content/ja/docs/x.md", a)}
				}
				type pair struct{ src, t *translation.Page }
				var todo []pair
				if p.Lang == set.Source {
					for _, lang := range set.Languages {
						if t := set.Translation(p, lang.Code); t != nil && t != p && !t.IsEmpty() {
							todo = append(todo, pair{p, t})
						}
					}
					if len(todo) == 0 {
						return &exitError{2, fmt.Errorf("%s: no translation to mark (a fallback or missing page has nothing to record)", a)}
					}
				} else {
					src := set.Original(p)
					if src == nil {
						return &exitError{2, fmt.Errorf("%s: no %s page with translationKey %q to mark it against", a, set.Source, p.Key)}
					}
					if p.IsEmpty() {
						return &exitError{2, fmt.Errorf("%s: an empty placeholder (fallback) is not a translation; translate it first", a)}
					}
					todo = append(todo, pair{src, p})
				}
				for _, pr := range todo {
					if err := translation.Mark(filepath.Join(*root, filepath.FromSlash(pr.t.Path)), pr.src, pr.t); err != nil {
						fmt.Fprintf(stderr, "evdoc: %s: %v\n", pr.t.Path, err)
						failed = true
						continue
					}
					fmt.Fprintf(stdout, "%s: marked in sync with %s (%s)\n", pr.t.Path, pr.src.Path, translation.SourceHash(pr.src))
				}
			}
			if failed {
				return &exitError{2, nil}
			}
			return nil
		},
	}
	lf.register(cmd)
	return cmd
}

func newI18nStatusCmd(root *string, stdout io.Writer) *cobra.Command {
	var format string
	cmd := &cobra.Command{
		Use:     "status",
		Example: "  evdoc i18n status\n  evdoc i18n status --format=json",
		Short:   "Per page: its languages, each one's state (in sync, stale, unmarked, fallback, missing) and parity findings",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if format != "text" && format != "json" {
				return &exitError{2, fmt.Errorf("--format %q: expected text or json", format)}
			}
			s, err := project.Load(*root)
			if err != nil {
				return &exitError{2, err}
			}
			return report.WriteI18nStatus(stdout, format, s.Translations.Status(), s.Translations.Source)
		},
	}
	cmd.Flags().StringVar(&format, "format", "text", "output `FORMAT`: text or json (one object per page)")
	return cmd
}
