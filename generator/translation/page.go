// Package translation pairs the pages of a multilingual Hugo site the way
// Hugo pairs them, generates honest fallbacks for untranslated pages, and
// checks that each translation says what its source page says: the same
// claims, numbers and structure (parity), made from the current version of
// the source (staleness).
//
// Pairing follows Hugo: a page's language is the one of its content
// directory (languages.CODE.contentDir), unless its file name carries a
// language suffix ("page.ja.md"); two pages of different languages are
// translations of each other when they share a translationKey (front
// matter), or, without one, the same path within their content
// directories (language suffix removed). Pages of different kinds (a
// section's _index.md and a regular page) never pair. The source language
// is params.sourceLanguage, else defaultContentLanguage.
package translation

import (
	"bytes"
	"path"
	"strings"

	"github.com/evdoc-lab/evdoc/generator/claim"
)

// Language is one site language as hugo.toml declares it under
// [languages.CODE]: label, locale, weight and contentDir.
type Language struct {
	Code       string
	Label      string `toml:"label"`
	Locale     string `toml:"locale"`
	Weight     int    `toml:"weight"`
	ContentDir string `toml:"contentDir"`
	Title      string `toml:"title"`
}

// Page is one Markdown content file of one language.
//
// Path is repository-relative ("content/ko/docs/istio/x.md"); Rel is the
// path within the content directory as written ("docs/istio/x.ja.md");
// Logical is the page's path within its content directory without
// extension and language suffix, with "_index"/"index" files named by
// their directory ("docs/istio/x", "docs/istio", "" for the home page).
// Key pairs translations: the translationKey front matter field, else
// Logical, as Hugo pairs them; ExplicitKey tells which.
type Page struct {
	Lang        string
	Path        string
	Rel         string // path within the content directory
	Logical     string
	Key         string
	ExplicitKey bool
	Section     bool // an _index.md (list page)
	Title       string
	FrontMatter map[string]any
	Parsed      *claim.Page
}

// Body returns the page's Markdown after its front matter.
func (p *Page) Body() []byte { return p.Parsed.Source[p.Parsed.BodyStart:] }

// IsEmpty reports whether the page has front matter but no body: a
// translation placeholder that evdoc fills from the source language.
func (p *Page) IsEmpty() bool { return len(bytes.TrimSpace(p.Body())) == 0 }

// URL returns the page's path relative to its language root, such as
// "/docs/istio/x/" ("/" for the home page).
func (p *Page) URL() string {
	if p.Logical == "" {
		return "/"
	}
	return "/" + p.Logical + "/"
}

// kind is Hugo's page kind as far as pairing is concerned.
func (p *Page) kind() string {
	if p.Section {
		return "section"
	}
	return "page"
}

// FileLanguage returns the language of the content file rel (a path
// within a content directory such as "docs/x.ja.md") and its logical path
// (see Page.Logical) with whether it is a section (_index) file. A file
// name suffix naming one of codes ("x.ja.md", "_index.ja.md") sets the
// language, as in Hugo; otherwise the file has dirLang, the language of
// the content directory it was found in.
func FileLanguage(rel, dirLang string, codes []string) (lang, logical string, section bool) {
	lang = dirLang
	dir, base := path.Split(rel)
	dir = strings.TrimSuffix(dir, "/")
	name := strings.TrimSuffix(base, ".md")
	if i := strings.LastIndexByte(name, '.'); i > 0 {
		for _, c := range codes {
			if name[i+1:] == c {
				lang, name = c, name[:i]
				break
			}
		}
	}
	switch name {
	case "_index":
		return lang, dir, true
	case "index":
		return lang, dir, false
	}
	return lang, path.Join(dir, name), false
}
