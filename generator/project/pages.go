package project

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/evdoc-lab/evdoc/generator/claim"
	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/generator/frontmatter"
	"github.com/evdoc-lab/evdoc/generator/hugoconf"
	"github.com/evdoc-lab/evdoc/generator/translation"
	"github.com/evdoc-lab/evdoc/internal/safefile"
	"github.com/yuin/goldmark"
)

// PageSource returns the content of page p as the Checker judges it: its
// overlay (SetOverlay), else the file.
func (s *Site) PageSource(p *Page) ([]byte, error) {
	if src, ok := s.overlay[p.Path]; ok {
		return src, nil
	}
	if p.Parsed != nil {
		return p.Parsed.Source, nil
	}
	return safefile.ReadPath(filepath.Join(s.Root, filepath.FromSlash(p.Path)), safefile.TextMaxSize)
}

// Page is one Markdown content file of one language (see
// translation.Page, which pairs them).
type Page = translation.Page

// loadPages reads every .md file under each language's content directory,
// parsing them on a pool of workers (newMD gives each its goldmark), or,
// when lazy, reading only their front matter (see loadPage). It returns
// the pages sorted by Path and the findings of each file by its
// repository path.
func loadPages(root string, cfg *hugoconf.Config, newMD func() goldmark.Markdown, lazy bool) ([]*Page, map[string]diag.List, error) {
	type file struct{ lang, path string }
	var files []file
	walked := map[string]bool{}
	unread := map[string]diag.List{} // content files in another format
	for _, lang := range cfg.Ordered() {
		if walked[lang.ContentDir] {
			continue // a content directory shared by languages: suffixes tell
		}
		walked[lang.ContentDir] = true
		dir := filepath.Join(root, lang.ContentDir)
		if _, err := os.Stat(dir); err != nil {
			return nil, nil, fmt.Errorf("content directory of %q: %v", lang.Code, err)
		}
		err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && d.Type()&fs.ModeSymlink == 0 {
				return nil
			}
			relRepo, _ := filepath.Rel(root, p)
			if !strings.HasSuffix(p, ".md") {
				if f := otherContentFormat(p); f != "" && d.Type()&fs.ModeSymlink == 0 {
					rel := filepath.ToSlash(relRepo)
					unread[rel] = diag.List{diag.Errorf(diag.Position{File: rel}, diag.PageFormat,
						"Hugo renders this %s file as a page, but evdoc reads only Markdown pages named *.md, so its numbers are not checked; %s", f, formatAdvice(f, filepath.Base(p)))}
				}
				if d.Type()&fs.ModeSymlink == 0 {
					return nil
				}
			}
			files = append(files, file{lang.Code, filepath.ToSlash(relRepo)})
			return nil
		})
		if err != nil {
			return nil, nil, fmt.Errorf("reading %s: %v", lang.ContentDir, err)
		}
	}
	type loaded struct {
		page *Page
		errs diag.List
		err  error
	}
	out := make([]loaded, len(files))
	jobs := make([]func(goldmark.Markdown), len(files))
	for i := range files {
		jobs[i] = func(md goldmark.Markdown) {
			pg, errs, err := loadPage(root, cfg, files[i].lang, files[i].path, md, lazy, nil)
			out[i] = loaded{pg, errs, err}
		}
	}
	RunWorkers(newMD, jobs)
	var pages []*Page
	errs := unread
	for i, l := range out {
		if l.err != nil {
			return nil, nil, fmt.Errorf("reading %s: %v", cfg.Languages[files[i].lang].ContentDir, l.err)
		}
		if len(l.errs) > 0 {
			errs[files[i].path] = append(errs[files[i].path], l.errs...)
		}
		if l.page != nil {
			pages = append(pages, l.page)
		}
	}
	sort.Slice(pages, func(i, j int) bool { return pages[i].Path < pages[j].Path })
	return pages, errs, nil
}

