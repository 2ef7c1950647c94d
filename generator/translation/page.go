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
	"hash/crc32"
	"path"
	"strings"

	"github.com/evdoc-lab/evdoc/generator/claim"
	"github.com/evdoc-lab/evdoc/generator/diag"
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
	// Parsed is the parsed page. It is nil for a page loaded lazily
	// (only its Header read), until a checker parses it to judge it.
	Parsed *claim.Page
	// Header, for a page loaded lazily, is what pairing reads of it:
	// its first bytes (front matter) and whether its body is empty.
	// Pairing reads Parsed when it is set, else Header.
	Header *Header
}

// Header is the part of a page that pairing and its findings need, kept
// for a page whose parse is dropped after it was judged: Source is the
// page's bytes up to the end of its front matter, and at least its first
// line (offsets in it are file offsets); Index indexes those bytes;
// BodyStart is as in claim.Page; Empty tells whether the body after the
// front matter is only white space. Size and Sum (CRC-32C) identify the
// whole content the Header was read from (see Same).
type Header struct {
	Source    []byte
	BodyStart int
	Index     *diag.LineIndex
	Empty     bool
	Size      int
	Sum       uint32
}

// Same reports whether src is, as far as its size and checksum tell, the
// content the Header was read from.
func (h *Header) Same(src []byte) bool {
	return len(src) == h.Size && crc32.Checksum(src, crc32.MakeTable(crc32.Castagnoli)) == h.Sum
}

// NewHeader returns the Header of the page at path with the content src
// and front matter ending at bodyStart (see claim.SplitFrontMatter). Its
// Source is a copy: src is not retained.
func NewHeader(path string, src []byte, bodyStart int) *Header {
	end := bodyStart
	if nl := bytes.IndexByte(src, '\n'); nl < 0 {
		end = len(src)
	} else {
		end = max(end, nl+1)
	}
	head := bytes.Clone(src[:end])
	return &Header{Source: head, BodyStart: bodyStart, Index: diag.NewLineIndex(path, head),
		Empty: len(bytes.TrimSpace(src[bodyStart:])) == 0, Size: len(src), Sum: crc32.Checksum(src, crc32.MakeTable(crc32.Castagnoli))}
}

// head returns the page's first bytes, where its body starts and their
// line index: the parsed page's when it is parsed, else its Header's.
func (p *Page) head() ([]byte, int, *diag.LineIndex) {
	if p.Parsed == nil && p.Header != nil {
		return p.Header.Source, p.Header.BodyStart, p.Header.Index
	}
	return p.Parsed.Source, p.Parsed.BodyStart, p.Parsed.Index
}

// Body returns the page's Markdown after its front matter. The page must
// be parsed (Parsed set).
func (p *Page) Body() []byte { return p.Parsed.Source[p.Parsed.BodyStart:] }

// IsEmpty reports whether the page has front matter but no body: a
// translation placeholder that evdoc fills from the source language.
func (p *Page) IsEmpty() bool {
	if p.Parsed == nil && p.Header != nil {
		return p.Header.Empty
	}
	return len(bytes.TrimSpace(p.Body())) == 0
}

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
