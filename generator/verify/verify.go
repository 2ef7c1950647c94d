package verify

import (
	"context"
	"fmt"
	"io"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/generator/hosttheme"
	"github.com/evdoc-lab/evdoc/generator/hugoconf"
	"github.com/evdoc-lab/evdoc/generator/project"
	"github.com/evdoc-lab/evdoc/generator/stagedata"
	"github.com/evdoc-lab/evdoc/generator/staging"
	"github.com/evdoc-lab/evdoc/generator/translation"
	"github.com/evdoc-lab/evdoc/generator/verify/outscan"
)

// themeOrderAdvice says what keeps the component's template layout (a
// path under layouts/) from being the one Hugo uses, when something does:
// the theme list lacks the component, or a file of the project or of a
// theme listed before it replaces the template. what names the templates
// for the message. It returns "" when the component's template is the one
// Hugo uses.
func themeOrderAdvice(s *project.Site, layout, what string) string {
	themes := s.Config.Themes
	if !slices.Contains(themes, hosttheme.Component) {
		return fmt.Sprintf(`the theme list (theme in %s) does not name evdoc's component: add "evdoc" before your theme (theme = ["evdoc", "mytheme"])`, strings.Join(s.Config.Files, ", "))
	}
	if sh := hosttheme.Shadows(s.Root, themes, layout); len(sh) > 0 {
		return fmt.Sprintf(`%s replace(s) evdoc's %s (Hugo takes the project's layouts and earlier themes first): remove it, or list "evdoc" before that theme`, strings.Join(sh, ", "), what)
	}
	return ""
}

// hookAdvice names why claims are missing from the built site: the
// component's claim render hook not in use (themeOrderAdvice), or, when
// it is, what else keeps a page's claims out of the output. zgotmpl: some
// page has a link Hugo's escaper rejected; some: some page shows part of
// its claims.
func hookAdvice(s *project.Site, zgotmpl, some bool) string {
	if a := themeOrderAdvice(s, "_markup/render-link.html", "claim render hook (layouts/_markup/render-link.html)"); a != "" {
		return "claim links were not rendered by evdoc's render hook: " + a
	}
	if zgotmpl {
		return "evdoc's claim render hook is the one Hugo uses (theme list and layouts checked); a link Hugo's escaper rejected (#ZgotmplZ) comes from a template of the site or its theme that writes an ev: link itself"
	}
	if some {
		return "evdoc's claim render hook is the one Hugo uses (theme list and layouts checked), so the claims missing from the pages above were left out of them: a shortcode that does not show its inner content (.Inner), a layout that shows .Summary or part of the page instead of .Content, or a page Hugo did not publish (its content directory, a section the theme leaves out)"
	}
	return "evdoc's claim render hook is the one Hugo uses (theme list and layouts checked), so the pages above were published without their claims: Hugo did not publish the page (its content directory, a section the theme leaves out), or its layout shows .Summary or text of its own instead of .Content"
}

// headAdvice names why pages show claims without evdoc's stylesheet:
// the head hook of a theme the component fills replaced by a file of the
// project, evdoc's stylesheet replaced, or a theme without a hook evdoc
// knows.
func headAdvice(s *project.Site) string {
	themes := s.Config.Themes
	if sh := staticShadows(s, "evdoc/css/site.css"); len(sh) > 0 {
		return fmt.Sprintf("%s replace(s) evdoc's stylesheet evdoc/css/site.css: rename it, or list \"evdoc\" before that theme", strings.Join(sh, ", "))
	}
	for _, f := range hosttheme.Detect(s.Root, themes) {
		if sh := hosttheme.Shadows(s.Root, themes, f.Head); len(sh) > 0 {
			return fmt.Sprintf("%s replace(s) the head hook of %s that evdoc's component fills: add %s to it", strings.Join(sh, ", "), f.Name, hosttheme.HeadCall)
		}
		if a := themeOrderAdvice(s, f.Head, "head hook"); a != "" {
			return fmt.Sprintf("%s calls layouts/%s, which evdoc's component fills with its stylesheets, but %s", f.Name, f.Head, a)
		}
	}
	for _, t := range themes {
		if t == hosttheme.Component {
			continue
		}
		if h, _, ok, _ := hosttheme.ScanHooks(s.Root, t); ok {
			return fmt.Sprintf("the theme links no stylesheet of evdoc's; %s calls %s, which it leaves to the site: create layouts/%s containing %s", h.CalledFrom, h.Layout, h.Layout, hosttheme.HeadCall)
		}
	}
	return fmt.Sprintf("the theme links no stylesheet of evdoc's: add %s before </head> in its head template, or to a head hook it calls (docs/guide/adopting.md lists the themes whose hooks evdoc fills)", hosttheme.HeadCall)
}

