package main

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"
	evdocfiles "github.com/evdoc-lab/evdoc"
	"github.com/evdoc-lab/evdoc/generator/hosttheme"
	"github.com/evdoc-lab/evdoc/generator/hugoconf"
	"github.com/evdoc-lab/evdoc/internal/atomicdir"
	"github.com/evdoc-lab/evdoc/internal/atomicfile"
	"github.com/evdoc-lab/evdoc/internal/safefile"
	"github.com/spf13/cobra"
)

const readmeSnippet = "## Numbers checked by evdoc\n\n" +
	"Every measured number on these pages is a claim link such as `[4건](ev:example/http.durationhistogram.count)`:\n" +
	"evdoc checks it against the raw file in `evidence/` and links it to the raw line.\n\n" +
	"```sh\n" +
	"go install ./cmd/evdoc   # in a clone of github.com/evdoc-lab/evdoc (the Go module proxy does not serve it yet)\n" +
	"evdoc check            # every quoted number against its evidence\n" +
	"evdoc build            # check, render figures, build the site into public/\n" +
	"# a manifest for a new raw file; say how it was obtained (raw lab output, or transcribed with --source)\n" +
	"evdoc new evidence NAME --from FILE --origin raw --environment \"Istio 1.30; kind; fortio 1.60\"\n" +
	"```\n\n" +
	"CI: `.github/workflows/evdoc.yml` (check --strict --format=github, SARIF to code scanning where available,\n" +
	"figures --check, build --strict, and on the default branch a GitHub Pages deploy).\n"

