// Package hosttheme knows the Hugo themes that evdoc's theme component
// joins in a site's theme list: the partials each theme calls so a site
// can add to every page's <head> and to the end of its <body> (its
// hooks), how to tell the theme in a project, and which of the project's
// files replace the component's copy of a hook. `evdoc init` prints what
// it found; `evdoc build`'s output check names the hook a page lacks;
// docs/guide/adopting.md's recipe table is Known (a test keeps them in
// step).
package hosttheme

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// Component is the theme component's name in a site's theme list.
const Component = "evdoc"

// Theme names the hook partials of one Hugo theme. The component fills
// each (themes/evdoc/layouts/_partials/HEAD and BODY): the head hook with
// evdoc's stylesheets and script (HeadCall), the body hook with evdoc
// serve's findings banner (BodyCall).
type Theme struct {
	// Name is the theme's name as its documentation spells it.
	Name string
	// Repo is where the theme lives (owner/name on GitHub); its last
	// element is the usual name of its directory under themes/.
	Repo string
	// Detect are files relative to the theme's directory, any one of
	// which tells the theme apart from the others in this table.
	Detect []string
	// Head and Body are the hook partials, relative to layouts/ (Body
	// "" for a theme with none: Ananke): under
	// _partials/, or under the older partials/ for a theme that tests
	// for its hook with templates.Exists "partials/NAME", which finds
	// only a file there.
	Head, Body string
	// Note is what a site with this theme should know besides the hooks
	// ("" for nothing).
	Note string
	// Site: the component does not fill the hooks, the site creates
	// them (init names the files): the theme ships a hook with content
	// of its own (Relearn's custom-header.html links the site's
	// css/custom.css), or its hook's name is too general to take for
	// every site of every theme (Stack's head/custom.html).
	Site bool
	// Config, when set, is what the site's configuration adds instead of
	// hook files (FixIt calls the partials params.custom_partials names).
	Config string
	// Unbuildable, when set, is why no Hugo in evdoc's supported range
	// builds a site with the theme at all, with or without evdoc (init
	// says so; the recipe tables mark the theme).
	Unbuildable string
	// Untitled: the theme's page layouts show a page's .Content without
	// its title (hugo-book: a page's heading is its content's), so the
	// evidence pages evdoc build writes show their title themselves.
	Untitled bool
}

// HeadCall and BodyCall are what a head and a body hook hold to bring
// evdoc into a page.
const (
	HeadCall = `{{ partial "evdoc/head.html" . }}`
	BodyCall = `{{ partial "evdoc/serve-banner.html" page }}`
)

