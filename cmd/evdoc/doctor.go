package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/evdoc-lab/evdoc/generator/guest"
	"github.com/evdoc-lab/evdoc/generator/hosttheme"
	"github.com/evdoc-lab/evdoc/generator/hugoconf"
	"github.com/evdoc-lab/evdoc/generator/project"
	"github.com/evdoc-lab/evdoc/generator/site"
	"github.com/spf13/cobra"
)

func newDoctorCmd(root *string, opts *globalOptions, stdout, stderr io.Writer) *cobra.Command {
	var hugoFlag, keep string
	var built bool
	var lf lockFlags
	cmd := &cobra.Command{
		Use:   "doctor",
		Short: "Show what evdoc's component changes in the site: build it with Hugo without and with it, and compare every page",
		Long: "doctor builds the site twice with Hugo into temporary directories, as plain hugo builds it:\n" +
			"without evdoc's component (the theme list without \"evdoc\", Hugo's --theme) and with it\n" +
			"(the project as it is); the build without it has empty evdoc/head.html and\n" +
			"evdoc/serve-banner.html partials, which the site's own layouts may call. Every file\n" +
			"both publish must be the same byte for byte, but for\n" +
			"  - evdoc's injections: the output of its head partial (evdoc/head.html: its stylesheets and\n" +
			"    script, under evdoc/) where a theme's head hook calls it;\n" +
			"  - claim elements: what evdoc's render hook writes for an ev: link (<span class=\"ev\">,\n" +
			"    ev-exempt, ev-claim-plain), where the site without evdoc has what its theme renders;\n" +
			"  - evdoc's own files, under evdoc/.\n" +
			"doctor lists each file that differs beyond those, with the first differing bytes of both\n" +
			"builds, and exits 1; 0 when there is none. A file that two builds without evdoc differ in\n" +
			"too (a theme writing the time into its pages) is named as not compared.\nIt first says when the copy of the theme's link\n" +
			"render hook evdoc's hook runs for other links (layouts/" + hosttheme.HostLinkHook + ")\n" +
			"is missing or older than the theme's hook (evdoc init writes it again; evdoc build always\n" +
			"uses the theme's current one). Evidence pages, which only evdoc build adds, are not compared,\n" +
			"but with --build: the site with evdoc is then the one evdoc build publishes (claims checked,\n" +
			"with their popovers; evidence pages, evdoc's own, added), so a page of the theme that lists\n" +
			"the site's sections, pages or feeds shows what evidence pages change in it.\n\n" + hugoLookupHelp,
		Example: "  evdoc doctor\n" +
			"  evdoc doctor --keep /tmp/compare   # keep both builds (without/, with/) to diff them\n" +
			"  evdoc doctor --build               # compare with what evdoc build publishes",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			hugo, err := findHugo(cmd.Context(), hugoFlag, osHugoEnv(stderr))
			if err != nil {
				return errNoHugo(err)
			}
			// Only the theme list is read: a site evdoc's check would
			// reject (no ko and ja languages yet) is still compared.
			cfg, err := hugoconf.LoadConfig(*root)
			if cfg == nil {
				return &exitError{2, err}
			}
			if !slices.Contains(cfg.Themes, hosttheme.Component) {
				return &exitError{2, fmt.Errorf(`the theme list does not name evdoc's component: add "evdoc" first (theme = ["evdoc", "mytheme"]) and run doctor again`)}
			}
			var host []string
			for _, t := range cfg.Themes {
				if t != hosttheme.Component {
					host = append(host, t)
				}
			}
			if len(host) == 0 {
				return &exitError{2, fmt.Errorf("the site has no theme but evdoc's component (its layouts are the project's own): there is no site without evdoc to compare with")}
			}
			if note := hostHookNote(*root, cfg.Themes); note != "" {
				fmt.Fprintln(stderr, "evdoc doctor:", note)
			}
			dir := keep
			if dir == "" {
				if dir, err = os.MkdirTemp("", "evdoc-doctor-"); err != nil {
					return &exitError{2, err}
				}
				defer os.RemoveAll(dir)
			}
			without, with := filepath.Join(dir, "without"), filepath.Join(dir, "with")
			builds := []struct {
				out    string
				themes []string
			}{{without, host}, {with, nil}}
			var own func(string) bool
			if built {
				builds = builds[:1]
				l, err := lockProject(cmd.Context(), *root, "doctor", lf, stderr)
				if err != nil {
					return err
				}
				defer l.Unlock()
				lopt := opts.load()
				lopt.Lazy = true
				s, err := loadSite(cmd.Context(), *root, lopt)
				if err != nil {
					return &exitError{2, err}
				}
				if err := os.RemoveAll(with); err != nil {
					return &exitError{2, err}
				}
				if err := site.Build(cmd.Context(), s, site.BuildOptions{Out: with, Log: stderr, Check: opts.check, Hugo: hugo}); err != nil {
					return &exitError{2, fmt.Errorf("evdoc build: %v", err)}
				}
				langs := map[string]bool{}
				for _, l := range s.Config.Ordered() {
					langs[l.Code] = true
				}
				// evidence pages, under each language's path
				own = func(f string) bool {
					if first, rest, ok := strings.Cut(f, "/"); ok && langs[first] {
						f = rest
					}
					return strings.HasPrefix(f, project.EvidenceDir+"/")
				}
			}
			hugoBuild := func(out string, themes []string) error {
				if err := os.RemoveAll(out); err != nil {
					return &exitError{2, err}
				}
				args := append(append([]string{}, hugo[1:]...), "--source", *root, "--destination", out, "--logLevel", "error")
				if themes != nil {
					// The site's own layouts may call evdoc's public
					// partials (a head hook init asked for): without the
					// component, empty ones take their place.
					stub, err := writeStubComponent(dir)
					if err != nil {
						return &exitError{2, err}
					}
					args = append(args, "--theme", strings.Join(append(slices.Clip(themes), stub), ","))
				}
				c := exec.CommandContext(cmd.Context(), hugo[0], args...)
				c.Env = hugoconf.HugoEnviron(os.Environ(), nil) // as build runs it: no secret of the environment reaches the templates
				var buf bytes.Buffer
				c.Stdout, c.Stderr = &buf, &buf
				if err := c.Run(); err != nil {
					what := "with evdoc's component"
					if themes != nil {
						what = "without evdoc's component (--theme " + strings.Join(themes, ",") + ")"
					}
					return &exitError{2, fmt.Errorf("hugo could not build the site %s: %v\n%s", what, err, buf.String())}
				}
				return nil
			}
			for _, b := range builds {
				if err := hugoBuild(b.out, b.themes); err != nil {
					return err
				}
			}
			diffs, err := guest.CompareDirs(without, with, guest.Options{Own: own})
			if err != nil {
				return &exitError{2, err}
			}
			var unstable []guest.Diff
			if len(diffs) > 0 {
				// A theme that writes the time or a random value into its
				// pages (an asset-busting query ?UNIXTIME) makes every build
				// differ: a second build without evdoc tells those files
				// apart, and they are named, not counted.
				again := filepath.Join(dir, "without-again")
				if err := hugoBuild(again, host); err != nil {
					return err
				}
				moving, err := guest.CompareDirs(without, again, guest.Options{})
				if err != nil {
					return &exitError{2, err}
				}
				diffs, unstable = splitUnstable(diffs, moving)
			}
			for _, d := range diffs {
				fmt.Fprintln(stdout, d)
			}
			if len(unstable) > 0 {
				u := unstable[0]
				fmt.Fprintf(stdout, "evdoc doctor: %d file(s) not compared: two builds without evdoc differ in them as well (the theme writes a time or a random value on each build; a theme option that turns it off, such as an asset-busting setting, lets doctor compare them), for example %s at byte %d: %q, then %q\n", len(unstable), u.File, u.Offset, u.Without, u.With)
			}
			if len(diffs) > 0 {
				return &exitError{1, fmt.Errorf("%d file(s) differ beyond evdoc's injections and claim elements (built without evdoc: %s, with: %s)", len(diffs), shown(without, keep), shown(with, keep))}
			}
			if len(unstable) > 0 {
				fmt.Fprintln(stdout, "evdoc doctor: every other file is the same without and with evdoc's component, but for evdoc's injections, claim elements and own files")
				return nil
			}
			fmt.Fprintln(stdout, "evdoc doctor: every file is the same without and with evdoc's component, but for evdoc's injections, claim elements and own files")
			return nil
		},
	}
	cmd.Flags().StringVar(&hugoFlag, "hugo", "", "the Hugo binary `PATH` (\"pinned\": the pinned Hugo)")
	addRootFlag(cmd, root)
	cmd.Flags().BoolVar(&built, "build", false, "compare with the site evdoc build publishes (claims checked, evidence pages added) instead of plain hugo's")
	lf.register(cmd)
	cmd.Flags().StringVar(&keep, "keep", "", "build into `DIR` (DIR/without, DIR/with) and keep both builds")
	return cmd
}

