// Package serve runs `evdoc serve`: Hugo's server with live reload on a
// staged copy of the project (the stage `evdoc build` runs Hugo on), a
// watcher of the project's files, and a re-check of what each saved file
// affects. Findings are printed in the terminal (check's text format) and
// shown in the served pages as a banner, which the layouts read from
// data/evdoc/serve.json; only serve writes that file, so a built site
// never shows a banner.
package serve

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/generator/hugoconf"
	"github.com/evdoc-lab/evdoc/generator/hugorun"
	"github.com/evdoc-lab/evdoc/generator/project"
	"github.com/evdoc-lab/evdoc/generator/report"
	"github.com/evdoc-lab/evdoc/generator/staging"
	"github.com/evdoc-lab/evdoc/internal/crash"
	"github.com/evdoc-lab/evdoc/internal/procgroup"
	"github.com/evdoc-lab/evdoc/internal/safefile"
)

// Options configures Run.
type Options struct {
	// Root is the project directory (holds hugo.toml).
	Root string
	// Hugo is the command that runs Hugo, program first (as
	// site.BuildOptions.Hugo); "server" and its flags are appended.
	Hugo []string
	// Bind is the interface Hugo's server listens on (Hugo's default,
	// 127.0.0.1, when empty); Port its port (1313 when zero).
	Bind string
	Port int
	// BaseURL, when set, is passed to Hugo's server as --baseURL.
	BaseURL string
	// Strict counts warnings as failures, as check --strict does: the
	// banner is then red for a warning, and the summary says it fails.
	Strict bool
	// Debounce is the quiet time that ends a burst of saves before the
	// re-check (default DefaultDebounce); a burst that goes on is cut
	// after 10 times that, and at least half a second.
	Debounce time.Duration
	// Rechecker re-checks the project; nil means an IncrementalRechecker
	// of Root with the zero check options.
	Rechecker Rechecker
	// Out receives the findings, in check's text format; Log receives
	// what changed, one summary line per re-check and Hugo's output. nil
	// discards.
	Out, Log io.Writer
	// Verbose also logs each staging and the Hugo command line.
	Verbose bool
	// Ready, when set, is called once Hugo's server serves the project,
	// with its first lines of output seen (tests wait on it).
	Ready func()
}

// editWait is how long serve waits, after staging an edit's pages and
// claim data, for Hugo to rebuild from them before it stages the rest of
// the project: Hugo's watcher takes changes every half second, and a
// page of the 500-page benchmark site renders in well under the rest.
const editWait = time.Second

// DefaultDebounce is the quiet time that ends a burst of saves unless
// Options.Debounce says otherwise: an editor's save is a few events
// microseconds apart, and every millisecond waited is one more before
// the page shows the new verdict.
const DefaultDebounce = 20 * time.Millisecond

// BannerFile is where, relative to the staged project, serve writes the
// banner's data; the layouts read it as hugo.Data.evdoc.serve.
const BannerFile = "data/evdoc/serve.json"

// BannerPartial is the partial the layouts call to show the banner.
const BannerPartial = "evdoc/serve-banner.html"

// workPrefix names serve's directories under the project's .evdoc/.
const workPrefix = "serve-"