// staticShadows returns the project's files that Hugo publishes at rel
// (a path under static/) instead of the component's: the project's
// static/REL and those of every theme listed before the component.
func staticShadows(s *project.Site, rel string) []string {
	dirs := []string{""}
	for _, t := range s.Config.Themes {
		if t == hosttheme.Component {
			break
		}
		dirs = append(dirs, hosttheme.Dir(s.Root, t))
	}
	var out []string
	for _, d := range dirs {
		p := path.Join(d, "static", rel)
		if fi, err := os.Stat(filepath.Join(s.Root, filepath.FromSlash(p))); err == nil && fi.Mode().IsRegular() {
			out = append(out, p)
		}
	}
	return out
}

// maxVerifyErrors caps the problems VerifyOutput lists.
const maxVerifyErrors = 20

// renderedByHugo reports whether Hugo publishes page p as its own output
// page: not a draft and not set never to render (build.render).
func renderedByHugo(fm map[string]any) bool {
	if d, ok := fm["draft"].(bool); ok && d {
		return false
	}
	if h, ok := fm["headless"].(bool); ok && h {
		return false
	}
	for _, k := range []string{"build", "_build"} {
		if b, ok := fm[k].(map[string]any); ok {
			switch r := b["render"].(type) {
			case bool:
				if !r {
					return false
				}
			case string:
				if r != "always" {
					return false
				}
			}
		}
	}
	return true
}

// OutputSite returns where the site Hugo builds for s is served, for
// the links of its output (outscan.Site): its one tree at baseURL, or,
// under multihost (a language with a baseURL of its own) with more than
// one language, each language's tree public/LANG/ at its baseURL (the
// site's for a language that sets none), as Hugo writes them. A single
// language with a baseURL of its own is served at that baseURL.
func OutputSite(s *project.Site) (*outscan.Site, error) {
	return outscan.NewSite(outputRoots(s))
}

// HomeFiles returns the home pages Hugo writes for s, as paths in the
// output: index.html, or LANG/index.html of each language under
// multihost with more than one language (see OutputSite), where Hugo
// writes no index.html at the root.
func HomeFiles(s *project.Site) []string {
	var out []string
	for _, r := range outputRoots(s) {
		out = append(out, r.Dir+"index.html")
	}
	return out
}

// outputRoots returns the trees of OutputSite.
func outputRoots(s *project.Site) []outscan.Root {
	c := s.Config
	pu := c.PublishURLs
	if !pu.Multihost {
		return []outscan.Root{{URL: c.BaseURL}}
	}
	langs := c.Ordered()
	if len(langs) == 1 {
		b := pu.BaseURLs[strings.ToLower(langs[0].Code)]
		if b == "" {
			b = c.BaseURL
		}
		return []outscan.Root{{URL: b}}
	}
	roots := make([]outscan.Root, 0, len(langs))
	for _, l := range langs {
		code := strings.ToLower(l.Code)
		b := pu.BaseURLs[code]
		if b == "" {
			b = c.BaseURL
		}
		roots = append(roots, outscan.Root{Dir: code + "/", URL: b})
	}
	return roots
}

// relativeBasePath returns the path of a baseURL of the site (the
// site's, or a language's) that has one ("/lab/") when relativeURLs is
// true, "" otherwise.
func relativeBasePath(s *project.Site) string {
	if !s.Config.PublishURLs.Relative {
		return ""
	}
	urls := []string{s.Config.BaseURL}
	for _, l := range s.Config.Ordered() {
		if b := s.Config.PublishURLs.BaseURLs[strings.ToLower(l.Code)]; b != "" {
			urls = append(urls, b)
		}
	}
	for _, u := range urls {
		if p := (&hugoconf.Config{BaseURL: u}).BasePath(); p != "/" {
			return p
		}
	}
	return ""
}

