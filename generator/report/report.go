// Package report writes diagnostics in the formats evdoc offers:
//
//	text    path:line:col: severity: message [rule], related positions as
//	        indented notes; columns are byte columns (go/token style)
//	json    one JSON object per diagnostic ({"diagnostic": …}, with "pos"
//	        and, for a range, "end"); byte columns
//	github  GitHub Actions workflow commands (::error file=…,line=…,col=…,
//	        endLine=…,endColumn=…,title=…::message); columns in Unicode
//	        code points
//	sarif   SARIF 2.1.0 (OASIS), one run, columnKind "unicodeCodePoints";
//	        each result's region has startLine/startColumn and, for a
//	        range, endLine/endColumn
//
// Byte columns are converted to code-point columns from the file's source,
// so a mark on a Korean or Japanese line lands on the right character.
//
// Write writes a list of diagnostics; WriteRun writes everything one
// `evdoc check` found (claims, diagnostics, coverage, summary); WriteRules
// writes the rule catalogue (text, README's markdown table, JSON). SARIF's
// rules[] come from the catalogue (generator/diag/rules.go).
// ValueWriter writes `evdoc values` listings (text table, JSON lines);
// WriteFixDiff, WriteRewrites and WriteFixSummary what `evdoc fix`
// shows; WriteI18nStatus `evdoc i18n status` (text, JSON). Commands write
// findings, listings and summaries in any of these formats only through
// this package: it is the one writer of every output format.
package report

import (
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/owenrumney/go-sarif/v3/pkg/report/v210/sarif"

	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/internal/safefile"
)

// Formats lists the accepted format names.
var Formats = []string{"text", "json", "github", "sarif"}

// Source returns the content of a file named in a position, or nil when it
// is unknown (columns are then written as given).
type Source func(file string) []byte

// FileSource returns a Source reading each file, a slash-separated path
// relative to root, from disk once; a file that cannot be read is nil.
func FileSource(root string) Source {
	cache := map[string][]byte{}
	return func(file string) []byte {
		if b, ok := cache[file]; ok {
			return b
		}
		b, err := safefile.ReadPath(filepath.Join(root, filepath.FromSlash(file)), safefile.DefaultMaxSize)
		if err != nil {
			b = nil
		}
		cache[file] = b
		return b
	}
}

// Write writes ds to w in format. It returns an error for an unknown
// format or a failed write.
func Write(w io.Writer, format string, ds diag.List, src Source) error {
	switch format {
	case "text":
		for _, d := range ds {
			fmt.Fprintln(w, d.String())
			for _, r := range d.Related {
				fmt.Fprintf(w, "\t%s: note: %s\n", r.Pos, r.Message)
			}
		}
		return nil
	case "json":
		enc := json.NewEncoder(w)
		enc.SetEscapeHTML(false)
		for _, d := range ds {
			if err := enc.Encode(struct {
				Diagnostic diag.Diagnostic `json:"diagnostic"`
			}{d}); err != nil {
				return err
			}
		}
		return nil
	case "github":
		for _, d := range ds {
			level := levelName(d.Severity, "notice")
			msg := d.Message
			for _, r := range d.Related {
				msg += "\n" + r.Pos.String() + ": " + r.Message
			}
			end := ""
			if d.End.IsValid() && d.Pos.IsValid() {
				end = fmt.Sprintf(",endLine=%d,endColumn=%d", d.End.Line, RuneColumn(d.End, src))
			}
			fmt.Fprintf(w, "::%s file=%s,line=%d,col=%d%s,title=%s::%s\n", level,
				escapeProperty(d.Pos.File), d.Pos.Line, RuneColumn(d.Pos, src), end, escapeProperty("evdoc "+string(d.Rule)), escapeData(msg))
		}
		return nil
	case "sarif":
		rep, err := SARIF(ds, src)
		if err != nil {
			return err
		}
		return rep.PrettyWrite(w)
	}
	return fmt.Errorf("unknown format %q; expected one of %s", format, strings.Join(Formats, ", "))
}

// RuneColumn converts p's byte column into a 1-based Unicode code point
// column using the file's source; without the source it returns the byte
// column.
func RuneColumn(p diag.Position, src Source) int {
	if src == nil || p.Column <= 1 {
		return p.Column
	}
	b := src(p.File)
	start := p.Offset - (p.Column - 1)
	if b == nil || start < 0 || p.Offset > len(b) {
		return p.Column
	}
	return utf8.RuneCount(b[start:p.Offset]) + 1
}