// Run stages the project, starts Hugo's server on the stage and re-checks
// and re-stages on every burst of changes, until ctx is done; then it
// stops Hugo's whole process group, removes its directory and returns
// nil. It returns an error when the project cannot be loaded or staged
// at first. When Hugo's server exits on its own (a build error at its
// start), Run says so and starts it again after the next change.
func Run(ctx context.Context, opt Options) error {
	if opt.Out == nil {
		opt.Out = io.Discard
	}
	if opt.Log == nil {
		opt.Log = io.Discard
	}
	if opt.Debounce <= 0 {
		opt.Debounce = DefaultDebounce
	}
	rc := opt.Rechecker
	if rc == nil {
		rc = &IncrementalRechecker{Root: opt.Root, Load: project.LoadOptions{Lazy: true}}
	}
	// A multihost site (a baseURL per language) is served by Hugo's
	// server on its own: Hugo then listens on one port per language and
	// writes each port into that language's links, which a front on
	// other ports cannot relay (Hugo refuses --appendPort=false there).
	var fr *front
	if multihost(opt.Root) {
		fmt.Fprintln(opt.Log, multihostNotice)
	} else {
		var err error
		fr, err = listenFront(opt.Bind, opt.Port, opt.BaseURL)
		if err != nil {
			return err // before anything is checked, staged or started
		}
		defer fr.close()
	}
	if len(opt.Hugo) == 0 {
		return errors.New("no Hugo command to run; expected Options.Hugo")
	}
	opt.Hugo = hugorun.DirectTool(ctx, opt.Hugo)
	absRoot, err := filepath.Abs(opt.Root)
	if err != nil {
		return err
	}
	work, err := hugorun.WorkDir(absRoot)
	if err != nil {
		return err
	}
	cleanStale(work, opt.Log)
	dir, err := os.MkdirTemp(work, workPrefix)
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	// Who runs in dir, for cleanStale: pid, start time, boot and pid
	// namespace, so neither a reused pid nor a planted file keeps a dead
	// run's directory (off Linux, where a process cannot be named so, an
	// empty record: the directory is left alone).
	self, _ := procgroup.Identify(os.Getpid())
	if err := os.WriteFile(filepath.Join(dir, "pid"), []byte(self.String()+"\n"), 0o644); err != nil {
		return err
	}
	srv := &server{opt: opt, rc: rc, dir: dir, served: filepath.Join(dir, "site"), figures: &project.FigureCache{}, front: fr, rebuilt: make(chan struct{}, 1), claims: &staging.ClaimCache{}}
	// A page a browser is shown starts a warm-up of the claims its
	// sets' next evidence save judges (warmer).
	warm := newWarmer(rc)
	var shown chan string
	if fr != nil {
		if warm != nil {
			shown = make(chan string, 1)
			fr.onShown = func(path string) {
				select {
				case shown <- path:
				default: // the loop is busy: a later visit says it again
				}
			}
		}
		fr.serve(ctx)
	}

	// Watch before the first check, so a save during it is not missed.
	w, err := newWatcher(opt.Root)
	if err != nil {
		return err
	}
	defer w.Close()

	start := time.Now()
	st, err := rc.Recheck(ctx, nil, nil)
	if err != nil {
		return err
	}
	srv.state = st
	st.Site.FigureCache = srv.figures
	srv.report(Scope{All: true}, st, nil, time.Since(start))
	if err := srv.stage(ctx, nil); err != nil {
		return fmt.Errorf("staging the project: %v", err)
	}
	srv.noteMissingBanner()
	if warm != nil {
		// the claim data of the state served, which the first edit's
		// staging would otherwise make whole
		site, stage, claims := srv.state.Site, srv.state.Stage, srv.claims
		warm.claims = func() { claims.Warm(site, stage) }
	}

	hugo := srv.startHugo(ctx)
	defer func() { hugo.stop() }() // the Hugo running then, after a restart too
	batches := w.batches(ctx, opt.Debounce, opt.Log)
	srv.unsent = w.unsent.Load
	for {
		var exited <-chan struct{}
		if !hugo.gone {
			exited = hugo.exited
		}
		select {
		case <-exited:
			if ctx.Err() != nil {
				return nil
			}
			if hugo.portTaken && !hugo.served {
				// taken between portFree and Hugo's start
				return &PortError{Bind: opt.Bind, Port: opt.Port, Err: errors.New("address already in use when Hugo's server started")}
			}
			// A build error at its start (Hugo's server exits then; later
			// ones it shows in the browser) or a lost port: serve goes on
			// watching and starts it again after the next save.
			hugo.gone = true
			fmt.Fprintf(opt.Log, "evdoc: Hugo's server stopped (%v); fix what it reported above: evdoc serve starts it again at the next save (Ctrl-C quits)\n", hugo.err)
		case path := <-shown:
			warm.start(ctx, path)
		case p := <-warm.running():
			warm.keep(p)
		case <-warm.ended():
			var log io.Writer
			if opt.Verbose {
				log = opt.Log
			}
			warm.finish(log)
		case b, ok := <-batches:
			if !ok {
				return nil
			}
			if srv.ignoredBatch(b) {
				continue
			}
			warm.stop()
			env := srv.env
			srv.change(ctx, b)
			if ctx.Err() != nil {
				return nil
			}
			switch {
			case hugo.gone:
				hugo = srv.startHugo(ctx)
			case !slices.Equal(env, srv.env):
				fmt.Fprintln(opt.Log, "evdoc: the configuration changed Hugo's environment; restarting Hugo's server")
				hugo.stop()
				hugo = srv.startHugo(ctx)
			case srv.pagesRemoved:
				// Hugo's server keeps the rendered output of a page
				// whose file is gone and goes on serving it.
				fmt.Fprintln(opt.Log, "evdoc: pages were removed; restarting Hugo's server, which would go on serving them")
				hugo.stop()
				hugo = srv.startHugo(ctx)
			}
			srv.pagesRemoved = false
		case <-ctx.Done():
			return nil
		}
	}
}

