package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evdoc-lab/evdoc/generator/hosttheme"
	"github.com/evdoc-lab/evdoc/internal/txtartest"
)

// TestDoctor: evdoc init on a site whose theme has a link render hook
// (target="_blank", an icon), then doctor finds no page changed beyond
// evdoc's injections and claims (exit 0). Without the copy of the
// theme's hook init wrote, doctor says the copy is missing and lists the
// pages whose links lost the theme's rendering, with the bytes (exit 1).
// A site without evdoc in its theme list is an error (exit 2).
func TestDoctor(t *testing.T) {
	hugo := buildHugo(t)
	dir := txtartest.WriteFile(t, filepath.Join("..", "..", "generator", "guest", "testdata", "hosts", "linkicon.txtar"))
	if err := os.Remove(filepath.Join(dir, "assert")); err != nil {
		t.Fatal(err)
	}
	if code, out, stderr := evdoc("init", "--root", dir); code != 0 {
		t.Fatalf("init: exit %d\n%s%s", code, out, stderr)
	} else if !strings.Contains(out+stderr, "layouts/"+hosttheme.HostLinkHook) {
		t.Errorf("init did not say it wrote the theme's link hook:\n%s%s", out, stderr)
	}
	if code, out, stderr := evdoc("doctor", "--hugo", hugo, "--root", dir); code != 0 || !strings.Contains(out, "every file is the same") {
		t.Errorf("doctor after init: exit %d\n%s%s", code, out, stderr)
	}
	if err := os.Remove(filepath.Join(dir, "layouts", filepath.FromSlash(hosttheme.HostLinkHook))); err != nil {
		t.Fatal(err)
	}
	code, out, stderr := evdoc("doctor", "--hugo", hugo, "--root", dir)
	if code != 1 || !strings.Contains(stderr, "render-link.html is missing") || !strings.Contains(out, `docs/links/index.html: differs at byte`) || !strings.Contains(out, `target=\"_blank\"`) {
		t.Errorf("doctor without the hook's copy: exit %d\n%s%s", code, out, stderr)
	}
	cfg := filepath.Join(dir, "hugo.toml")
	b, _ := os.ReadFile(cfg)
	if err := os.WriteFile(cfg, []byte(strings.Replace(string(b), `theme = ["evdoc", "linkicon"]`, `theme = ["linkicon"]`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out, stderr := evdoc("doctor", "--hugo", hugo, "--root", dir); code != 2 || !strings.Contains(stderr, "does not name evdoc's component") {
		t.Errorf("doctor without evdoc in the theme list: exit %d\n%s%s", code, out, stderr)
	}
}