// Known returns the themes whose hooks the component fills, in the order
// Detect tries them.
func Known() []Theme {
	both := func(f string) []string { return []string{"layouts/_partials/" + f, "layouts/partials/" + f} }
	return []Theme{
		{Name: "hugo-book", Repo: "alex-shpak/hugo-book", Detect: both("docs/inject/head.html"),
			Head: "_partials/docs/inject/head.html", Body: "_partials/docs/inject/body.html", Untitled: true,
			Note: "its search index (BookSearch) is built from each page's .Plain, which holds each claim's own text (the popover is filled in by evdoc.js); its footer's \"Edit this page\" link (BookEditLink) is built from each page's file: the component's copy of docs/links/edit.html makes it name, on the evidence pages and translation fallbacks evdoc build writes, the repository file the page shows"},
		{Name: "PaperMod", Repo: "adityatelange/hugo-PaperMod", Detect: both("extend_head.html"),
			Head: "_partials/extend_head.html", Body: "_partials/extend_footer.html",
			Note: "its \"Edit\" link (params.editPost with appendFilePath) is built from each page's file: evdoc build gives the evidence pages and translation fallbacks it writes an editPost naming the repository file the page shows"},
		{Name: "Hextra", Repo: "imfing/hextra", Detect: both("custom/head-end.html"),
			Head: "_partials/custom/head-end.html", Body: "_partials/custom/footer.html",
			Note: "it draws its docs sidebar on pages of type docs only: evdoc build gives the evidence pages type \"docs\" (the theme has a docs layout) unless the site's configuration has a cascade of its own, which then chooses; its edit link (params.editURL) names, on the pages evdoc build writes, the repository file the page shows (their editURL)"},
		{Name: "Docsy", Repo: "google/docsy", Detect: both("hooks/head-end.html"),
			Head: "_partials/hooks/head-end.html", Body: "_partials/hooks/body-end.html",
			Note: "it compiles SCSS with Dart Sass (the program sass on PATH) and mounts Bootstrap and Font Awesome from its node_modules (npm install in its directory)"},
		{Name: "Blowfish", Repo: "nunocoracao/blowfish", Detect: both("article-link/card-related.html"),
			Head: "partials/extend-head.html", Body: "partials/extend-footer.html",
			Note: "it renders extend-footer.html once per site (partialCached): evdoc serve's banner lists the findings of the page built first as this page's"},
		{Name: "Congo", Repo: "jpanther/congo", Detect: both("header/hamburger/hamburger-content.html"),
			Head: "partials/extend-head.html", Body: "partials/extend-footer.html",
			Note:        "it renders extend-head.html once per site (partialCached), which evdoc's head needs no page for",
			Unbuildable: "its templates (last commit 7fe9db85, 2024-10-07) call Hugo's internal figure shortcode by a name Hugo's templates no longer have: plain hugo v0.165.0 fails on it without evdoc (no such template \"_internal/shortcodes/figure.html\"), so no Hugo evdoc supports builds a Congo site"},
		{Name: "Ananke", Repo: "theNewDynamic/gohugo-theme-ananke", Detect: both("menu-contextual.html"),
			Head: "_partials/head-additions.html",
			Note: "it has no hook at the end of <body>: for evdoc serve's findings banner, copy its baseof.html into your layouts/ and add the call before </body>; a theme without Korean strings: check notes its gaps once per language (translation-theme-strings)"},
		{Name: "Relearn", Repo: "McShelby/hugo-theme-relearn", Detect: both("_relearn/decoratedLink.gotmpl"), Site: true,
			Head: "partials/custom-header.html", Body: "partials/custom-footer.html",
			Note: "its own custom-header.html links the site's css/custom.css and js/custom.js when they exist: a site with them links them in its copy too; its asset-busting query (?UNIXTIME) differs on every build: set params.disableAssetsBusting = true for evdoc doctor to compare its pages"},
		{Name: "Stack", Repo: "CaiJimmy/hugo-theme-stack", Detect: both("article-list/tile.html"), Site: true,
			Head: "_partials/head/custom.html", Body: "_partials/footer/custom.html",
			Note: "it compiles SCSS with libsass: Hugo's extended edition; its section layout shows a list, not .Content: evdoc build gives the evidence index and set pages its single-page layout"},
		{Name: "FixIt", Repo: "hugo-fixit/FixIt", Detect: both("function/camel-case-keys.html"), Site: true,
			Config: "[params.custom_partials] head = [\"evdoc/head.html\"], footer = [\"evdoc/serve-banner.html\"]",
			Note:   "it calls the partials its params.custom_partials names; it compiles SCSS with Dart Sass (the program sass on PATH); its header links /archives/, which its outputs setting publishes (home = [\"html\", \"rss\", \"archives\", …]); its section layout shows a list, not .Content: evdoc build gives the evidence index and set pages its single-page layout"},
	}
}

// Dir returns the directory, relative to the project at root and
// slash-separated, that Hugo reads a theme of the theme list from (a
// theme setting's entry or a Hugo Modules import path): _vendor/THEME
// when the project has vendored its modules (hugo mod vendor) and that
// directory exists, else themes/THEME. A module import Hugo fetches into
// its module cache is in neither.
func Dir(root, theme string) string {
	v := path.Join("_vendor", theme)
	if fi, err := os.Stat(filepath.Join(root, filepath.FromSlash(v))); err == nil && fi.IsDir() {
		return v
	}
	return path.Join("themes", theme)
}

// Found is a theme of a project's theme list that Detect recognised.
type Found struct {
	Theme
	// Dir is the theme's directory name in the theme list (themes/DIR).
	Dir string
}

// Detect returns the themes of the theme list themes (as the project at
// root lists them, evdoc's component aside) that Known holds: by one of
// the theme's Detect files in its directory (Dir), or, when the directory
// has none of them, by a DIR that is the theme's name, its repository's
// or its Hugo Modules path (github.com/OWNER/NAME; case aside). Unknown
// themes are left out.
func Detect(root string, themes []string) []Found {
	var out []Found
	for _, dir := range themes {
		if dir == Component {
			continue
		}
		if t, ok := detect(root, dir); ok {
			out = append(out, Found{t, dir})
		}
	}
	return out
}