// splitUnstable returns the diffs whose file is not among moving (the
// files two builds without evdoc differ in), then those whose file is,
// each of the latter as it differs between the two builds without evdoc.
func splitUnstable(diffs, moving []guest.Diff) (kept, unstable []guest.Diff) {
	m := map[string]guest.Diff{}
	for _, d := range moving {
		m[d.File] = d
	}
	for _, d := range diffs {
		if u, ok := m[d.File]; ok {
			unstable = append(unstable, u)
			continue
		}
		kept = append(kept, d)
	}
	return kept, unstable
}

// stubPartials are the partials of evdoc's component a site's own
// layouts call (docs/guide/adopting.md): the head hook's and the serve
// banner's. doctor's build without the component gets them empty.
var stubPartials = []string{"evdoc/head.html", "evdoc/serve-banner.html"}

// writeStubComponent writes, under dir, a theme holding stubPartials
// with no content and returns its absolute path, which Hugo's --theme
// takes as it is.
func writeStubComponent(dir string) (string, error) {
	stub, err := filepath.Abs(filepath.Join(dir, "evdoc-stub"))
	if err != nil {
		return "", err
	}
	for _, p := range stubPartials {
		f := filepath.Join(stub, "layouts", "_partials", filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
			return "", err
		}
		if err := os.WriteFile(f, nil, 0o644); err != nil {
			return "", err
		}
	}
	return stub, nil
}