// otherContentFormats are the extensions besides .md of the content
// files Hugo renders as pages (its content file classifier), by the
// format's name.
var otherContentFormats = map[string]string{
	".markdown": "Markdown", ".mdown": "Markdown",
	".html": "HTML", ".htm": "HTML",
	".adoc": "AsciiDoc", ".asciidoc": "AsciiDoc", ".ad": "AsciiDoc",
	".org": "Org", ".pandoc": "Pandoc", ".pdc": "Pandoc",
	".rst": "reStructuredText", ".rest": "reStructuredText",
}

// otherContentFormat names the format of a content file Hugo renders as
// a page that evdoc does not read, or "" for any other file (a page
// named .md, an image, a bundle's data file).
func otherContentFormat(name string) string {
	return otherContentFormats[strings.ToLower(filepath.Ext(name))]
}

// formatAdvice says what to do about a content file in format f.
func formatAdvice(f, base string) string {
	if f == "Markdown" {
		return "rename it to " + strings.TrimSuffix(base, filepath.Ext(base)) + ".md (Hugo reads it the same)"
	}
	return "write it in Markdown as a .md page, or, if it quotes no measured number, set page-format to \"warning\" or \"off\" under [rules] in evdoc.toml"
}

// PageLanguage returns the code of the language whose content directory
// holds the repository path file (the first in cfg's order, as
// loadPages walks them), or "" when none does.
func PageLanguage(cfg *hugoconf.Config, file string) string {
	for _, lang := range cfg.Ordered() {
		dir := path.Clean(filepath.ToSlash(lang.ContentDir))
		if dir == "." || strings.HasPrefix(file, dir+"/") {
			return lang.Code
		}
	}
	return ""
}

// loadPage reads the content file at the repository path file, which
// lies in the content directory of the language dirLang: a page and its
// findings, or no page (a symbolic link, a page that must not be parsed
// or whose front matter is unreadable) and the findings that say why.
// The error is an I/O error other than the file not existing; a file
// that does not exist yields neither page nor findings.
//
// When lazy, a page whose front matter can be read is not parsed: it has
// a Header and no Parsed, and its findings are those of reading its bytes
// (encoding, nesting); parsePage parses it later and returns the rest.
// A page whose front matter cannot be read is parsed as when not lazy,
// so that it yields the same findings.
//
// A file of overlay (an editor's unsaved buffer, Site.SetOverlay) is
// read from there instead of the disk, whether or not it exists on disk.
func loadPage(root string, cfg *hugoconf.Config, dirLang, file string, md goldmark.Markdown, lazy bool, overlay map[string][]byte) (*Page, diag.List, error) {
	src, ok := overlay[file]
	if !ok {
		full := filepath.Join(root, filepath.FromSlash(file))
		fi, err := os.Lstat(full)
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil, nil
		}
		if err != nil {
			return nil, nil, err
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			return nil, diag.List{diag.Errorf(diag.Position{File: file}, diag.PagePath, "content file is a symbolic link; expected a regular file")}, nil
		}
		if fi.IsDir() || !strings.HasSuffix(file, ".md") {
			return nil, nil, nil
		}
		src, err = safefile.ReadPath(full, safefile.TextMaxSize)
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil, nil
		}
		if err != nil {
			return nil, nil, err
		}
	} else if !strings.HasSuffix(file, ".md") {
		return nil, nil, nil
	} else if int64(len(src)) > safefile.TextMaxSize {
		return nil, nil, fmt.Errorf("%s is %s, over the %s evdoc reads of a page", file, safefile.Size(int64(len(src))), safefile.Size(safefile.TextMaxSize))
	}
	var codes []string
	for _, lang := range cfg.Ordered() {
		codes = append(codes, lang.Code)
	}
	dir := filepath.ToSlash(cfg.Languages[dirLang].ContentDir)
	relContent := strings.TrimPrefix(file, path.Clean(dir)+"/")
	errs, ok := screenPage(file, src)
	if !ok {
		return nil, errs, nil
	}
	if lazy {
		fm, body, ok := claim.SplitFrontMatter(src)
		if !ok {
			fm, body = nil, 0 // parsing reports it; the page has no front matter
		}
		h := translation.NewHeader(file, src, body)
		if pg, ferrs := pageOf(dirLang, codes, file, relContent, src, fm != nil, func() *diag.LineIndex { return h.Index }); pg != nil {
			pg.Header = h
			return pg, append(errs, ferrs...), nil
		}
	}
	pg, perrs := newPage(dirLang, codes, file, relContent, src, md)
	errs = append(errs, perrs...)
	if pg != nil {
		errs = append(errs, parseFindings(root, cfg, pg.Parsed)...)
	}
	return pg, errs, nil
}

