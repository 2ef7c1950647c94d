// Package evdoc holds the files `evdoc init` writes into a project: the
// Hugo theme component themes/evdoc (evdoc's render hooks, shortcodes,
// partials, the evidence pages' shortcode, i18n strings, CSS and script), the
// reference site's page layouts and the scaffold of a new project. The
// command itself is in cmd/evdoc.
//
// The reference site uses the component exactly as an adopter does
// (theme = ["evdoc"] in hugo.toml), from the same files: themes/evdoc in
// this repository is the component's only copy.
package evdoc

import "embed"

// files embeds the theme component, the reference site's page layouts
// and the scaffold directory.
//
//go:embed all:themes/evdoc all:layouts all:scaffold
var files embed.FS

// Files returns the embedded files, by their paths in this repository
// (themes/evdoc/layouts/_markup/render-link.html, scaffold/hugo.toml, …).
func Files() embed.FS { return files }

// ComponentDir is the theme component's directory in Files, and where
// `evdoc init` writes it in a project: a site lists it in its theme list
// (theme = ["evdoc", "mytheme"]).
const ComponentDir = "themes/evdoc"

// SiteLayouts are the reference site's page layouts, which `evdoc init`
// writes into a new project's layouts/ (a project with its own Hugo
// configuration keeps its theme). They are not part of the component, so
// a site's own theme keeps its look.
func SiteLayouts() []string {
	return []string{"layouts/baseof.html", "layouts/home.html", "layouts/page.html", "layouts/section.html", "layouts/_markup/render-heading.html", "layouts/_markup/render-table.html", "layouts/_partials/evdoc/host/render-link.html"}
}
