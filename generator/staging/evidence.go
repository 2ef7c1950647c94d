package staging

import (
	"context"
	"fmt"
	"hash/fnv"
	"io"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/evdoc-lab/evdoc/generator/evidence/manifest"
	"github.com/evdoc-lab/evdoc/generator/hosttheme"
	"github.com/evdoc-lab/evdoc/generator/hugoconf"
	"github.com/evdoc-lab/evdoc/generator/i18n"
	"github.com/evdoc-lab/evdoc/generator/project"
	"github.com/evdoc-lab/evdoc/generator/slots"
	"github.com/evdoc-lab/evdoc/generator/stagedata"
	"github.com/evdoc-lab/evdoc/generator/translation"
	"github.com/evdoc-lab/evdoc/generator/viewer"
	"github.com/evdoc-lab/evdoc/internal/crash"
	"github.com/evdoc-lab/evdoc/internal/safefile"
)

// viewerFrontMatter is the front matter of one viewer page: evdoc_file
// describes the window; its lines and the claims citing them are in the
// stage's files Lines and Cites name. Raw and RawSize are set on
// the pages of a sparse file: the published copy of the whole file
// (relative to the site root) and its size.
type viewerFrontMatter struct {
	File  string `yaml:"file" json:"file"`
	Set   string `yaml:"set" json:"set"`
	Part  int    `yaml:"part" json:"part"`
	Parts int    `yaml:"parts" json:"parts"`
	First int    `yaml:"first" json:"first"`
	Last  int    `yaml:"last" json:"last"`
	Total int    `yaml:"total" json:"total"`
	Prev  string `yaml:"prev,omitempty" json:"prev,omitempty"`
	Next  string `yaml:"next,omitempty" json:"next,omitempty"`
	Lexer string `yaml:"lexer" json:"lexer"`
	Cited int    `yaml:"cited" json:"cited"`
	// Unread counts the window's numbers no reading took (marked
	// ev-unread).
	Unread  int    `yaml:"unread,omitempty" json:"unread,omitempty"`
	SetPage string `yaml:"set_page" json:"set_page"`
	Raw     string `yaml:"raw,omitempty" json:"raw,omitempty"`
	RawSize string `yaml:"raw_size,omitempty" json:"raw_size,omitempty"`
	// Lines is the file of the stage (slash-separated, relative to its
	// root, where Hugo's readFile reads) holding the window's lines'
	// highlighted HTML (writeViewerLines).
	Lines string `yaml:"lines" json:"lines"`
	// CitedLines are the numbers of the window's cited lines, in order;
	// Cites is the file holding the claims citing them
	// (writeViewerCites), set when there are any.
	CitedLines []int  `yaml:"cited_lines,omitempty" json:"cited_lines,omitempty"`
	Cites      string `yaml:"cites,omitempty" json:"cites,omitempty"`
	// Hash is the FNV-1a hash of the Lines and Cites files: the page
	// changes when they do, so evdoc serve's Hugo, which does not know
	// the page reads them, renders it again.
	Hash string `yaml:"hash" json:"hash"`
}

// ViewerFilesDir is the stage's directory (slash-separated, relative to
// its root) of the viewer pages' lines and citations files. Only the
// viewer page naming a file shows it, and the page's front matter
// (evdoc_file.hash) changes with it.
const ViewerFilesDir = ".evdoc/viewer"

// viewerLinesFile returns the stage's file of the lines of the viewer
// page at the Hugo page path pagePath ("/evidence/SET/FILE-ID").
func viewerLinesFile(pagePath string) string {
	return ViewerFilesDir + pagePath + ".lines"
}

// viewerCitesFile returns the stage's file of the citations of the
// viewer page of language lang at the Hugo page path pagePath.
func viewerCitesFile(lang, pagePath string) string {
	return ViewerFilesDir + "/" + lang + pagePath + ".cites"
}

