package checker

import (
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/generator/hosttheme"
	"github.com/evdoc-lab/evdoc/generator/i18n"
	"github.com/evdoc-lab/evdoc/generator/project"
	"github.com/evdoc-lab/evdoc/generator/style"
	"github.com/evdoc-lab/evdoc/internal/safefile"
)

// checkStyleStrings reports glossary variants in the figure specs' texts
// and in the i18n files of the project and its themes, in every format
// Hugo reads (i18n/LANG.toml, .yaml, .yml, .json); a site without a
// glossary has none.
func checkStyleStrings(s *project.Site) diag.List {
	g := s.Glossary
	if g == nil || len(g.Terms) == 0 {
		return nil
	}
	var langs []string
	for _, l := range s.Config.Ordered() {
		langs = append(langs, l.Code)
	}
	var ds diag.List
	for _, f := range s.Figures {
		ds = append(ds, style.CheckStrings(g, f.File, f.Src, style.LastKeyLanguage(langs))...)
	}
	dirs := []string{"i18n"}
	for _, t := range s.Config.Themes {
		dirs = append(dirs, path.Join(hosttheme.Dir(s.Root, t), "i18n"))
	}
	for _, dir := range dirs {
		entries, err := os.ReadDir(filepath.Join(s.Root, filepath.FromSlash(dir)))
		if err != nil {
			continue // no i18n directory; an unreadable one is reported by the i18n string check
		}
		var names []string
		for _, e := range entries {
			if i18n.IsFile(e.Name()) && e.Type().IsRegular() {
				names = append(names, e.Name())
			}
		}
		sort.Strings(names)
		for _, n := range names {
			rel := path.Join(dir, n)
			src, err := safefile.ReadFile(s.Root, rel, safefile.SpecMaxSize)
			if err != nil {
				continue // reported by the i18n string check
			}
			lang := style.FileLanguage(rel)
			if strings.EqualFold(path.Ext(n), ".toml") {
				ds = append(ds, style.CheckStrings(g, rel, src, lang)...)
				continue
			}
			strs, _ := i18n.Strings(rel, src) // a malformed file is reported by the i18n string check
			texts := make([]style.Text, len(strs))
			for i, t := range strs {
				texts[i] = style.Text{Lang: lang(nil), Text: t.Text, Start: t.Start, End: t.End, Exact: t.Exact, TextStart: t.TextStart}
			}
			ds = append(ds, style.CheckTexts(g, rel, src, texts)...)
		}
	}
	return ds
}