// initProject writes evdoc into the project at root.
//
// In a project evdoc has not been added to (no themes/evdoc), it writes the
// theme component and, where no such file exists yet, the example evidence
// set, a ko page and its ja translation, the GitHub Actions workflow (its
// evdoc checkout pinned to this evdoc's commit) and .gitignore; for a
// project without a Hugo configuration also a hugo.toml, the site layouts
// and a README. A `hugo new site` skeleton's hugo.toml is set aside and its
// title and baseURL carried into evdoc's.
//
// In a project that already has themes/evdoc it upgrades: it replaces the
// component and pins the workflow's evdoc checkout to this evdoc, and
// writes nothing else (pages and evidence the user removed stay removed).
//
// It never overwrites a file of the project outside themes/evdoc but the
// workflow's pin. log gets a few lines; verbose adds one per file and the
// README snippet.
func initProject(root string, log io.Writer, verbose bool) error {
	files := evdocfiles.Files()
	id := readBuildID()
	var wrote, kept []string
	write := func(rel string, data []byte) error {
		dst := filepath.Join(root, filepath.FromSlash(rel))
		if _, err := os.Lstat(dst); err == nil {
			kept = append(kept, rel)
			return nil
		}
		// Never through a directory link out of the project.
		if err := safefile.CheckWrite(root, dst); err != nil {
			return fmt.Errorf("writing %s: %w", rel, err)
		}
		if err := atomicfile.Write(dst, data, 0o644); err != nil {
			return err
		}
		wrote = append(wrote, rel)
		return nil
	}
	compDir := filepath.Join(root, filepath.FromSlash(evdocfiles.ComponentDir))
	if isDir(compDir) {
		return upgradeProject(root, id, log, verbose)
	}
	hasConfig := ""
	for _, n := range hugoconf.RootConfigFiles {
		if _, err := os.Stat(filepath.Join(root, n)); err == nil {
			hasConfig = n
			break
		}
	}
	if fi, err := os.Stat(filepath.Join(root, hugoconf.ConfigDir)); hasConfig == "" && err == nil && fi.IsDir() {
		hasConfig = hugoconf.ConfigDir + "/"
	}
	var carried map[string]string // a new site's title and baseURL
	if hasConfig == hugoconf.ConfigFile && newHugoSite(root) {
		// `hugo new site`'s skeleton: no theme, no languages, no
		// layouts or pages yet. It becomes a new evdoc project, its
		// configuration kept aside and its title and baseURL kept.
		old := hugoconf.ConfigFile + ".orig"
		if _, err := os.Lstat(filepath.Join(root, old)); err == nil {
			return fmt.Errorf("%s is a new site's configuration and %s exists; remove one and run init again", hugoconf.ConfigFile, old)
		}
		carried = newSiteSettings(root)
		if err := os.Rename(filepath.Join(root, hugoconf.ConfigFile), filepath.Join(root, old)); err != nil {
			return err
		}
		fmt.Fprintf(log, "  moved    %s to %s (a new site's); evdoc's %s keeps its title and baseURL\n", hugoconf.ConfigFile, old, hugoconf.ConfigFile)
		hasConfig = ""
	}
	compFiles, err := writeComponent(root, id)
	if err != nil {
		return fmt.Errorf("writing the theme component: %v", err)
	}
	fmt.Fprintf(log, "  wrote    %s: the theme component of evdoc %s\n", evdocfiles.ComponentDir, id)
	if verbose {
		for _, p := range compFiles {
			fmt.Fprintf(log, "             %s\n", p)
		}
	}
	scaffold := []string{}
	_ = fs.WalkDir(files, "scaffold", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			scaffold = append(scaffold, p)
		}
		return nil
	})
	var cfg *hugoconf.Config
	if hasConfig != "" {
		// unreadable: pages go where a new project has them; check
		// reports the config. Without ko and ja it is still read, for
		// reportTheme.
		cfg, _ = hugoconf.LoadConfig(root)
	}
	var notes []string
	for _, p := range scaffold {
		rel := contentPath(cfg, strings.TrimPrefix(p, "scaffold/"))
		if rel == "hugo.toml" && hasConfig != "" {
			continue
		}
		b, err := files.ReadFile(p)
		if err != nil {
			return err
		}
		if rel == "hugo.toml" {
			b = withSettings(b, carried)
		}
		if _, err := os.Lstat(filepath.Join(root, filepath.FromSlash(rel))); err != nil && rel == workflowFile {
			var note string
			b, note = workflowForBranch(root, b)
			notes = append(notes, note)
			b, note = pinnedWorkflow(b, id)
			notes = append(notes, note)
			if cfg != nil {
				// what the theme needs to build: Hugo extended, Dart
				// Sass, its npm packages
				var tn []string
				b, tn = workflowWithTools(b, hosttheme.Toolchain(root, cfg.Themes))
				notes = append(notes, tn...)
			}
		}
		if err := write(rel, b); err != nil {
			return err
		}
	}
	if hasConfig == "" {
		// The site layouts use the component's i18n strings.
		for _, p := range evdocfiles.SiteLayouts() {
			b, err := files.ReadFile(p)
			if err != nil {
				return err
			}
			if err := write(p, b); err != nil {
				return err
			}
		}
		if err := write("README.md", []byte("# lab notes\n\n"+readmeSnippet)); err != nil {
			return err
		}
	}
	if err := write(".gitignore", []byte("/public/\n/.evdoc/\n")); err != nil {
		return err
	}
	summary := fmt.Sprintf("  wrote    %d project files (example evidence and pages, the CI workflow", len(wrote))
	if hasConfig == "" {
		summary += ", hugo.toml, site layouts, README"
	}
	summary += ")"
	if len(kept) > 0 {
		summary += fmt.Sprintf("; kept %d that exist", len(kept))
	}
	fmt.Fprintln(log, summary)
	if verbose {
		for _, p := range wrote {
			fmt.Fprintf(log, "             %s\n", p)
		}
		for _, p := range kept {
			fmt.Fprintf(log, "             %s (kept: it exists)\n", p)
		}
	}
	for _, n := range notes {
		if n != "" {
			fmt.Fprintf(log, "  note     %s %s\n", workflowFile, n)
		}
	}
	if hasConfig != "" && cfg != nil {
		// evdoc's link hook runs the theme's own for every link that is
		// not a claim (plain hugo reads this copy; evdoc build writes it
		// again into its stage).
		if err := syncHostHook(root, cfg.Themes, "wrote   ", log); err != nil {
			return err
		}
	}
	if hasConfig != "" {
		if verbose {
			fmt.Fprintf(log, "\nREADME snippet (add it to your README):\n\n%s\n", readmeSnippet)
		}
		reportTheme(root, hasConfig, cfg, log)
	}
	fmt.Fprintln(log, "Next: evdoc check && evdoc build")
	return nil
}

