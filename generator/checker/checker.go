package checker

import (
	"bytes"
	"fmt"
	"maps"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/evdoc-lab/evdoc/generator/check"
	"github.com/evdoc-lab/evdoc/generator/claim"
	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/generator/emphasis"
	"github.com/evdoc-lab/evdoc/generator/evidence"
	"github.com/evdoc-lab/evdoc/generator/hugoconf"
	"github.com/evdoc-lab/evdoc/generator/i18n"
	"github.com/evdoc-lab/evdoc/generator/project"
	"github.com/evdoc-lab/evdoc/generator/stagedata"
	"github.com/evdoc-lab/evdoc/generator/style"
	"github.com/evdoc-lab/evdoc/generator/translation"
	"github.com/yuin/goldmark"
)

// Checker judges a loaded site and keeps what it found for each page and
// each translation pair, so that after an edit only what the edit can
// change is judged again. It is the re-check path of `evdoc serve`:
//
//	s, err := project.Load(root)       // evidence, pages, figures: once
//	c := checker.NewChecker(s, opt)    // the full check, on every core
//	ds := c.Diagnostics()              // what `evdoc check` reports
//	err = c.Recheck("content/ko/x.md") // after a save: that page only
//	ds = c.Diagnostics()
//
// Recheck re-reads the named content files (an edited, new or deleted
// page) and judges again their claims, coverage, links and front matter,
// the translation pairs they belong to, the pairing of the whole site,
// and, when pages appeared or disappeared, every page's internal links.
// Evidence, figure specs, fonts, i18n files and hugo.toml are read once:
// after a change to any of them, Load the site again and make a new
// Checker. A Checker is not safe for concurrent use.
//
// The verdicts equal those of a fresh Load and Check of the edited
// project (the tests compare them).
type Checker struct {
	site        *project.Site
	opt         check.Options
	countsOnly  bool
	onResults   func(p *project.Page, rs []check.Result)
	onParsed    func(p *project.Page, parsed *claim.Page)
	numberWords bool
	// stage, when set, makes each page's StageData (CheckerOptions.Stage).
	stage *stagedata.StageBuilder

	pages map[*project.Page]*pageVerdict
	// cites is the reverse index from evidence values to the pages whose
	// claims cite them: for each set id a claim reference names, the
	// pages citing the set, each with the names it cites (bits of
	// names[set]). RecheckEvidence judges again the pages it names for
	// the values that changed.
	cites map[string]map[*project.Page]nameBits
	names map[string]map[string]int
	// citesIndex: cites is kept (CheckerOptions.CitesIndex).
	citesIndex bool
	// rejudge holds the pages RecheckEvidence judges again, unchanged,
	// with their verdict before: their parse findings are already in the
	// site's, and what of the verdict does not read the evidence
	// (coverage, links, emphasis, style, front matter) is kept.
	rejudge map[*project.Page]*pageVerdict
	// keepBytes is CheckerOptions.KeepCiting; kept the claims of the
	// pages RecheckEvidence judged again (keptClaims), by page, those
	// of the last edit first, reused while a page's source is the same;
	// reuse is kept while refresh runs for RecheckEvidence, keptSize
	// the estimated bytes kept, parses the pages refresh parsed (for
	// the tests).
	keepBytes int64
	kept      map[*project.Page]*claim.Page
	reuse     map[*project.Page]*claim.Page
	keptSize  int64
	parses    int
	pairs     map[translation.PagePair]diag.List
	links     map[*project.Page]diag.List
	// index holds "lang\x00logical" of every page, for link checks;
	// linkWin when each page is linkable, to make it again.
	index   map[string]bool
	linkWin project.LinkWindows

	// Site-wide parts, computed once: figure specs, figure names, the
	// evidence page names and the i18n string tables.
	figureDiags diag.List
	figureNames map[string]bool
	// figureClaims are the verdicts on the claims of the figure specs'
	// texts (captions, titles, labels), counted with the pages' claims.
	figureClaims []check.Result
	figureStage  *stagedata.ClaimStage // of figureClaims, under CheckerOptions.Stage
	evidence     diag.List
	i18n         diag.List
	// styleStrings are the glossary findings in figure specs and i18n
	// files (package style).
	styleStrings diag.List
}