// hugoRun is a running Hugo server.
type hugoRun struct {
	cancel context.CancelFunc
	// exited is closed when Hugo's process group is gone; err is then
	// how it ended.
	exited chan struct{}
	err    error
	// gone is set once the loop has seen it exit.
	gone bool
	// portTaken is set when Hugo said its port is in use; served once
	// it said its web server is available.
	portTaken, served bool
}

// stop stops Hugo's process group and waits until it is gone.
func (h *hugoRun) stop() {
	h.cancel()
	<-h.exited
}

// startHugo starts Hugo's server on the served directory.
func (s *server) startHugo(ctx context.Context) *hugoRun {
	hctx, cancel := context.WithCancel(ctx)
	h := &hugoRun{cancel: cancel, exited: make(chan struct{})}
	go func() {
		defer crash.Guard()
		h.err = s.runHugo(hctx, &h.portTaken, &h.served)
		close(h.exited)
	}()
	return h
}

// server is one running evdoc serve.
type server struct {
	opt    Options
	rc     Rechecker
	dir    string // serve's own directory under .evdoc
	served string // the staged project Hugo's server runs on
	state  *State
	// stageErr is the last staging failure, shown in the banner until a
	// staging succeeds.
	stageErr error
	// front is the listener browsers talk to, in front of Hugo's server.
	front *front
	// notStagedSaid: the entries staging leaves out were named once.
	notStagedSaid bool
	// figures keeps the rendered figures from one staging to the next.
	figures *project.FigureCache
	// synced counts the files the last staging wrote and removed.
	synced [2]int
	// pagesRemoved is set when a staging removed a page's file (content,
	// a generated evidence or fallback page) from the served directory.
	pagesRemoved bool
	// checked is when the state was checked, which the banner shows:
	// set once a change, so the banner staged first and the one staged
	// with the whole project are the same bytes (zero: now).
	checked time.Time
	// partial is set when only an edit's part was staged: the next
	// change stages the whole project, whatever it is.
	partial bool
	// unsent, when set, reports whether files changed that the watcher
	// has not sent in a batch yet.
	unsent func() bool
	// rebuilt receives when Hugo's server said a build ended (buffered:
	// one pending at most).
	rebuilt chan struct{}
	// evtables are the evtable calls of each page as the last whole
	// staging and the edits staged since read them (StageEdit's tables);
	// nil before a whole staging.
	evtables staging.Evtables
	// env is the environment Hugo must run with on the stage
	// (hugoconf.Config.HugoEnv); a change of it restarts Hugo's server.
	env []string
	// ticks is the phase of the running Hugo server's watcher tick, from
	// its output; each sync's burst of writes keeps clear of the tick.
	ticks tickPhase
	// claims keeps the claim data stageEdit made, while the evidence is
	// the same (staging.ClaimCache).
	claims *staging.ClaimCache
}

