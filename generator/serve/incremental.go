package serve

import (
	"context"

	"github.com/evdoc-lab/evdoc/generator/check"
	"github.com/evdoc-lab/evdoc/generator/site"
)

// IncrementalRechecker re-checks a burst of page edits with site.Checker,
// which judges again only what a page edit can change (the page, its
// translation pairs, the pairing, and every page's links when pages come
// or go). Any other change a Checker cannot take in (an evidence file,
// a figure spec, the configuration, layouts, i18n strings) reloads the
// project and checks it whole, as FullRechecker does. Its findings are
// those of FullRechecker (a test compares them). It is not safe for
// concurrent use.
type IncrementalRechecker struct {
	Root  string
	Load  site.LoadOptions
	Check check.Options

	checker *site.Checker
}

// Recheck implements Rechecker.
func (r *IncrementalRechecker) Recheck(ctx context.Context, prev *State, changed []string) (*State, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if r.checker != nil && prev != nil && prev.Site == r.checker.Site() {
		if pages, ok := pageEdits(prev.Site.Config, changed); ok {
			if len(pages) == 0 {
				return prev, nil // nothing evdoc checks changed
			}
			if err := r.checker.Recheck(pages...); err == nil {
				return r.state(), nil
			}
			// A page could not be read: load the project again, which
			// reports what it can.
		}
	}
	s, err := site.LoadWith(r.Root, r.Load)
	if err != nil {
		return nil, err
	}
	r.checker = site.NewCheckerWith(s, site.CheckerOptions{Check: r.Check, CountsOnly: true, Stage: true})
	return r.state(), nil
}

func (r *IncrementalRechecker) state() *State {
	return &State{Site: r.checker.Site(), Stage: r.checker.StageData(), Findings: r.checker.Diagnostics()}
}

// pageEdits returns the pages among changed, and false when a change is
// one a site.Checker cannot take in (anything but pages and files evdoc
// does not check).
func pageEdits(cfg *site.Config, changed []string) ([]string, bool) {
	var pages []string
	for _, f := range changed {
		switch kind, _ := Classify(cfg, f); kind {
		case KindPage:
			pages = append(pages, f)
		case KindOther, KindIgnored:
		default:
			return nil, false
		}
	}
	return pages, true
}