func shown(dir, keep string) string {
	if keep == "" {
		return "removed; --keep DIR keeps it"
	}
	return dir
}

// hostHookNote says when the project's copy of its theme's link render
// hook is missing or differs from the theme's hook ("" when it is right,
// or the project's own).
func hostHookNote(root string, themes []string) string {
	src := hosttheme.HostHook(root, themes, "render-link.html")
	dst := filepath.Join(root, "layouts", filepath.FromSlash(hosttheme.HostLinkHook))
	have, err := os.ReadFile(dst)
	if err == nil && !bytes.HasPrefix(have, []byte(hosttheme.CopyMark)) {
		return ""
	}
	if src == "" {
		if err == nil {
			return fmt.Sprintf("layouts/%s copies a link render hook no theme has now: run evdoc init again to remove it", hosttheme.HostLinkHook)
		}
		return ""
	}
	b, rerr := os.ReadFile(filepath.Join(root, filepath.FromSlash(src)))
	if rerr != nil {
		return ""
	}
	switch {
	case err != nil:
		return fmt.Sprintf("layouts/%s is missing: plain hugo renders links with Goldmark's default instead of %s; run evdoc init again to write it", hosttheme.HostLinkHook, src)
	case !bytes.Equal(have, hosttheme.HostHookCopy(src, b)):
		return fmt.Sprintf("layouts/%s is older than %s: run evdoc init again to copy it", hosttheme.HostLinkHook, src)
	}
	return ""
}