// viewerLinesHeader and viewerCitesHeader begin the files: readFile
// reads a missing file as "", which the layout tells from a window with
// no lines or citations by the header.
const (
	viewerLinesHeader = "evdoc-lines"
	viewerCitesHeader = "evdoc-cites"
)

// writeViewerLines writes viewerLinesHeader and the lines' HTML to p,
// each line preceded by a newline, so the layout's split on newlines,
// after its first element, gives the lines back, and returns the file's
// hash. A line's HTML holds no newline (a raw line is split at its
// newline; chroma's spans and escaped text add none); one that did would
// split into two, so it is an error.
func writeViewerLines(p string, html []string) (string, error) {
	n := len(viewerLinesHeader)
	for _, h := range html {
		if strings.Contains(h, "\n") {
			return "", fmt.Errorf("a highlighted line holds a newline: %q", h)
		}
		n += 1 + len(h)
	}
	b := append(make([]byte, 0, n), viewerLinesHeader...)
	for _, h := range html {
		b = appendValidUTF8(append(b, '\n'), h)
	}
	return writeStageFile(p, b)
}

// writeViewerCites writes viewerCitesHeader and the cited lines ls to p
// as a flat list of fields (viewerCitesFields), each preceded by a NUL
// byte, and returns the file's hash. With ids (claim slots), it writes
// the slot form instead (slots.CitesSlotHeader) under the next of ids:
// the shortcode then writes a placeholder for the table's rows, which
// the fill writes from the fields the table keeps (slots.Table.SetCites).
func writeViewerCites(p string, ls []viewer.CitedLine, ids *citesIDs) (string, error) {
	fields, err := viewerCitesFields(ls)
	if err != nil {
		return "", err
	}
	head := viewerCitesHeader
	if ids != nil {
		if fields, err = ids.set(fields); err != nil {
			return "", err
		}
		head = slots.CitesSlotHeader
	}
	n := len(head)
	for _, f := range fields {
		n += 1 + len(f)
	}
	b := append(make([]byte, 0, n), head...)
	for _, f := range fields {
		b = append(append(b, 0), f...)
	}
	return writeStageFile(p, b)
}

// viewerCitesFields returns the fields of the cited lines ls, each
// tagged by its first byte: "n" and a line's number, then for each page
// citing it "p" and the page's path and "t" and each claim's text. NUL
// cannot be part of a field: a claim's NUL is written as U+FFFD, as
// Hugo's HTML escaping prints it; a page path holding one is an error.
// A byte that is not part of valid UTF-8 is written as U+FFFD
// (appendValidUTF8).
func viewerCitesFields(ls []viewer.CitedLine) ([]string, error) {
	var fields []string
	var b []byte
	for _, l := range ls {
		fields = append(fields, "n"+strconv.Itoa(l.N))
		for _, c := range l.Cites {
			if strings.IndexByte(c.Page, 0) >= 0 {
				return nil, fmt.Errorf("line %d: the citing page's path %q holds a NUL byte", l.N, c.Page)
			}
			b = appendValidUTF8(append(b[:0], 'p'), c.Page)
			fields = append(fields, string(b))
			for _, t := range c.Texts {
				b = appendValidUTF8(append(b[:0], 't'), strings.ReplaceAll(t, "\x00", "\uFFFD"))
				fields = append(fields, string(b))
			}
		}
	}
	return fields, nil
}

// appendValidUTF8 appends s to b with each byte that is not part of valid
// UTF-8 replaced by U+FFFD, as encoding/json writes a string: the lines'
// HTML and the claims' texts print as they did from JSON front matter.
func appendValidUTF8(b []byte, s string) []byte {
	for _, r := range s {
		b = utf8.AppendRune(b, r)
	}
	return b
}

// writeStageFile writes b to p and returns its FNV-1a hash (hex).
func writeStageFile(p string, b []byte) (string, error) {
	h := fnv.New64a()
	h.Write(b)
	return strconv.FormatUint(h.Sum64(), 16), WriteFile(p, b)
}

