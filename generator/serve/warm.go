package serve

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/yuin/goldmark"

	"github.com/evdoc-lab/evdoc/generator/claim"
	"github.com/evdoc-lab/evdoc/generator/project"
	"github.com/evdoc-lab/evdoc/internal/crash"
)

// The first evidence save after serve started parsed the pages citing
// the edited set (about 100 at 500 pages, 0.25 s of its re-check), where
// the saves after it judge them from the claims the checker kept at the
// last evidence save (KeepCiting). A browser's page names the pages an
// evidence save is likely to judge: those citing the sets its claims
// cite. So when the front serves a page, serve parses those pages in
// the background, one at a time, and offers each parse to the checker
// (checker.Checker.Keep), up to KeepCiting: the next evidence save of
// those sets judges them from the kept claims. The parses are made
// outside the checker (a page's file, the site's root and
// configuration: what a re-check does not change) and handed to it on
// serve's loop, between changes; a change stops the warm-up, and a save
// it had not warmed parses the pages itself, as before. A kept parse is
// used only while the page's source is the bytes it was parsed from.
// The first warm-up also makes the staging's claim data of the state
// served (staging.ClaimCache.Warm), which the first edit's staging would
// otherwise make for every claim.

// warmPage is one page's parse for the checker, made by a warm-up.
type warmPage struct {
	site   *project.Site
	page   *project.Page
	parsed *claim.Page
}

// warmPlan returns the site of the checker, the sets cited by the page
// served at URL path urlPath and the pages to parse so the next
// evidence save of those sets judges them from kept claims
// (checker.Checker.ToKeep): no pages when no page of the site is served
// there or nothing is left to keep.
func (r *IncrementalRechecker) warmPlan(urlPath string) (*project.Site, []string, []*project.Page) {
	if r.checker == nil {
		return nil, nil, nil
	}
	s := r.checker.Site()
	var sets []string
	for _, p := range s.Pages {
		if servedAt(p, urlPath) {
			for _, set := range r.checker.CitedSets(p) {
				if !slices.Contains(sets, set) {
					sets = append(sets, set)
				}
			}
		}
	}
	if len(sets) == 0 {
		return nil, nil, nil
	}
	return s, sets, r.checker.ToKeep(sets...)
}

// warmKeep offers the checker w's parse (Checker.Keep) when w is of the
// checker's site.
func (r *IncrementalRechecker) warmKeep(w warmPage) bool {
	return r.checker != nil && r.checker.Site() == w.site && r.checker.Keep(w.page, w.parsed)
}

// servedAt reports whether Hugo serves page p at URL path u: its URL
// within its language (Page.URL), or under a prefix ending in its
// language's code ("/ja/docs/x/", "/sub/ja/docs/x/"). A page Hugo
// serves elsewhere (a slug, a url or permalinks setting) is not found:
// its sets are then not warmed.
func servedAt(p *project.Page, u string) bool {
	pu := p.URL()
	if u == pu {
		return true
	}
	rest, ok := strings.CutSuffix(u, pu)
	return ok && strings.HasSuffix(rest, "/"+p.Lang)
}

// warmer runs the warm-ups of one serve: start is called on serve's
// loop with a served URL path, each parse comes back on parsed to be
// offered to the checker there (keep), and stop ends a warm-up running.
type warmer struct {
	rc *IncrementalRechecker
	// parsed receives the warm-up's parses, one page at a time.
	parsed chan warmPage
	// cancel stops the warm-up running; nil when none runs.
	cancel context.CancelFunc
	// done is closed when the warm-up running ended.
	done chan struct{}
	// site is the site warmed is of; warmed the URL paths warmed for it.
	site   *project.Site
	warmed map[string]bool
	// claims, when set, is the staging's warm-up (staging.ClaimCache.Warm
	// of the state served), run once, before the first warm-up's parses:
	// in its goroutine, as nothing but a change (which stops the warm-up
	// first) uses the cache.
	claims func()
	// kept counts the parses the checker kept; sets and began are the
	// sets and the start of the warm-up running (for --verbose).
	kept  int
	sets  []string
	began time.Time
}

func newWarmer(rc Rechecker) *warmer {
	inc, ok := rc.(*IncrementalRechecker)
	if !ok {
		return nil
	}
	return &warmer{rc: inc, parsed: make(chan warmPage)}
}

// start starts a warm-up for the page served at urlPath unless one
// runs, or that path was warmed for the checker's site already.
func (w *warmer) start(ctx context.Context, urlPath string) {
	if w == nil || w.cancel != nil {
		return
	}
	if w.rc.checker == nil {
		return
	}
	if s := w.rc.checker.Site(); s != w.site {
		w.site, w.warmed = s, map[string]bool{}
	}
	if w.warmed[urlPath] {
		return
	}
	w.warmed[urlPath] = true
	site, sets, pages := w.rc.warmPlan(urlPath)
	claims := w.claims
	w.claims = nil
	if len(pages) == 0 && claims == nil {
		return
	}
	w.sets, w.began, w.kept = sets, time.Now(), 0
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	w.cancel, w.done = cancel, done
	var md goldmark.Markdown
	if len(pages) > 0 {
		md = site.Config.NewMarkdown()
	}
	out := w.parsed
	go func() {
		defer crash.Guard()
		defer close(done)
		if claims != nil {
			claims()
		}
		for _, p := range pages {
			if ctx.Err() != nil {
				return
			}
			parsed, _, err := site.ParsePage(p, md)
			if err != nil {
				continue // a page being saved: its save re-checks it
			}
			select {
			case out <- warmPage{site: site, page: p, parsed: parsed}:
			case <-ctx.Done():
				return
			}
		}
	}()
}

// keep offers the checker a warm-up's parse; on serve's loop.
func (w *warmer) keep(p warmPage) {
	if w.rc.warmKeep(p) {
		w.kept++
	}
}

// running returns the channel the warm-up's parses come on: nil when
// none runs (a nil channel blocks in the loop's select).
func (w *warmer) running() <-chan warmPage {
	if w == nil || w.cancel == nil {
		return nil
	}
	return w.parsed
}

// ended returns the channel closed when the warm-up running ended; nil
// when none runs.
func (w *warmer) ended() <-chan struct{} {
	if w == nil || w.cancel == nil {
		return nil
	}
	return w.done
}

// finish forgets the warm-up that ended (ended closed) and, with log,
// says what it kept.
func (w *warmer) finish(log io.Writer) {
	w.cancel()
	w.cancel, w.done = nil, nil
	if log != nil {
		fmt.Fprintf(log, "evdoc: warmed up in %v: kept the claims of %d page(s) citing %s for the next evidence save\n", time.Since(w.began).Round(time.Millisecond), w.kept, strings.Join(w.sets, ", "))
	}
}

// stop stops the warm-up running, if any, and waits until it ended,
// before a change re-checks: the re-check parses itself what the
// warm-up had not handed over.
func (w *warmer) stop() {
	if w == nil || w.cancel == nil {
		return
	}
	w.cancel()
	<-w.done
	w.cancel, w.done = nil, nil
}