// pageVerdict is what the checks that read one page only found on it.
type pageVerdict struct {
	results []check.Result        // nil under CheckerOptions.CountsOnly
	stage   *stagedata.ClaimStage // under CheckerOptions.Stage
	matched int                   // claims that match their evidence
	total   int                   // claims
	claims  diag.List             // claims, coverage and number words, in that order
	// judged is the number of claims' findings (check.Claims) at the
	// start of claims; the rest reads the page only.
	judged int
	// read: the page was parsed and judged (not one that could not be
	// read again), so what reads the page only can be kept.
	read     bool
	coverage claim.Coverage
	figures  diag.List // evfigure calls naming no figure spec
	emphasis diag.List
	style    diag.List // glossary terms and typography (package style)
	front    diag.List // numbers published where no claim can be written
	// links are the page's internal links (internalLinks), kept so that
	// links are checked again without parsing the page.
	links []claim.Link
	// cites are the evidence set ids the page's claims name, its entries
	// in Checker.cites; evtables the sets its evtable calls name.
	cites    []string
	evtables []string
}

// nameBits is a set of a set's value names, by their bit in
// Checker.names.
type nameBits []uint64

func (b *nameBits) add(i int) {
	for i/64 >= len(*b) {
		*b = append(*b, 0)
	}
	(*b)[i/64] |= 1 << (i % 64)
}

// meets reports whether b and o share a name.
func (b nameBits) meets(o nameBits) bool {
	for i := range min(len(b), len(o)) {
		if b[i]&o[i] != 0 {
			return true
		}
	}
	return false
}

// NewChecker checks s (as Check does) and returns the Checker
// holding the verdicts.
func NewChecker(s *project.Site, opt check.Options) *Checker {
	return NewCheckerWith(s, CheckerOptions{Check: opt})
}

// CheckerOptions configures NewCheckerWith.
type CheckerOptions struct {
	// Check tunes claim judgement.
	Check check.Options
	// CountsOnly keeps of each claim's verdict only whether it matched
	// (Counts), not its Result: a check that reports counts (evdoc check
	// in text format) then holds about a third less memory. Results
	// judges the pages again.
	CountsOnly bool
	// PageResults, when set, receives the verdict on every claim of each
	// page as the page is judged: from the checking workers, so calls
	// may run concurrently and come in any page order. With CountsOnly a
	// caller can so write every verdict out (evdoc check --format=json)
	// without the Checker holding them. Figure claims are not included
	// (FigureResults).
	PageResults func(p *project.Page, rs []check.Result)
	// Parsed, when set, is called with each page the Checker judges and
	// its parse, while the page is parsed: from the checking workers, so
	// calls may run concurrently. A caller so keeps what it needs of a
	// lazily loaded page's parse without parsing it again. Recheck calls
	// it for the pages it judges again (new *Page values).
	Parsed func(p *project.Page, parsed *claim.Page)
	// Stage keeps of each page's verdicts what staging the site needs
	// (StageData), kept up to date by Recheck. With CountsOnly, a build
	// so holds compact summaries instead of every claim's Result.
	Stage bool
	// CitesIndex keeps the reverse index from evidence values to the
	// pages citing them, with which RecheckEvidence judges again only
	// the pages citing a changed value; without it, RecheckEvidence
	// judges every page again.
	CitesIndex bool
	// KeepCiting, with CitesIndex, has RecheckEvidence keep the claims
	// of the pages it judged again (their source, claims and line index:
	// what judging a page's claims reads), up to about this many bytes
	// (keptSize: the claims take about 14 times the page's source), and
	// judge them again at the next RecheckEvidence from those instead of
	// parsing the page again, while its source (PageSource) is the same
	// bytes. The Parsed hook then receives that page with only Path,
	// Source, FrontMatter, BodyStart, Claims and Index set. A translation
	// pair compared again parses its pages, as does every other re-check.
	// 0: nothing is kept.
	KeepCiting int64
}

// NewCheckerWith is NewChecker with options.
func NewCheckerWith(s *project.Site, o CheckerOptions) *Checker {
	opt := o.Check
	c := &Checker{site: s, opt: opt, countsOnly: o.CountsOnly, citesIndex: o.CitesIndex, onResults: o.PageResults, keepBytes: o.KeepCiting, onParsed: o.Parsed, numberWords: s.Rules.Enabled(diag.ClaimNumberWord),
		pages: map[*project.Page]*pageVerdict{}, cites: map[string]map[*project.Page]nameBits{}, names: map[string]map[string]int{}, pairs: map[translation.PagePair]diag.List{}, links: map[*project.Page]diag.List{}}
	if o.Stage {
		c.stage = &stagedata.StageBuilder{}
	}
	c.checkEvidence()
	if s.Root != "" {
		c.i18n = i18n.Check(s.Root, s.Config.Themes, s.Translations.Codes())
	}
	c.styleStrings = checkStyleStrings(s)
	c.refresh()
	return c
}