func detect(root, dir string) (Theme, bool) {
	for _, t := range Known() {
		for _, f := range t.Detect {
			if fi, err := os.Stat(filepath.Join(root, filepath.FromSlash(Dir(root, dir)), filepath.FromSlash(f))); err == nil && fi.Mode().IsRegular() {
				return t, true
			}
		}
	}
	for _, t := range Known() {
		if strings.EqualFold(dir, t.Name) || strings.EqualFold(dir, path.Base(t.Repo)) || strings.EqualFold(dir, "github.com/"+t.Repo) {
			return t, true
		}
	}
	return Theme{}, false
}

// Shadows returns the files of the project at root that Hugo takes for
// the template layout (a path under layouts/: "_partials/extend_head.html",
// "_markup/render-link.html") before the component's copy: the project's
// own and those of every theme listed before the component (themes is the
// theme list), under the layouts directory's current names and the ones
// Hugo still reads (partials/ and _partials/ for each other,
// _default/_markup/). An empty result means
// the component's template is the one Hugo uses, if the list has the
// component at all.
func Shadows(root string, themes []string, layout string) []string {
	dirs := []string{""}
	for _, t := range themes {
		if t == Component {
			break
		}
		dirs = append(dirs, Dir(root, t))
	}
	names := []string{layout}
	if rest, ok := strings.CutPrefix(layout, "_partials/"); ok {
		names = append(names, "partials/"+rest)
	}
	if rest, ok := strings.CutPrefix(layout, "partials/"); ok {
		names = append(names, "_partials/"+rest)
	}
	if rest, ok := strings.CutPrefix(layout, "_shortcodes/"); ok {
		names = append(names, "shortcodes/"+rest)
	}
	if rest, ok := strings.CutPrefix(layout, "_markup/"); ok {
		names = append(names, "_default/_markup/"+rest)
	}
	var out []string
	for _, d := range dirs {
		for _, n := range names {
			rel := path.Join(d, "layouts", n)
			if fi, err := os.Stat(filepath.Join(root, filepath.FromSlash(rel))); err == nil && fi.Mode().IsRegular() {
				out = append(out, rel)
			}
		}
	}
	return out
}

// RecipeTable returns Known as the Markdown table of
// docs/guide/adopting.md: per theme, the hook files evdoc's component
// fills and what a site whose own copy of a hook replaces evdoc's adds to
// it.
func RecipeTable() string {
	return recipeTable(true)
}

// ShortRecipeTable is RecipeTable without the notes and links, for
// docs/guide/themes.md, which README.md links.
func ShortRecipeTable() string {
	return recipeTable(false)
}

func recipeTable(long bool) string {
	var b strings.Builder
	cell := func(t Theme, hook string) string {
		switch {
		case t.Config != "":
			return "configuration"
		case hook == "":
			return "none"
		case t.Site:
			return "your `layouts/" + hook + "`"
		}
		return "`layouts/" + hook + "`"
	}
	if !long {
		b.WriteString("| theme | head hook (stylesheets, script) | body hook (`evdoc serve` banner) |\n|---|---|---|\n")
		for _, t := range Known() {
			if t.Unbuildable != "" {
				fmt.Fprintf(&b, "| %s | not built: %s | |\n", t.Name, t.Unbuildable)
				continue
			}
			fmt.Fprintf(&b, "| %s | %s | %s |\n", t.Name, cell(t, t.Head), cell(t, t.Body))
		}
		return b.String()
	}
	b.WriteString("| theme | head hook (stylesheets, script) | body hook (`evdoc serve` banner) | note |\n|---|---|---|---|\n")
	for _, t := range Known() {
		note := t.Note
		if t.Config != "" {
			note = "add to the configuration: `" + t.Config + "`; " + note
		}
		if t.Unbuildable != "" {
			note = "**not built**: " + t.Unbuildable + "; " + note
		}
		fmt.Fprintf(&b, "| [%s](https://github.com/%s) | %s | %s | %s |\n", t.Name, t.Repo, cell(t, t.Head), cell(t, t.Body), note)
	}
	return b.String()
}