// stageEvidence writes the evidence index, one page per evidence set and
// the viewer pages of every raw file, in every language's content
// directory (translations paired by translationKey). It reads each raw
// file window by window, so memory is bounded by a window, not a file.
// Call it after the claims, values and figures have taken their targets
// (stageClaims, stageFigures): a sparse file's pages are the windows
// they link to.
//
// With slotted, each language's evidence index page also has the
// component's evdocslots output (SlotsFormat): the formats of the
// claims staged with a slot, which evdoc build fills in after Hugo.
// With citeSlots, each viewer window's citations file is written in the
// slot form (writeViewerCites): its rows are filled in after Hugo too.
func stageEvidence(ctx context.Context, s *project.Site, stage string, v *viewer.Viewer, data *stagedata.StageData, slotted bool, citeSlots *slots.Table) error {
	fallbacks := s.Fallbacks()
	langs := s.Config.Ordered()
	cites := make([]map[string]map[int][]viewer.Citation, len(langs))
	// each step that takes long (at 500 pages, a language's citations
	// take a tenth of a second, the languages' side by side) looks at
	// ctx: serve stops a staging when files change during it
	if err := ctx.Err(); err != nil {
		return err
	}
	var wg sync.WaitGroup
	for i, lang := range langs {
		wg.Go(func() {
			defer crash.Guard()
			cites[i] = viewer.Citations(s, data, lang.Code, fallbacks[lang.Code])
		})
	}
	wg.Wait()
	for i := range langs {
		for f, lines := range cites[i] {
			if vf, ok := v.Files[f]; ok {
				for n := range lines {
					vf.Show(vf.Window(n))
				}
			}
		}
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	newest := newestOwnDates(s)
	if err := ctx.Err(); err != nil {
		return err
	}
	listLayout := evidenceListLayout(s)
	if listLayout != "" {
		if err := copyFile(filepath.Join(s.Root, filepath.FromSlash(listLayout)), filepath.Join(stage, "layouts", project.EvidenceDir, "section.html")); err != nil {
			return fmt.Errorf("staging the theme's page layout %s for the evidence section: %v", listLayout, err)
		}
	}
	listCrumbs, pageCrumbs := themeBreadcrumbs(s, listLayout != "")
	for _, lang := range langs {
		// the file each page shows, for a theme's edit link
		// (translation.SourceParam): a set's manifest, a raw file; the
		// index shows every set and has none (evidenceIndexParams)
		title := i18nString(s, lang.Code, "evdoc_evidenceIndex", "Evidence")
		idx := evidenceIndexParams(s, title)
		if slotted {
			idx["outputs"] = []string{"html", SlotsFormat}
		}
		if listCrumbs {
			idx["evdoc_nocrumbs"] = true
		}
		if err := writeFrontMatterPage(s.Config.PageFile(stage, lang, project.EvidenceDir, "_index.md"), idx, evidenceBodyOf(s)); err != nil {
			return err
		}
		for _, set := range s.Store.Sets {
			m := set.Manifest
			// the title, environment and source in the page's language
			// ([text.LANG] of the manifest, else the top-level strings)
			lt := m.InLanguage(lang.Code)
			fm := map[string]any{"title": lt.Title, "translationKey": "evidence/" + m.ID, translation.SourceParam: path.Join(set.Dir, manifest.FileName),
				"evdoc_set": map[string]string{"id": m.ID, "date": m.Date, "environment": lt.Environment, "report": m.Report,
					"origin": m.Origin, "source": lt.Source}}
			evidencePageParams(s, fm, lt.Title)
			if evidenceBodyOf(s) != "" {
				// the set's popover file (the component's evdocpop output
				// format: the popover bodies of the claims whose first
				// value is in the set, which evdoc.js loads)
				fm["outputs"] = []string{"html", PopoverFormat}
			}
			if listCrumbs {
				fm["evdoc_nocrumbs"] = true
			}
			setEvidenceDate(fm, m.Date, newest[lang.Code])
			if err := writeFrontMatterPage(s.Config.PageFile(stage, lang, path.Join(project.EvidenceDir, m.ID), "_index.md"), fm, evidenceBodyOf(s)); err != nil {
				return err
			}
		}
	}
	unread := viewer.UnreadRanges(s.EvidenceFindings, s.Rules)
	// The raw files' viewer pages are written side by side. With
	// citeSlots, each file's citation tables get their ids first, in
	// the order of the files, their windows and the languages, so the
	// ids do not depend on which file is written first.
	var ids []*citesIDs
	if citeSlots != nil {
		ids = make([]*citesIDs, len(v.Order))
		for fi, f := range v.Order {
			n := citedWindows(v.Files[f], len(langs), cites)
			first := citeSlots.ReserveCites(n)
			ids[fi] = &citesIDs{table: citeSlots, next: first, end: first + n}
		}
	}
	return eachViewerFile(len(v.Order), func(fi int) error {
		f := v.Order[fi]
		var fids *citesIDs
		if ids != nil {
			fids = ids[fi]
		}
		if err := stageViewerFile(ctx, s, stage, v.Files[f], fi, langs, cites, v.Marks[f], unread[f], pageCrumbs, fids, newest, nil); err != nil {
			return err
		}
		if fids != nil && fids.next != fids.end {
			return fmt.Errorf("%s: %d of the citation tables counted for its viewer pages were not written (a bug in evdoc)", f, fids.end-fids.next)
		}
		return nil
	})
}

// citesIDs hands out the ids of one raw file's citation tables, which
// slots.Table.ReserveCites reserved: next is the id of its next table,
// end the first id past them.
type citesIDs struct {
	table     *slots.Table
	next, end int
}

// set records fields under the next id (slots.Table.SetCites) and
// returns the fields of the citations file in the slot form.
func (c *citesIDs) set(fields []string) ([]string, error) {
	if c.next >= c.end {
		return nil, fmt.Errorf("more citation tables than were counted for its viewer pages (a bug in evdoc)")
	}
	out := c.table.SetCites(c.next, fields)
	c.next++
	return out, nil
}

// citedWindows returns the number of citations files stageViewerFile
// writes for vf: one for each window with a page and each of the nl
// languages whose citations (cites) cite a line of the window.
func citedWindows(vf *viewer.ViewerFile, nl int, cites []map[string]map[int][]viewer.Citation) int {
	if len(vf.Starts) == 0 {
		return 0
	}
	cited := map[[2]int]bool{} // window, language
	for li := range nl {
		for n, cs := range cites[li][vf.File] {
			if len(cs) == 0 {
				continue
			}
			w := vf.Window(n)
			if n < vf.Starts[w] || n > windowEnd(vf, w) || !vf.HasPage(w) {
				continue
			}
			cited[[2]int{w, li}] = true
		}
	}
	return len(cited)
}

// windowEnd returns the last line of vf's window w.
func windowEnd(vf *viewer.ViewerFile, w int) int {
	if w+1 < len(vf.Starts) {
		return vf.Starts[w+1] - 1
	}
	return vf.Total
}

// eachViewerFile runs stage(0) … stage(n-1) on up to GOMAXPROCS
// goroutines, each taking the next file in order, and returns the error
// of the first file that failed: every file before it was staged, none
// after it is started once it failed. A panic of stage panics again
// here (project.WorkerPanic).
func eachViewerFile(n int, stage func(fi int) error) error {
	workers := min(runtime.GOMAXPROCS(0), n)
	if workers <= 1 {
		for fi := range n {
			if err := stage(fi); err != nil {
				return err
			}
		}
		return nil
	}
	errs := make([]error, n)
	var next atomic.Int64
	var failed atomic.Int64 // the lowest file that failed, n while none
	failed.Store(int64(n))
	var caught project.WorkerPanic
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			defer crash.Guard()
			defer caught.Recover(func() { failed.Store(-1) })
			for {
				fi := next.Add(1) - 1
				if fi >= int64(n) || fi > failed.Load() {
					return
				}
				if err := stage(int(fi)); err != nil {
					errs[fi] = err
					for f := failed.Load(); fi < f && !failed.CompareAndSwap(f, fi); f = failed.Load() {
					}
				}
			}
		})
	}
	wg.Wait()
	caught.Repanic()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// SlotsFormat is the name of the component's output format of the