// Parses returns the number of pages c has parsed to judge them, since
// NewCheckerWith: a lazily loaded page is parsed each time it is judged,
// but for one RecheckEvidence judges from its kept claims (KeepCiting).
func (c *Checker) Parses() int { return c.parses }

// Site returns the site c checks, with the pages as last (re)read.
func (c *Checker) Site() *project.Site { return c.site }

// Recheck re-reads the content files at paths (repository-relative,
// slash-separated, like Page.Path; a path that no longer exists removes
// its page) and judges again what they affect (see Checker). Paths
// outside every language's content directory, and files other than .md,
// are ignored. The error is an I/O error reading a file; the Checker then
// keeps its previous state for that file.
func (c *Checker) Recheck(paths ...string) error {
	s := c.site
	md := s.Config.NewMarkdown()
	changed := false
	var old []*project.Page   // replaced or removed pages
	var fresh []*project.Page // the pages read again
	added := false            // a page appeared or disappeared
	for _, file := range paths {
		file = path.Clean(filepath.ToSlash(file))
		lang := project.PageLanguage(s.Config, file)
		if lang == "" {
			continue
		}
		pg, errs, err := s.ReloadPage(lang, file, md)
		if err != nil {
			return fmt.Errorf("re-reading %s: %v", file, err)
		}
		s.SetPageFindings(file, errs)
		i := sort.Search(len(s.Pages), func(i int) bool { return s.Pages[i].Path >= file })
		exists := i < len(s.Pages) && s.Pages[i].Path == file
		switch {
		case exists && pg != nil:
			old = append(old, s.Pages[i])
			s.Pages[i] = pg
			fresh = append(fresh, pg)
		case exists:
			old = append(old, s.Pages[i])
			s.Pages = append(s.Pages[:i], s.Pages[i+1:]...)
			added = true
		case pg != nil:
			s.Pages = append(s.Pages, nil)
			copy(s.Pages[i+1:], s.Pages[i:])
			s.Pages[i] = pg
			added = true
		}
		changed = true
	}
	if !changed {
		return nil
	}
	s.Findings = s.AllFindings()
	s.Translations = translation.Pair(s.Config.Source().Code, s.Config.Ordered(), s.Pages)
	s.Translations.Units = s.ValueUnit
	gone := make(map[*project.Page]bool, len(old))
	for _, p := range old {
		gone[p] = true
		c.forget(p)
		delete(c.links, p)
		c.dropKept(p)
	}
	for pr := range c.pairs {
		if gone[pr.Source] || gone[pr.Target] {
			delete(c.pairs, pr)
		}
	}
	// A link may resolve now, or no more, when a page came or went or an
	// edit changed what a link can name (draft, dates, build options, a
	// section's cascade: see pageIndex). A source page's relative links
	// are also resolved from its fallbacks at other paths
	// (fallbackTargets), which an edit of one of its translations can
	// make or unmake.
	if index := s.PageIndexCached(&c.linkWin); added || !maps.Equal(index, c.index) {
		c.index = index
		c.links = map[*project.Page]diag.List{}
	} else {
		for _, p := range fresh {
			if o := s.Translations.Original(p); o != nil {
				delete(c.links, o)
			}
		}
	}
	c.refresh()
	return nil
}