// upgradeProject replaces the component of a project evdoc was added to
// before and pins its workflow's evdoc checkout to id; nothing else of
// the project is written.
func upgradeProject(root string, id buildID, log io.Writer, verbose bool) error {
	var prev hosttheme.Stamp
	_, _ = toml.DecodeFile(filepath.Join(root, filepath.FromSlash(evdocfiles.ComponentDir), hosttheme.ComponentStamp), &prev)
	from := prev.Evdoc
	if from == "" {
		from = "an evdoc older than the component stamp"
	} else {
		from = "evdoc " + from
	}
	compFiles, err := writeComponent(root, id)
	if err != nil {
		return fmt.Errorf("writing the theme component: %v", err)
	}
	fmt.Fprintf(log, "  updated  %s: the theme component of %s, now of evdoc %s\n", evdocfiles.ComponentDir, from, id)
	// (a configuration evdoc's check rejects still names its themes)
	if cfg, _ := hugoconf.LoadConfig(root); cfg != nil {
		if err := syncHostHook(root, cfg.Themes, "updated ", log); err != nil {
			return err
		}
	}
	if verbose {
		for _, p := range compFiles {
			fmt.Fprintf(log, "             %s\n", p)
		}
	}
	wf := filepath.Join(root, filepath.FromSlash(workflowFile))
	b, err := safefile.ReadPath(wf, 1<<20)
	switch {
	case err != nil:
		fmt.Fprintf(log, "  note     no %s to pin (init writes it only into a project it is added to)\n", workflowFile)
	case id.Ref() == "":
		fmt.Fprintf(log, "  note     %s not pinned: this evdoc records no commit (build it with go install ./cmd/evdoc in a git clone of evdoc)\n", workflowFile)
	default:
		pinned, ok := pinWorkflow(b, id.Ref())
		switch {
		case !ok:
			fmt.Fprintf(log, "  note     %s has no step checking out evdoc-lab/evdoc with a ref: line; install evdoc %s there yourself\n", workflowFile, id.Ref())
		case string(pinned) == string(b):
			fmt.Fprintf(log, "  kept     %s: it installs evdoc %s already\n", workflowFile, id.Ref())
		default:
			if err := safefile.CheckWrite(root, wf); err != nil {
				return fmt.Errorf("writing %s: %w", workflowFile, err)
			}
			if err := atomicfile.Write(wf, pinned, 0o644); err != nil {
				return err
			}
			fmt.Fprintf(log, "  updated  %s: installs evdoc %s\n", workflowFile, id.Ref())
		}
	}
	if id.Modified {
		fmt.Fprintf(log, "  note     this evdoc was built from a checkout with uncommitted changes: its component may differ from commit %s, which CI installs\n", id.Commit)
	}
	fmt.Fprintln(log, "Next: evdoc check && evdoc build")
	return nil
}

// pinnedWorkflow pins the scaffold workflow wf's evdoc checkout to id,
// with a note for the user when it cannot.
func pinnedWorkflow(wf []byte, id buildID) ([]byte, string) {
	ref := id.Ref()
	if ref == "" {
		return wf, "installs evdoc's main branch: this evdoc records no commit to pin (build it with go install ./cmd/evdoc in a git clone of evdoc), so a change to evdoc's component can fail CI until you run evdoc init again"
	}
	out, ok := pinWorkflow(wf, ref)
	if !ok {
		return wf, "has no evdoc checkout step to pin"
	}
	note := "installs evdoc " + ref + ", the evdoc that wrote themes/evdoc"
	if id.Modified {
		note += " (this evdoc was built with uncommitted changes: its component may differ from that commit's)"
	}
	return out, note
}

