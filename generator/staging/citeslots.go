package staging

import (
	"bytes"
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
// .FuzzyWordCount, .ReadingTime, .Truncated, .Len) and Hugo's embedded
// schema template (which writes .WordCount). The content methods
// themselves are read by contentUse.
var pageTextUse = regexp.MustCompile(`\.(Plain|PlainWords|WordCount|FuzzyWordCount|ReadingTime|Truncated|Len)\b|schema\.html`)

// contentUse matches a name of a page's content (.Content,
// .ContentWithoutSummary, also a resource's .Content): each is safe only
// inside an action that writes it alone (plainContent).
var contentUse = regexp.MustCompile(`\.Content\w*`)

// plainContent matches an action writing .Content or
// .ContentWithoutSummary alone ({{ .Content }}, also with trim markers).
var plainContent = regexp.MustCompile(`^\{\{-?\s*\.(Content|ContentWithoutSummary)\s*-?\}\}$`)

// contentActionsPlain reports whether every name of a page's content in
// the template text b (contentUse) stands in an action that writes it
// alone: the text from the last "{{" before the name to the first "}}"
// after it must be such an action (plainContent). An action holding a
// pipe, a function, an assignment or a string, whatever its braces,
// is not one.
func contentActionsPlain(b []byte) bool {
	for _, m := range contentUse.FindAllIndex(b, -1) {
		start := bytes.LastIndex(b[:m[0]], []byte("{{"))
		end := bytes.Index(b[m[1]:], []byte("}}"))
		if start < 0 || end < 0 || !plainContent.Match(b[start:m[1]+end+2]) {
			return false
		}
	}
	return true
}

// citeSlotsSafe reports whether the evidence viewer's citations can be
// staged with a placeholder (writeViewerCites) without changing the
// built site: the placeholder stands in a viewer page's .Content for
// the rows, so no template Hugo may run may read that text otherwise
// than writing it (pageTextUse, contentActionsPlain). The templates read are the project's
// layouts/ and assets/ (resources.ExecuteAsTemplate) and every layouts
// and assets directory under themes/ and _vendor/ (a
// theme's own theme components too) but evdoc's component's (whose
// templates write a viewer page's .Content nowhere); where Hugo may
// read templates from elsewhere (modules, layoutDir, themesDir), or a
// directory cannot be read, it reports false.
func citeSlotsSafe(s *project.Site) bool {
	if s.Config.OtherLayouts || s.Config.ThemesDir != "" {
		return false
	}
	// assets/ holds the templates resources.ExecuteAsTemplate runs
	for _, top := range []string{"layouts", "assets"} {
		if !templatesSafe(filepath.Join(s.Root, top)) {
			return false
		}
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
			if d.Name() == "layouts" || d.Name() == "assets" {
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
		if pageTextUse.Match(b) || !contentActionsPlain(b) {
			safe = false
			return fs.SkipAll
		}
		return nil
	})
	return err == nil && safe
}