// refresh judges every page and pair of the site that has no verdict
// yet, and checks the links of every page that has no link verdict.
// Recheck drops the verdicts an edit makes stale before it calls refresh.
//
// The work is cut into translation groups, each a source page with its
// target pages (a page in no pair is a group of its own), judged on a
// pool of GOMAXPROCS workers. A lazily loaded page (Page.Header, no
// Parsed) is parsed when its group is judged and dropped when the group
// is done, so a check holds about one group per worker of parsed pages.
// Every pair lies within one group, so each is judged once.
func (c *Checker) refresh() {
	s := c.site
	if c.index == nil {
		c.index = s.PageIndexCached(&c.linkWin)
	}
	type group struct {
		pages []*project.Page // source first, then its targets
		judge []*project.Page // pages without a verdict
		pairs []translation.PagePair
	}
	groupOf := map[*project.Page]*group{}
	var groups []*group
	for _, pr := range s.Translations.Pairs() {
		g := groupOf[pr.Source]
		if g == nil {
			g = &group{pages: []*project.Page{pr.Source}}
			groupOf[pr.Source] = g
			groups = append(groups, g)
		}
		g.pages = append(g.pages, pr.Target)
		groupOf[pr.Target] = g
		if _, ok := c.pairs[pr]; !ok {
			g.pairs = append(g.pairs, pr)
		}
	}
	for _, p := range s.Pages {
		if _, ok := c.pages[p]; ok {
			continue
		}
		g := groupOf[p]
		if g == nil {
			g = &group{pages: []*project.Page{p}}
			groupOf[p] = g
			groups = append(groups, g)
		}
		g.judge = append(g.judge, p)
	}
	var jobs []func(md goldmark.Markdown)
	var mu sync.Mutex
	findings := false // a lazily loaded page added findings
	// A parse nothing keeps after its group is judged (only counts,
	// findings and stage data, which copies what it keeps, are kept: no
	// results or parse hook) gives its claims' room back for the next
	// group's pages (claim.Scratch).
	recycle := c.countsOnly && c.onResults == nil && c.onParsed == nil && !c.keeping()
	for _, g := range groups {
		if len(g.judge) == 0 && len(g.pairs) == 0 {
			continue
		}
		jobs = append(jobs, func(md goldmark.Markdown) {
			judge := make(map[*project.Page]bool, len(g.judge))
			for _, p := range g.judge {
				judge[p] = true
			}
			// Parse the group's lazily loaded pages; drop them when done.
			var ours []*project.Page
			var rooms []*claim.Scratch // ours[i]'s room, when recycled
			failed := map[*project.Page]bool{}
			defer func() {
				for i, p := range ours {
					if rooms[i] != nil {
						rooms[i].Recycle(p.Parsed)
						scratchPool.Put(rooms[i])
					}
					p.Parsed = nil
				}
			}()
			for _, p := range g.pages {
				if p.Parsed != nil || !judge[p] && !inPairs(g.pairs, p) {
					continue
				}
				if kp := c.reusable(p, len(g.pairs) == 0); kp != nil {
					p.Parsed = kp
					ours = append(ours, p)
					rooms = append(rooms, nil)
					continue
				}
				var room *claim.Scratch
				if recycle {
					room = scratchPool.Get().(*claim.Scratch)
				}
				parsed, errs, err := s.ParsePageScratch(p, md, room)
				mu.Lock()
				c.parses++
				mu.Unlock()
				if c.rejudge[p] != nil && err == nil {
					errs = nil // found when the page was first judged
				}
				if judge[p] {
					if err != nil {
						errs = diag.List{diag.Errorf(diag.Position{File: p.Path}, diag.PagePath, "cannot read the page again to check it: %v", err)}
					}
					if len(errs) > 0 {
						mu.Lock()
						s.AddPageFindings(p.Path, errs)
						findings = true
						mu.Unlock()
					}
				}
				if err != nil {
					if room != nil {
						scratchPool.Put(room) // nothing was parsed into it
					}
					failed[p] = true
					continue
				}
				p.Parsed = parsed
				ours = append(ours, p)
				rooms = append(rooms, room)
			}
			for _, p := range g.judge {
				v := &pageVerdict{coverage: claim.Coverage{Page: p.Path}}
				var cited map[string][]string
				if !failed[p] {
					v, cited = c.judgePage(p)
				}
				mu.Lock()
				c.pages[p] = v
				c.addCites(p, v, cited)
				if v.read && c.keeping() {
					c.keep(p)
				}
				mu.Unlock()
			}
			for _, pr := range g.pairs {
				var ds diag.List
				if !failed[pr.Source] && !failed[pr.Target] {
					ds = translation.CheckPair(pr, s.ValueUnit)
				}
				mu.Lock()
				c.pairs[pr] = ds
				mu.Unlock()
			}
		})
	}
	project.RunWorkers(c.site.Config.NewMarkdown, jobs)
	if findings {
		s.Findings = s.AllFindings()
	}
	for _, p := range s.Pages {
		if _, ok := c.links[p]; !ok {
			c.links[p] = checkLinks(s, p, c.pages[p].links, c.index)
		}
	}
}

// scratchPool holds the rooms of parses refresh recycles.
var scratchPool = sync.Pool{New: func() any { return new(claim.Scratch) }}

// inPairs reports whether p is the source or target of one of pairs.
func inPairs(pairs []translation.PagePair, p *project.Page) bool {
	for _, pr := range pairs {
		if pr.Source == p || pr.Target == p {
			return true
		}
	}
	return false
}

