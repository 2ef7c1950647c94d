package staging

import (
	"bytes"
	"context"
	"crypto/sha256"
	"hash"
	"hash/fnv"
	"maps"
	"path"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/evdoc-lab/evdoc/generator/emphasis"
	"github.com/evdoc-lab/evdoc/generator/evidence"
	"github.com/evdoc-lab/evdoc/generator/project"
	"github.com/evdoc-lab/evdoc/generator/stagedata"
	"github.com/evdoc-lab/evdoc/generator/viewer"
	"github.com/evdoc-lab/evdoc/internal/safefile"
)

// stagedMarkdown returns the transform of a page file as Stage stages it:
// pages are copied as Hugo should read them (emphasis.HugoMarkdown),
// each written once, with the marks of their claims: markClaims on a
// page with shortcodes or precision marks (marks), which it parses;
// markRepeats, from the check's reading of the page (repeats,
// StageData.Repeats), on any other. It returns false for a file that is
// no page of a content directory, or is staged as it is. onPage, when
// not nil, is called with each page's source before it is transformed.
// With sl, each page of the site gets slots for the claims it can
// (slotPage).
func stagedMarkdown(s *project.Site, mdOpt emphasis.MarkdownOptions, marks map[string]map[int]string, repeats map[string][]stagedata.Repeat, onPage func(rel string, b []byte), sl *slotter) func(rel string, b []byte) ([]byte, bool) {
	var contentDirs []string
	for _, l := range s.Config.Ordered() {
		contentDirs = append(contentDirs, path.Clean(filepath.ToSlash(l.ContentDir))+"/")
	}
	return func(rel string, b []byte) ([]byte, bool) {
		if !strings.HasSuffix(rel, ".md") {
			return nil, false
		}
		for _, d := range contentDirs {
			if strings.HasPrefix(rel, d) {
				if onPage != nil {
					onPage(rel, b)
				}
				var pinned []byte
				var ok bool
				var edits *[]edit
				pg, cands, from := sl.page(rel, b)
				if pg != nil {
					edits = new([]edit)
				}
				shortcodes := bytes.Contains(b, []byte("{{"))
				if len(marks[rel]) > 0 || shortcodes {
					pinned, ok = markClaims(s.Config.MarkdownConfig(), rel, b, true, true, marks[rel], 0, edits)
				} else {
					pinned, ok = markRepeats(b, repeats[rel], 0, edits)
				}
				out, ins := emphasis.HugoMarkdown(pinned, mdOpt)
				if pg != nil {
					var any bool
					out, any = slotPage(out, pinned, b, *edits, ins, cands, from, sl.known, shortcodes, pg)
					ok = ok || any
				}
				return out, ok || len(ins) > 0
			}
		}
		return nil, false
	}
}

// StageEdit writes into stage (a new or empty directory) the part of
// Stage's output that a page or evidence edit changes on the pages Hugo
// shows: each of pages (slash paths relative to the root, of content
// pages that exist) as Stage stages it with the translation fallbacks
// made from them, and the claim and set data (data/evdoc/claims.json,
// sets.json), the same bytes Stage writes for the same data. evdoc serve
// writes them into the served project first, so the edited page and the
// pages citing an edited value show the new verdicts before the rest of
// the project is staged again (figures, the evidence sets' pages); a
// Stage must follow.
//
// tables, when not nil, are the evtable calls of every page as the last
// Stage (Staged.Evtables) and the StageEdit calls since read them:
// StageEdit sets the entries of pages from their new text and reads no
// other page. With nil it reads every content page for its calls.
func StageEdit(ctx context.Context, s *project.Site, stage string, data *stagedata.StageData, pages []string, tables Evtables) error {
	return StageEditCached(ctx, s, stage, data, pages, tables, nil)
}