// claims' formats (themes/evdoc/hugo.toml,
// layouts/section.evdocslots.json; slots.FormatsFile), which the
// evidence index page of each language has when claims are staged
// with slots.
const SlotsFormat = "evdocslots"

// evidenceBody is the body of every evidence page evdoc build writes:
// the component's evdoc/evidence shortcode alone, which draws the page
// from its front matter. The site's own page and list layouts show it as
// the page's .Content, so an evidence page keeps the theme's navigation,
// sidebar and footer like any other page of the site.
const evidenceBody = "{{< evdoc/evidence >}}\n"

// evidenceBody returns the body of the evidence pages: evidenceBody, or
// nothing when the theme list lacks evdoc's component, whose shortcode
// Hugo would not find (it would fail on the first evidence page); the
// output check then names the pages and the theme list.
func evidenceBodyOf(s *project.Site) string {
	if slices.Contains(s.Config.Themes, hosttheme.Component) {
		return evidenceBody
	}
	return ""
}

// evidencePageParams completes the front matter fm of an evidence page
// whose plain summary is summary: Hugo's summary (else .Summary, which
// list layouts show, would open with the viewer's text), the search
// exclusion param of hugo-book (bookSearchExclude), Hextra
// (excludeSearch), PaperMod (searchHidden) and Docsy (exclude_search),
// whose search indexes read each page's .Plain (the raw lines of every
// window), evdoc_heading when a theme of the site shows pages without
// their title (hosttheme.Theme.Untitled), and the edit link of the
// repository file the page shows (setEditURL).
//
// An evidence page is listed in its own section only (build.list
// "local": in .Pages, so a theme's sidebar and section listing still show
// it, not in site.RegularPages) and has no RSS output: feeds such as
// Hextra's, which show each page's whole .Content and take a section's
// feed from site.RegularPages of its type (the type the docs cascade
// gives the evidence pages), carried every raw line of every window.
func evidencePageParams(s *project.Site, fm map[string]any, summary string) {
	fm["summary"] = summary
	fm["build"] = map[string]any{"list": "local"}
	fm["outputs"] = []string{"html"}
	for _, k := range []string{"bookSearchExclude", "excludeSearch", "searchHidden", "exclude_search"} {
		fm[k] = true
	}
	for _, t := range hosttheme.Detect(s.Root, s.Config.Themes) {
		if t.Untitled {
			fm["evdoc_heading"] = true
		}
	}
	if docsType(s) {
		fm["type"] = "docs"
	}
	s.Config.SetEditURL(fm)
}