// beforeBurst is called with the files a sync is about to write: it
// tells the front when one of them is not a page (Markdown of a content
// directory), data or a viewer page's file (staging.ViewerFilesDir,
// which its page changes with) — a stylesheet, a script, an image, a
// template: what a browser shows may change without its page's bytes —
// and waits until Hugo's next watcher tick is not about to fall within
// the burst (tickPhase.clear).
// The function it returns notes the burst's duration (tickPhase.burst).
func (s *server) beforeBurst(rels []string) (after func()) {
	for _, rel := range rels {
		if page := s.contentFile(rel) && strings.HasSuffix(rel, ".md"); !page && !strings.HasPrefix(rel, "data/") && !strings.HasPrefix(rel, staging.ViewerFilesDir+"/") {
			s.front.assetsChanged()
			break
		}
	}
	if d := s.ticks.clear(); d > 0 && s.opt.Verbose {
		fmt.Fprintf(s.opt.Log, "evdoc: waited %v for Hugo's watcher tick to pass before writing\n", d.Round(time.Millisecond))
	}
	start := time.Now()
	return func() { s.ticks.burst(time.Since(start)) }
}

// ignoredBatch reports whether every file of a batch is one evdoc and
// Hugo do not read (KindIgnored: a log file written in the project's
// root, an editor's backup) while nothing is owed from an earlier change
// (partial): such a batch is not re-checked, staged or announced, so
// `evdoc serve > serve.log` in the root does not re-check at each line
// it writes.
func (s *server) ignoredBatch(changed []string) bool {
	if s.partial || s.state == nil || s.state.Site == nil {
		return false
	}
	for _, f := range changed {
		if kind, _ := Classify(s.state.Site.Config, f); kind != KindIgnored {
			return false
		}
	}
	return true
}

// change re-checks after a batch of changed files and stages again.
func (s *server) change(ctx context.Context, changed []string) {
	start := time.Now()
	fmt.Fprintf(s.opt.Log, "evdoc: changed: %s\n", strings.Join(changed, ", "))
	// The pages before the change, for Affected: a Rechecker may update
	// the site in place.
	before := &project.Site{Config: s.state.Site.Config, Pages: slices.Clone(s.state.Site.Pages)}
	st, err := s.rc.Recheck(ctx, s.state, changed)
	if err != nil {
		if ctx.Err() != nil {
			return
		}
		fmt.Fprintf(s.opt.Log, "evdoc: cannot load the project: %v (still serving the last good state)\n", err)
		s.stageErr = fmt.Errorf("cannot load the project: %v", err)
		_ = s.writeBanner(s.served)
		return
	}
	s.state = st
	for _, f := range changed {
		if kind, _ := Classify(st.Site.Config, f); kind == KindConfig {
			s.figures = &project.FigureCache{} // the fonts may have changed
		}
	}
	st.Site.FigureCache = s.figures
	sc := affected(before, st.Site, changed, st.uses)
	s.report(sc, st, changed, time.Since(start))
	if !sc.Restage && !s.partial {
		return
	}
	s.checked = time.Now()
	t := time.Now()
	if pages, ok := editedPages(st, sc, changed); ok && s.stageErr == nil {
		// What the pages show of the new verdicts first: the edited
		// pages and the claim data, which Hugo rebuilds the pages
		// open in a browser from; then the rest of the project, once
		// Hugo has rebuilt them (or editWait passed), so staging it
		// does not take the cores from that rebuild.
		select {
		case <-s.rebuilt: // a build before this edit's
		default:
		}
		err := s.stageEdit(ctx, pages)
		if err != nil && ctx.Err() == nil {
			fmt.Fprintf(s.opt.Log, "evdoc: staging the edit failed: %v (staging the whole project)\n", err)
		} else if err == nil && s.opt.Verbose {
			fmt.Fprintf(s.opt.Log, "evdoc: staged the edit in %v: %d file(s) written for Hugo\n", time.Since(t).Round(time.Millisecond), s.synced[0])
		}
		if err == nil && !s.partial && s.claims.EditComplete() && onlyEdits(st.Site.Config, changed) {
			// The edit's staging wrote every file a whole staging would
			// change: staging the whole project would write none, and
			// take the cores from Hugo's rebuild and the next save.
			if s.opt.Verbose {
				fmt.Fprintln(s.opt.Log, "evdoc: the edit's staging is the whole project's")
			}
			return
		}
		if err == nil && s.synced[0] > 0 && s.rebuilt != nil && !s.waitRebuilt(ctx) {
			return
		}
		if err == nil && s.unsent != nil && s.unsent() {
			// Files changed since this re-check: staging now would read
			// them (evidence files, pages) against this state's
			// verdicts. The next change stages the whole project.
			if s.opt.Verbose {
				fmt.Fprintln(s.opt.Log, "evdoc: files changed meanwhile; the whole project is staged after their re-check")
			}
			s.partial = true
			return
		}
		t = time.Now()
		// Files that change while the whole project is staged stop it:
		// the next change, re-checked at once instead of behind this
		// staging, stages it with their verdicts.
		switch err := s.stage(ctx, s.unsent); {
		case errors.Is(err, errSuperseded):
			if s.opt.Verbose {
				fmt.Fprintf(s.opt.Log, "evdoc: files changed while the project was staged (%v); it is staged after their re-check\n", time.Since(t).Round(time.Millisecond))
			}
		case err != nil && ctx.Err() == nil:
			fmt.Fprintf(s.opt.Log, "evdoc: staging failed: %v (the served site shows the last staged state)\n", err)
		case err == nil && s.opt.Verbose:
			fmt.Fprintf(s.opt.Log, "evdoc: staged in %v: %d file(s) written, %d removed for Hugo\n", time.Since(t).Round(time.Millisecond), s.synced[0], s.synced[1])
		}
		return
	}
	if err := s.stage(ctx, nil); err != nil && ctx.Err() == nil {
		fmt.Fprintf(s.opt.Log, "evdoc: staging failed: %v (the served site shows the last staged state)\n", err)
	} else if err == nil && s.opt.Verbose {
		fmt.Fprintf(s.opt.Log, "evdoc: staged in %v: %d file(s) written, %d removed for Hugo\n", time.Since(t).Round(time.Millisecond), s.synced[0], s.synced[1])
	}
}