// StageEditCached is StageEdit with cache (nil: none), which keeps from
// one call to the next, while the site's evidence is the same Store,
// the evidence viewer and each claim's data and its JSON: after a page
// edit only the claims whose destination or bindings are new are made
// again. The files written are StageEdit's, byte for byte, and, when the
// cache knows what the served evidence viewer pages are made of
// (ClaimCache.Staged, then each StageEditCached since), the viewer pages
// of every raw file the edit changes them of (its lines, the tokens
// claims mark, the claims citing its lines), as Stage writes them: the
// Stage after it then writes none of them again.
func StageEditCached(ctx context.Context, s *project.Site, stage string, data *stagedata.StageData, pages []string, tables Evtables, cache *ClaimCache) error {
	_, mdOpt, err := s.Config.HugoEnv()
	if err != nil {
		return err
	}
	// The marks and repeats of the staged pages only: an evidence edit
	// stages none.
	only := make(map[string]bool, len(pages))
	for _, rel := range pages {
		only[rel] = true
	}
	var multi map[string]bool
	if cache == nil {
		cache = &ClaimCache{}
		multi, _ = data.PrecisionMarksOf(map[string]bool{})
	} else {
		// read of the units re-checked since the last call only
		multi = cache.prec.Multi(data)
	}
	cache.complete = nil
	marks := data.MarksOf(multi, only)
	var repeats map[string][]stagedata.Repeat
	if len(pages) > 0 {
		repeats = data.RepeatsOf(multi, only)
	}
	hugoMarkdown := stagedMarkdown(s, mdOpt, marks, repeats, nil, nil)
	for _, rel := range pages {
		b, err := safefile.ReadFile(s.Root, rel, safefile.TextMaxSize)
		if err != nil {
			return err
		}
		if tables != nil {
			if e := project.EvtableCalls(b); e != nil {
				tables[rel] = e
			} else {
				delete(tables, rel)
			}
		}
		if out, ok := hugoMarkdown(rel, b); ok {
			b = out
		}
		if err := WriteFile(filepath.Join(stage, filepath.FromSlash(rel)), b); err != nil {
			return err
		}
	}
	if len(pages) > 0 {
		// the pages of the languages that show an edited page's
		// translation fallback
		if err := stageFallbacksOf(ctx, s, stage, mdOpt, marks, repeats, only); err != nil {
			return err
		}
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if tables == nil {
		// The values evtable calls show, of every page, as Stage
		// gathers them (sets.json holds them).
		if tables, err = readEvtables(s); err != nil {
			return err
		}
	}
	v, err := cache.viewerOf(ctx, s)
	if err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	// The tokens the claims' data and the sets' values mark, in the
	// order a whole staging's viewer marks them: v's marks are made
	// again from them, without those of claims gone since.
	var made []viewer.Mark
	v.OnMark = func(m viewer.Mark) { made = append(made, m) }
	err = stageClaimsOf(ctx, s, stage, v, cache.claims(v, data, multi, s.Store, &made), tables.all(), &cache.file)
	v.OnMark = nil
	if err != nil {
		cache.served = nil
		return err
	}
	tokens := make(map[string]map[int][]viewer.TokenMark, len(v.Marks))
	for _, m := range made {
		viewer.AddMark(tokens, m)
	}
	v.Marks = tokens
	// The viewer pages of the raw files the edit changes (the edited
	// evidence's lines, the claims citing a line), when the cache knows
	// what the served ones were made of (Staged).
	served := cache.served
	cache.served = nil
	if served == nil {
		return nil
	}
	next := basisOf(s, data, v, served.crumbs, multi)
	files, ok := served.changedFiles(next)
	if !ok {
		return nil
	}
	all, uncited, err := stageViewerFiles(ctx, s, stage, v, data, files, served.crumbs)
	if err != nil {
		return err
	}
	if all {
		cache.served = next
		// told when asked (EditComplete), after the edit is written
		// for Hugo: not on the way to its page
		cache.complete = func() bool { return !uncited && served.completeAfter(next, s, only) }
	}
	return nil
}

// readEvtables reads every content page of s for its evtable calls.
func readEvtables(s *project.Site) (Evtables, error) {
	tables := Evtables{}
	seen := map[string]bool{}
	for _, l := range s.Config.Ordered() {
		cd := path.Clean(filepath.ToSlash(l.ContentDir))
		if seen[cd] {
			continue
		}
		seen[cd] = true
		files, err := regularFiles(filepath.Join(s.Root, filepath.FromSlash(cd)))
		if err != nil {
			return nil, err
		}
		for _, p := range files {
			if !strings.HasSuffix(p, ".md") {
				continue
			}
			b, err := safefile.ReadPath(p, safefile.TextMaxSize)
			if err != nil {
				return nil, err
			}
			if e := project.EvtableCalls(b); e != nil {
				rel, err := filepath.Rel(s.Root, p)
				if err != nil {
					return nil, err
				}
				tables[filepath.ToSlash(rel)] = e
			}
		}
	}
	return tables, nil
}

// viewerBasis is what the evidence viewer pages of a staging were made
// of (stageViewerFile), for telling which raw files' pages an edit
// changes: the claim data (its citations), each raw file's state, the
// pages each language falls back to, the newest dates of the project's
// own pages and whether the theme draws its own breadcrumbs on them.
type viewerBasis struct {
	data      *stagedata.StageData
	files     map[string]viewerFileState
	fallbacks map[string]string // source page → the languages it is a fallback in
	newest    map[string]time.Time
	crumbs    bool
	// store is the evidence staged, multi the destinations written at
	// several precisions (StageData.PrecisionMarks), sparse whether a
	// raw file is shown in windows only: what tells whether an edit's
	// staging wrote all a whole staging would (ClaimCache.EditComplete).
	store  *evidence.Store
	multi  map[string]bool
	sparse bool
}

// viewerFileState is what a raw file's viewer pages show of it and of
// its set, besides the citations: its place in the viewer's order (the
// pages' weight), its bytes' sum and windows, its lexer, its set's id,
// date and its provenance, the tokens claims mark (a copy of the
// viewer's map, which making a claim's data adds to) and the numbers no
// reading took.
type viewerFileState struct {
	index        int
	sum          [sha256.Size]byte
	starts       []int
	total        int
	size         int64
	lexer        string
	sparse       bool
	set, date    string
	provenance   evidence.Provenance
	marks        map[int][]viewer.TokenMark
	unread       map[int][][2]int
	hasSet, have bool
}

// basisOf returns the viewerBasis of a staging of s with data and v,
// the breadcrumbs' choice being crumbs.
func basisOf(s *project.Site, data *stagedata.StageData, v *viewer.Viewer, crumbs bool, multi map[string]bool) *viewerBasis {
	b := &viewerBasis{data: data, files: make(map[string]viewerFileState, len(v.Order)), fallbacks: map[string]string{}, newest: newestOwnDates(s), crumbs: crumbs,
		store: s.Store, multi: multi}
	unread := viewer.UnreadRanges(s.EvidenceFindings, s.Rules)
	for i, f := range v.Order {
		vf := v.Files[f]
		st := viewerFileState{index: i, sum: vf.Sum, starts: vf.Starts, total: vf.Total, size: vf.Size, lexer: vf.Lexer, sparse: vf.Sparse,
			marks: maps.Clone(v.Marks[f]), unread: unread[f], have: true}
		b.sparse = b.sparse || vf.Sparse
		if vf.Set != nil {
			st.hasSet, st.set, st.date, st.provenance = true, vf.Set.Manifest.ID, vf.Set.Manifest.Date, vf.Set.Provenance(f)
		}
		b.files[f] = st
	}
	fallbacks := s.Fallbacks()
	for _, l := range s.Config.Ordered() {
		for _, fb := range fallbacks[l.Code] {
			b.fallbacks[fb.Source.Path] += l.Code + " "
		}
	}
	return b
}

// Staged tells the cache that a whole staging (Stage) of s with data,
// whose viewer is v, is what the served project holds: the next
// StageEditCached writes the viewer pages of the raw files whose pages
// its edit changes, so the whole staging after it finds them written.
// With a nil v the cache forgets what the served viewer pages are made
// of, and StageEditCached writes none until the next Staged.
func (cc *ClaimCache) Staged(s *project.Site, data *stagedata.StageData, v *viewer.Viewer) {
	if v == nil || data == nil {
		cc.served = nil
		return
	}
	// The viewer of a whole staging has the marks of every claim: the
	// cache's from now on.
	cc.adopt(s.Store, v)
	_, pageCrumbs := themeBreadcrumbs(s, evidenceListLayout(s) != "")
	cc.served = basisOf(s, data, v, pageCrumbs, cc.prec.Multi(data))
	cc.complete = nil
}

// EditComplete reports whether the last StageEditCached wrote every
// file a whole Stage of its state writes differently from the served
// project (the cache knew the served project: Staged, then each
// StageEditCached since): the edit's viewer pages, and no other file
// changed — no other page's precision marks or repeats, no evidence
// set's page (its manifest), no figure, no sparse file's windows, no
// page's dates. evdoc serve then leaves the whole staging out: it would
// write nothing.
func (cc *ClaimCache) EditComplete() bool {
	if cc.complete == nil {
		return false
	}
	ok := cc.complete()
	cc.complete = func() bool { return ok }
	return ok
}

// completeAfter reports whether the edit staged as next, of the pages
// edited, changed nothing a whole staging writes but the files
// StageEditCached wrote (the viewer pages of the raw files changedFiles
// named, all staged): see EditComplete.
func (b *viewerBasis) completeAfter(next *viewerBasis, s *project.Site, edited map[string]bool) bool {
	if b.sparse || next.sparse || !maps.Equal(b.multi, next.multi) {
		return false
	}
	// A translation fallback page gone (the edit paired its source
	// page), or made of a page not edited: a whole staging removes or
	// writes it; an edit's staging removes nothing and writes the
	// fallbacks of the edited pages only.
	for p, langs := range b.fallbacks {
		if next.fallbacks[p] == langs {
			continue
		}
		if !edited[p] {
			return false
		}
		for _, l := range strings.Fields(langs) {
			if !slices.Contains(strings.Fields(next.fallbacks[p]), l) {
				return false
			}
		}
	}
	for p, langs := range next.fallbacks {
		if b.fallbacks[p] != langs && !edited[p] {
			return false
		}
	}
	// A section page's cascade goes into the front matter of the
	// fallback pages of every page under it (stageFallbacksOf), which
	// the edit's staging writes only of the pages edited.
	for _, p := range s.Pages {
		if p.Section && edited[p.Path] {
			return false
		}
	}
	if b.store != next.store {
		// the sets' pages show their manifests; figures are drawn from
		// the evidence
		if len(s.Figures) > 0 || len(b.store.Sets) != len(next.store.Sets) {
			return false
		}
		for i, set := range next.store.Sets {
			old := b.store.Sets[i]
			if old.Dir != set.Dir || !reflect.DeepEqual(old.Manifest, set.Manifest) {
				return false
			}
		}
	}
	// The pages re-checked but not edited (the pages citing an edited
	// value): their staged text has the same marks and repeats.
	oldUnits := make(map[*stagedata.ClaimStage]bool, len(b.data.Units))
	for _, u := range b.data.Units {
		oldUnits[u] = true
	}
	newUnits := make(map[*stagedata.ClaimStage]bool, len(next.data.Units))
	for _, u := range next.data.Units {
		newUnits[u] = true
	}
	rejudged := map[string]bool{}
	note := func(units []*stagedata.ClaimStage, other map[*stagedata.ClaimStage]bool) bool {
		for _, u := range units {
			if other[u] {
				continue
			}
			n := len(rejudged)
			for _, r := range u.Runs {
				if !edited[r.Page] {
					rejudged[r.Page] = true
				}
			}
			for _, w := range u.Want {
				if !edited[w.Page] {
					rejudged[w.Page] = true
				}
			}
			if len(rejudged) == n && len(u.Dests) > 0 && len(u.Runs) == 0 && len(u.Want) == 0 {
				return false // claims with candidates of a page not known
			}
		}
		return true
	}
	if !note(b.data.Units, newUnits) || !note(next.data.Units, oldUnits) {
		return false
	}
	if len(rejudged) == 0 {
		return true
	}
	if !reflect.DeepEqual(b.data.RepeatsOf(b.multi, rejudged), next.data.RepeatsOf(next.multi, rejudged)) {
		return false
	}
	if len(next.multi) > 0 {
		before := b.data.MarksOf(b.multi, rejudged)
		after := next.data.MarksOf(next.multi, rejudged)
		if !reflect.DeepEqual(before, after) {
			return false
		}
	}
	return true
}

// adopt makes v, the viewer of store, the cache's: after a new Store it
// drops the claim data of the sets whose files changed.
func (cc *ClaimCache) adopt(store *evidence.Store, v *viewer.Viewer) {
	old := cc.viewer
	cc.store, cc.viewer = store, v
	if old == nil || len(cc.data) == 0 {
		cc.data = map[string]*claimJSON{}
		return
	}
	before, after := setFiles(old), setFiles(v)
	same := func(set string) bool { return before[set] == after[set] }
	for k, c := range cc.data {
		if c == nil || slices.ContainsFunc(c.sets, func(set string) bool { return !same(set) }) {
			delete(cc.data, k) // no data before may be data now
		}
	}
}

// Warm makes the claim data of every claim of data as the next
// StageEditCached reads it (with the tokens each marks, and each key's
// entry of claims.json), from the viewer of the whole staging of s with
// data that Staged told the cache of: the claim data is empty after the
// first Staged, so the first edit would otherwise make every claim's
// data, where the edits after it make only those of the sets whose
// files changed. The viewer's marks stay the same (it has every claim's
// already). It does nothing when the cache holds claim data, or no
// viewer of s's evidence. Like the cache's other methods, it must not
// run concurrently with them.
func (cc *ClaimCache) Warm(s *project.Site, data *stagedata.StageData) {
	if cc.viewer == nil || cc.store != s.Store || len(cc.data) > 0 || data == nil {
		return
	}
	multi := cc.prec.Multi(data)
	v := cc.viewer
	var made []viewer.Mark
	v.OnMark = func(m viewer.Mark) { made = append(made, m) }
	claims := cc.claims(v, data, multi, s.Store, &made)
	v.OnMark = nil
	_, _ = cc.file.claimsFile(claims) // an error is the edit's to report
}

// ViewerKnown reports whether the cache knows what the served evidence
// viewer pages are made of (Staged, and each StageEditCached since that
// wrote every one its edit changed): the next StageEditCached then
// writes the viewer pages its edit changes.
func (cc *ClaimCache) ViewerKnown() bool { return cc.served != nil }

// changedFiles returns the raw files whose viewer pages differ between
// the stagings of b and next (the files of next: a file gone leaves
// pages only a whole staging removes), and false when what changed is
// not known file by file (the pages' dates, a file gone): a whole
// staging then writes them.
func (b *viewerBasis) changedFiles(next *viewerBasis) (map[string]bool, bool) {
	if !maps.EqualFunc(b.newest, next.newest, time.Time.Equal) || b.crumbs != next.crumbs {
		return nil, false
	}
	files := map[string]bool{}
	for f, st := range next.files {
		if !reflect.DeepEqual(b.files[f], st) {
			files[f] = true
		}
	}
	for f := range b.files {
		if _, ok := next.files[f]; !ok {
			return nil, false
		}
	}
	// The pages whose citations changed: the units a re-check made
	// again (a page's, the figures'), their runs hashed by page.
	oldUnits := make(map[*stagedata.ClaimStage]bool, len(b.data.Units))
	for _, u := range b.data.Units {
		oldUnits[u] = true
	}
	newUnits := make(map[*stagedata.ClaimStage]bool, len(next.data.Units))
	for _, u := range next.data.Units {
		newUnits[u] = true
	}
	type pageCites struct {
		old, new hash.Hash64
		files    map[string]bool
	}
	pages := map[string]*pageCites{}
	var buf []byte
	note := func(units []*stagedata.ClaimStage, other map[*stagedata.ClaimStage]bool, isNew bool, only map[string]bool) {
		for _, u := range units {
			if other[u] && only == nil {
				continue
			}
			for _, run := range u.Runs {
				if only != nil && !only[run.Page] {
					continue
				}
				pc := pages[run.Page]
				if pc == nil {
					pc = &pageCites{old: fnv.New64a(), new: fnv.New64a(), files: map[string]bool{}}
					pages[run.Page] = pc
				}
				h := pc.old
				if isNew {
					h = pc.new
				}
				for _, c := range run.Cites {
					pc.files[c.File] = true
					buf = append(append(buf[:0], c.File...), 0)
					buf = append(strconv.AppendInt(buf, int64(c.Line), 10), 0)
					buf = append(append(buf, run.Texts[c.Start:c.End]...), 0)
					h.Write(buf)
				}
				h.Write([]byte{1})
			}
		}
	}
	note(b.data.Units, newUnits, false, nil)
	note(next.data.Units, oldUnits, true, nil)
	for _, pc := range pages {
		if pc.old.Sum64() != pc.new.Sum64() {
			for f := range pc.files {
				files[f] = true
			}
		}
	}
	// A page that became a language's fallback, or stopped being one,
	// is cited in that language's viewer pages or no longer.
	moved := map[string]bool{}
	for p, langs := range next.fallbacks {
		if b.fallbacks[p] != langs {
			moved[p] = true
		}
	}
	for p := range b.fallbacks {
		if _, ok := next.fallbacks[p]; !ok {
			moved[p] = true
		}
	}
	if len(moved) > 0 {
		clear(pages)
		note(b.data.Units, nil, false, moved)
		note(next.data.Units, nil, true, moved)
		for _, pc := range pages {
			for f := range pc.files {
				files[f] = true
			}
		}
	}
	return files, true
}

// stageViewerFiles writes into stage the viewer pages of the raw files
// of v in files, as stageEvidence writes them, and returns whether it
// wrote all of them (a sparse file's pages are the windows the whole
// project links to, which only a whole staging finds) and whether a
// page it wrote has no citations in its language: a citations file the
// served page had is then left, which only a whole staging removes.
func stageViewerFiles(ctx context.Context, s *project.Site, stage string, v *viewer.Viewer, data *stagedata.StageData, files map[string]bool, crumbs bool) (all, uncited bool, err error) {
	if len(files) == 0 {
		return true, false, nil
	}
	all = true
	for f := range files {
		if vf := v.Files[f]; vf == nil || vf.Sparse {
			all = false
			delete(files, f)
		}
	}
	if len(files) == 0 {
		return all, false, nil
	}
	langs := s.Config.Ordered()
	fallbacks := s.Fallbacks()
	cites := make([]map[string]map[int][]viewer.Citation, len(langs))
	for i, lang := range langs {
		cites[i] = viewer.CitationsOf(s, data, lang.Code, fallbacks[lang.Code], files)
	}
	unread := viewer.UnreadRanges(s.EvidenceFindings, s.Rules)
	newest := newestOwnDates(s)
	for fi, f := range v.Order {
		if !files[f] {
			continue
		}
		if err := stageViewerFile(ctx, s, stage, v.Files[f], fi, langs, cites, v.Marks[f], unread[f], crumbs, nil, newest, &uncited); err != nil {
			return false, false, err
		}
	}
	return all, uncited, nil
}
