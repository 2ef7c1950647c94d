package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/evdoc-lab/evdoc/generator/guest"
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
	// The site's own copies of the theme's hooks, calling evdoc's
	// partials as init asks for a theme it does not know: the build
	// without the component still renders them.
	for name, call := range map[string]string{"extend_head.html": hosttheme.HeadCall, "extend_footer.html": hosttheme.BodyCall} {
		p := filepath.Join(dir, "layouts", "_partials", name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(call+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if code, out, stderr := evdoc("doctor", "--hugo", hugo, "--root", dir); code != 0 || !strings.Contains(out, "every file is the same") {
		t.Errorf("doctor with the site's own hooks calling evdoc's partials: exit %d\n%s%s", code, out, stderr)
	}
	// A home page that writes the time on every build (as an asset-busting
	// query does) differs between any two builds: doctor names it as not
	// compared instead of blaming evdoc, and still compares the rest
	// (below, a page whose links lost the theme's hook fails).
	if err := os.WriteFile(filepath.Join(dir, "layouts", "home.html"), []byte("<p>{{ now.UnixNano }}</p>\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out, stderr := evdoc("doctor", "--hugo", hugo, "--root", dir); code != 0 || !strings.Contains(out, "1 file(s) not compared") || !strings.Contains(out, "index.html at byte") || !strings.Contains(out, "every other file is the same") {
		t.Errorf("doctor with a home page that writes the time: exit %d\n%s%s", code, out, stderr)
	}
	if err := os.Remove(filepath.Join(dir, "layouts", filepath.FromSlash(hosttheme.HostLinkHook))); err != nil {
		t.Fatal(err)
	}
	code, out, stderr := evdoc("doctor", "--hugo", hugo, "--root", dir)
	if code != 1 || !strings.Contains(stderr, "render-link.html is missing") || !strings.Contains(out, `docs/links/index.html: differs at byte`) || !strings.Contains(out, `target=\"_blank\"`) || !strings.Contains(out, "1 file(s) not compared") {
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

// guestBuild is a ko/ja site whose theme has a link render hook that
// opens external links in a new tab, and PaperMod's head hook name.
const guestBuild = `-- hugo.toml --
baseURL = "/"
title = "guest"
theme = ["evdoc", "tab"]
defaultContentLanguage = "ko"
disableKinds = ["taxonomy", "term", "rss", "sitemap"]
[languages.ko]
  weight = 1
  contentDir = "content/ko"
[languages.ja]
  weight = 2
  contentDir = "content/ja"
[params]
  sourceLanguage = "ko"
-- evidence/run/evidence.toml --
id = "run"
title = "run"
date = "2026-07-09"
environment = "lab"
report = "docs/p.md"
origin = "raw"

[[table]]
file = "r.md"
heading = "R"
name = "r"
rows = { "s1" = "s1" }
columns = { "n" = "n" }
-- evidence/run/r.md --
## R

| case | n |
|---|---|
| s1 | 4 |
-- content/ko/docs/p.md --
---
title: 재시도
---

요청 [4건](ev:run/r.s1.n)을 보냈다. [명세](https://example.com/spec)를 보라.
-- content/ja/docs/p.md --
---
title: リトライ
---

リクエスト[4件](ev:run/r.s1.n)を送った。[仕様](https://example.com/spec)を見よ。
-- themes/tab/layouts/baseof.html --
<!DOCTYPE html>
<html lang="{{ site.Language.Lang }}"><head><meta charset="utf-8"><title>{{ .Title }}</title>{{ partial "extend_head.html" . }}</head>
<body><main>{{ block "main" . }}{{ end }}</main></body>
</html>
-- themes/tab/layouts/_partials/extend_head.html --
-- themes/tab/layouts/home.html --
{{ define "main" }}home{{ end }}
-- themes/tab/layouts/list.html --
{{ define "main" }}{{ .Content }}{{ end }}
-- themes/tab/layouts/single.html --
{{ define "main" }}<article>{{ .Content }}</article>{{ end }}
-- themes/tab/layouts/_markup/render-link.html --
<a href="{{ .Destination | safeURL }}"{{ if strings.HasPrefix .Destination "http" }} target="_blank" rel="noopener"{{ end }}>{{ .Text }}</a>
{{- /* end */ -}}
`

// TestBuildRunsHostLinkHook: evdoc build renders a link that is not a
// claim with the theme's own link render hook, written fresh into its
// stage, even when the project has no copy (or an old one) of it; claims
// stay evdoc's.
func TestBuildRunsHostLinkHook(t *testing.T) {
	hugo := buildHugo(t)
	dir := txtartest.Write(t, txtar.Parse([]byte(guestBuild)))
	if code, out, stderr := evdoc("init", "--root", dir); code != 0 {
		t.Fatalf("init: exit %d\n%s%s", code, out, stderr)
	}
	// an old copy in the project: build uses the theme's hook as it is now
	copyPath := filepath.Join(dir, "layouts", filepath.FromSlash(hosttheme.HostLinkHook))
	if err := os.WriteFile(copyPath, []byte(hosttheme.CopyMark+"old */}}<a class=\"old\">{{ .Text }}</a>"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out, stderr := evdoc("build", "--hugo", hugo, "--root", dir); code != 0 {
		t.Fatalf("build: exit %d\n%s%s", code, out, stderr)
	}
	// doctor --build: evdoc build's site against plain Hugo's without evdoc
	if code, out, stderr := evdoc("doctor", "--build", "--hugo", hugo, "--root", dir); code != 0 || !strings.Contains(out, "every file is the same") {
		t.Errorf("doctor --build: exit %d\n%s%s", code, out, stderr)
	}
	// the same site by plain Hugo without evdoc's component
	without := filepath.Join(t.TempDir(), "without")
	if out, err := exec.Command(hugo, "--source", dir, "--destination", without, "--theme", "tab", "--logLevel", "error").CombinedOutput(); err != nil {
		t.Fatalf("hugo without evdoc: %v\n%s", err, out)
	}
	for _, page := range []string{"docs/p/index.html", "ja/docs/p/index.html"} {
		b, err := os.ReadFile(filepath.Join(dir, "public", filepath.FromSlash(page)))
		if err != nil {
			t.Fatal(err)
		}
		// the page evdoc build published differs from the host's only
		// by evdoc's head injection and its claim elements (popovers)
		w, err := os.ReadFile(filepath.Join(without, filepath.FromSlash(page)))
		if err != nil {
			t.Fatal(err)
		}
		if d := guest.ComparePage(w, b); d != nil {
			t.Errorf("%s: %v", page, d)
		}
		if !strings.Contains(string(b), `<span class="ev"><a class="ev-claim`) || !strings.Contains(string(w), `<a href="ev:run/r.s1.n">`) {
			t.Errorf("%s: no claim with evdoc, or no ev: link without:\n%s\n%s", page, b, w)
		}
		if !strings.Contains(string(b), `href="https://example.com/spec" target="_blank" rel="noopener">`) || strings.Contains(string(b), `class="old"`) || !strings.Contains(string(b), `class="ev-claim`) {
			t.Errorf("%s: want the theme's link hook for the link and evdoc's claim:\n%s", page, b)
		}
	}
}