// waitRebuilt waits until Hugo said it rebuilt, editWait passed or files
// changed that the state has not re-checked (the next change is then
// re-checked at once, not after the wait); false when ctx is done.
func (s *server) waitRebuilt(ctx context.Context) bool {
	timeout := time.NewTimer(editWait)
	defer timeout.Stop()
	tick := time.NewTicker(supersededPoll)
	defer tick.Stop()
	for {
		select {
		case <-s.rebuilt:
			return true
		case <-timeout.C:
			return true
		case <-tick.C:
			if s.unsent != nil && s.unsent() {
				return true
			}
		case <-ctx.Done():
			return false
		}
	}
}

// editedPages returns, when a change is only edits that the re-check
// took in page by page (pages and evidence files changed, no page added
// or removed, no configuration, layout or figure: site.Checker's edits),
// the changed pages to stage first, and true.
func editedPages(st *State, sc Scope, changed []string) ([]string, bool) {
	if sc.All || st.Stage == nil {
		return nil, false
	}
	var pages []string
	edit := false
	for _, f := range changed {
		switch kind, _ := Classify(st.Site.Config, f); kind {
		case KindPage:
			if findPage(st.Site, f) == nil {
				return nil, false
			}
			pages = append(pages, f)
			edit = true
		case KindEvidence:
			edit = true
		case KindOther, KindIgnored:
		default:
			return nil, false
		}
	}
	return pages, edit
}

// onlyEdits reports whether every file of changed is a page or an
// evidence file: a change of any other file (a stylesheet, a template
// saved in the same burst) is staged by the whole staging only.
func onlyEdits(cfg *hugoconf.Config, changed []string) bool {
	for _, f := range changed {
		if kind, _ := Classify(cfg, f); kind != KindPage && kind != KindEvidence {
			return false
		}
	}
	return true
}