// VerifyOutput checks the site Hugo built into dir before it replaces
// the published one: every claim of every published page was rendered by
// evdoc's claim render hook (its data-ev-at and data-ev attributes),
// every evidence viewer window by evdoc's evidence shortcode (its
// data-ev-window marker and one line span per raw line), no file
// holds Hugo's sanitised-URL marker #ZgotmplZ, every page showing claims
// links evdoc's stylesheet, and every URL inside the site that a
// reader's browser follows or fetches (urlAttrs; not the icons and
// manifest a theme links for the site to add, which a browser does
// without) names a file the built site has. A URL is resolved from its
// file's URL on the baseURL Hugo built it for (OutputSite: a language's
// own under multihost), as a browser resolves it: a path from the root
// or from the file (relativeURLs), or a full URL on that baseURL
// (canonifyURLs) is inside the site; another host, or a path outside
// baseURL's path, leaves it. A theme has no legitimate reason to link to
// a 404. Without it a site whose
// own theme shadows evdoc's templates builds with every claim an empty
// link and every evidence page empty. The error lists the problems (at
// most maxVerifyErrors) with the page and what is missing; out names the
// published directory the message says was left as it was.
//
// A claim's popover body is in the popover file of its evidence set
// that its page names (<meta name="evdoc-popovers">); a file showing a
// claim without its body there (no meta, no such file, no such key) is
// rule link-output-popover, handled by severity as the broken links are.
//
// The broken links are rule link-output-missing: an error unless
// evdoc.toml sets it lower; as a warning or note (and not under strict,
// where a warning fails the build) each is written to log as
// "evdoc: warning: OUT/FILE:LINE:COL: … [link-output-missing]" and the build goes
// on; off drops them.
func VerifyOutput(ctx context.Context, s *project.Site, dir, out string, staged *staging.Staged, data *stagedata.StageData, log io.Writer, strict bool) error {
	return VerifyOutputAfter(ctx, s, dir, out, staged, data, log, strict, nil)
}

// VerifyOutputAfter is VerifyOutput on a site whose files early began
// reading while Hugo wrote them (outscan.StartEarly; nil: none): it
// stops early and reads what early has not, or what changed since.
func VerifyOutputAfter(ctx context.Context, s *project.Site, dir, out string, staged *staging.Staged, data *stagedata.StageData, log io.Writer, strict bool, early *outscan.Early) error {
	return VerifyOutputFill(ctx, s, dir, out, staged, data, log, strict, early, nil)
}

