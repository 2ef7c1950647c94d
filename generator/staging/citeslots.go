package staging

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"

	"github.com/evdoc-lab/evdoc/generator/hosttheme"
	"github.com/evdoc-lab/evdoc/generator/project"
)

// pageTextUse matches what a template may use of a page that reads the
// text of its .Content otherwise than writing it as it is: the page
// methods derived from it (.Plain, .PlainWords, .WordCount,
// .FuzzyWordCount, .ReadingTime, .Truncated, .Len), Hugo's embedded
// schema template (which writes .WordCount), and an action that names
// .Content other than one writing it alone ({{ .Content }}, also with
// trim markers): a pipe, a function or an assignment.
var pageTextUse = regexp.MustCompile(`\.(Plain|PlainWords|WordCount|FuzzyWordCount|ReadingTime|Truncated|Len)\b|schema\.html|\{\{[^{}]*\.Content\b[^{}]*\}\}`)

// plainContent matches an action writing .Content alone.
var plainContent = regexp.MustCompile(`^\{\{-?\s*\.Content\s*-?\}\}$`)

// citeSlotsSafe reports whether the evidence viewer's citations can be
// staged with a placeholder (writeViewerCites) without changing the
// built site: the placeholder stands in a viewer page's .Content for
// the rows, so no template Hugo may run may read that text otherwise
// than writing it (pageTextUse). The templates read are the project's
// layouts/ and every layouts directory under themes/ and _vendor/ (a
// theme's own theme components too) but evdoc's component's (whose
// templates write a viewer page's .Content nowhere); where Hugo may
// read templates from elsewhere (modules, layoutDir, themesDir), or a
// directory cannot be read, it reports false.
func citeSlotsSafe(s *project.Site) bool {
	if s.Config.OtherLayouts || s.Config.ThemesDir != "" {
		return false
	}
	if !templatesSafe(filepath.Join(s.Root, "layouts")) {
		return false
	}
	for _, top := range []string{"themes", "_vendor"} {
		dir := filepath.Join(s.Root, top)
		if _, err := os.Lstat(dir); os.IsNotExist(err) {
			continue
		}
		safe := true
		err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.IsDir() {
				return nil
			}
			if p == filepath.Join(dir, hosttheme.Component) {
				return fs.SkipDir
			}
			if d.Name() == "layouts" {
				if !templatesSafe(p) {
					safe = false
					return fs.SkipAll
				}
				return fs.SkipDir
			}
			return nil
		})
		if err != nil || !safe {
			return false
		}
	}
	return true
}

// templatesSafe reports whether no file under dir (a missing dir has
// none) uses a page's text (pageTextUse).
func templatesSafe(dir string) bool {
	if _, err := os.Lstat(dir); err != nil {
		return os.IsNotExist(err)
	}
	safe := true
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.Type().IsRegular() {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		for _, m := range pageTextUse.FindAll(b, -1) {
			if !plainContent.Match(m) {
				safe = false
				return fs.SkipAll
			}
		}
		return nil
	})
	return err == nil && safe
}
