package project

import (
	"os"
	"path"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"time"

	"github.com/evdoc-lab/evdoc/generator/hosttheme"
	"github.com/evdoc-lab/evdoc/generator/hugoconf"
)

// PageIndex returns the set of "lang\x00logical" of every page a link
// can name, which checkLinks resolves links against: those Hugo builds
// with a URL (see linkable). Logical paths are normalized as Hugo's
// GetPage normalizes them (normPath). Besides the content files it holds
// the pages Hugo makes without one: each language's home page ("") and
// the section of every top-level content directory.
func (s *Site) PageIndex() map[string]bool {
	index := make(map[string]bool, len(s.Pages)+2*len(s.Config.Languages))
	for code := range s.Config.Languages {
		index[code+"\x00"] = true
	}
	now := time.Now()
	cascades := s.Cascades()
	for _, p := range s.Pages {
		if !hugoconf.Linkable(s.Config, hugoconf.Cascaded(p, cascades), now) {
			continue
		}
		addToIndex(index, p)
	}
	return index
}

// addToIndex enters linkable page p in a PageIndex.
func addToIndex(index map[string]bool, p *Page) {
	logical := hugoconf.NormPath(p.Logical)
	index[p.Lang+"\x00"+logical] = true
	if top, _, ok := strings.Cut(logical, "/"); ok {
		index[p.Lang+"\x00"+top] = true
	}
}

// LinkWindows keeps, for PageIndexCached, when each page of a site is
// linkable (hugoconf.LinkWindow of its cascaded front matter) and the
// keys it enters in the index, by page: a page read again is a new
// *Page, and entries are dropped when the configuration or a section's
// cascade changed. The zero value is empty.
type LinkWindows struct {
	config   *hugoconf.Config
	cascades map[string][]map[string]any
	win      map[*Page]linkEntry
}

// linkEntry is a page's LinkWindows entry: its window and its keys in
// the index (top is "" when it has none of its own).
type linkEntry struct {
	win      hugoconf.Window
	key, top string
}

// PageIndexCached returns PageIndex, reading again only the front
// matter of the pages w does not hold.
func (s *Site) PageIndexCached(w *LinkWindows) map[string]bool {
	index := make(map[string]bool, len(s.Pages)+2*len(s.Config.Languages))
	for code := range s.Config.Languages {
		index[code+"\x00"] = true
	}
	now := time.Now()
	cascades := s.Cascades()
	if w.config != s.Config || !reflect.DeepEqual(w.cascades, cascades) {
		w.config, w.cascades, w.win = s.Config, cascades, nil
	}
	win := make(map[*Page]linkEntry, len(s.Pages))
	for _, p := range s.Pages {
		e, ok := w.win[p]
		if !ok {
			e.win = hugoconf.LinkWindow(s.Config, hugoconf.Cascaded(p, cascades))
			logical := hugoconf.NormPath(p.Logical)
			e.key = p.Lang + "\x00" + logical
			if top, _, ok := strings.Cut(logical, "/"); ok {
				e.top = p.Lang + "\x00" + top
			}
		}
		win[p] = e
		if e.win.Includes(now) {
			index[e.key] = true
			if e.top != "" {
				index[e.top] = true
			}
		}
	}
	w.win = win
	return index
}

// FallbackTargets returns the translations of source page p that the
// build fills with p's text (translation fallbacks: present with front
// matter only) at another path than p's: the render hook resolves p's
// relative links from there.
func (s *Site) FallbackTargets(p *Page) []*Page {
	if s.Translations == nil || p.Lang != s.Config.Source().Code {
		return nil
	}
	var out []*Page
	for code := range s.Config.Languages {
		if code == p.Lang {
			continue
		}
		t := s.Translations.Translation(p, code)
		if t == nil || !t.IsEmpty() || t.Section != p.Section {
			continue
		}
		if hugoconf.NormPath(t.Logical) != hugoconf.NormPath(p.Logical) || path.Dir(t.Rel) != path.Dir(p.Rel) || hugoconf.IsIndex(t.Rel) != hugoconf.IsIndex(p.Rel) {
			out = append(out, t)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Lang < out[j].Lang })
	return out
}

// Cascades returns what each section page's cascade front matter sets,
// keyed "lang\x00logical" (see cascaded). A cascade is a map, or a list
// of maps; an entry with a _target (or target) is left out, so a page it
// might apply to keeps its own values.
func (s *Site) Cascades() map[string][]map[string]any {
	var out map[string][]map[string]any
	for _, p := range s.Pages {
		if !p.Section {
			continue
		}
		var entries []map[string]any
		switch c := hugoconf.FmValue(p.FrontMatter, "cascade").(type) {
		case map[string]any:
			entries = append(entries, c)
		case []any:
			for _, e := range c {
				if m, ok := e.(map[string]any); ok {
					entries = append(entries, m)
				}
			}
		case []map[string]any:
			entries = c
		}
		var kept []map[string]any
		for _, e := range entries {
			if hugoconf.FmValue(e, "_target") == nil && hugoconf.FmValue(e, "target") == nil {
				kept = append(kept, e)
			}
		}
		if len(kept) > 0 {
			if out == nil {
				out = map[string][]map[string]any{}
			}
			out[p.Lang+"\x00"+hugoconf.NormPath(p.Logical)] = kept
		}
	}
	return out
}

// StaticFile reports whether the root-relative path p names a regular
// file in the project's static/ directory or a theme's (themes/NAME/static/),
// which Hugo publishes at the site's root, or a file in a language's
// content directory (a page bundle's resource, which Hugo publishes
// beside its page: /docs/b/img.png from content/ko/docs/b/img.png, and
// /ja/docs/b/img.png from the Japanese content directory). A bundle
// whose URL differs from its content path (slug, url, permalinks) is not
// found here; the build's output check (link-output-missing) is the
// authority on whether the link works.
func (s *Site) StaticFile(p string) bool {
	rel := filepath.FromSlash(path.Clean("/" + p))[1:]
	if rel == "" {
		return false
	}
	dirs := []string{filepath.Join(s.Root, "static")}
	for _, t := range s.Config.Themes {
		dirs = append(dirs, filepath.Join(s.Root, filepath.FromSlash(hosttheme.Dir(s.Root, t)), "static"))
	}
	for _, l := range s.Config.Ordered() {
		cd := filepath.Join(s.Root, filepath.FromSlash(l.ContentDir))
		dirs = append(dirs, cd)
		// with the language's code as the URL's first segment
		if first, rest, ok := strings.Cut(filepath.ToSlash(rel), "/"); ok && strings.EqualFold(first, l.Code) {
			if fi, err := os.Stat(filepath.Join(cd, filepath.FromSlash(rest))); err == nil && fi.Mode().IsRegular() && !hugoconf.ContentExts[strings.ToLower(strings.TrimPrefix(path.Ext(rest), "."))] {
				return true
			}
		}
	}
	for _, d := range dirs {
		if fi, err := os.Stat(filepath.Join(d, rel)); err == nil && fi.Mode().IsRegular() && !hugoconf.ContentExts[strings.ToLower(strings.TrimPrefix(path.Ext(rel), "."))] {
			return true
		}
	}
	return false
}

// ContentDirs names where a page of language lang may come from: its
// content directory, or the source language's (src) when the build
// generates the page from the source.
func (s *Site) ContentDirs(lang, src string) string {
	where := s.Config.Languages[lang].ContentDir
	if lang != src {
		where += " or " + s.Config.Source().ContentDir
	}
	return where
}