// addCites enters page p, whose verdict is v, in the reverse index
// (Checker.cites) under the names it cites, by set id.
func (c *Checker) addCites(p *project.Page, v *pageVerdict, cited map[string][]string) {
	for set, names := range cited {
		v.cites = append(v.cites, set)
		ids := c.names[set]
		if ids == nil {
			ids = map[string]int{}
			c.names[set] = ids
		}
		var bits nameBits
		for _, n := range names {
			i, ok := ids[n]
			if !ok {
				i = len(ids)
				ids[strings.Clone(n)] = i // not a slice of the page's source
			}
			bits.add(i)
		}
		if c.cites[set] == nil {
			c.cites[set] = map[*project.Page]nameBits{}
		}
		c.cites[set][p] = bits
	}
}

// forget drops the verdict on page p and its entries in the reverse
// index.
func (c *Checker) forget(p *project.Page) {
	if v := c.pages[p]; v != nil {
		for _, set := range v.cites {
			delete(c.cites[set], p)
		}
	}
	delete(c.pages, p)
}

// citedNames returns the names each claim reference of p names, by set
// id (the reference's first segment), each name once.
func citedNames(p *claim.Page) map[string][]string {
	out := map[string][]string{}
	seen := map[string]bool{}
	for _, cl := range p.Claims {
		for _, r := range cl.Refs {
			if seen[r] {
				continue
			}
			seen[r] = true
			set, name, _ := strings.Cut(r, "/")
			out[set] = append(out[set], name)
		}
	}
	return out
}

// checkEvidence runs the site-wide checks that read the evidence: the
// figure specs (their texts' claims are judged against it) and the
// evidence pages' names.
func (c *Checker) checkEvidence() {
	s := c.site
	c.figureDiags, c.figureNames, c.figureClaims = checkFigureSpecs(s, c.opt)
	if c.stage != nil {
		c.figureStage = c.stage.Unit(c.figureClaims)
	}
	c.evidence = checkEvidencePageNames(s)
}

// RecheckEvidence reads the project's evidence again and judges again
// what a change of it can alter: the pages citing a value that changed
// (found in the reverse index from values to citing pages, kept under
// CheckerOptions.CitesIndex, else every page; every page
// citing a set that appeared, disappeared or broke; when names came or
// went, every page citing a reference that names nothing, whose
// suggestion may change), the pages with an evtable of a changed set
// (of any set when sets came or went), the figure specs and the evidence
// pages' names. Of a page judged again only the findings that read the
// evidence are made again (its claims' and evtables'); a translation
// pair is compared again when the unit of a value its pages cite
// changed (with the index; without it, every pair of a page judged
// again). It returns what changed. The verdicts equal those of a fresh
// Load and Check (the tests compare them).
func (c *Checker) RecheckEvidence() evidence.Change {
	s := c.site
	st, errs := evidence.LoadWith(s.Root, project.EvidenceDir, s.EvidenceOpt)
	old := s.Store
	ch := evidence.Diff(old, st)
	s.Store, s.EvidenceFindings = st, errs
	s.Findings = s.AllFindings()
	c.checkEvidence()
	if ch.Empty() {
		return ch
	}
	stale := map[*project.Page]bool{}
	if !c.citesIndex {
		for _, p := range s.Pages {
			stale[p] = true
		}
	}
	for set, pages := range c.cites {
		if len(pages) == 0 {
			continue
		}
		var mask nameBits
		for name, i := range c.names[set] {
			ref := set + "/" + name
			if ch.Sets[set] || ch.Refs[ref] {
				mask.add(i)
			} else if _, ok := st.Lookup(ref); ch.Names && !ok {
				mask.add(i)
			}
		}
		for p, bits := range pages {
			if bits.meets(mask) {
				stale[p] = true
			}
		}
	}
	for p, v := range c.pages {
		for _, set := range v.evtables {
			if ch.Names || ch.Touched[set] {
				stale[p] = true
			}
		}
	}
	// A pair compares a claim written without a unit in its value's
	// unit (translation.CheckPair), and reads nothing else of the
	// evidence: it is judged again when the unit of a value its pages
	// cite changed (every pair of a stale page without the index).
	unitStale := stale
	if c.citesIndex {
		unitStale = c.unitChanged(old, st, ch) // before forget drops the stale pages' entries
	}
	rejudge := make(map[*project.Page]*pageVerdict, len(stale))
	for p := range stale {
		rejudge[p] = c.pages[p]
		c.forget(p)
	}
	for pr := range c.pairs {
		if unitStale[pr.Source] || unitStale[pr.Target] {
			delete(c.pairs, pr)
		}
	}
	c.rejudge = rejudge
	// the claims kept at the last edit are judged again here; those of
	// this one's pages are kept for the next
	c.reuse, c.kept, c.keptSize = c.kept, nil, 0
	c.refresh()
	// the claims kept before of the pages not judged again stay, in
	// what is left of KeepCiting
	for p, kp := range c.reuse {
		if _, ok := c.kept[p]; ok || rejudge[p] != nil {
			continue
		}
		if n := keptSize(len(kp.Source)); c.keptSize+n <= c.keepBytes {
			if c.kept == nil {
				c.kept = map[*project.Page]*claim.Page{}
			}
			c.kept[p] = kp
			c.keptSize += n
		}
	}
	c.rejudge, c.reuse = nil, nil
	return ch
}

