// Package evdoc holds the files `evdoc init` writes into a project: the
// Hugo theme component (evdoc's render hooks, shortcodes, partials,
// evidence page templates, i18n strings, CSS and script) and the scaffold
// of a new project. The command itself is in cmd/evdoc.
package evdoc

import "embed"

// files embeds the reference site's layouts, i18n and static directories
// and the scaffold directory.
//
//go:embed all:layouts all:i18n all:static all:scaffold
var files embed.FS

// Files returns the embedded files, by their paths in this repository
// (layouts/_markup/render-link.html, scaffold/hugo.toml, …).
func Files() embed.FS { return files }

// ComponentDirs are the directories of Files that form the theme
// component themes/evdoc; the site layouts (baseof, home, page, section)
// are not part of it, so a site's own theme keeps its look.
func ComponentDirs() []string {
	return []string{"layouts/_markup", "layouts/_partials", "layouts/_shortcodes", "layouts/evidence", "i18n", "static"}
}

// SiteLayouts are the reference site's page layouts, which `evdoc init`
// writes into a new project's layouts/ (a project with its own Hugo
// configuration keeps its theme).
func SiteLayouts() []string {
	return []string{"layouts/baseof.html", "layouts/home.html", "layouts/page.html", "layouts/section.html"}
}