// newPage parses the page at repoPath (rel within its content directory
// of the language dirLang) with the content src.
func newPage(dirLang string, codes []string, repoPath, rel string, src []byte, md goldmark.Markdown) (*Page, diag.List) {
	parsed, errs := claim.Parse(md, repoPath, src)
	pg, ferrs := pageOf(dirLang, codes, repoPath, rel, src, parsed.FrontMatter != nil, func() *diag.LineIndex { return parsed.Index })
	errs = append(errs, ferrs...)
	if pg != nil {
		pg.Parsed = parsed
	}
	return pg, errs
}

// pageOf returns the page at repoPath with the content src, without its
// parse, from its front matter (hasFM: src has a closed one), or no page
// and the finding that says why its front matter cannot be read. ix
// returns a line index of src (at least of its front matter).
func pageOf(dirLang string, codes []string, repoPath, rel string, src []byte, hasFM bool, ix func() *diag.LineIndex) (*Page, diag.List) {
	var errs diag.List
	pg := &Page{Path: repoPath, Rel: rel, FrontMatter: map[string]any{}}
	pg.Lang, pg.Logical, pg.Section = translation.FileLanguage(rel, dirLang, codes)
	if hasFM {
		b, _ := frontmatter.Split(src) // claim.Parse reported an unclosed one
		fields, d := frontmatter.Decode(src, b, ix())
		if d != nil {
			return nil, diag.List{*d}
		}
		pg.FrontMatter = fields
		// What Hugo refuses, or would publish over evdoc's own pages,
		// is a finding here rather than a failed build.
		errs = append(errs, frontmatter.CheckDates(src, b, ix(), fields)...)
		errs = append(errs, urlOverEvidence(src, b, ix(), fields)...)
		errs = append(errs, reservedParams(src, b, ix(), fields)...)
	}
	pg.Title, _ = pg.FrontMatter["title"].(string)
	pg.Key, _ = pg.FrontMatter["translationKey"].(string)
	pg.ExplicitKey = pg.Key != ""
	if pg.Key == "" {
		pg.Key = pg.Logical
	}
	return pg, errs
}

// langPrefix matches a language code as the first segment of a URL.
var langPrefix = regexp.MustCompile(`^[a-z]{2,3}(-[A-Za-z]+)?$`)

// urlOverEvidence reports a url front matter field that takes a path
// under /evidence/ (of any language): evdoc generates the evidence pages
// there, and Hugo fails the build on two pages with one URL.
func urlOverEvidence(src []byte, b frontmatter.Block, ix *diag.LineIndex, fields map[string]any) diag.List {
	u, ok := fields["url"].(string)
	if !ok {
		return nil
	}
	p := "/" + strings.TrimLeft(u, "/")
	if lang, rest, ok := strings.Cut(p[1:], "/"); ok && langPrefix.MatchString(lang) {
		p = "/" + rest // a language's own /LANG/evidence/
	}
	if p != "/"+EvidenceDir && !strings.HasPrefix(p, "/"+EvidenceDir+"/") {
		return nil
	}
	off, end := b.Open, ix.LineEnd(b.Open)
	if fs := frontmatter.Fields(src, b, []string{"url"}); len(fs) > 0 {
		off, end = fs[0].Start, ix.Pos(fs[0].End)
		for off < fs[0].End && (src[off] == ' ' || src[off] == '\t') {
			off++
		}
	}
	return diag.List{diag.Errorf(ix.Pos(off), diag.PageFrontMatter, "url %q is under /%s/, where evdoc publishes the evidence pages (Hugo fails the build on two pages at one URL); expected a URL outside /%s/", u, EvidenceDir, EvidenceDir).Spanning(end)}
}

