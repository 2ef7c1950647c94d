package staging

import (
	"bytes"
	"context"
	"path"
	"path/filepath"
	"strings"

	"github.com/evdoc-lab/evdoc/generator/emphasis"
	"github.com/evdoc-lab/evdoc/generator/project"
	"github.com/evdoc-lab/evdoc/generator/stagedata"
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
// pages that exist) as Stage stages it, and the claim and set data
// (data/evdoc/claims.json, sets.json), the same bytes Stage writes for
// the same data. evdoc serve writes them into the served project first,
// so the edited page and the pages citing an edited value show the new
// verdicts before the rest of the project is staged again (evidence
// viewer pages, translation fallbacks, figures); a Stage must follow.
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
// again. The files written are StageEdit's, byte for byte.
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
	multi, marks := data.PrecisionMarksOf(only)
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
	if cache == nil {
		cache = &ClaimCache{}
	}
	v, err := cache.viewerOf(ctx, s)
	if err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	return stageClaimsOf(ctx, s, stage, v, cache.claims(v, data, multi, s.Store), tables.all())
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
