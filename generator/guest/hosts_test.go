package guest

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/evdoc-lab/evdoc/generator/hosttheme"
	"github.com/evdoc-lab/evdoc/internal/sitetest"
	"github.com/evdoc-lab/evdoc/internal/txtartest"
)

// hugo builds the project at dir into out, with the theme list themes
// when it is not nil (Hugo's --theme: the site without evdoc's
// component), and returns Hugo's output.
func hugo(t *testing.T, dir, out string, themes []string) string {
	t.Helper()
	cmd := sitetest.HugoCommand(t)
	args := append(append([]string{}, cmd[1:]...), "--source", dir, "--destination", out, "--logLevel", "warn")
	if themes != nil {
		args = append(args, "--theme", strings.Join(themes, ","))
	}
	c := exec.Command(cmd[0], args...)
	c.Env = append(os.Environ(), "HUGO_CACHEDIR="+filepath.Join(dir, ".cache"))
	b, err := c.CombinedOutput()
	if err != nil {
		t.Fatalf("hugo %s: %v\n%s", strings.Join(args, " "), err, b)
	}
	return string(b)
}

// TestHostInvariant builds each fixture host site (testdata/hosts) with
// Hugo twice, without evdoc's component and with it as adopters add it
// (first in the theme list, the theme's link hook copied as evdoc init
// copies it), and requires every published file to be the same but for
// evdoc's injections, its claim elements and its own files (CompareDirs).
// A fixture's "assert" member names what its mechanism puts in the page
// built with evdoc (FILE contains TEXT / FILE lacks TEXT), so the
// comparison cannot pass by both builds lacking it. A fixture whose theme
// has a link render hook is built a third time without the copy (evdoc's
// hook rendering Goldmark's default for every link, as before): that
// build must differ.
func TestHostInvariant(t *testing.T) {
	if testing.Short() {
		t.Skip("builds sites with Hugo")
	}
	root := sitetest.Root(t)
	fixtures, err := filepath.Glob(filepath.Join("testdata", "hosts", "*.txtar"))
	if err != nil || len(fixtures) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	for _, file := range fixtures {
		name := strings.TrimSuffix(filepath.Base(file), ".txtar")
		t.Run(name, func(t *testing.T) {
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			var asserts string
			for _, f := range ar.Files {
				if f.Name == "assert" {
					asserts = string(f.Data)
				}
			}
			dir := txtartest.Write(t, ar)
			sitetest.CopyTree(t, filepath.Join(root, "themes", "evdoc"), filepath.Join(dir, "themes", "evdoc"))
			themes := []string{hosttheme.Component, name}
			if _, _, err := hosttheme.SyncHostHooks(dir, dir, themes); err != nil {
				t.Fatal(err)
			}
			without, with := filepath.Join(t.TempDir(), "without"), filepath.Join(t.TempDir(), "with")
			hugo(t, dir, without, []string{name})
			hugo(t, dir, with, nil)
			diffs, err := CompareDirs(without, with, Options{})
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range diffs {
				t.Errorf("%v", d)
			}
			for _, line := range strings.Split(strings.TrimSpace(asserts), "\n") {
				if line == "" {
					continue
				}
				f, rest, _ := strings.Cut(line, " ")
				verb, text, _ := strings.Cut(rest, " ")
				b, err := os.ReadFile(filepath.Join(with, filepath.FromSlash(f)))
				if err != nil {
					t.Errorf("assert %q: %v", line, err)
					continue
				}
				if has := bytes.Contains(b, []byte(text)); has != (verb == "contains") {
					t.Errorf("with evdoc, %s %s %q:\n%s", f, verb, text, b)
				}
			}
			if hosttheme.HostHook(dir, themes, "render-link.html") == "" {
				return
			}
			if err := os.Remove(filepath.Join(dir, "layouts", filepath.FromSlash(hosttheme.HostLinkHook))); err != nil {
				t.Fatal(err)
			}
			bare := filepath.Join(t.TempDir(), "bare")
			hugo(t, dir, bare, nil)
			if diffs, err := CompareDirs(without, bare, Options{}); err != nil || len(diffs) == 0 {
				t.Errorf("without the copy of the theme's link hook the site is the same (%v): the fixture does not test the hook", err)
			}
		})
	}
}