// newSiteSettings reads the title and baseURL of a `hugo new site`
// configuration at root (those it sets).
func newSiteSettings(root string) map[string]string {
	var m map[string]any
	if _, err := toml.DecodeFile(filepath.Join(root, hugoconf.ConfigFile), &m); err != nil {
		return nil
	}
	out := map[string]string{}
	for k, v := range m {
		switch lk := strings.ToLower(k); lk {
		case "baseurl", "title":
			if s, ok := v.(string); ok {
				out[lk] = s
			}
		}
	}
	return out
}

// withSettings returns the scaffold hugo.toml b with the baseURL and title
// lines set to settings' values (keys "baseurl", "title"), where given.
func withSettings(b []byte, settings map[string]string) []byte {
	s := string(b)
	for key, line := range map[string]string{"baseurl": "baseURL = ", "title": "title = "} {
		v, ok := settings[key]
		if !ok {
			continue
		}
		var buf strings.Builder
		if err := toml.NewEncoder(&buf).Encode(map[string]string{"v": v}); err != nil {
			continue
		}
		quoted := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(buf.String()), "v ="))
		lines := strings.Split(s, "\n")
		for i, l := range lines {
			if strings.HasPrefix(l, line) {
				lines[i] = line + quoted
				break
			}
		}
		s = strings.Join(lines, "\n")
	}
	return []byte(s)
}

// writeComponent replaces the theme component themes/evdoc of the project
// at root as a whole: it is written into a new directory beside it, which
// then takes its place in one step (atomicdir), so an init killed midway
// (`evdoc init | head` ends it by SIGPIPE) leaves the old component or
// the new one, never a mix. A themes/evdoc (or themes) that is a link
// out of the project is refused: init never writes outside the project.
func writeComponent(root string, id buildID) ([]string, error) {
	files := evdocfiles.Files()
	dst := filepath.Join(root, filepath.FromSlash(evdocfiles.ComponentDir))
	if err := safefile.CheckWrite(root, filepath.Join(dst, "theme.toml")); err != nil {
		return nil, err
	}
	if fi, err := os.Lstat(dst); err == nil && !fi.IsDir() {
		return nil, fmt.Errorf("%s is not a directory (a symbolic link or a file); expected evdoc's theme component — remove it", dst)
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return nil, err
	}
	ops := atomicdir.OS()
	if _, err := atomicdir.Recover(ops, dst); err != nil {
		return nil, err
	}
	entries, _ := os.ReadDir(filepath.Dir(dst))
	for _, e := range entries {
		if e.IsDir() && atomicdir.TempName(filepath.Base(dst), e.Name()) {
			_ = os.RemoveAll(filepath.Join(filepath.Dir(dst), e.Name()))
		}
	}
	tmp, err := atomicdir.NewTemp(dst)
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp) // gone after a successful swap
	var wrote []string
	err = fs.WalkDir(files, evdocfiles.ComponentDir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := files.ReadFile(p)
		if err != nil {
			return err
		}
		f := filepath.Join(tmp, filepath.FromSlash(strings.TrimPrefix(p, evdocfiles.ComponentDir+"/")))
		if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
			return err
		}
		wrote = append(wrote, p)
		return os.WriteFile(f, b, 0o644)
	})
	if err != nil {
		return nil, err
	}
	// The stamp that evdoc check and build compare the component with
	// (rule site-component): which evdoc wrote it, and its sum.
	comp, err := fs.Sub(files, evdocfiles.ComponentDir)
	if err != nil {
		return nil, err
	}
	digests, err := hosttheme.Digests(comp, ".")
	if err != nil {
		return nil, err
	}
	stamp := hosttheme.Stamp{Evdoc: id.String(), Commit: id.Commit, Sum: hosttheme.Sum(digests)}
	if err := os.WriteFile(filepath.Join(tmp, hosttheme.ComponentStamp), stamp.Format(), 0o644); err != nil {
		return nil, err
	}
	wrote = append(wrote, evdocfiles.ComponentDir+"/"+hosttheme.ComponentStamp)
	if err := atomicdir.Replace(ops, tmp, dst); err != nil {
		return nil, err
	}
	return wrote, nil
}

