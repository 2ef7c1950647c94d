package staging

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/evdoc-lab/evdoc/generator/emphasis"
	"github.com/evdoc-lab/evdoc/generator/hosttheme"
	"github.com/evdoc-lab/evdoc/generator/hugoconf"
	"github.com/evdoc-lab/evdoc/generator/project"
	"github.com/evdoc-lab/evdoc/generator/slots"
	"github.com/evdoc-lab/evdoc/generator/stagedata"
	"github.com/evdoc-lab/evdoc/generator/translation"
	"github.com/evdoc-lab/evdoc/generator/viewer"
	"github.com/evdoc-lab/evdoc/internal/crash"
)

// stagedDirs are the project directories Hugo reads that Build copies
// into the stage (a missing one is skipped): the site's own and its
// themes' templates, data, resources and configuration directory, and
// its vendored Hugo Modules.
var stagedDirs = []string{"layouts", "static", "i18n", "content", "themes", "data", "assets", "archetypes", "config", "_vendor"}

// stagedRootFiles are the files besides the configuration (RootConfigFiles)
// that Stage copies from the project's root: a Hugo Modules site's module
// requirements, which Hugo reads to find its imports.
var stagedRootFiles = []string{"go.mod", "go.sum", "go.work", "go.work.sum"}

// StagedDirs returns the project directories Stage copies: stagedDirs
// and every language's content directory that is not under one of them
// (contentDir = "content.ko", as hugo-book's example site keeps its
// pages), by its first path element. A content directory outside the
// project (absolute, or reaching up with "..") is Hugo's to read where it
// is and is not copied.
func StagedDirs(s *project.Site) []string {
	dirs := append([]string{}, stagedDirs...)
	if s.Config == nil {
		return dirs
	}
	for _, l := range s.Config.Ordered() {
		d := path.Clean(filepath.ToSlash(l.ContentDir))
		if path.IsAbs(d) || d == "." || d == ".." || strings.HasPrefix(d, "../") {
			continue
		}
		top, _, _ := strings.Cut(d, "/")
		if !slices.Contains(dirs, top) {
			dirs = append(dirs, top)
		}
	}
	return dirs
}

// Staged is what Stage produced that running Hugo on the stage needs.
type Staged struct {
	// Env are the environment variables Hugo runs with (Config.HugoEnv).
	Env []string
	// Viewer knows the evidence files published whole, which Build
	// checks Hugo published.
	Viewer *viewer.Viewer
	// Generated are the pages only the stage has (generatedPages).
	Generated []GeneratedPage
	// NotStaged names each entry of a staged directory that was not
	// copied (a symbolic link with its target, a FIFO, socket or device)
	// and says what that means; Build and serve print them as warnings.
	NotStaged []string
	// Evtables are the evtable calls of each staged page, which
	// StageEdit takes instead of reading every page again.
	Evtables Evtables
	// Slots are the claims staged with a slot (StageOptions.Slots);
	// nil without.
	Slots *slots.Table
}

// StageOptions tunes StageWith.
type StageOptions struct {
	// Slots gives each claim of a site's page that can have one a slot
	// (slotPage): Hugo writes a placeholder for it and evdoc build fills
	// in its markup after Hugo (slots.Filler), from the formats Hugo
	// writes once per data key and language (the evidence index page's
	// evdocslots output). evdoc serve stages without.
	Slots bool
}

// Evtables holds, by page (a slash path relative to the root), what the
// evtable calls of each content page show (project.EvtableCalls), as
// Stage read them; a page without a call has no entry.
type Evtables map[string][]project.EvtableShown

// all returns every page's calls, in the order of the pages' paths.
func (e Evtables) all() []project.EvtableShown {
	var out []project.EvtableShown
	for _, rel := range slices.Sorted(maps.Keys(e)) {
		out = append(out, e[rel]...)
	}
	return out
}

// GeneratedPage is a page file evdoc build writes into the stage (an
// evidence page, a translation fallback), which the repository does not
// have: its path in the project and within its content directory, as a
// theme's "edit this page" link built from the page's file names it.
type GeneratedPage struct {
	Project, Content string
}