// VerifyOutputFill is VerifyOutputAfter on a site whose files fill
// (nil: none) rewrites first (outscan.DirFill): the claim slots' fill,
// so that the site checked is the one the reader gets.
func VerifyOutputFill(ctx context.Context, s *project.Site, dir, out string, staged *staging.Staged, data *stagedata.StageData, log io.Writer, strict bool, early *outscan.Early, fill outscan.Filler) error {
	v := staged.Viewer
	site, err := OutputSite(s)
	if err != nil {
		return fmt.Errorf("verifying the built site: %v", err)
	}
	sc, err := outscan.DirFill(ctx, dir, site, early, fill)
	if err != nil {
		return fmt.Errorf("verifying the built site: %v", err)
	}
	broken := sc.Broken
	switch sev := s.Rules.Severity(diag.LinkOutputMissing); {
	case sev == diag.Off:
		broken = nil
	case sev == diag.Error, strict && sev == diag.Warning:
	default:
		if log != nil {
			for _, b := range broken {
				fmt.Fprintf(log, "evdoc: %s: %s/%s [%s]\n", sev, filepath.ToSlash(out), b, diag.LinkOutputMissing)
			}
		}
		broken = nil
	}
	unresolved := sc.Unresolved
	switch sev := s.Rules.Severity(diag.LinkOutputPopover); {
	case sev == diag.Off:
		unresolved = nil
	case sev == diag.Error, strict && sev == diag.Warning:
	default:
		if log != nil {
			for _, u := range unresolved {
				fmt.Fprintf(log, "evdoc: %s: %s/%s [%s]\n", sev, filepath.ToSlash(out), u, diag.LinkOutputPopover)
			}
		}
		unresolved = nil
	}
	problems := append(append([]string{}, sc.Problems...), broken...)
	for _, u := range unresolved {
		problems = append(problems, filepath.ToSlash(out)+"/"+u)
	}
	byPath := map[string]*project.Page{}
	for _, p := range s.Pages {
		byPath[p.Path] = p
	}
	want := map[outscan.PageKey]int{}
	now, cascades := time.Now(), s.Cascades()
	for _, u := range data.Units {
		for _, pc := range u.Want {
			p := byPath[pc.Page]
			if p == nil {
				continue
			}
			// a page Hugo does not publish (a draft, a future or
			// expired page, one a section's cascade hides) shows no
			// claims
			if fm := hugoconf.Cascaded(p, cascades); !renderedByHugo(fm) || !hugoconf.Linkable(s.Config, fm, now) {
				continue
			}
			want[outscan.PageKey{Lang: p.Lang, Rel: p.Rel}] += pc.N
		}
	}
	keys := make([]outscan.PageKey, 0, len(want))
	for k := range want {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].Rel != keys[j].Rel {
			return keys[i].Rel < keys[j].Rel
		}
		return keys[i].Lang < keys[j].Lang
	})
	var hookMissing, someMissing bool
	var elsewhere map[string][]outscan.PageKey // claim key → the pages it was rendered for
	named := 0                                 // pages whose missing claims are named
	byKey := map[outscan.PageKey]*project.Page{}
	for _, p := range s.Pages {
		byKey[outscan.PageKey{Lang: p.Lang, Rel: p.Rel}] = p
	}
	for _, k := range keys {
		got := len(sc.Claims[k])
		switch {
		case got == 0:
			hookMissing = true
			problems = append(problems, fmt.Sprintf("%s (%s): none of its %d claims is in the built site as evdoc's claim render hook renders it", k.Rel, k.Lang, want[k]))
		case got < want[k]:
			hookMissing, someMissing = true, true
			problems = append(problems, fmt.Sprintf("%s (%s): %d of its %d claims were not rendered by evdoc's claim render hook", k.Rel, k.Lang, want[k]-got, want[k]))
		default:
			continue
		}
		// Name each missing claim where it is written, and why when
		// evdoc can tell (a shortcode's template).
		if named < maxVerifyErrors && byKey[k] != nil && (got > 0 || themeOrderAdvice(s, "_markup/render-link.html", "") == "") {
			named++
			if elsewhere == nil {
				elsewhere = map[string][]outscan.PageKey{}
				for pk, cs := range sc.Claims {
					for c := range cs {
						elsewhere[c] = append(elsewhere[c], pk)
					}
				}
			}
			other := map[string][]outscan.PageKey{}
			for c := range elsewhere {
				for _, pk := range elsewhere[c] {
					if pk != k && pk.Lang == k.Lang {
						other[c] = append(other[c], pk)
					}
				}
			}
			for _, m := range missingClaims(s, byKey[k], sc.Claims[k], other) {
				problems[len(problems)-1] += "\n    " + m
			}
		}
	}
	for _, f := range sc.Unstyled {
		problems = append(problems, fmt.Sprintf("%s/%s: shows claims without evdoc's stylesheet (no stylesheet it links has the %s rule), so each popover evdoc.js fills prints inline in the prose", filepath.ToSlash(out), f, outscan.CSSMark))
	}
	stageLinks := stageFileLinks(s, sc.MDLinks, staged.Generated)
	for _, l := range stageLinks {
		problems = append(problems, filepath.ToSlash(out)+"/"+l)
	}
	var windowMissing bool
	for _, f := range v.Order {
		vf := v.Files[f]
		for w := range vf.Starts {
			if !vf.HasPage(w) {
				continue
			}
			first, last := vf.Starts[w], vf.Total
			if w+1 < len(vf.Starts) {
				last = vf.Starts[w+1] - 1
			}
			for _, l := range s.Config.Ordered() {
				got, ok := sc.Windows[outscan.WindowKey{Lang: l.Code, Part: w + 1, File: vf.File}]
				switch {
				case !ok:
					windowMissing = true
					problems = append(problems, fmt.Sprintf("evidence page %s (%s), lines %d–%d: not rendered by evdoc's evidence template", vf.PagePath(w), l.Code, first, last))
				case got < last-first+1:
					windowMissing = true
					problems = append(problems, fmt.Sprintf("evidence page %s (%s): shows %d of its raw lines %d–%d", vf.PagePath(w), l.Code, got, first, last))
				}
			}
		}
	}
	// The evidence index and each set's page show evdoc's content (its
	// sets; a set's origin, date, environment and files): a theme whose
	// list layout shows summaries or child pages instead of .Content
	// would publish them empty of it.
	if len(v.Order) > 0 || len(s.Store.Sets) > 0 {
		for _, l := range s.Config.Ordered() {
			if !sc.Lists[l.Code+":index"] {
				windowMissing = true
				problems = append(problems, fmt.Sprintf("evidence index /%s/ (%s): not rendered by evdoc's evidence template (the theme's section layout does not show the page's .Content)", project.EvidenceDir, l.Code))
			}
			for _, set := range s.Store.Sets {
				if !sc.Lists[l.Code+":set:"+set.Manifest.ID] {
					windowMissing = true
					problems = append(problems, fmt.Sprintf("evidence set page /%s/%s/ (%s): not rendered by evdoc's evidence template, so it shows none of the set's origin, date, environment and files (the theme's section layout does not show the page's .Content)", project.EvidenceDir, set.Manifest.ID, l.Code))
				}
			}
		}
	}
	if len(problems) == 0 {
		return nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "the built site is not what evdoc expects (%d problem(s)):", len(problems))
	for i, p := range problems {
		if i == maxVerifyErrors {
			fmt.Fprintf(&b, "\n  … and %d more", len(problems)-i)
			break
		}
		b.WriteString("\n  " + p)
	}
	if hookMissing || len(sc.Problems) > 0 {
		b.WriteString("\n" + hookAdvice(s, len(sc.Problems) > 0, someMissing))
	}
	// relativeURLs with a baseURL path: the links Hugo wrote are broken,
	// evdoc's stylesheet's with them
	relPath := ""
	if len(sc.Broken) > 0 {
		relPath = relativeBasePath(s)
	}
	if len(sc.Unstyled) > 0 && relPath == "" {
		b.WriteString("\n" + headAdvice(s))
	}
	if len(broken) > 0 {
		b.WriteString("\nlinks inside the site must name a file it publishes: fix the link (a relative link resolves from the page's URL, /ja/… for a Japanese page), or add the file under static/; a link to another host, or to a path outside baseURL's path, leaves the site and is not checked [" + string(diag.LinkOutputMissing) + `; evdoc.toml [rules] link-output-missing = "warning" lists them and builds]`)
	}
	if p := relPath; p != "" && (len(broken) > 0 || len(sc.Unstyled) > 0) {
		in := strings.TrimPrefix(p, "/")
		fmt.Fprintf(&b, "\nrelativeURLs = true with a baseURL that has a path (%s) makes Hugo write links that name no file: it makes each URL from the root, which holds that path, relative to the file it is in (%sx becomes ../../%sx in docs/p/index.html), and a browser resolves that to %s%sx; set baseURL without a path, or relativeURLs = false", p, p, in, p, in)
	}
	if len(unresolved) > 0 {
		b.WriteString("\na claim's popover body is in its evidence set's popover file (the set page's evdocpop output), which evdoc.js loads from the URL the page's <meta name=\"evdoc-popovers\"> gives: keep evdoc's head partial in every layout that shows claims ({{ partial \"evdoc/head.html\" . }} before </head>, or the theme's head hook) and the set pages' evdocpop output [" + string(diag.LinkOutputPopover) + `] (evdoc.toml [rules] link-output-popover = "warning" lists them and builds)`)
	}
	if len(stageLinks) > 0 {
		b.WriteString("\na page evdoc build generates (an evidence page, a translation fallback) has its file only in the staged project: its front matter's " + translation.SourceParam + " names the repository file the page shows (and editURL, Hextra's, and editPost, PaperMod's, link to it when the site sets them); make the theme's edit link use it (docs/guide/adopting.md)")
	}
	if windowMissing {
		advice := themeOrderAdvice(s, "_shortcodes/evdoc/evidence.html", "evidence shortcode (layouts/_shortcodes/evdoc/evidence.html)")
		if advice == "" {
			advice = "the shortcode is the one Hugo uses (theme list and layouts checked), so the layout Hugo chose for those pages does not show their .Content (a template of the site or its theme for the evidence section, a list layout that shows its pages' summaries instead, or type or layout set by a cascade): give the evidence section a layout of the theme that shows .Content (a cascade of type = \"docs\" to /evidence and /evidence/** where the theme has a docs layout), or add layouts/" + project.EvidenceDir + "/section.html and layouts/" + project.EvidenceDir + "/page.html showing .Content inside the theme's base template"
		}
		b.WriteString("\nevidence pages were not rendered by evdoc's evidence shortcode, whose output is each evidence page's content (layouts/_shortcodes/evdoc/evidence.html from the evdoc theme component): " + advice)
	}
	b.WriteString("\n" + out + " left as it was")
	return &OutputError{Problems: problems, msg: b.String()}
}

