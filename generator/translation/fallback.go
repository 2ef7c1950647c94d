package translation

import (
	"bytes"
	"path"
	"strings"

	"go.yaml.in/yaml/v3"
)

// FallbackParam is the front matter field of a generated fallback page;
// the layouts read it to show the notice, mark links and keep the page out
// of hreflang alternates and the language switcher.
const FallbackParam = "evdoc_fallback"

// SourceParam is the front matter field of a page evdoc build generates
// that has no file of its own in the repository (a fallback without a
// target file, an evidence page): the repository-relative path of the
// file the page shows. A theme's edit link built from the page's file
// would name a file only the staged project has; the component's copy of
// such a link (hugo-book's docs/links/edit.html) names this one.
const SourceParam = "evdoc_source"

// fallbackParams is the evdoc_fallback front matter of a generated page.
type fallbackParams struct {
	Lang      string `yaml:"lang"`
	Label     string `yaml:"label"`
	Locale    string `yaml:"locale"`
	Source    string `yaml:"source"`
	SourceURL string `yaml:"source_url"`
}

// Fallback is one generated target-language page showing a source page.
type Fallback struct {
	Source *Page
	Target *Page // nil when the target language has no file at all
	Lang   Language
}

// Fallbacks returns, for each target language, the source-language pages
// it has no translation of: pages missing in the target, or present with
// front matter only. The generated page keeps the target's front matter
// (its own title) when there is one. An empty source page (a section with
// no body) without a target file gets none.
func (s *Set) Fallbacks() map[string][]Fallback {
	out := map[string][]Fallback{}
	for _, l := range s.Languages {
		if l.Code == s.Source {
			continue
		}
		for _, k := range s.order {
			g := s.groups[k]
			src := g[s.Source]
			if src == nil {
				continue
			}
			target := g[l.Code]
			if target != nil && !target.IsEmpty() {
				continue
			}
			if target == nil && src.IsEmpty() {
				continue
			}
			out[l.Code] = append(out[l.Code], Fallback{Source: src, Target: target, Lang: l})
		}
	}
	return out
}

// IsFallback reports whether the page of lang paired with p (p's own
// language included) is shown from the source language: absent or empty.
func (s *Set) IsFallback(p *Page, lang string) bool {
	if lang == s.Source {
		return false
	}
	orig := p
	if p.Lang != s.Source {
		orig = s.Original(p)
		if orig == nil {
			return false
		}
	}
	t := s.Translation(orig, lang)
	return t == nil && !orig.IsEmpty() || t != nil && t.IsEmpty()
}

// Render returns the generated page file: front matter (the target's,
// else the source's, plus evdoc_fallback) and the source body verbatim.
func (f Fallback) Render(src Language) ([]byte, error) {
	fm := map[string]any{}
	for k, v := range f.Source.FrontMatter {
		fm[k] = v
	}
	if f.Target != nil {
		for k, v := range f.Target.FrontMatter {
			fm[k] = v
		}
	}
	if f.Source.ExplicitKey {
		fm["translationKey"] = f.Source.Key
	}
	if f.Target == nil {
		fm[SourceParam] = f.Source.Path
	}
	fm[FallbackParam] = fallbackParams{Lang: src.Code, Label: src.Label, Locale: src.Locale, Source: f.Source.Path, SourceURL: f.Source.URL()}
	y, err := yaml.Marshal(fm)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	b.WriteString("---\n")
	b.Write(y)
	b.WriteString("---\n")
	b.Write(f.Source.Body())
	return b.Bytes(), nil
}

// File returns where the generated page goes, relative to the project
// root: the target's own file when there is one, else the source page's
// path in the target's content directory, with a language suffix
// ("x.ja.md") when the target shares the source's content directory.
func (f Fallback) File(src Language) string {
	if f.Target != nil {
		return f.Target.Path
	}
	rel := f.Source.Rel
	_, logical, section := FileLanguage(rel, src.Code, []string{src.Code})
	dir, _ := path.Split(rel)
	var base string
	switch {
	case section:
		base = "_index.md"
	case path.Base(rel) == "index.md" || strings.HasPrefix(path.Base(rel), "index."):
		base = "index.md"
	default:
		base = path.Base(logical) + ".md"
	}
	if f.Lang.ContentDir == src.ContentDir {
		base = strings.TrimSuffix(base, ".md") + "." + f.Lang.Code + ".md"
	}
	return path.Join(f.Lang.ContentDir, dir, base)
}
