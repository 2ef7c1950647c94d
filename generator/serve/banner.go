// The banner: the findings in scope as the data the banner partial reads
// (BannerFile in the served project), and whether a layout shows it.

package serve

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"time"

	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/generator/project"
	"github.com/evdoc-lab/evdoc/internal/safefile"
)

// bannerData is the JSON the banner partial reads.
type bannerData struct {
	Errors   int             `json:"errors"`
	Warnings int             `json:"warnings"`
	Strict   bool            `json:"strict"`
	Failing  bool            `json:"failing"`
	Checked  string          `json:"checked"`
	Findings []bannerFinding `json:"findings"`
}

type bannerFinding struct {
	File     string `json:"file"`
	Line     int    `json:"line"`
	Col      int    `json:"col"`
	Severity string `json:"severity"`
	Rule     string `json:"rule"`
	Message  string `json:"message"`
	// Page and Lang name the page the finding is on as Hugo's .File.Path
	// and .Language.Lang do, so the banner lists a page's own first.
	Page string `json:"page,omitempty"`
	Lang string `json:"lang,omitempty"`
}

// banner returns the banner data of the current state: its errors and
// warnings (notes are left to the terminal) and a staging failure.
func (s *server) banner() bannerData {
	st := s.state
	checked := s.checked
	if checked.IsZero() {
		checked = time.Now()
	}
	b := bannerData{Strict: s.opt.Strict, Checked: checked.Format("15:04:05"), Findings: []bannerFinding{}}
	pages := map[string]*project.Page{}
	for _, p := range st.Site.Pages {
		pages[p.Path] = p
	}
	if s.stageErr != nil {
		b.Errors++
		b.Findings = append(b.Findings, bannerFinding{File: "-", Severity: string(diag.Error), Rule: "serve", Message: s.stageErr.Error()})
	}
	for _, d := range st.Findings {
		if d.Severity == diag.Note {
			continue
		}
		if d.Severity == diag.Error {
			b.Errors++
		} else {
			b.Warnings++
		}
		f := bannerFinding{File: d.Pos.File, Line: d.Pos.Line, Col: d.Pos.Column, Severity: string(d.Severity), Rule: string(d.Rule), Message: d.Message}
		if p := pages[d.Pos.File]; p != nil {
			f.Page, f.Lang = p.Rel, p.Lang
		}
		b.Findings = append(b.Findings, f)
	}
	b.Failing = b.Errors > 0 || (s.opt.Strict && b.Warnings > 0)
	if len(b.Findings) == 0 {
		// No banner shows, nor its time: the same bytes at every save
		// of a clean site, which Hugo does not see change. Any change
		// of a data file makes Hugo read every data file again (the
		// claim data of every claim) and render again each page it
		// shows with every claim's popover.
		b.Checked = ""
	}
	return b
}

// writeBanner writes the banner data into the staged project dir.
func (s *server) writeBanner(dir string) error {
	j, err := json.MarshalIndent(s.banner(), "", " ")
	if err != nil {
		return err
	}
	return writeReplace(filepath.Join(dir, filepath.FromSlash(BannerFile)), append(j, '\n'))
}

// noteMissingBanner tells the terminal when no template Hugo would run
// calls the banner partial (a site with its own theme that evdoc's
// component does not hook into), so the findings show in the terminal
// only. A template of the project or of another theme that calls it
// counts; one of evdoc's component (its hook partials for known themes)
// counts only when a template outside the component calls that hook.
func (s *server) noteMissingBanner() {
	if !bannerReachable(s.served) {
		fmt.Fprintf(s.opt.Log, "evdoc: no layout calls the %q partial, so the served pages show no findings banner; add {{ partial %q . }} after <body> in your baseof.html\n", BannerPartial, BannerPartial)
	}
}

// bannerReachable reports whether a template of the project at dir that
// Hugo runs calls BannerPartial (see noteMissingBanner).
func bannerReachable(dir string) bool {
	component := filepath.Join(dir, "themes", "evdoc") + string(filepath.Separator)
	var outside []string // templates outside the component
	var hooks []string   // partial names of component templates calling the banner
	for _, d := range []string{"layouts", "themes", "_vendor"} {
		_ = filepath.WalkDir(filepath.Join(dir, d), func(p string, e fs.DirEntry, err error) error {
			if err != nil || e.IsDir() || !strings.HasSuffix(p, ".html") || strings.HasSuffix(filepath.ToSlash(p), "/"+BannerPartial) {
				return nil
			}
			b, err := safefile.ReadPath(p, safefile.TextMaxSize) // regular files only, bounded
			if err != nil {
				return nil
			}
			text := string(b)
			if !strings.HasPrefix(p, component) {
				outside = append(outside, text)
				return nil
			}
			if strings.Contains(text, BannerPartial) {
				rel := filepath.ToSlash(strings.TrimPrefix(p, component))
				for _, pre := range []string{"layouts/_partials/", "layouts/partials/"} {
					if name, ok := strings.CutPrefix(rel, pre); ok {
						hooks = append(hooks, strings.TrimSuffix(name, ".html"))
					}
				}
			}
			return nil
		})
	}
	for _, text := range outside {
		if strings.Contains(text, BannerPartial) {
			return true
		}
		for _, h := range hooks {
			if strings.Contains(text, `"`+h+`"`) || strings.Contains(text, `"`+h+`.html"`) {
				return true
			}
		}
	}
	return false
}