// keeping reports whether refresh keeps the claims of the pages it
// judges: it runs for RecheckEvidence, under KeepCiting.
func (c *Checker) keeping() bool {
	return c.keepBytes > 0 && c.citesIndex && c.rejudge != nil
}

// keptSize estimates the bytes the kept claims of a page whose source
// is n bytes hold: about 14 times its source (measured on the 500-page
// benchmark site: 57 MB for 100 pages of 4.0 MB).
func keptSize(n int) int64 { return 14 * int64(n) }

// keep keeps what judging page p's claims reads of its parse, when it
// fits in KeepCiting (c's lock held).
func (c *Checker) keep(p *project.Page) {
	pp := p.Parsed
	if pp == nil || len(pp.Claims) == 0 {
		return
	}
	n := keptSize(len(pp.Source))
	if c.keptSize+n > c.keepBytes {
		return
	}
	if c.kept == nil {
		c.kept = map[*project.Page]*claim.Page{}
	}
	c.kept[p] = keptClaims(pp)
	c.keptSize += n
}

// keptClaims returns the part of parse pp that judging its claims
// reads (judgePage of a page judged before: check.Visit, evtable and
// figure calls, the Parsed hook of serve): its source, claims and line
// index; the rest (prose numbers, links, raw HTML, shortcodes) is what
// only a page's first judgement reads.
func keptClaims(pp *claim.Page) *claim.Page {
	return &claim.Page{Path: pp.Path, Source: pp.Source, FrontMatter: pp.FrontMatter, BodyStart: pp.BodyStart, Claims: pp.Claims, Index: pp.Index}
}

// reusable returns the claims kept of page p (keep) when RecheckEvidence
// judges it again (a page read before, no pair of it to compare: pairs
// reads its whole parse) and its source is still the bytes they were
// read from; nil otherwise (the page is parsed).
func (c *Checker) reusable(p *project.Page, noPairs bool) *claim.Page {
	kp := c.reuse[p]
	if kp == nil || !noPairs {
		return nil
	}
	if old := c.rejudge[p]; old == nil || !old.read {
		return nil
	}
	src, err := c.site.PageSource(p)
	if err != nil || !bytes.Equal(src, kp.Source) {
		return nil
	}
	return kp
}

// dropKept forgets the claims kept of page p (replaced or removed).
func (c *Checker) dropKept(p *project.Page) {
	if kp := c.kept[p]; kp != nil {
		c.keptSize -= keptSize(len(kp.Source))
		delete(c.kept, p)
	}
}

// unitChanged returns the pages citing a value whose unit (as
// translation.ValueUnits gives it: "" for a reference naming nothing)
// differs between the stores old and cur, of the sets ch touched.
func (c *Checker) unitChanged(old, cur *evidence.Store, ch evidence.Change) map[*project.Page]bool {
	unitOf := func(st *evidence.Store, ref string) string {
		if v, ok := st.Lookup(ref); ok {
			return v.Unit
		}
		return ""
	}
	out := map[*project.Page]bool{}
	for set, pages := range c.cites {
		if len(pages) == 0 || !ch.Touched[set] && !ch.Sets[set] {
			continue
		}
		var mask nameBits
		for name, i := range c.names[set] {
			if ref := set + "/" + name; unitOf(old, ref) != unitOf(cur, ref) {
				mask.add(i)
			}
		}
		if len(mask) == 0 {
			continue
		}
		for p, bits := range pages {
			if bits.meets(mask) {
				out[p] = true
			}
		}
	}
	return out
}

