package report

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/evdoc-lab/evdoc/generator/check"
	"github.com/evdoc-lab/evdoc/generator/diag"
)

// Claim is one claim's verdict as `evdoc check --format=json` writes it:
// the page and the 1-based line and byte column of the claim, its literal
// and destination, whether it matched, and for each of its numbers the
// evidence value and the position it was read from.
type Claim struct {
	Page     string          `json:"page"`
	Line     int             `json:"line"`
	Column   int             `json:"column"`
	Literal  string          `json:"literal"`
	Ref      string          `json:"ref"`
	OK       bool            `json:"ok"`
	Bindings []check.Binding `json:"evidence"`
}

// Coverage is one page's coverage: of its Measured numbers written in
// prose, Bound are claims; Exempt numbers are excluded by rule or marker.
type Coverage struct {
	Page     string `json:"page"`
	Bound    int    `json:"bound"`
	Measured int    `json:"measured"`
	Exempt   int    `json:"exempt"`
}

// Run is what one check of a site found: the verdict on every claim, every
// diagnostic (sorted) and each page's coverage, out of Pages pages.
//
// A caller that writes "text" only may leave Claims empty and set Matched
// and Total instead (the counts of matching and of all claims), so a big
// site's verdicts need not be held at once.
type Run struct {
	Claims []Claim
	// ClaimLines, when set, writes the claims in "json" in place of
	// Claims: a caller that wrote them with WriteClaims while checking
	// (so as not to hold them) copies them out here.
	ClaimLines     func(w io.Writer) error
	Matched, Total int
	Diagnostics    diag.List
	Coverage       []Coverage
	Pages          int
	// Verbose makes "text" write each page's coverage before the summary
	// line; without it "text" is the findings and one summary line, as
	// go vet and Vale print. "json" always holds the coverage.
	Verbose bool
}

// WriteRun writes run in format. In "text", w receives the diagnostics and
// log a summary line, after the coverage of each page with measured
// numbers when run.Verbose;
// in "json", w receives one object per claim, per diagnostic
// ({"diagnostic": …}) and per page coverage ({"coverage": …}), in that
// order, then one {"summary": …} (see Summary); "github" and "sarif" write the diagnostics only (see Write).
func WriteRun(w, log io.Writer, format string, run Run, src Source) error {
	switch format {
	case "text":
		if err := Write(w, format, run.Diagnostics, src); err != nil {
			return err
		}
		for _, c := range run.Coverage {
			if run.Verbose && c.Measured > 0 {
				fmt.Fprintf(log, "%s: coverage %d/%d measured numbers bound (%d exempt)\n", c.Page, c.Bound, c.Measured, c.Exempt)
			}
		}
		ok, total := run.counts()
		_, err := fmt.Fprintf(log, "evdoc: %d/%d claims match their evidence in %d pages; %d error(s), %d warning(s)\n",
			ok, total, run.Pages, run.Diagnostics.Count(diag.Error), run.Diagnostics.Count(diag.Warning))
		return err
	case "json":
		enc := json.NewEncoder(w)
		enc.SetEscapeHTML(false)
		if run.ClaimLines != nil {
			if err := run.ClaimLines(w); err != nil {
				return err
			}
		} else if err := WriteClaims(w, run.Claims); err != nil {
			return err
		}
		if err := Write(w, format, run.Diagnostics, src); err != nil {
			return err
		}
		for _, c := range run.Coverage {
			if err := enc.Encode(struct {
				Coverage Coverage `json:"coverage"`
			}{c}); err != nil {
				return err
			}
		}
		matched, total := run.counts()
		return enc.Encode(struct {
			Summary Summary `json:"summary"`
		}{Summary{Matched: matched, Claims: total, Pages: run.Pages,
			Errors: run.Diagnostics.Count(diag.Error), Warnings: run.Diagnostics.Count(diag.Warning)}})
	}
	return Write(w, format, run.Diagnostics, src)
}

// Summary is the last line of `evdoc check --format=json`, what the text
// format's summary line says: the claims that match their evidence
// (Matched) out of all judged claims (Claims, figure texts included), the
// pages checked, and the error and warning findings after rule
// severities. A consumer that reads it knows the output is complete.
type Summary struct {
	Matched  int `json:"matched"`
	Claims   int `json:"claims"`
	Pages    int `json:"pages"`
	Errors   int `json:"errors"`
	Warnings int `json:"warnings"`
}

// counts returns the matching and all claims: from Claims when it is
// set, else Matched and Total.
func (run Run) counts() (matched, total int) {
	if len(run.Claims) == 0 {
		return run.Matched, run.Total
	}
	for _, c := range run.Claims {
		if c.OK {
			matched++
		}
	}
	return matched, len(run.Claims)
}

// WriteClaims writes claims as WriteRun's "json" does: one object a line.
func WriteClaims(w io.Writer, claims []Claim) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for _, c := range claims {
		if err := enc.Encode(c); err != nil {
			return err
		}
	}
	return nil
}

// RuleFormats lists the formats WriteRules accepts.
var RuleFormats = []string{"text", "markdown", "json"}

// WriteRules writes the rule catalogue in format: "text" (one rule per
// line: id, default severity, description), "markdown" (the table README
// shows, each row anchored as #rule-ID) or "json" (one object per rule:
// id, severity, description, help, url).
func WriteRules(w io.Writer, format string, rules []diag.Rule) error {
	switch format {
	case "text":
		width := 0
		for _, r := range rules {
			width = max(width, len(r.ID))
		}
		for _, r := range rules {
			if _, err := fmt.Fprintf(w, "%-*s  %-7s  %s\n", width, r.ID, r.Severity, r.Doc); err != nil {
				return err
			}
		}
		return nil
	case "markdown":
		var b strings.Builder
		b.WriteString("| rule | default | finds | to resolve |\n|---|---|---|---|\n")
		for _, r := range rules {
			fmt.Fprintf(&b, "| <a name=\"rule-%s\"></a>`%s` | %s | %s | %s |\n", r.ID, r.ID, r.Severity, markdownCell(r.Doc), markdownCell(r.Help))
		}
		_, err := io.WriteString(w, b.String())
		return err
	case "json":
		enc := json.NewEncoder(w)
		enc.SetEscapeHTML(false)
		for _, r := range rules {
			if err := enc.Encode(struct {
				ID          diag.RuleID   `json:"id"`
				Severity    diag.Severity `json:"severity"`
				Description string        `json:"description"`
				Help        string        `json:"help"`
				URL         string        `json:"url"`
			}{r.ID, r.Severity, r.Doc, r.Help, r.URL()}); err != nil {
				return err
			}
		}
		return nil
	}
	return fmt.Errorf("unknown format %q; expected one of %s", format, strings.Join(RuleFormats, ", "))
}

// markdownCell escapes s for a GFM table cell.
func markdownCell(s string) string {
	return strings.NewReplacer("|", `\|`, "\n", " ").Replace(s)
}