// newHugoSite reports whether the project at root is what `hugo new
// site` writes and nothing more: a hugo.toml setting at most baseURL,
// title and the language's code (languageCode, or locale since Hugo
// v0.158), and no layouts, pages or themes.
func newHugoSite(root string) bool {
	var m map[string]any
	if _, err := toml.DecodeFile(filepath.Join(root, hugoconf.ConfigFile), &m); err != nil {
		return false
	}
	for k := range m {
		switch strings.ToLower(k) {
		case "baseurl", "languagecode", "locale", "title":
		default:
			return false
		}
	}
	for _, d := range []string{"layouts", "content", "themes", "i18n"} {
		n := 0
		_ = filepath.WalkDir(filepath.Join(root, d), func(_ string, e fs.DirEntry, err error) error {
			if err == nil && !e.IsDir() {
				n++
			}
			return nil
		})
		if n > 0 {
			return false
		}
	}
	return true
}

// reportTheme tells a site with its own Hugo configuration (read from
// where, cfg; nil when unreadable) what evdoc's component needs of it and
// what init found: the theme list with the component first, ko and ja
// languages, and, per theme, whether the component fills its head and
// body hooks or what the site must add itself.
func reportTheme(root, where string, cfg *hugoconf.Config, log io.Writer) {
	if cfg == nil {
		fmt.Fprintf(log, "Your site keeps %s, which evdoc cannot read (evdoc check says why). In it, list evdoc's component first: theme = [\"evdoc\", \"<your theme>\"].\n", where)
		return
	}
	fmt.Fprintf(log, "Your site keeps %s and its theme.\n", where)
	themes := cfg.Themes
	switch {
	case len(themes) > 0 && themes[0] == hosttheme.Component:
		fmt.Fprintf(log, "  ok       theme list %q starts with evdoc's component\n", themes)
	case len(cfg.Imports) > 0:
		// Hugo puts module imports before the theme setting's entries:
		// the component must be the first import.
		fmt.Fprintf(log, "  ADD      to %s, as the first [[module.imports]] (before %q):\n             [[module.imports]]\n               path = %q\n           (Hugo Modules: imports come before the theme setting, so evdoc's component must be the first import for its render hooks and shortcodes to win)\n", where, themes[0], hosttheme.Component)
	default:
		want := []string{hosttheme.Component}
		for _, t := range themes {
			if t != hosttheme.Component {
				want = append(want, t)
			}
		}
		if len(themes) == 0 {
			want = append(want, "<your theme>")
		}
		q := make([]string, len(want))
		for i, t := range want {
			q[i] = strconv.Quote(t)
		}
		fmt.Fprintf(log, "  ADD      to %s: theme = [%s]   (evdoc's component first: its render hooks and shortcodes must win)\n", where, strings.Join(q, ", "))
	}
	found := hosttheme.Detect(root, themes)
	known := map[string]bool{}
	for _, f := range found {
		known[f.Dir] = true
		fmt.Fprintf(log, "  theme    %s is %s (%s)\n", f.Dir, f.Name, f.Repo)
		if f.Unbuildable != "" {
			fmt.Fprintf(log, "  WARN     %s: %s (evdoc supports Hugo %s)\n", f.Name, f.Unbuildable, hugoRange())
		}
		if f.Config != "" {
			fmt.Fprintf(log, "  ADD      to %s: %s   (%s calls the partials it names: evdoc's stylesheets and script, evdoc serve's findings banner)\n", where, f.Config, f.Name)
		}
		for _, h := range []struct{ what, hook, call string }{
			{"evdoc's stylesheets and script", f.Head, hosttheme.HeadCall},
			{"evdoc serve's findings banner", f.Body, hosttheme.BodyCall},
		} {
			if h.hook == "" || f.Config != "" {
				continue
			}
			sh := hosttheme.Shadows(root, append([]string{hosttheme.Component}, themes...), h.hook)
			if f.Site {
				if len(sh) > 0 && !slices.ContainsFunc(sh, func(p string) bool { return strings.HasPrefix(p, "themes/") || strings.HasPrefix(p, "_vendor/") }) {
					fmt.Fprintf(log, "  ADD      to %s: %s   (%s's hook, which brings in %s)\n", sh[0], h.call, f.Name, h.what)
				} else {
					fmt.Fprintf(log, "  ADD      create layouts/%s containing %s   (%s's hook, which brings in %s)\n", h.hook, h.call, f.Name, h.what)
				}
				continue
			}
			if len(sh) > 0 {
				fmt.Fprintf(log, "  ADD      to %s: %s   (your file replaces evdoc's copy of this hook, which brings in %s)\n", sh[0], h.call, h.what)
			} else {
				fmt.Fprintf(log, "  wired    %s's hook layouts/%s: themes/evdoc fills it with %s\n", f.Name, h.hook, h.what)
			}
		}
		if f.Note != "" {
			fmt.Fprintf(log, "  note     %s: %s\n", f.Name, f.Note)
		}
	}
	for _, imp := range cfg.Imports {
		if d := hosttheme.Dir(root, imp); imp != hosttheme.Component && !isDir(filepath.Join(root, filepath.FromSlash(d))) {
			fmt.Fprintf(log, "  note     module %s is in neither _vendor/ nor themes/: evdoc check reads a theme's i18n strings and hooks from there, and evdoc build runs Hugo on a copy of the project (go.mod, go.sum, _vendor/ included) that fetches it again; run `hugo mod vendor` to keep it in the project\n", imp)
		}
	}
	for _, t := range themes {
		if t == hosttheme.Component || known[t] {
			continue
		}
		fmt.Fprint(log, unknownThemeAdvice(root, t))
	}
	for _, t := range themes {
		if t != hosttheme.Component && hosttheme.DocsLayout(root, t) {
			fmt.Fprintf(log, "  note     theme %s has a docs layout (layouts/docs/): evdoc build gives the evidence pages type \"docs\", so they show its sidebar and title, unless your configuration has a cascade or your layouts/evidence/ chooses their layout\n", t)
		}
	}
	var missing []string
	for _, code := range []string{"ko", "ja"} {
		if _, ok := cfg.Languages[code]; !ok {
			missing = append(missing, code)
		}
	}
	if len(missing) > 0 {
		fmt.Fprintf(log, "  ADD      to %s: languages %s, for instance\n", where, strings.Join(missing, " and "))
		if _, ok := cfg.Languages[cfg.DefaultContentLanguage]; !ok || len(cfg.Languages) == 0 {
			fmt.Fprintf(log, "             defaultContentLanguage = \"ko\"\n")
		}
		for i, code := range missing {
			fmt.Fprintf(log, "             [languages.%s]\n               weight = %d\n               contentDir = \"content/%s\"\n", code, i+1, code)
		}
	}
}

