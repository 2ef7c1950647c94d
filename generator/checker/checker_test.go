package checker

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evdoc-lab/evdoc/generator/check"
	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/generator/project"
	"github.com/evdoc-lab/evdoc/internal/txtartest"
	"golang.org/x/tools/txtar"
)

// copyReferenceSite copies the reference project's inputs into a temporary
// directory (assets by symbolic link: they are only read).
func copyReferenceSite(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for _, name := range []string{"hugo.toml", "evdoc.toml", "content", "evidence", "figures", "i18n"} {
		if err := os.CopyFS(filepath.Join(dir, name), os.DirFS(filepath.Join(repoRoot, name))); err != nil && !os.IsNotExist(err) {
			// CopyFS copies directories; copy plain files by hand.
			b, rerr := os.ReadFile(filepath.Join(repoRoot, name))
			if os.IsNotExist(rerr) {
				continue
			}
			if rerr != nil {
				t.Fatal(rerr)
			}
			if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	abs, err := filepath.Abs(filepath.Join(repoRoot, "assets"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(abs, filepath.Join(dir, "assets")); err != nil {
		t.Fatal(err)
	}
	return dir
}

// verdicts renders a check's output for comparison.
func verdicts(t *testing.T, rs []check.Result, ds []string, cov any) string {
	t.Helper()
	b, err := json.Marshal(map[string]any{"results": rs, "diagnostics": ds, "coverage": cov})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestCheckerRecheck edits, adds and deletes pages of projects one step at
// a time, re-checks the touched files with a Checker, and holds that after
// each step its results, diagnostics and coverage equal those of a fresh
// Load and Check of the project.
func TestCheckerRecheck(t *testing.T) {
	projects := map[string]func(*testing.T) string{
		"reference": copyReferenceSite,
		"site-errors": func(t *testing.T) string {
			return txtartest.WriteFile(t, "testdata/check/site-errors.txtar")
		},
		"translation-claims": func(t *testing.T) string {
			return txtartest.WriteFile(t, "testdata/check/translation-claims.txtar")
		},
	}
	for name, mk := range projects {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			dir := mk(t)
			s, err := project.Load(dir)
			if err != nil {
				t.Fatal(err)
			}
			opt := check.DefaultOptions()
			c := NewChecker(s, opt)
			// counts keeps counts only, on its own copy of the site.
			s2, err := project.Load(dir)
			if err != nil {
				t.Fatal(err)
			}
			counts := NewCheckerWith(s2, CheckerOptions{Check: opt, CountsOnly: true})
			// lazy reads its pages lazily: it parses them to judge them
			// and drops them afterwards.
			s3, err := project.LoadWith(dir, project.LoadOptions{Lazy: true})
			if err != nil {
				t.Fatal(err)
			}
			lazy := NewCheckerWith(s3, CheckerOptions{Check: opt, CountsOnly: true})
			if n := parsedPages(lazy); n != 0 {
				t.Errorf("the lazily loaded site holds %d parsed pages after its check", n)
			}
			// The pages to edit: the first page of the source language
			// with claims and the first other-language page.
			var src, other, fallback *project.Page
			for _, p := range s.Pages {
				if p.Lang == s.Config.Source().Code && src == nil && len(p.Parsed.Claims) > 0 {
					src = p
				}
				if p.Lang == s.Config.Source().Code && fallback == nil {
					fallback = p
				}
				if p.Lang != s.Config.Source().Code && other == nil {
					other = p
				}
			}
			if src == nil {
				src = fallback
			}
			if src == nil || other == nil {
				t.Fatalf("project has no source page with claims (%v) or no other-language page (%v)", src, other)
			}
			srcDir := s.Config.Source().ContentDir
			newPage := filepath.ToSlash(filepath.Join(srcDir, "zz-recheck-new.md"))
			steps := []struct {
				name string
				file string
				edit func(old []byte) []byte // nil: delete the file
			}{
				{"wrong number", src.Path, func(old []byte) []byte {
					b := append([]byte(nil), old...)
					if len(src.Parsed.Claims) == 0 {
						return b
					}
					off := src.Parsed.Claims[0].Pos.Offset
					for i := off; i < len(b) && b[i] != ']'; i++ {
						if b[i] >= '0' && b[i] <= '9' {
							b[i] = '0' + (b[i]-'0'+3)%10
							break
						}
					}
					return b
				}},
				{"link to a missing page and raw HTML", src.Path, func(old []byte) []byte {
					return append(old, "\n\nSee [the new page](/zz-recheck-new/) and <b>this</b>.\n"...)
				}},
				{"new page the link names", newPage, func([]byte) []byte {
					return []byte("---\ntitle: \"New 3 pages\"\n---\n\nA page with 2 numbers in prose.\n")
				}},
				{"new page made a draft", newPage, func([]byte) []byte {
					return []byte("---\ntitle: \"New 3 pages\"\ndraft: true\n---\n\nA page with 2 numbers in prose.\n")
				}},
				{"new page published again", newPage, func([]byte) []byte {
					return []byte("---\ntitle: \"New 3 pages\"\n---\n\nA page with 2 numbers in prose.\n")
				}},
				{"translation edited", other.Path, func(old []byte) []byte {
					return []byte(strings.Replace(string(old), "\n\n", "\n\nAn added paragraph with 42 numbers.\n\n", 1))
				}},
				{"front matter broken", other.Path, func(old []byte) []byte {
					return append([]byte("---\ntitle: [unclosed\n---\n"), old...)
				}},
				{"translation deleted", other.Path, nil},
				{"new page deleted", newPage, nil},
				{"source page restored", src.Path, func([]byte) []byte { return src.Parsed.Source }},
			}
			for _, st := range steps {
				full := filepath.Join(dir, filepath.FromSlash(st.file))
				if st.edit == nil {
					if err := os.Remove(full); err != nil {
						t.Fatal(err)
					}
				} else {
					old, _ := os.ReadFile(full)
					if err := os.WriteFile(full, st.edit(old), 0o644); err != nil {
						t.Fatal(err)
					}
				}
				if err := c.Recheck(st.file); err != nil {
					t.Fatalf("%s: %v", st.name, err)
				}
				if err := counts.Recheck(st.file); err != nil {
					t.Fatalf("%s: %v", st.name, err)
				}
				if err := lazy.Recheck(st.file); err != nil {
					t.Fatalf("%s: %v", st.name, err)
				}
				if n := parsedPages(lazy); n != 0 {
					t.Errorf("%s: the lazily loaded site holds %d parsed pages after the re-check", st.name, n)
				}
				fresh, err := project.Load(dir)
				if err != nil {
					t.Fatal(err)
				}
				frs, fds := Check(fresh, opt)
				want := verdicts(t, frs, diagStrings(fds), Coverage(fresh))
				got := verdicts(t, c.Results(), diagStrings(c.Diagnostics()), c.Coverage())
				if got != want {
					t.Errorf("%s: re-checked verdicts differ from a fresh check:\nfresh:     %.2000s\nrechecked: %.2000s", st.name, diagStrings(fds), diagStrings(c.Diagnostics()))
				}
				matched := 0
				for _, r := range frs {
					if r.OK {
						matched++
					}
				}
				if m, n := counts.Counts(); m != matched || n != len(frs) {
					t.Errorf("%s: Counts() = %d/%d, a fresh check %d/%d", st.name, m, n, matched, len(frs))
				}
				if got := verdicts(t, counts.Results(), diagStrings(counts.Diagnostics()), counts.Coverage()); got != want {
					t.Errorf("%s: the counts-only checker's verdicts differ from a fresh check", st.name)
				}
				if got := verdicts(t, lazy.Results(), diagStrings(lazy.Diagnostics()), lazy.Coverage()); got != want {
					t.Errorf("%s: the lazy checker's verdicts differ from a fresh check:\nfresh: %.2000s\nlazy:  %.2000s", st.name, diagStrings(fds), diagStrings(lazy.Diagnostics()))
				}
				if m, n := lazy.Counts(); m != matched || n != len(frs) {
					t.Errorf("%s: lazy Counts() = %d/%d, a fresh check %d/%d", st.name, m, n, matched, len(frs))
				}
				if len(c.Site().Pages) != len(fresh.Pages) {
					t.Errorf("%s: %d pages after re-check, %d in a fresh load", st.name, len(c.Site().Pages), len(fresh.Pages))
				}
			}
		})
	}
}

// TestCheckerRecheckLinkTargets holds a Checker's link findings to a
// fresh check's after edits that change what a link names while no page
// comes or goes: a translation that stops and starts again being the
// fallback of its source at another path (from where the source's
// relative links resolve), a linked page that becomes a draft, and a
// section whose cascade hides the pages under it.
func TestCheckerRecheckLinkTargets(t *testing.T) {
	dir := txtartest.WriteFile(t, "testdata/recheck/link-targets.txtar")
	s, err := project.LoadWith(dir, project.LoadOptions{Lazy: true})
	if err != nil {
		t.Fatal(err)
	}
	opt := check.DefaultOptions()
	c := NewCheckerWith(s, CheckerOptions{Check: opt, CountsOnly: true})
	steps := []struct{ name, file, content string }{
		{"translated", "content/ja/docs/other/a2.md", "---\ntitle: a2\ntranslationKey: akey\n---\n\n[L1](/docs/guide/x/) [L2](/docs/guide/x/)\n"},
		{"a fallback again", "content/ja/docs/other/a2.md", "---\ntitle: a2\ntranslationKey: akey\n---\n"},
		{"a draft", "content/ko/docs/guide/x.md", "---\ntitle: x\ntranslationKey: x\ndraft: true\n---\n\nX.\n"},
		{"published again", "content/ko/docs/guide/x.md", "---\ntitle: x\ntranslationKey: x\n---\n\nX.\n"},
		{"hidden by its section's cascade", "content/ko/docs/guide/_index.md", "---\ntitle: guide\ntranslationKey: guide\ncascade:\n  build:\n    render: never\n---\n\nGuide.\n"},
		{"cascade removed", "content/ko/docs/guide/_index.md", "---\ntitle: guide\ntranslationKey: guide\n---\n\nGuide.\n"},
	}
	for _, st := range steps {
		if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(st.file)), []byte(st.content), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := c.Recheck(st.file); err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
		fresh, err := project.Load(dir)
		if err != nil {
			t.Fatal(err)
		}
		_, fds := Check(fresh, opt)
		want, got := strings.Join(diagStrings(fds), "\n"), strings.Join(diagStrings(c.Diagnostics()), "\n")
		if got != want {
			t.Errorf("%s: re-checked findings differ from a fresh check:\nfresh:\n%s\nrechecked:\n%s", st.name, want, got)
		}
	}
}

func diagStrings(ds diag.List) []string {
	out := make([]string, len(ds))
	for i, d := range ds {
		out[i] = d.String()
		for _, r := range d.Related {
			out[i] += "\n\t" + r.Pos.String() + ": " + r.Message
		}
	}
	return out
}

// parsedPages counts the pages of c's site that hold their parse.
func parsedPages(c *Checker) int {
	n := 0
	for _, p := range c.Site().Pages {
		if p.Parsed != nil {
			n++
		}
	}
	return n
}

// TestCheckerRecheckEvidenceUnit: a translation pair compares a claim
// written without a unit in its value's unit ([0.9975] on a ratio says
// what [99.75%] says), so an evidence edit that changes the unit turns
// the pair's verdict: after RecheckEvidence the checker's findings equal
// a fresh check's at each step (the pair agrees on the ratio, and
// disagrees once the value is declared in percent).
func TestCheckerRecheckEvidenceUnit(t *testing.T) {
	ar := `-- hugo.toml --
defaultContentLanguage = "ko"
[languages.ko]
  weight = 1
  contentDir = "content/ko"
[languages.ja]
  weight = 2
  contentDir = "content/ja"
-- evidence/s/evidence.toml --
id = "s"
title = "t"
date = "2026-11-03"
environment = "lab"
origin = "raw"
report = "lab run"

[[table]]
file = "t.md"
heading = "T"
name = "t"
units = { "*.rate" = "ratio" }
-- evidence/s/t.md --
## T
| run | rate |
|---|---|
| r | 0.9975 |
-- content/ko/docs/a.md --
---
title: "a"
translationKey: "a"
---

통과율은 [0.9975](ev:s/t.r.rate)였다.
-- content/ja/docs/a.md --
---
title: "a"
translationKey: "a"
---

成功率は[99.75%](ev:s/t.r.rate)だった。
`
	for _, index := range []bool{false, true} {
		t.Run(map[bool]string{false: "every page", true: "cites index"}[index], func(t *testing.T) {
			recheckEvidenceUnit(t, ar, index)
		})
	}
}

// recheckEvidenceUnit is TestCheckerRecheckEvidenceUnit with or without
// CheckerOptions.CitesIndex (with it, a pair is judged again only when
// the unit of a value its pages cite changed).
func recheckEvidenceUnit(t *testing.T, ar string, index bool) {
	dir := txtartest.Write(t, txtar.Parse([]byte(ar)))
	s, err := project.LoadWith(dir, project.LoadOptions{Lazy: index})
	if err != nil {
		t.Fatal(err)
	}
	opt := check.DefaultOptions()
	c := NewCheckerWith(s, CheckerOptions{Check: opt, CitesIndex: index, Stage: index, CountsOnly: index})
	pairFindings := func(ds []string) int {
		n := 0
		for _, d := range ds {
			if strings.Contains(d, string(diag.TranslationClaims)) {
				n++
			}
		}
		return n
	}
	for i, step := range []struct {
		unit string
		want int // translation-claims findings
		// value: the value written in the report (a change that
		// keeps the unit keeps the pair's verdict)
		value string
	}{{"ratio", 0, "0.9975"}, {"%", 1, "0.9975"}, {"%", 1, "0.9976"}, {"ratio", 0, "0.9976"}, {"ratio", 0, "0.9975"}} {
		if i > 0 {
			manifest := filepath.Join(dir, "evidence", "s", "evidence.toml")
			b, err := os.ReadFile(manifest)
			if err != nil {
				t.Fatal(err)
			}
			b = []byte(strings.Replace(string(b), `"*.rate" = "`+map[bool]string{true: "%", false: "ratio"}[step.unit == "ratio"]+`"`, `"*.rate" = "`+step.unit+`"`, 1))
			if err := os.WriteFile(manifest, b, 0o644); err != nil {
				t.Fatal(err)
			}
			report := filepath.Join(dir, "evidence", "s", "t.md")
			b, err = os.ReadFile(report)
			if err != nil {
				t.Fatal(err)
			}
			b = []byte(strings.Replace(strings.Replace(string(b), "| 0.9975 |", "| "+step.value+" |", 1), "| 0.9976 |", "| "+step.value+" |", 1))
			if err := os.WriteFile(report, b, 0o644); err != nil {
				t.Fatal(err)
			}
			c.RecheckEvidence()
		}
		fresh, err := project.Load(dir)
		if err != nil {
			t.Fatal(err)
		}
		_, fds := Check(fresh, opt)
		want, got := diagStrings(fds), diagStrings(c.Diagnostics())
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("value %s in %s: re-checked findings differ from a fresh check:\nfresh:     %v\nrechecked: %v", step.value, step.unit, want, got)
		}
		if n := pairFindings(got); n != step.want {
			t.Errorf("value %s in %s: %d translation-claims findings, want %d: %v", step.value, step.unit, n, step.want, got)
		}
	}
}