// stageFileLinks returns the links of the built site (links: the
// ".md" links of each output file, outscan.Scan.MDLinks) that name a
// page file only the staged project has (generated): a URL whose path
// ends in the page's path in the project, or in its path within its
// content directory when no page of the repository has that path within
// its own (a translation fallback shares it with its source page) and
// the repository has no file there. Such a link
// is a theme's "edit this page" link built from the page's file. Each is
// "FILE: …", in the order of the output files' names.
func stageFileLinks(s *project.Site, links map[string][]string, generated []staging.GeneratedPage) []string {
	if len(links) == 0 || len(generated) == 0 {
		return nil
	}
	byBase := map[string][]staging.GeneratedPage{}
	for _, g := range generated {
		byBase[path.Base(g.Project)] = append(byBase[path.Base(g.Project)], g)
	}
	files := make([]string, 0, len(links))
	for f := range links {
		files = append(files, f)
	}
	sort.Strings(files)
	var out []string
	for _, f := range files {
		for _, h := range links[f] {
			p := h
			if u, err := url.Parse(h); err == nil {
				p = u.Path
			}
			names := func(rel string) bool { return p == rel || strings.HasSuffix(p, "/"+rel) }
			var msg string
			for _, g := range byBase[path.Base(p)] {
				if names(g.Project) {
					msg = fmt.Sprintf("whose path ends in %s", g.Project)
					break
				}
			}
			for _, g := range byBase[path.Base(p)] {
				if msg == "" && names(g.Content) && !hasContentFile(s, g.Content) {
					msg = fmt.Sprintf("whose path ends in %s, the path of %s within its content directory", g.Content, g.Project)
				}
			}
			if msg != "" {
				out = append(out, fmt.Sprintf("%s: links to %s, %s, a page file that only evdoc's staged project has (a link built from the page's file names a file the repository does not have)", f, h, msg))
			}
		}
	}
	return out
}

// hasContentFile reports whether the project has a file at rel, or at
// rel within a language's content directory.
func hasContentFile(s *project.Site, rel string) bool {
	dirs := []string{""}
	for _, l := range s.Config.Languages {
		dirs = append(dirs, l.ContentDir)
	}
	for _, d := range dirs {
		if _, err := os.Lstat(filepath.Join(s.Root, filepath.FromSlash(d), filepath.FromSlash(rel))); err == nil {
			return true
		}
	}
	return false
}

// OutputError is Build's error when Hugo succeeded but the site it built
// is not what evdoc expects (VerifyOutput): claims not rendered by evdoc's
// claim render hook, evidence pages not rendered by its evidence
// template, #ZgotmplZ links, or links inside the site to files it does
// not have. The published site was left as it was.
type OutputError struct {
	// Problems lists what is wrong, one line each (page or output file
	// first).
	Problems []string
	msg      string
}

// Error returns the problems (at most maxVerifyErrors) and what the site
// needs.
func (e *OutputError) Error() string { return e.msg }