// reservedParam reports whether k is one of the front matter fields evdoc writes into the pages
// it generates (evidence viewer, set and index pages, translation
// fallbacks) and its templates trust: evdoc_file names the stage's
// files of each line's pre-rendered HTML, which the evidence viewer
// prints unescaped (evdoc_lines, the field older evdoc versions wrote
// that HTML into, stays reserved). A
// project's page that sets one would put its own HTML past page-html, or
// pose as a generated page. (i18n mark's evdoc_source_hash and
// evdoc_source_blocks are a project page's own.)
func reservedParam(k string) bool {
	switch k {
	case "evdoc_continuation", "evdoc_fallback", "evdoc_file", "evdoc_heading", "evdoc_index", "evdoc_lines", "evdoc_origin", "evdoc_set", translation.SourceParam:
		return true
	}
	return false
}

// reservedParams reports each top-level front matter field of a
// project's page that evdoc reserves for its generated pages
// (reservedParam), at the field's key.
func reservedParams(src []byte, b frontmatter.Block, ix *diag.LineIndex, fields map[string]any) diag.List {
	var keys []string
	for _, k := range slices.Sorted(maps.Keys(fields)) {
		if reservedParam(k) {
			keys = append(keys, k)
		}
	}
	if len(keys) == 0 {
		return nil
	}
	var ds diag.List
	found := map[string]bool{}
	for _, f := range frontmatter.Fields(src, b, keys) {
		// The key is on the line its value starts on, before the value.
		line := bytes.LastIndexByte(src[:f.Start], '\n') + 1
		off := line
		if i := bytes.Index(src[line:f.Start], []byte(f.Key)); i >= 0 {
			off = line + i
		}
		found[f.Key] = true
		ds = append(ds, diag.Errorf(ix.Pos(off), diag.PageFrontMatter, "front matter field %s is evdoc's own: the evidence pages it generates carry it, and its templates trust it (evdoc_file names the HTML the evidence viewer prints); expected a field of the page's own (remove %s)", f.Key, f.Key).Spanning(ix.Pos(off+len(f.Key))))
	}
	if b.Format == frontmatter.JSON {
		for k, off := range jsonKeys(src, b, keys) {
			found[k] = true
			ds = append(ds, diag.Errorf(ix.Pos(off+1), diag.PageFrontMatter, "front matter field %s is evdoc's own: the evidence pages it generates carry it, and its templates trust it (evdoc_file names the HTML the evidence viewer prints); expected a field of the page's own (remove %s)", k, k).Spanning(ix.Pos(off+1+len(k))))
		}
	}
	for _, k := range keys {
		if !found[k] { // not located: at the front matter's opening line
			ds = append(ds, diag.Errorf(ix.Pos(b.Open), diag.PageFrontMatter, "front matter field %s is evdoc's own: the evidence pages it generates carry it, and its templates trust it (evdoc_file names the HTML the evidence viewer prints); expected a field of the page's own (remove %s)", k, k).Spanning(ix.LineEnd(b.Open)))
		}
	}
	return ds
}

// jsonKeys returns the offset in src of the opening quote of each
// top-level key of JSON front matter b that is one of keys and written
// without escapes, from the decoder's token offsets.
func jsonKeys(src []byte, b frontmatter.Block, keys []string) map[string]int {
	want := map[string]bool{}
	for _, k := range keys {
		want[k] = true
	}
	out := map[string]int{}
	dec := json.NewDecoder(bytes.NewReader(src[b.Start:b.End]))
	depth, isKey := 0, false
	for {
		tok, err := dec.Token()
		if err != nil {
			return out
		}
		if d, ok := tok.(json.Delim); ok {
			if d == '{' || d == '[' {
				depth++
			} else {
				depth--
			}
			isKey = depth == 1 && (d == '{' || d == '}' || d == ']')
			continue
		}
		if depth != 1 {
			continue
		}
		if k, ok := tok.(string); ok && isKey {
			end := b.Start + int(dec.InputOffset())
			if start := end - len(k) - 2; want[k] && start >= b.Start && string(src[start:end]) == strconv.Quote(k) {
				out[k] = start
			}
			isKey = false
			continue
		}
		isKey = true
	}
}