// generatedPages returns the page files under the content directories of
// stage that the project at s.Root does not have.
func generatedPages(s *project.Site, stage string) ([]GeneratedPage, error) {
	var out []GeneratedPage
	seen := map[string]bool{}
	for _, lang := range s.Config.Ordered() {
		cd := path.Clean(lang.ContentDir)
		if seen[cd] {
			continue
		}
		seen[cd] = true
		root := filepath.Join(stage, filepath.FromSlash(cd))
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				if os.IsNotExist(err) && p == root {
					return nil
				}
				return err
			}
			if !d.Type().IsRegular() || !strings.HasSuffix(p, ".md") {
				return nil
			}
			rel, err := filepath.Rel(stage, p)
			if err != nil {
				return err
			}
			rel = filepath.ToSlash(rel)
			if _, err := os.Lstat(filepath.Join(s.Root, filepath.FromSlash(rel))); err == nil {
				return nil
			}
			out = append(out, GeneratedPage{Project: rel, Content: strings.TrimPrefix(rel, cd+"/")})
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// Stage writes into stage (a new or empty directory) the Hugo project
// Build runs Hugo on: the project's files Hugo reads (stagedDirs,
// RootConfigFiles), the generated translation fallbacks, evidence viewer
// pages, claim and set data (data/evdoc) and the figures rendered from
// the current evidence. data is what staging needs of the verdicts on
// the site's claims (Checker.StageData, StageDataOf). It returns
// what running Hugo on the stage needs. Progress lines go to logw (nil discards them). It
// returns ctx's error when ctx is done between steps; the caller removes
// the stage.
func Stage(ctx context.Context, s *project.Site, stage string, data *stagedata.StageData, logw io.Writer) (*Staged, error) {
	return StageWith(ctx, s, stage, data, logw, StageOptions{})
}

// StageWith is Stage with options.
func StageWith(ctx context.Context, s *project.Site, stage string, data *stagedata.StageData, logw io.Writer, opt StageOptions) (*Staged, error) {
	if logw == nil {
		logw = io.Discard
	}
	// Hugo gets the environment and the CJK settings evdoc's staged
	// Markdown relies on.
	hugoEnv, mdOpt, err := s.Config.HugoEnv()
	if err != nil {
		return nil, err
	}
	// Pages are copied as Hugo should read them (emphasis.HugoMarkdown),
	// each written once.
	// Claims of a destination written at several precisions name their
	// own in the staged page (markClaims), for their popovers.
	multi, marks := data.PrecisionMarks()
	// A claim repeating a data key of its page names the first's
	// popover instead of writing its body again (markClaims,
	// markRepeats). The repeats, and the slots' candidates, are read
	// while the claim data is made.
	var repeats map[string][]stagedata.Repeat
	var cands map[string][]stagedata.Candidate
	slotted := opt.Slots && evidenceBodyOf(s) != ""
	var wg sync.WaitGroup
	wg.Go(func() {
		defer crash.Guard()
		repeats = data.Repeats(multi)
	})
	if slotted {
		wg.Go(func() {
			defer crash.Guard()
			cands = data.Candidates(multi)
		})
	}
	// they read the stage data alone, which no error stops
	defer wg.Wait()
	// The values evtable calls show: their cells land on the token.
	// A page is staged as it was checked: one whose bytes changed since
	// the site was loaded (saved while evdoc ran) fails the staging
	// instead of reaching Hugo unchecked.
	loaded := make(map[string]*project.Page, len(s.Pages))
	for _, p := range s.Pages {
		loaded[p.Path] = p
	}
	var tablesMu sync.Mutex
	tables := Evtables{}
	var changed []string
	// The claim data (viewer.Claims) first: a claim gets a slot only
	// where claim.html has data for its key.
	v, err := viewer.New(ctx, s)
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	claims := v.Claims(data, multi, s.Store)
	wg.Wait()
	var sl *slotter
	if slotted {
		sl = &slotter{table: slots.NewTable(len(s.Pages)), summary: s.Config.SummaryLength, pages: make(map[string]int, len(s.Pages)), cands: cands,
			known: func(k string) bool { _, ok := claims[k]; return ok }}
		for i, p := range s.Pages {
			sl.pages[p.Path] = i
			sl.langs = append(sl.langs, p.Lang)
			sl.rels = append(sl.rels, p.Rel)
			sl.fms = append(sl.fms, p.FrontMatter)
		}
	}
	hugoMarkdown := stagedMarkdown(s, mdOpt, marks, repeats, func(rel string, b []byte) {
		e := project.EvtableCalls(b)
		same := loadedSame(loaded[rel], b)
		if e == nil && same {
			return
		}
		tablesMu.Lock()
		if e != nil {
			tables[rel] = e
		}
		if !same {
			changed = append(changed, rel)
		}
		tablesMu.Unlock()
	}, sl)
	var notStagedAll []string
	for _, d := range StagedDirs(s) {
		notStagedAll = append(notStagedAll, NotStaged(s.Root, d)...)
		if err := stageTree(ctx, s.Root, stage, d, hugoMarkdown); err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return nil, fmt.Errorf("staging %s: %v", d, err)
		}
	}
	if len(changed) > 0 {
		slices.Sort(changed)
		return nil, fmt.Errorf("%s: the file changed after evdoc checked it (saved during the build); run evdoc again", changed[0])
	}
	for _, f := range append(append([]string{}, hugoconf.RootConfigFiles...), stagedRootFiles...) {
		if err := copyFile(filepath.Join(s.Root, f), filepath.Join(stage, f)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("staging %s: %v", f, err)
		}
	}
	// evdoc's link hook runs the host theme's own for every link that is
	// not a claim: the stage holds that hook as it is now in the theme.
	if _, _, err := hosttheme.SyncHostHooks(s.Root, stage, s.Config.Themes); err != nil {
		return nil, fmt.Errorf("staging the host theme's link render hook: %v", err)
	}
	if s.Config.EnableGitInfo {
		stageGitInfo(ctx, s.Root, stage, logw)
	}
	if err := stageFallbacks(ctx, s, stage, mdOpt, marks, repeats); err != nil {
		return nil, err
	}
	// Claims, value tables and figures first: the windows they link to
	// are the pages a sparse evidence file gets.
	if err := stageClaims(ctx, s, stage, v, claims, tables.all()); err != nil {
		return nil, err
	}
	var table *slots.Table
	if sl != nil && sl.table.Len() > 0 {
		table = sl.table
		b, err := json.Marshal(table.Keys())
		if err != nil {
			return nil, err
		}
		if err := WriteFile(filepath.Join(stage, "data", "evdoc", "slotkeys.json"), b); err != nil {
			return nil, err
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err // interrupted while staging
	}
	if err := stageFigures(ctx, s, stage, v, logw); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	// the viewer's citations get placeholders where no template reads a
	// page's text otherwise than writing it
	citeSlots := table
	if table != nil && !citeSlotsSafe(s) {
		citeSlots = nil
	}
	if err := stageEvidence(ctx, s, stage, v, data, table != nil, citeSlots); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	gen, err := generatedPages(s, stage)
	if err != nil {
		return nil, err
	}
	// Evidence pages must not move the defaults the host's templates
	// read (sitedefaults.go).
	hugoEnv = append(hugoEnv, s.SiteDefaultsEnv(time.Now())...)
	return &Staged{Env: hugoEnv, Viewer: v, Generated: gen, NotStaged: notStagedAll, Evtables: tables, Slots: table}, nil
}

// stageGitInfo lets Hugo, run on stage, read the git history of the
// project at root as plain hugo would (enableGitInfo: .GitInfo, a lastmod
// from git): Hugo maps each page to the history of its file by its path
// relative to the top of the git work tree it finds from the stage, and
// the stage is no work tree. A .git file in the stage naming the
// project's git directory (gitdir: …) makes the stage that work tree's
// double, its files at the paths git knows them by, when the project is
// the top of its work tree. A project in a subdirectory of its work tree
// keeps other paths in git's history than in the stage: its build has no
// GitInfo, which a warning on logw says. A project not under git is left
// to Hugo, which fails on it as plain hugo does.
func stageGitInfo(ctx context.Context, root, stage string, logw io.Writer) {
	out, err := exec.CommandContext(ctx, "git", "-C", root, "rev-parse", "--show-prefix", "--absolute-git-dir").Output()
	if err != nil {
		return
	}
	lines := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	if len(lines) != 2 {
		return
	}
	if prefix := strings.TrimSpace(lines[0]); prefix != "" {
		fmt.Fprintf(logw, "evdoc: warning: enableGitInfo: the project is the subdirectory %s of its git work tree, which evdoc build does not stage; its pages have no .GitInfo and no lastmod from git (plain hugo has them)\n", strings.TrimSuffix(prefix, "/"))
		return
	}
	if err := WriteFile(filepath.Join(stage, ".git"), []byte("gitdir: "+lines[1]+"\n")); err != nil {
		fmt.Fprintf(logw, "evdoc: warning: enableGitInfo: %v; the pages have no .GitInfo\n", err)
	}
}

// stageFallbacks writes the generated fallback pages into the stage, as
// Hugo should read them (emphasis.HugoMarkdown with mdOpt).
func stageFallbacks(ctx context.Context, s *project.Site, stage string, mdOpt emphasis.MarkdownOptions, marks map[string]map[int]string, repeats map[string][]stagedata.Repeat) error {
	return stageFallbacksOf(ctx, s, stage, mdOpt, marks, repeats, nil)
}

// stageFallbacksOf is stageFallbacks of the fallbacks whose source page
// is in only (every fallback when only is nil).
func stageFallbacksOf(ctx context.Context, s *project.Site, stage string, mdOpt emphasis.MarkdownOptions, marks map[string]map[int]string, repeats map[string][]stagedata.Repeat, only map[string]bool) error {
	src := s.Config.Source()
	md := s.Config.NewMarkdown()
	cascades := s.Cascades()
	for _, fbs := range s.Fallbacks() {
		for _, f := range fbs {
			if err := ctx.Err(); err != nil {
				return err
			}
			if only != nil && !only[f.Source.Path] {
				continue
			}
			var b []byte
			err := s.WhileParsed(f.Source, md, func() (err error) {
				// what the source's sections cascade to it (a draft,
				// build.render never) goes into the fallback's own front
				// matter: the target language may have no such section
				// page, and the fallback must not publish a page the
				// source language hides
				if fm := hugoconf.Cascaded(f.Source, cascades); len(fm) != len(f.Source.FrontMatter) {
					p := *f.Source
					p.FrontMatter = fm
					f.Source = &p
				}
				// a page with no file of its own links its source
				// page's file for editing (Hextra's editURL,
				// PaperMod's editPost)
				if f.Target == nil && s.Config.HasEditLink() {
					p := *f.Source
					p.FrontMatter = maps.Clone(p.FrontMatter)
					if p.FrontMatter == nil {
						p.FrontMatter = map[string]any{}
					}
					p.FrontMatter[translation.SourceParam] = p.Path
					s.Config.SetEditURL(p.FrontMatter)
					f.Source = &p
				}
				if b, err = f.Render(src); err != nil {
					return err
				}
				// the source's body after the fallback's own front
				// matter: its claims' precision marks, shifted
				shift := len(b) - len(f.Source.Body()) - f.Source.Parsed.BodyStart
				if len(marks[f.Source.Path]) > 0 {
					b, _ = markClaims(s.Config.MarkdownConfig(), f.File(src), b, false, true, marks[f.Source.Path], shift, nil)
				} else {
					b, _ = markRepeats(b, repeats[f.Source.Path], shift, nil)
				}
				return nil
			})
			if err != nil {
				return err
			}
			b, _ = emphasis.HugoMarkdown(b, mdOpt)
			if err := WriteFile(filepath.Join(stage, filepath.FromSlash(f.File(src))), b); err != nil {
				return err
			}
			if f.Lang.ContentDir != src.ContentDir && (f.Source.Section || hugoconf.IsIndex(f.Source.Rel)) {
				if err := stageBundleResources(stage, s.Root, f.Source, f.File(src)); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// stageBundleResources copies into the stage, next to the fallback page
// file (a path relative to the root), the resources of the bundle whose
// index is source page p: a leaf bundle's files below its directory, a
// branch bundle's files in its directory, Markdown files excepted. Hugo
// gives a page the resources of its own language's content directory, so
// without them a relative link or image of the generated page (img.png)
// would be a 404. A file the target language has already stays.
func stageBundleResources(stage, root string, p *project.Page, file string) error {
	from := filepath.Join(root, filepath.FromSlash(path.Dir(p.Path)))
	to := filepath.Join(stage, filepath.FromSlash(path.Dir(file)))
	return filepath.WalkDir(from, func(f string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if f != from && p.Section {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() || strings.EqualFold(filepath.Ext(f), ".md") {
			return nil
		}
		rel, _ := filepath.Rel(from, f)
		dst := filepath.Join(to, rel)
		if _, err := os.Lstat(dst); err == nil {
			return nil
		}
		return copyFile(f, dst)
	})
}

// loadedSame reports whether b, a content file's bytes as staging reads
// them, is what the site loaded and checked as page p: true for a file
// the site did not load as a page (a bundle's resource), false for a
// page whose bytes differ.
func loadedSame(p *project.Page, b []byte) bool {
	switch {
	case p == nil:
		return true
	case p.Header != nil:
		return p.Header.Same(b)
	case p.Parsed != nil:
		return bytes.Equal(p.Parsed.Source, b)
	}
	return true
}