// contentPath maps a scaffold path content/LANG/REST to where the
// project's Hugo configuration cfg keeps LANG's pages: under that
// language's contentDir, and, when languages share one content directory
// (Hugo then tells translations apart by file name), as x.LANG.md for
// every language but the default content language. Other paths, a nil cfg
// and a language cfg does not declare are returned unchanged.
func contentPath(cfg *hugoconf.Config, rel string) string {
	rest, ok := strings.CutPrefix(rel, "content/")
	if !ok || cfg == nil {
		return rel
	}
	code, rest, ok := strings.Cut(rest, "/")
	lang, declared := cfg.Languages[code]
	if !ok || !declared {
		return rel
	}
	shared := 0
	for _, l := range cfg.Languages {
		if path.Clean(l.ContentDir) == path.Clean(lang.ContentDir) {
			shared++
		}
	}
	if shared > 1 && code != cfg.DefaultContentLanguage {
		rest = strings.TrimSuffix(rest, ".md") + "." + code + ".md"
	}
	return path.Join(path.Clean(lang.ContentDir), rest)
}

func newInitCmd(root *string, stdout io.Writer) *cobra.Command {
	var verbose bool
	cmd := &cobra.Command{
		Use:   "init",
		Short: "Add evdoc to a new or existing Hugo site: theme component, example evidence, pages, CI workflow",
		Long: "In a project without evdoc, init writes evdoc's Hugo theme component into themes/evdoc (render\n" +
			"hook, shortcodes, evidence page templates, i18n strings, CSS) and, where the files do not exist\n" +
			"yet, an example evidence set (evidence/example: fortio's README result, marked as an example), a\n" +
			"ko page and its ja translation quoting it, .github/workflows/evdoc.yml (installing this evdoc's\n" +
			"commit) and .gitignore. In a directory without a Hugo configuration it also writes hugo.toml\n" +
			"(theme = [\"evdoc\"]), the site layouts (which use the component's i18n strings) and a README; a\n" +
			"`hugo new site` configuration is set aside as hugo.toml.orig, its title and baseURL kept.\n\n" +
			"In a project with themes/evdoc, init upgrades: it replaces the component with this evdoc's and pins\n" +
			"the workflow's evdoc checkout to this evdoc's commit, and writes nothing else (check and build\n" +
			"report a themes/evdoc that differs from the running evdoc's, rule site-component). It never\n" +
			"overwrites your files outside themes/evdoc but that pin.",
		Example: "  mkdir lab-notes && cd lab-notes && evdoc init && evdoc check && evdoc build\n" +
			"  evdoc init --root ~/my-hugo-site      # then: theme = [\"evdoc\", \"mytheme\"] in hugo.toml",
		Args: cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			if err := os.MkdirAll(*root, 0o755); err != nil {
				return &exitError{2, err}
			}
			fmt.Fprintf(stdout, "evdoc init in %s\n", *root)
			if err := initProject(*root, stdout, verbose); err != nil {
				return &exitError{2, err}
			}
			return nil
		},
	}
	cmd.Flags().BoolVarP(&verbose, "verbose", "v", false, "list every file written or kept, and print a README section about evdoc")
	addRootFlag(cmd, root)
	return cmd
}