// judgePage runs the checks that read page p only. It returns the
// verdict and the names p's claims cite, by set (citedNames).
func (c *Checker) judgePage(p *project.Page) (*pageVerdict, map[string][]string) {
	v := &pageVerdict{read: true}
	if c.onParsed != nil {
		c.onParsed(p, p.Parsed)
	}
	var ds diag.List
	switch {
	case c.countsOnly && c.onResults == nil && c.stage == nil:
		// no Result is kept: judge without building them
		v.total, v.matched, ds = check.Counts(p.Parsed, c.site.Store, c.opt)
	case c.countsOnly && c.onResults == nil:
		// only the stage data is kept: made claim by claim, without
		// a Result for each
		ub := c.stage.NewUnit()
		v.total, v.matched, ds = check.Visit(p.Parsed, c.site.Store, c.opt, ub.Add)
		v.stage = ub.Done()
	default:
		var rs []check.Result
		rs, ds = check.Claims(p.Parsed, c.site.Store, c.opt)
		v.total = len(rs)
		for _, r := range rs {
			if r.OK {
				v.matched++
			}
		}
		if c.onResults != nil {
			c.onResults(p, rs)
		}
		if !c.countsOnly {
			v.results = rs
		}
		if c.stage != nil {
			v.stage = c.stage.Unit(rs)
		}
	}
	v.judged = len(ds)
	evt, sets := evtableFindings(p, c.site.Store)
	v.figures = append(unknownFigures(p, c.figureNames), evt...)
	v.evtables = sets
	if old := c.rejudge[p]; old != nil && old.read {
		// RecheckEvidence: the page is the one judged before, and
		// these read the page only.
		v.coverage = old.coverage
		v.claims = append(ds, old.claims[old.judged:]...)
		v.links, v.emphasis, v.style, v.front = old.links, old.emphasis, old.style, old.front
	} else {
		cov, cds := check.Coverage(p.Parsed)
		v.coverage = cov
		ds = append(ds, cds...)
		if c.numberWords {
			ds = append(ds, check.NumberWords(p.Parsed)...)
		}
		v.claims = ds
		v.links = hugoconf.InternalLinks(p.Parsed)
		v.emphasis = emphasis.Check(p.Parsed, c.site.Config.MarkdownConfig())
		v.style = style.CheckPage(c.site.Glossary, p.Parsed, p.Lang)
		v.front = uncheckedNumbers(p)
	}
	if !c.citesIndex {
		return v, nil
	}
	return v, citedNames(p.Parsed)
}

// Diagnostics returns every finding of the site, as Check does: load
// findings and those of every check, with the project's rule severities
// applied, sorted.
func (c *Checker) Diagnostics() diag.List {
	s := c.site
	// each page's verdict looked up once: the lists are gathered in
	// the order Check gathers them
	vs := make([]*pageVerdict, len(s.Pages))
	n := len(s.Findings) + len(c.figureDiags) + len(c.i18n) + len(c.styleStrings) + len(c.evidence)
	for i, p := range s.Pages {
		v := c.pages[p]
		vs[i] = v
		n += len(v.claims) + len(c.links[p]) + len(v.figures) + len(v.emphasis) + len(v.style) + len(v.front)
	}
	ds := make(diag.List, 0, n)
	ds = append(ds, s.Findings...)
	for _, v := range vs {
		ds = append(ds, v.claims...)
	}
	for _, p := range s.Pages {
		ds = append(ds, c.links[p]...)
	}
	ds = append(ds, c.figureDiags...)
	for _, v := range vs {
		ds = append(ds, v.figures...)
	}
	ds = append(ds, s.Translations.CheckPairing()...)
	tvs := vs
	if !slices.Equal(s.Translations.Pages, s.Pages) {
		tvs = make([]*pageVerdict, len(s.Translations.Pages))
		for i, p := range s.Translations.Pages {
			tvs[i] = c.pages[p]
		}
	}
	for _, v := range tvs {
		ds = append(ds, v.emphasis...)
	}
	ds = append(ds, c.i18n...)
	for _, v := range tvs {
		ds = append(ds, v.style...)
	}
	ds = append(ds, c.styleStrings...)
	for _, pr := range s.Translations.Pairs() {
		ds = append(ds, c.pairs[pr]...)
	}
	ds = append(ds, c.evidence...)
	for _, v := range vs {
		ds = append(ds, v.front...)
	}
	ds = s.Rules.Apply(ds)
	ds = foldTranslationClaims(ds)
	ds.Sort()
	return ds
}