// parsePage parses the lazily loaded page p (see loadPage) from its file
// under root: the parsed page and the findings that parsing adds to
// those of loading it (claim syntax, raw HTML). The error is an I/O error,
// or the file's content no longer being what was loaded (its front
// matter, hence the pairing, may have changed). A file of overlay is
// read from there (see loadPage).
func parsePage(root string, cfg *hugoconf.Config, p *Page, md goldmark.Markdown, overlay map[string][]byte, sc *claim.Scratch) (*claim.Page, diag.List, error) {
	src, ok := overlay[p.Path]
	if !ok {
		var err error
		src, err = safefile.ReadPath(filepath.Join(root, filepath.FromSlash(p.Path)), safefile.TextMaxSize)
		if err != nil {
			return nil, nil, err
		}
	}
	if p.Header == nil || !p.Header.Same(src) {
		return nil, nil, errPageChanged
	}
	parsed, errs := claim.ParseScratch(md, p.Path, src, sc)
	errs = append(errs, parseFindings(root, cfg, parsed)...)
	return parsed, errs, nil
}

// errPageChanged is parsePage's error for a file changed since it was
// loaded.
var errPageChanged = errors.New("the file changed while evdoc read it; run evdoc again")

// SetOverlay makes the site read the content file at the repository path
// file (slash-separated, like Page.Path) as src instead of the file on
// disk: an editor's unsaved buffer. A nil src reads the file from disk
// again.
func (s *Site) SetOverlay(file string, src []byte) {
	file = path.Clean(filepath.ToSlash(file))
	if src == nil {
		delete(s.overlay, file)
		return
	}
	if s.overlay == nil {
		s.overlay = map[string][]byte{}
	}
	s.overlay[file] = src
}

// ReloadPage reads the content file at the repository path file of the
// content directory of language dirLang again, as the site was loaded
// (lazily or parsed) and through its overlay: nil when the file is gone
// or is not a page; the findings are those of reading it.
func (s *Site) ReloadPage(dirLang, file string, md goldmark.Markdown) (*Page, diag.List, error) {
	return loadPage(s.Root, s.Config, dirLang, file, md, s.lazy, s.overlay)
}

// ParsePage parses page p with md, through the site's overlay.
func (s *Site) ParsePage(p *Page, md goldmark.Markdown) (*claim.Page, diag.List, error) {
	return parsePage(s.Root, s.Config, p, md, s.overlay, nil)
}

// ParsePageScratch is ParsePage with the page's claims placed in sc's
// room (claim.ParseScratch); the caller recycles the parse into sc when
// it drops it.
func (s *Site) ParsePageScratch(p *Page, md goldmark.Markdown, sc *claim.Scratch) (*claim.Page, diag.List, error) {
	return parsePage(s.Root, s.Config, p, md, s.overlay, sc)
}

// WithParsed calls fn with the parse of page p: a lazily loaded page (see
// LoadOptions.Lazy) is parsed with md for the call and dropped after it.
// The error is fn's, or that of reading the page again (it is gone, or
// changed since it was loaded). It is not safe to call concurrently with
// a Checker of s.
func (s *Site) WithParsed(p *Page, md goldmark.Markdown, fn func(*claim.Page) error) error {
	return s.WhileParsed(p, md, func() error { return fn(p.Parsed) })
}

// WhileParsed calls fn with p parsed: a lazily loaded page (see
// LoadOptions.Lazy) is parsed for the call and dropped after it. The
// error is fn's, or parsePage's.
func (s *Site) WhileParsed(p *Page, md goldmark.Markdown, fn func() error) error {
	if p.Parsed != nil {
		return fn()
	}
	parsed, _, err := s.ParsePage(p, md)
	if err != nil {
		return fmt.Errorf("%s: %v", p.Path, err)
	}
	p.Parsed = parsed
	defer func() { p.Parsed = nil }()
	return fn()
}