// stageEdit writes what a page or evidence edit changes on the pages
// Hugo shows (staging.StageEdit) and the banner into the served
// directory, leaving every other file there as it is; a stage must
// follow.
func (s *server) stageEdit(ctx context.Context, pages []string) error {
	next, err := os.MkdirTemp(s.dir, "edit-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(next)
	if s.claims == nil {
		s.claims = &staging.ClaimCache{}
	}
	if err := staging.StageEditCached(ctx, s.state.Site, next, s.state.Stage, pages, s.evtables, s.claims); err != nil {
		return err
	}
	if err := s.writeBanner(next); err != nil {
		return err
	}
	s.synced[0], s.synced[1], err = syncFiles(next, s.served, false, s.contentFile, s.beforeBurst)
	return err
}

// contentFile reports whether rel (a slash path in the staged project)
// is in a language's content directory: syncTree writes such a file
// that Hugo already has in place, so Hugo rebuilds it as a changed
// page, not an added one.
func (s *server) contentFile(rel string) bool {
	if s.state == nil || s.state.Site == nil || s.state.Site.Config == nil {
		return false
	}
	for _, l := range s.state.Site.Config.Ordered() {
		if dir := strings.Trim(path.Clean(filepath.ToSlash(l.ContentDir)), "/"); dir != "" && dir != "." && strings.HasPrefix(rel, dir+"/") {
			return true
		}
	}
	return false
}

// report prints the findings in scope (check's text format) and a
// summary line.
func (s *server) report(sc Scope, st *State, changed []string, took time.Duration) {
	pages := map[string]bool{}
	for _, p := range st.Site.Pages {
		pages[p.Path] = true
	}
	var ds diag.List
	for _, d := range st.Findings {
		if d.Severity != diag.Note && sc.Includes(d.Pos.File, pages) {
			ds = append(ds, d)
		}
	}
	_ = report.Write(s.opt.Out, "text", ds, report.FileSource(s.opt.Root))
	what := fmt.Sprintf("checked %d page(s)", len(st.Site.Pages))
	if !sc.All {
		what = fmt.Sprintf("re-checked %d page(s)", len(sc.Pages))
		if len(sc.Pages) == 0 {
			what = "re-checked " + strings.Join(changed, ", ")
		}
	}
	e, w := st.Findings.Count(diag.Error), st.Findings.Count(diag.Warning)
	verdict := "ok"
	switch {
	case e > 0:
		verdict = "fails"
	case w > 0 && s.opt.Strict:
		verdict = "fails under --strict"
	}
	fmt.Fprintf(s.opt.Log, "evdoc: %s in %v: %d error(s), %d warning(s) there; site: %d error(s), %d warning(s) (%s)\n",
		what, took.Round(time.Millisecond), ds.Count(diag.Error), ds.Count(diag.Warning), e, w, verdict)
}

// errSuperseded is stage's error when files changed while it staged.
var errSuperseded = errors.New("files changed while staging")

// supersededPoll is how often stage and waitRebuilt ask whether files changed meanwhile.
const supersededPoll = 10 * time.Millisecond

// stage stages the current state into a new directory and syncs it into
// the served one, so Hugo sees only the files that changed. When
// superseded is set and reports files changed that the state has not
// re-checked (the watcher's unsent), while staging or before the sync,
// stage stops, leaves the served directory as it is, marks the state
// partial (the next change stages the whole project) and returns
// errSuperseded: a staging that read the newer files would stage them
// against the older verdicts (the page showing an edited number as
// proven), and the next change waiting behind it would wait the
// staging's time (seconds at 500 pages under load).
func (s *server) stage(ctx context.Context, superseded func() bool) (err error) {
	defer func() {
		if err != nil && !errors.Is(err, errSuperseded) {
			// what failed may have been read since (a page added):
			// the next StageEdit reads every page for its calls
			s.evtables = nil
		}
	}()
	if superseded == nil && s.claims != nil {
		// not after an edit's staging (a change of the configuration,
		// the layouts, pages added or removed): the viewer pages the
		// next edit stages are known again once this staging is served
		s.claims.Staged(nil, nil, nil)
	}
	next, err := os.MkdirTemp(s.dir, "next-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(next)
	sctx := ctx
	if superseded != nil {
		var cancel context.CancelCauseFunc
		sctx, cancel = context.WithCancelCause(ctx)
		defer cancel(nil)
		go func() {
			defer crash.Guard()
			tick := time.NewTicker(supersededPoll)
			defer tick.Stop()
			for {
				select {
				case <-sctx.Done():
					return
				case <-tick.C:
					if superseded() {
						cancel(errSuperseded)
						return
					}
				}
			}
		}()
	}
	gone := func() bool {
		if superseded == nil || ctx.Err() != nil || (context.Cause(sctx) != errSuperseded && !superseded()) {
			return false
		}
		s.partial = true
		return true
	}
	staged, err := staging.Stage(sctx, s.state.Site, next, s.state.Stage, nil)
	if gone() || err != nil && superseded != nil && s.changedSoon(ctx, superseded) {
		return errSuperseded
	}
	if staged != nil && !s.notStagedSaid {
		for _, n := range staged.NotStaged {
			fmt.Fprintf(s.opt.Log, "evdoc: warning: %s\n", n)
		}
		s.notStagedSaid = true
	}
	s.stageErr = err
	if err != nil {
		// Keep serving what was staged last, with the failure in the banner.
		_ = s.writeBanner(s.served)
		return err
	}
	if err := s.writeBanner(next); err != nil {
		return err
	}
	if gone() {
		return errSuperseded
	}
	if removedPage(next, s.served) {
		s.pagesRemoved = true
	}
	if s.synced[0], s.synced[1], err = syncFiles(next, s.served, true, s.contentFile, s.beforeBurst); err != nil {
		return err
	}
	if s.synced[1] > 0 {
		s.front.assetsChanged() // a removed file may be a stylesheet
	}
	s.partial = false
	s.env = staged.Env
	s.evtables = staged.Evtables
	if s.claims != nil {
		s.claims.Staged(s.state.Site, s.state.Stage, staged.Viewer)
	}
	return nil
}

// supersededGrace is how long a staging that failed waits for the
// watcher to see files changed meanwhile before it reports the failure:
// a file read while its writer had truncated it ("line 2 is gone") fails
// the staging before the watcher's event for it has come.
const supersededGrace = 250 * time.Millisecond

// changedSoon reports whether superseded says, within supersededGrace,
// that files changed; it marks the state partial then.
func (s *server) changedSoon(ctx context.Context, superseded func() bool) bool {
	end := time.Now().Add(supersededGrace)
	for ctx.Err() == nil {
		if superseded() {
			s.partial = true
			return true
		}
		if time.Now().After(end) {
			return false
		}
		time.Sleep(supersededPoll)
	}
	return false
}

// runHugo runs Hugo's server on the served directory until ctx is done,
// in a process group of its own that is stopped as a whole.
// *portTaken and *served are set as Hugo's output says; they are read
// after it exited.
func (s *server) runHugo(ctx context.Context, portTaken, served *bool) error {
	cmd := s.opt.Hugo
	abs, err := filepath.Abs(s.served)
	if err != nil {
		return err
	}
	s.ticks.reset() // a new watcher, a new phase
	args := append(append([]string{}, cmd[1:]...), "server", "--source", abs, "--renderToMemory", "--logLevel", "warn")
	if s.front == nil {
		// a multihost site: Hugo's server listens where serve was told
		args = append(args, directServerArgs(s.opt)...)
	} else {
		if s.state != nil && s.state.Site != nil && s.state.Site.Config != nil && s.state.Site.Config.PublishURLs.Multihost {
			return errors.New("the site became multihost (a language sets its own baseURL) while serve ran behind its front on one port; stop evdoc serve and start it again, and Hugo's server then takes one port per language")
		}
		// Hugo's server listens on a loopback port of its own behind the
		// front, which checks each request's Host; its links and live
		// reload name the front's port.
		port, err := freeLoopbackPort()
		if err != nil {
			return err
		}
		s.front.hugo.Store(int64(port))
		defer s.front.hugo.Store(0)
		args = append(args, "--bind", "127.0.0.1", "--port", strconv.Itoa(port), "--baseURL", s.front.baseURL(s.opt.BaseURL), "--appendPort=false", "--liveReloadPort", strconv.Itoa(s.front.port))
	}
	if s.opt.Verbose {
		fmt.Fprintf(s.opt.Log, "evdoc: running %s\n", strings.Join(append([]string{cmd[0]}, args...), " "))
	}
	c := exec.Command(cmd[0], args...)
	out := &readyWriter{w: s.opt.Log, ready: s.opt.Ready, portTaken: portTaken, served: served, rebuilt: s.rebuilt, ticks: &s.ticks}
	c.Stdout, c.Stderr = out, out
	c.Env = hugoconf.HugoEnviron(os.Environ(), append(append([]string{}, s.env...), "HUGO_CACHEDIR="+filepath.Join(s.dir, "hugo-cache")))
	groupFile := filepath.Join(s.dir, hugorun.HugoGroupFile)
	return procgroup.Run(ctx, c, procgroup.Options{Started: func(leader procgroup.Ident) {
		_ = hugorun.WriteGroupRecord(groupFile, leader, abs)
	}})
}

// readyWriter passes Hugo's output on and calls ready once Hugo says its
// web server is available.
// It records whether Hugo said its port is taken and whether it served.
type readyWriter struct {
	mu                sync.Mutex
	w                 io.Writer
	ready             func()
	seen              bool
	portTaken, served *bool
	// rebuilt, when set, is sent to (without blocking) each time Hugo
	// says a build ended.
	rebuilt chan struct{}
	// ticks, when set, learns the phase of Hugo's watcher tick from the
	// times Hugo prints.
	ticks *tickPhase
}

func (r *readyWriter) Write(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	text := string(p)
	if r.portTaken != nil && strings.Contains(text, "address already in use") {
		*r.portTaken = true
	}
	n, err := r.w.Write(p)
	if r.ticks != nil {
		r.ticks.observe(text)
	}
	if r.rebuilt != nil && strings.Contains(text, "Total in ") {
		select {
		case r.rebuilt <- struct{}{}:
		default:
		}
	}
	if !r.seen && strings.Contains(text, "Web Server is available") {
		r.seen = true
		if r.served != nil {
			*r.served = true
		}
		if r.ready != nil {
			r.ready()
		}
	}
	return n, err
}

// PortError reports that the port serve is to listen on is in
// use: serve exits (status 2) rather than run without a server.
type PortError struct {
	Bind string
	Port int
	Err  error
}

func (e *PortError) Error() string {
	bind := e.Bind
	if bind == "" {
		bind = "127.0.0.1"
	}
	return fmt.Sprintf("port %d on %s is in use (%v); choose another --port, or leave --port out and serve picks a free one", e.Port, bind, e.Err)
}

// cleanStale removes the directories of serve runs that are gone (killed
// before they could clean up), stopping any Hugo they left.
func cleanStale(work string, log io.Writer) {
	entries, _ := os.ReadDir(work)
	for _, e := range entries {
		if !e.IsDir() || !strings.HasPrefix(e.Name(), workPrefix) {
			continue
		}
		dir := filepath.Join(work, e.Name())
		if b, err := safefile.ReadFile(dir, "pid", 4096); err == nil {
			// Off Linux no record names a process, so none is known dead.
			if owner, _, err := procgroup.ParseIdent(string(b)); (err == nil && owner.Running()) || (err != nil && runtime.GOOS != "linux") {
				continue // another evdoc serve of this project
			}
		}
		if n := hugorun.ReapGroupRecord(dir, func(marker string) bool { return filepath.Dir(marker) == dir }); n > 0 {
			fmt.Fprintf(log, "evdoc: stopped %d Hugo process(es) left by a killed evdoc serve\n", n)
		}
		_ = os.RemoveAll(dir)
	}
}