// foldTranslationClaims reports a slip in a source page's claim once, as
// the source's own error: a translation-claims finding on a translation
// whose claim matches its evidence, against a source claim that does not
// (a claim-mismatch, claim-spread or claim-label error of the source
// claim), is not a finding of its own but a note of that error ("the
// translation says …"), so the page with the wrong number is the one
// reported. A translation whose claim is wrong too keeps its finding.
func foldTranslationClaims(ds diag.List) diag.List {
	claimErr := func(d diag.Diagnostic) bool {
		return d.Severity == diag.Error && (d.Rule == diag.ClaimMismatch || d.Rule == diag.ClaimSpread || d.Rule == diag.ClaimLabel)
	}
	byFile := map[string][]int{}
	for i, d := range ds {
		if claimErr(d) {
			byFile[d.Pos.File] = append(byFile[d.Pos.File], i)
		}
	}
	if len(byFile) == 0 {
		return ds
	}
	// errAt returns the claim error of file that starts at or just after
	// off on line (within the claim starting there), or -1.
	errAt := func(file string, line, off, end int) int {
		best := -1
		for _, i := range byFile[file] {
			e := ds[i].Pos
			if e.Line == line && e.Offset >= off && (end > off && e.Offset < end || end <= off && e.Offset-off < 64) && (best < 0 || e.Offset < ds[best].Pos.Offset) {
				best = i
			}
		}
		return best
	}
	drop := map[int]bool{}
	for i, d := range ds {
		if d.Rule != diag.TranslationClaims || len(d.Related) == 0 || !strings.Contains(d.Message, "(same evidence ") {
			continue // only two claims of one value that say different numbers
		}
		src := d.Related[0].Pos
		if errAt(d.Pos.File, d.Pos.Line, d.Pos.Offset, d.End.Offset) >= 0 {
			continue // the translation's own claim is wrong too
		}
		j := errAt(src.File, src.Line, src.Offset, -1)
		if j < 0 {
			continue
		}
		ds[j].Related = append(ds[j].Related, diag.Related{Pos: d.Pos, Message: "the translation's claim matches the evidence, and so disagrees with this one: " + d.Message})
		drop[i] = true
	}
	if len(drop) == 0 {
		return ds
	}
	out := ds[:0]
	for i, d := range ds {
		if !drop[i] {
			out = append(out, d)
		}
	}
	return out
}

// Counts returns the number of claims that match their evidence and of
// all claims judged: the pages' and the figure specs' texts'.
func (c *Checker) Counts() (matched, total int) {
	for _, p := range c.site.Pages {
		v := c.pages[p]
		matched += v.matched
		total += v.total
	}
	for _, r := range c.figureClaims {
		if r.OK {
			matched++
		}
		total++
	}
	return matched, total
}

// Results returns the verdict on every claim of every page, pages in path
// order, then on the claims of the figure specs' texts.
func (c *Checker) Results() []check.Result {
	return append(c.pageResults(), c.figureClaims...)
}

// StageData returns what staging the site needs of the verdicts
// (staging.Stage), as StageDataOf(c.Results()) gives it. It is nil unless
// c was made with CheckerOptions.Stage. The StageData is not changed by
// a later Recheck.
func (c *Checker) StageData() *stagedata.StageData {
	if c.stage == nil {
		return nil
	}
	units := make([]*stagedata.ClaimStage, 0, len(c.site.Pages)+1)
	for _, p := range c.site.Pages {
		if u := c.pages[p].stage; u != nil {
			units = append(units, u)
		}
	}
	return &stagedata.StageData{Units: append(units, c.figureStage)}
}

// FigureResults returns the verdict on every claim of the figure specs'
// texts: the end of Results.
func (c *Checker) FigureResults() []check.Result { return c.figureClaims }

func (c *Checker) pageResults() []check.Result {
	if c.countsOnly {
		out := []check.Result{}
		md := c.site.Config.NewMarkdown()
		for _, p := range c.site.Pages {
			parsed := p.Parsed
			if parsed == nil {
				parsed, _, _ = c.site.ParsePage(p, md) // an error is a finding already
			}
			if parsed == nil {
				continue
			}
			rs, _ := check.Claims(parsed, c.site.Store, c.opt)
			out = append(out, rs...)
		}
		return out
	}
	n := 0
	for _, p := range c.site.Pages {
		n += len(c.pages[p].results)
	}
	out := make([]check.Result, 0, n)
	for _, p := range c.site.Pages {
		out = append(out, c.pages[p].results...)
	}
	return out
}

// Coverage returns each page's coverage, as the function Coverage does.
func (c *Checker) Coverage() []claim.Coverage {
	out := make([]claim.Coverage, 0, len(c.site.Pages))
	for _, p := range c.site.Pages {
		out = append(out, c.pages[p].coverage)
	}
	return out
}