// evidenceIndexParams returns the front matter of the evidence index
// page titled title. The index lists every set: no single repository
// file is its source, so it has no translation.SourceParam and no edit
// link from evdoc (hugoconf.Config.NoEditLink; an edit URL of the
// evidence directory is a 404 on GitHub and GitLab).
func evidenceIndexParams(s *project.Site, title string) map[string]any {
	idx := map[string]any{"title": title, "translationKey": "evidence", "evdoc_index": true}
	evidencePageParams(s, idx, title)
	s.Config.NoEditLink(idx)
	return idx
}

// docsType reports whether evidence pages get type "docs": a theme of
// the site has a docs layout (hosttheme.DocsLayout: Docsy's and Hextra's
// docs sidebar, title and content area) and the project chooses no
// layout for them itself (no cascade in its configuration, no
// layouts/evidence/ of its own). Without it such a theme draws them
// with its bare default layout.
func docsType(s *project.Site) bool {
	if s.Config.Cascade {
		return false
	}
	if fi, err := os.Stat(filepath.Join(s.Root, "layouts", project.EvidenceDir)); err == nil && fi.IsDir() {
		return false
	}
	for _, t := range s.Config.Themes {
		if t != hosttheme.Component && hosttheme.DocsLayout(s.Root, t) {
			return true
		}
	}
	return false
}

