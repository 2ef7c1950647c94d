package serve

import (
	"context"
	"path"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/evdoc-lab/evdoc/generator/check"
	"github.com/evdoc-lab/evdoc/generator/checker"
	"github.com/evdoc-lab/evdoc/generator/claim"
	"github.com/evdoc-lab/evdoc/generator/hugoconf"
	"github.com/evdoc-lab/evdoc/generator/project"
)

// IncrementalRechecker re-checks a burst of page and evidence edits with
// checker.Checker, which judges again only what an edit can change: for a
// page, the page, its translation pairs, the pairing, and every page's
// links when pages come or go; for an evidence file, the pages citing a
// value that changed (Checker.RecheckEvidence). Any other change a
// Checker cannot take in (a figure spec, the configuration, layouts,
// i18n strings) reloads the project and checks it whole, as
// FullRechecker does. Its findings are
// those of FullRechecker (a test compares them). It is not safe for
// concurrent use.
type IncrementalRechecker struct {
	Root  string
	Load  project.LoadOptions
	Check check.Options

	checker *checker.Checker
	// uses holds what each page the checker judged uses (usesOf), for
	// the scope of an evidence or figure edit; mu guards it while the
	// checker's workers fill it.
	mu   sync.Mutex
	uses map[*project.Page]pageUses
}

// keepCiting is the bytes of claims the checker keeps of the pages an
// evidence edit judged again (checker.CheckerOptions.KeepCiting), so the
// next save of that evidence judges them without parsing them again:
// about 56 MB for the 100 pages citing one set of the 500-page benchmark
// site. Before the first evidence save, a warm-up fills it (warmer).
const keepCiting = 64 << 20

// record keeps what the judged page p uses (a checker.CheckerOptions.Parsed).
func (r *IncrementalRechecker) record(p *project.Page, parsed *claim.Page) {
	u := usesOf(parsed)
	r.mu.Lock()
	r.uses[p] = u
	r.mu.Unlock()
}

// Recheck implements Rechecker.
func (r *IncrementalRechecker) Recheck(ctx context.Context, prev *State, changed []string) (*State, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if r.checker != nil && prev != nil && prev.Site == r.checker.Site() {
		if pages, evidence, ok := edits(prev.Site.Config, withPagesUnder(prev.Site, changed)); ok {
			if len(pages) == 0 && !evidence {
				return prev, nil // nothing evdoc checks changed
			}
			if evidence {
				r.checker.RecheckEvidence()
			}
			if err := r.checker.Recheck(pages...); err == nil {
				return r.state(), nil
			}
			// A page could not be read: load the project again, which
			// reports what it can.
		}
	}
	s, err := project.LoadWith(r.Root, r.Load)
	if err != nil {
		return nil, err
	}
	r.uses = map[*project.Page]pageUses{}
	r.checker = checker.NewCheckerWith(s, checker.CheckerOptions{Check: r.Check, CountsOnly: true, Stage: true, CitesIndex: true, Parsed: r.record, KeepCiting: keepCiting})
	return r.state(), nil
}

func (r *IncrementalRechecker) state() *State {
	s := r.checker.Site()
	// Forget the pages an edit replaced or removed.
	if len(r.uses) > len(s.Pages) {
		cur := make(map[*project.Page]bool, len(s.Pages))
		for _, p := range s.Pages {
			cur[p] = true
		}
		for p := range r.uses {
			if !cur[p] {
				delete(r.uses, p)
			}
		}
	}
	return &State{Site: s, Stage: r.checker.StageData(), Findings: r.checker.Diagnostics(), uses: r.uses}
}

// withPagesUnder returns changed with, for each changed path that is a
// directory holding pages of s — moved out of the content directory,
// renamed or deleted, which the file watcher reports as one event naming
// the directory alone — every page of s under it, so each is read again
// and dropped when it is gone.
func withPagesUnder(s *project.Site, changed []string) []string {
	out := changed
	for _, f := range changed {
		dir := path.Clean(f) + "/"
		i := sort.Search(len(s.Pages), func(i int) bool { return s.Pages[i].Path >= dir })
		for ; i < len(s.Pages) && strings.HasPrefix(s.Pages[i].Path, dir); i++ {
			if len(out) == len(changed) {
				out = slices.Clone(changed)
			}
			out = append(out, s.Pages[i].Path)
		}
	}
	return out
}

// edits returns the pages among changed and whether an evidence file is
// among them, and false when a change is one a checker.Checker cannot take
// in (anything but pages, evidence files and files evdoc does not
// check).
func edits(cfg *hugoconf.Config, changed []string) (pages []string, evidence, ok bool) {
	for _, f := range changed {
		switch kind, _ := Classify(cfg, f); kind {
		case KindPage:
			pages = append(pages, f)
		case KindEvidence:
			evidence = true
		case KindOther, KindIgnored:
		default:
			return nil, false, false
		}
	}
	return pages, evidence, true
}
