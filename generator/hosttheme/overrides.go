package hosttheme

import (
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// Override is a layout file of the component that takes the place of a
// later theme's file of the same name with content of its own: the
// component lists first (theme = ["evdoc", …]) so that its hook files
// fill the hooks of the themes it knows, and a theme whose file of that
// name is not empty would lose what it puts there.
type Override struct {
	// Layout is the path under layouts/ ("_partials/head-additions.html").
	Layout string
	// Theme is the theme whose file is replaced, and File that file,
	// relative to the project.
	Theme, File string
}

// replacements are the component's layouts that take a known theme's
// template's place on purpose, doing what it does with evdoc's change
// (hugo-book's edit link, which names the repository file on the pages
// evdoc build generates): not hooks, and never reported.
var replacements = map[string]bool{
	"_partials/docs/links/edit.html": true,
}

// hostHookFile tells whether a component layout (relative to layouts/)
// has a name a host theme may also use: not evdoc's own partials, render
// hooks or shortcodes, nor a deliberate replacement.
func hostHookFile(rel string) bool {
	if replacements[rel] {
		return false
	}
	for _, own := range []string{"_partials/evdoc/", "partials/evdoc/", "_markup/", "_shortcodes/", "shortcodes/", "_default/_markup/"} {
		if strings.HasPrefix(rel, own) {
			return false
		}
	}
	return strings.HasSuffix(rel, ".html")
}

// Overrides returns the component's layout files (under
// themes/evdoc/layouts of the project at root) that replace a file with
// content of its own in a theme listed after the component in themes; a
// file holding only whitespace and comments is not content. Unreadable
// files are skipped (the component check reports the component's).
func Overrides(root string, themes []string) []Override {
	i := -1
	for j, t := range themes {
		if t == Component {
			i = j
			break
		}
	}
	if i < 0 || i == len(themes)-1 {
		return nil
	}
	layouts := filepath.Join(root, filepath.FromSlash(Dir(root, Component)), "layouts")
	var out []Override
	_ = filepath.WalkDir(layouts, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return nil
		}
		rel, err := filepath.Rel(layouts, p)
		if err != nil {
			return nil
		}
		rel = filepath.ToSlash(rel)
		if !hostHookFile(rel) {
			return nil
		}
		names := []string{rel}
		if rest, ok := strings.CutPrefix(rel, "_partials/"); ok {
			names = append(names, "partials/"+rest)
		}
		if rest, ok := strings.CutPrefix(rel, "partials/"); ok {
			names = append(names, "_partials/"+rest)
		}
		for _, t := range themes[i+1:] {
			for _, n := range names {
				f := path.Join(Dir(root, t), "layouts", n)
				if hasContent(filepath.Join(root, filepath.FromSlash(f))) {
					out = append(out, Override{Layout: rel, Theme: t, File: f})
				}
			}
		}
		return nil
	})
	return out
}

// maxHookSize bounds what hasContent reads of a theme's file.
const maxHookSize = 1 << 20

// hasContent tells whether the regular file at p holds more than
// whitespace and template or HTML comments.
func hasContent(p string) bool {
	fi, err := os.Lstat(p)
	if err != nil || !fi.Mode().IsRegular() {
		return false
	}
	if fi.Size() > maxHookSize {
		return true
	}
	b, err := os.ReadFile(p)
	if err != nil {
		return false
	}
	return strings.TrimSpace(templateCommentRe.ReplaceAllString(string(b), "")) != ""
}