// SARIF builds a SARIF 2.1.0 report of ds: one rule per distinct rule id,
// one result per diagnostic with its related locations.
func SARIF(ds diag.List, src Source) (*sarif.Report, error) {
	rep := sarif.NewReport()
	run := sarif.NewRunWithInformationURI("evdoc", "https://github.com/evdoc-lab/evdoc").WithColumnKind("unicodeCodePoints")
	seen := map[diag.RuleID]bool{}
	for _, d := range ds {
		if !seen[d.Rule] {
			seen[d.Rule] = true
			addRule(run, d.Rule)
		}
		level := levelName(d.Severity, "note")
		res := run.CreateResultForRule(ruleName(d.Rule)).WithLevel(level).WithMessage(sarif.NewTextMessage(d.Message)).
			AddLocation(rangeLocation(d.Pos, d.End, src))
		for i, r := range d.Related {
			loc := location(r.Pos, src).WithMessage(sarif.NewTextMessage(r.Message)).WithID(i + 1)
			res.AddRelatedLocation(loc)
		}
		for _, f := range d.Fixes {
			fix := sarif.NewFix().WithDescription(sarif.NewTextMessage(f.Message))
			for _, e := range f.Edits {
				end := e.Pos
				end.Column += e.End - e.Pos.Offset
				end.Offset = e.End
				region := sarif.NewRegion().WithStartLine(e.Pos.Line).WithStartColumn(RuneColumn(e.Pos, src)).
					WithEndLine(e.Pos.Line).WithEndColumn(RuneColumn(end, src))
				fix.AddArtifactChange(sarif.NewArtifactChange().
					WithArtifactLocation(sarif.NewSimpleArtifactLocation(fileURI(e.Pos.File))).
					AddReplacement(sarif.NewReplacement().WithDeletedRegion(region).
						WithInsertedContent(sarif.NewArtifactContent().WithText(e.NewText))))
			}
			res.AddFixe(fix)
		}
		if d.Pos.File != "" {
			run.AddDistinctArtifact(fileURI(d.Pos.File))
		}
	}
	rep.AddRun(run)
	return rep, rep.Validate()
}

// rangeLocation is location(p) with the region's end at end when the
// diagnostic carries a range.
func rangeLocation(p, end diag.Position, src Source) *sarif.Location {
	loc := location(p, src)
	if end.Line > 0 && p.Line > 0 && loc.PhysicalLocation != nil && loc.PhysicalLocation.Region != nil {
		loc.PhysicalLocation.Region.WithEndLine(end.Line).WithEndColumn(RuneColumn(end, src))
	}
	return loc
}

func location(p diag.Position, src Source) *sarif.Location {
	phys := sarif.NewPhysicalLocation().WithArtifactLocation(sarif.NewSimpleArtifactLocation(fileURI(p.File)))
	if p.Line > 0 {
		region := sarif.NewRegion().WithStartLine(p.Line)
		if p.Column > 0 {
			region = region.WithStartColumn(RuneColumn(p, src))
		}
		phys = phys.WithRegion(region)
	}
	return sarif.NewLocationWithPhysicalLocation(phys)
}

// levelName maps a severity to the output format's level names, which
// agree on "error" and "warning" and differ on the lowest one.
func levelName(sev diag.Severity, note string) string {
	switch sev {
	case diag.Warning:
		return "warning"
	case diag.Note:
		return note
	}
	return "error"
}

// fileURI writes a slash-separated relative path as a URI reference:
// spaces, "#", "%" and the like are percent-encoded, and a first segment
// with ":" is prefixed with "./" so it cannot read as a scheme.
func fileURI(file string) string {
	return (&url.URL{Path: file}).String()
}

// ruleName is the SARIF ruleId of rule: its id, or "evdoc" for a
// diagnostic without one.
func ruleName(rule diag.RuleID) string {
	if rule == "" {
		return "evdoc"
	}
	return string(rule)
}

// addRule adds rule's reportingDescriptor to run from the rule catalogue:
// its one-line description, help text, documentation URL and default
// level. A rule missing from the catalogue (which a test forbids) gets
// only its id.
func addRule(run *sarif.Run, rule diag.RuleID) {
	r, ok := diag.LookupRule(rule)
	if !ok {
		run.AddRule(ruleName(rule)).WithDescription("evdoc finding")
		return
	}
	conf := sarif.NewReportingConfiguration().WithLevel(levelName(r.Severity, "note"))
	if r.Severity == diag.Off {
		conf = sarif.NewReportingConfiguration().WithEnabled(false).WithLevel("none")
	}
	run.AddRule(string(r.ID)).WithDescription(r.Doc).WithHelpURI(r.URL()).
		WithHelp(sarif.NewMultiformatMessageString().WithText(r.Help)).
		WithDefaultConfiguration(conf)
}

// escapeData and escapeProperty follow the workflow command escaping of
// GitHub Actions (@actions/core toCommandValue/escapeData/escapeProperty).
func escapeData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

func escapeProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}
