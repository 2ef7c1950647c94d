package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evdoc-lab/evdoc/internal/sitetest"
)

// keepOneFigure removes every figure spec of the project at dir but the
// one named, with the figures drawn from the others: figures then draws
// (and under -race, slowly) one figure in each language and width
// instead of all of them. Pages still link the removed figures; figures
// does not read pages.
func keepOneFigure(t *testing.T, dir, keep string) {
	t.Helper()
	for _, sub := range []string{"figures", filepath.Join("assets", "figures")} {
		entries, err := os.ReadDir(filepath.Join(dir, sub))
		if err != nil {
			t.Fatal(err)
		}
		kept := 0
		for _, e := range entries {
			if strings.HasPrefix(e.Name(), keep+".") {
				kept++
				continue
			}
			if err := os.Remove(filepath.Join(dir, sub, e.Name())); err != nil {
				t.Fatal(err)
			}
		}
		if kept == 0 {
			t.Fatalf("%s has no %s.*", sub, keep)
		}
	}
}

// TestFiguresCommand: running figures on the reference project, without
// any fonts of its own (evdoc embeds them), writes nothing (the committed
// figures are current); deleting one makes --check exit 1 naming it, and
// figures restores it byte for byte.
func TestFiguresCommand(t *testing.T) {
	dir := sitetest.CopyProject(t, "glossary.toml")
	keepOneFigure(t, dir, "d3-failure-rate")
	if err := os.RemoveAll(filepath.Join(dir, "assets", "fonts")); err != nil {
		t.Fatal(err)
	}
	if code, _, errs := evdoc("--root", dir, "figures"); code != 0 || !strings.Contains(errs, "0 file(s) changed") {
		t.Fatalf("figures: exit %d, %s; want no file changed", code, errs)
	}
	png := filepath.Join(dir, "assets", "figures", "d3-failure-rate.ja.png")
	want, _ := os.ReadFile(png)
	if err := os.Remove(png); err != nil {
		t.Fatal(err)
	}
	code, out, _ := evdoc("--root", dir, "figures", "--check")
	if code != 1 || !strings.Contains(out, "assets/figures/d3-failure-rate.ja.png is missing") {
		t.Fatalf("figures --check after deleting a PNG: exit %d\n%s", code, out)
	}
	if code, _, errs := evdoc("--root", dir, "figures"); code != 0 {
		t.Fatalf("figures: exit %d %s", code, errs)
	}
	if got, _ := os.ReadFile(png); string(got) != string(want) {
		t.Error("figures did not restore the PNG byte for byte")
	}
}

// TestFiguresRefusesLinkOut: a repository whose assets/figures is a link
// to a directory outside the project makes figures fail (exit 2) naming
// it, and the files there keep their contents (a spec named settings
// would otherwise overwrite settings.json there).
func TestFiguresRefusesLinkOut(t *testing.T) {
	dir := sitetest.CopyProject(t, "glossary.toml")
	keepOneFigure(t, dir, "d3-failure-rate")
	out := t.TempDir()
	const keep = `{"editor.fontSize": 14}`
	if err := os.WriteFile(filepath.Join(out, "settings.json"), []byte(keep), 0o644); err != nil {
		t.Fatal(err)
	}
	spec, err := os.ReadFile(filepath.Join(dir, "figures", "d3-failure-rate.toml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "figures", "settings.toml"), spec, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(filepath.Join(dir, "assets", "figures")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(out, filepath.Join(dir, "assets", "figures")); err != nil {
		t.Fatal(err)
	}
	code, _, errs := evdoc("--root", dir, "figures")
	if code != 2 || !strings.Contains(errs, "leads outside the project") {
		t.Errorf("figures through a link out: exit %d, %s; want 2 naming the link", code, errs)
	}
	if b, _ := os.ReadFile(filepath.Join(out, "settings.json")); string(b) != keep {
		t.Errorf("a file outside the project now holds %.60q", b)
	}
	if entries, _ := os.ReadDir(out); len(entries) != 1 {
		t.Errorf("figures wrote %d files outside the project", len(entries)-1)
	}
}