// evidenceListLayout returns the theme's single-page template (relative
// to the project) that the evidence index and the set pages, section
// pages whose content is the whole page, are drawn with when the section
// layout Hugo would use for them shows no .Content or pages through the
// section, repeating the content on every page of the listing
// (hosttheme.SectionLayout: Stack's and FixIt's show a list only,
// PaperMod's and Ananke's page through the windows). stageEvidence
// writes it into the staged project as layouts/evidence/section.html,
// the section template of those pages only: a theme's page.html (FixIt)
// is for regular pages only, so no layout front matter could choose it.
// "" when the section layout shows the content once, when the
// configuration has a cascade (which may choose their layout itself) and
// when they have the docs type (its layouts are the theme's docs
// sidebar). A project's own layouts/evidence/section.html is the section
// layout found first.
func evidenceListLayout(s *project.Site) string {
	if s.Config.Cascade || docsType(s) {
		return ""
	}
	sec := hosttheme.SectionLayout(s.Root, s.Config.Themes, project.EvidenceDir)
	if !sec.NeedsSingle() || strings.HasPrefix(sec.Template, "layouts/") {
		return ""
	}
	return hosttheme.SingleLayout(s.Root, s.Config.Themes, project.EvidenceDir).Template
}

// themeBreadcrumbs reports whether the theme draws a breadcrumb trail on
// the evidence list pages (drawn with its single-page template when
// single, see evidenceListLayout) and on the window pages
// (hosttheme.Section.Breadcrumb: Docsy, Hextra, Relearn): those pages
// then carry evdoc_nocrumbs, and the evidence shortcode leaves its own
// trail out (two trails, one above the other, before).
func themeBreadcrumbs(s *project.Site, single bool) (list, page bool) {
	typ := project.EvidenceDir
	if docsType(s) {
		typ = "docs"
	}
	page = hosttheme.SingleLayout(s.Root, s.Config.Themes, typ).Breadcrumb
	list = hosttheme.SectionLayout(s.Root, s.Config.Themes, typ).Breadcrumb
	if single {
		list = page
	}
	return list, page
}

// setEvidenceDate gives an evidence page (a set's page, or a window of
// one of its files) the set's date (its manifest's date), so a theme that
// prints a page's date shows when the evidence was taken, never Hugo's
// zero date (year 0001); the evidence index, with no date of its own,
// takes its newest set's as Hugo dates a section from its pages.
//
// Hugo also dates the home page and the site (site.Lastmod: feeds'
// lastBuildDate, the sitemap's lastmod) from the newest page of the
// whole site, evidence pages included. So the date is given only when it
// is not after limit, the newest date of the project's own pages in the
// language (newestOwnDates): then those defaults stay what they are
// without evdoc. A later set date, or one that does not parse, is left
// out (a theme printing dates shows Hugo's zero date on those pages; the
// adopting guide says so). A date after now would also keep Hugo from
// publishing the page.
func setEvidenceDate(fm map[string]any, date string, limit time.Time) {
	if t, ok := hugoconf.FmTime(date); ok && !t.After(limit) && !t.After(time.Now()) {
		fm["date"] = date
	}
}

