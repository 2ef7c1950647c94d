package serve

import (
	"context"

	"github.com/evdoc-lab/evdoc/generator/check"
	"github.com/evdoc-lab/evdoc/generator/checker"
	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/generator/project"
	"github.com/evdoc-lab/evdoc/generator/stagedata"
)

// State is a checked project: what Recheck returns and what is staged
// and served.
type State struct {
	Site *project.Site
	// Stage is what staging needs of the verdicts on the claims
	// (stagedata.StageData), not the verdicts themselves.
	Stage *stagedata.StageData
	// Findings are every finding of the project, sorted, with the
	// project's rule severities applied (checker.Check).
	Findings diag.List
	// uses is what each page uses (IncrementalRechecker), for the scope
	// of a change; nil: pages are parsed to find it.
	uses map[*project.Page]pageUses
}

// Rechecker re-checks a project after some of its files changed. Serve
// reports, of the State it returns, the findings in the Scope of the
// change (Affected); an incremental implementation may re-check only
// that scope, provided every finding it returns is what a full check of
// the changed project gives.
type Rechecker interface {
	// Recheck returns the project's state after changed files (slash-
	// separated, relative to the root) changed; prev is the state before
	// (nil at the first call). An error means the project cannot be
	// loaded at all (project.LoadWith's errors); prev is then still served.
	Recheck(ctx context.Context, prev *State, changed []string) (*State, error)
}

// FullRechecker reloads the whole project and checks every page: the
// reference behaviour an incremental Rechecker must agree with.
type FullRechecker struct {
	Root  string
	Load  project.LoadOptions
	Check check.Options
}

// Recheck implements Rechecker.
func (r FullRechecker) Recheck(ctx context.Context, _ *State, _ []string) (*State, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s, err := project.LoadWith(r.Root, r.Load)
	if err != nil {
		return nil, err
	}
	results, ds := checker.Check(s, r.Check)
	return &State{Site: s, Stage: stagedata.StageDataOf(results), Findings: ds}, nil
}