// isDir reports whether p is a directory.
func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}

// syncHostHook writes the copy of the theme's link render hook that
// evdoc's link hook runs for every link that is not a claim
// (hosttheme.SyncHostHooks), never through a link out of the project.
func syncHostHook(root string, themes []string, verb string, log io.Writer) error {
	rel := "layouts/" + hosttheme.HostLinkHook
	if err := safefile.CheckWrite(root, filepath.Join(root, filepath.FromSlash(rel))); err != nil {
		return fmt.Errorf("writing %s: %w", rel, err)
	}
	f, changed, err := hosttheme.SyncHostHooks(root, root, themes)
	if err != nil {
		return fmt.Errorf("writing the theme's link render hook for evdoc's: %v", err)
	}
	if changed {
		fmt.Fprintf(log, "  %s %s: the theme's link render hook, which evdoc's runs for links that are not claims\n", verb, f)
	}
	return nil
}

// unknownThemeAdvice is init's request for a theme evdoc does not know
// (hosttheme.Known): the exact files to create when the theme calls
// head and body hook partials it ships empty or calls only when they
// exist (hosttheme.ScanHooks), else the theme's page template to copy.
func unknownThemeAdvice(root, theme string) string {
	head, body, headOK, bodyOK := hosttheme.ScanHooks(root, theme)
	if !headOK {
		return fmt.Sprintf("  ADD      theme %s is not one whose hooks evdoc knows and calls no empty head partial: put %s before </head> and %s before </body> in its page template (copy it into your layouts/ and edit the copy)\n", theme, hosttheme.HeadCall, hosttheme.BodyCall)
	}
	out := fmt.Sprintf("  ADD      theme %s is not one whose hooks evdoc knows; its pages call %s (from %s), which it leaves to the site:\n             create layouts/%s containing %s\n", theme, head.Layout, head.CalledFrom, head.Layout, hosttheme.HeadCall)
	if bodyOK {
		out += fmt.Sprintf("             create layouts/%s containing %s (evdoc serve's findings banner)\n", body.Layout, hosttheme.BodyCall)
	} else {
		out += fmt.Sprintf("             and, for evdoc serve's findings banner, put %s before </body> in its page template\n", hosttheme.BodyCall)
	}
	return out
}