// newestOwnDates returns, per language code, the newest date (date,
// lastmod, publishDate and the aliases Hugo reads by default) of the
// project's own pages that Hugo builds; a language without one has none.
func newestOwnDates(s *project.Site) map[string]time.Time {
	out := map[string]time.Time{}
	now := time.Now()
	for _, p := range s.Pages {
		if !hugoconf.Published(s.Config, p.FrontMatter, now) {
			continue
		}
		for _, k := range []string{"date", "lastmod", "modified", "publishdate", "pubdate", "published"} {
			if t, ok := hugoconf.FmTime(hugoconf.FmValue(p.FrontMatter, k)); ok && t.After(out[p.Lang]) {
				out[p.Lang] = t
			}
		}
	}
	return out
}

// i18nString returns the string of the i18n key in language code as
// Hugo's T gives it in the site (i18n.Text), or def when no
// i18n file of the site defines it. A title evdoc build writes into a
// page's front matter is translated here: a theme shows it as it is.
func i18nString(s *project.Site, code, key, def string) string {
	if t, ok := i18n.Text(s.Root, s.Config.Themes, code, key); ok {
		return t
	}
	return def
}

// stageViewerFile writes the viewer pages of one raw file in every
// language, and for a sparse file its published copy (static/FILE).
//
// tokens holds, by line, the byte ranges of the raw tokens to mark
// (viewer.marks of the file), unread those of its evidence-number
// warnings (unreadRanges); newest is newestOwnDates(s).
func stageViewerFile(ctx context.Context, s *project.Site, stage string, vf *viewer.ViewerFile, fi int, langs []hugoconf.Language, cites []map[string]map[int][]viewer.Citation, tokens map[int][]viewer.TokenMark, unread map[int][][2]int, themeCrumbs bool, citeIDs *citesIDs, newest map[string]time.Time, uncited *bool) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	fh, _, err := safefile.Open(s.Root, vf.File, 0)
	if err != nil {
		return err
	}
	defer fh.Close()
	var pages []int // windows with a page
	for w := range vf.Starts {
		if vf.HasPage(w) {
			pages = append(pages, w)
		}
	}
	maxLine := int(vf.Size) + 1
	var raw, rawSize string
	if vf.Sparse {
		maxLine = viewer.MaxShownLine
		raw, rawSize = vf.File, safefile.Size(vf.Size)
		if err := linkOrCopy(filepath.Join(s.Root, filepath.FromSlash(vf.File)), filepath.Join(stage, "static", filepath.FromSlash(vf.File))); err != nil {
			return fmt.Errorf("staging %s: %v", vf.File, err)
		}
	}
	for k, w := range pages {
		if err := ctx.Err(); err != nil {
			return err
		}
		start, end := vf.Starts[w], windowEnd(vf, w)
		if _, err := fh.Seek(vf.Offsets[w], io.SeekStart); err != nil {
			return err
		}
		lr := viewer.NewLineReader(fh)
		lines := make([]string, 0, end-start+1)
		var cut []int // bytes not shown, by line of the window
		for n := start; n <= end; n++ {
			text, size, ok, err := lr.Next(maxLine)
			if err != nil {
				return fmt.Errorf("reading %s: %v", vf.File, err)
			}
			if !ok {
				return fmt.Errorf("%s changed during the build (line %d is gone); run the build again", vf.File, n)
			}
			lines = append(lines, string(text))
			cut = append(cut, size-len(text))
		}
		marks := map[int][]viewer.TokenMark{}
		nUnread := 0
		for i := range lines {
			m := tokens[start+i]
			if len(m) > 0 {
				m = slices.Clone(m)
				for j := range m {
					m[j].Id = viewer.TokenID(start+i, m[j].Start+1)
				}
			}
			if r := unread[start+i]; r != nil {
				u := viewer.UnreadMarks(lines[i], r, m)
				nUnread += len(u)
				m = append(append([]viewer.TokenMark(nil), m...), u...)
			}
			if m != nil {
				marks[i] = m
			}
		}
		html := viewer.HighlightLines(vf.Lexer, lines, marks)
		for i, c := range cut {
			if c > 0 {
				html[i] += fmt.Sprintf(` <span class="ev-cut">… (+%s)</span>`, safefile.Size(int64(c)))
			}
		}
		meta := viewerFrontMatter{File: vf.File, Set: vf.Set.Manifest.ID, Part: w + 1, Parts: len(vf.Starts), First: start, Last: end,
			Total: vf.Total, Lexer: vf.Lexer, SetPage: "/" + project.EvidenceDir + "/" + vf.Set.Manifest.ID, Raw: raw, RawSize: rawSize, Unread: nUnread}
		if k > 0 {
			meta.Prev = vf.PagePath(pages[k-1])
		}
		if k+1 < len(pages) {
			meta.Next = vf.PagePath(pages[k+1])
		}
		title := vf.File
		if len(vf.Starts) > 1 {
			title = fmt.Sprintf("%s (%d–%d)", vf.File, start, end)
		}
		prov := vf.Set.Provenance(vf.File)
		// The window's lines, shared by its pages in every language, go
		// to a file of the stage the layout reads (readFile), not the
		// front matter: Hugo holds every page's params for the whole
		// build, a file's content only while the page renders.
		meta.Lines = viewerLinesFile(vf.PagePath(w))
		linesHash, err := writeViewerLines(filepath.Join(stage, filepath.FromSlash(meta.Lines)), html)
		if err != nil {
			return fmt.Errorf("%s: %v", vf.File, err)
		}
		for li, lang := range langs {
			lmeta := meta
			var ls []viewer.CitedLine
			for i := range lines {
				if c := viewer.GroupCitations(cites[li][vf.File][start+i]); len(c) > 0 {
					ls = append(ls, viewer.CitedLine{N: start + i, Cites: c})
					lmeta.CitedLines = append(lmeta.CitedLines, start+i)
				}
			}
			lmeta.Cited = len(ls)
			lmeta.Hash = linesHash
			if len(ls) > 0 {
				lmeta.Cites = viewerCitesFile(lang.Code, vf.PagePath(w))
				h, err := writeViewerCites(filepath.Join(stage, filepath.FromSlash(lmeta.Cites)), ls, citeIDs)
				if err != nil {
					return fmt.Errorf("%s: %v", vf.File, err)
				}
				lmeta.Hash += "-" + h
			} else if uncited != nil {
				*uncited = true
			}
			src := prov.Source
			if t, ok := prov.SourceText[lang.Code]; ok {
				src = t
			}
			pfm := map[string]any{"evdoc_origin": map[string]string{"origin": prov.Origin, "source": src}, "title": title, "weight": (fi+1)*1_000_000 + w, "translationKey": strings.TrimPrefix(vf.PagePath(w), "/"),
				"evdoc_file": lmeta, translation.SourceParam: vf.File}
			if w > 0 {
				pfm["evdoc_continuation"] = true
			}
			evidencePageParams(s, pfm, title)
			if themeCrumbs {
				pfm["evdoc_nocrumbs"] = true
			}
			setEvidenceDate(pfm, vf.Set.Manifest.Date, newest[lang.Code])
			name := path.Base(vf.PagePath(w)) + ".md"
			dir := path.Dir(strings.TrimPrefix(vf.PagePath(w), "/"))
			if err := writeJSONFrontMatterPage(s.Config.PageFile(stage, lang, dir, name), pfm, evidenceBodyOf(s)); err != nil {
				return err
			}
		}
	}
	return nil
}

// linkOrCopy makes to a hard link of from, or a copy where the file
// system refuses links.
func linkOrCopy(from, to string) error {
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		return err
	}
	if err := os.Link(from, to); err == nil {
		return nil
	}
	return copyFile(from, to)
}
