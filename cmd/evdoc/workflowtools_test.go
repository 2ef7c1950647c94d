package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// TestInitWorkflowTools: evdoc init in a site whose theme needs more
// than Hugo's standard edition writes a workflow that installs it before
// the build: a theme compiling SCSS with libsass (Stack's toCSS) gets
// Hugo extended at the pinned version, one naming the transpiler
// "dartsass" (FixIt, Docsy: its toCSS call is no libsass one) Dart Sass
// pinned by version and SHA-256, one mounting its node_modules (Docsy)
// npm ci in its directory, one testing hugo.IsExtended to warn (FixIt)
// Hugo extended; a theme whose toCSS is in a comment only (FixIt's
// parameter docs), one testing hugo.IsExtended only to choose image
// formats (PaperMod) and a theme with none of these get the
// scaffold workflow unchanged. Each workflow passes actionlint when it is
// on PATH.
func TestInitWorkflowTools(t *testing.T) {
	lint, err := exec.LookPath("actionlint")
	if err != nil && os.Getenv("CI") == "true" {
		t.Fatal("actionlint is not on PATH; .ci/run installs it")
	}
	for _, tc := range []struct {
		name     string
		files    map[string]string // under themes/t
		steps    []string          // step names (prefixes) added, in order
		extended bool
	}{
		{"libsass", map[string]string{
			"layouts/_partials/head/style.html": `{{ $s := resources.Get "scss/style.scss" | toCSS | minify }}<link rel="stylesheet" href="{{ $s.RelPermalink }}">`,
		}, []string{"Hugo extended " + pinnedHugoVersion}, true},
		{"dartsass", map[string]string{
			"layouts/_partials/function/to-css.html": "{{- /* toCSS with defaults */ -}}\n{{ $o := dict \"transpiler\" \"dartsass\" }}{{ return .Resource | toCSS $o }}",
			"layouts/_partials/plugin/style.html":    "{{- /* @param {Object|Boolean} [.ToCSS] - dict for custom toCSS options */ -}}\n<link>",
		}, []string{"Dart Sass " + dartSassVersion}, false},
		{"dartsass-npm", map[string]string{
			"layouts/_partials/head-css.html": "{{ $css := resources.Get \"scss/main.scss\" | css.Sass (dict \"transpiler\" `dartsass`) }}",
			"hugo.yaml":                       "module:\n  mounts:\n    - source: node_modules/bootstrap\n      target: assets/vendor/bootstrap\n",
			"package.json":                    `{"name": "t", "dependencies": {"bootstrap": "5.3.8"}}`,
			"package-lock.json":               `{"lockfileVersion": 3}`,
		}, []string{"Dart Sass " + dartSassVersion, "The theme's npm packages"}, false},
		{"dartsass-isextended", map[string]string{
			"layouts/_partials/function/to-css.html":        `{{ return .Resource | toCSS (dict "transpiler" "dartsass") }}`,
			"layouts/_partials/init/detection-version.html": "{{- if eq hugo.IsExtended false -}}{{ warnf \"SCSS needs Hugo extended\" }}{{ end }}",
		}, []string{"Hugo extended " + pinnedHugoVersion + " (the theme tests hugo.IsExtended)", "Dart Sass " + dartSassVersion}, true},
		{"isextended-no-warning", map[string]string{
			"layouts/_partials/cover.html": `{{ $f := slice "jpg" "png" }}{{ if hugo.IsExtended }}{{ $f = $f | append "webp" }}{{ end }}`,
		}, nil, false},
		{"comment-only", map[string]string{
			"layouts/_partials/style.html": "{{/* compile with toCSS here one day */}}<link rel=\"stylesheet\" href=\"/s.css\">",
			"package.json":                 `{"name": "t"}`,
		}, nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			files := map[string]string{"hugo.toml": "title = \"lab\"\ntheme = [\"evdoc\", \"t\"]\ndefaultContentLanguage = \"ko\"\n[languages.ko]\n  contentDir = \"content/ko\"\n[languages.ja]\n  contentDir = \"content/ja\"\n"}
			for n, s := range tc.files {
				files["themes/t/"+n] = s
			}
			for n, s := range files {
				p := filepath.Join(dir, filepath.FromSlash(n))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			var log strings.Builder
			if err := initProject(dir, &log, false); err != nil {
				t.Fatal(err)
			}
			b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(workflowFile)))
			if err != nil {
				t.Fatal(err)
			}
			var wf workflow
			if err := yaml.Unmarshal(b, &wf); err != nil {
				t.Fatal(err)
			}
			steps := wf.Jobs["build"].Steps
			idx := func(prefix string) int {
				for i, s := range steps {
					if strings.HasPrefix(s.Name, prefix) {
						return i
					}
				}
				return -1
			}
			install, build := idx("Install evdoc"), idx("Build")
			var added []string
			for _, s := range steps {
				for _, p := range []string{"Hugo extended", "Dart Sass", "The theme's npm packages"} {
					if strings.HasPrefix(s.Name, p) {
						added = append(added, s.Name)
					}
				}
			}
			if len(added) != len(tc.steps) {
				t.Fatalf("steps added %q, want %q\n%s", added, tc.steps, log.String())
			}
			for i, want := range tc.steps {
				at := idx(want)
				if !strings.HasPrefix(added[i], want) || at < 0 || at > install || at > build {
					t.Errorf("step %d is %q at %d, want %q before installing evdoc (%d) and the build (%d)", i, added[i], at, want, install, build)
				}
				if !strings.Contains(log.String(), "note") {
					t.Errorf("init's report names no step added:\n%s", log.String())
				}
			}
			text := string(b)
			if got := strings.Contains(text, "key: evdoc-hugo-"+pinnedHugoVersion+"-extended-"); got != tc.extended {
				t.Errorf("the cache key names the extended edition: %v, want %v", got, tc.extended)
			}
			if tc.extended && !strings.Contains(text, "go install -tags extended github.com/gohugoio/hugo@"+pinnedHugoVersion) {
				t.Errorf("the extended step does not build the pinned Hugo %s:\n%s", pinnedHugoVersion, text)
			}
			if i := idx("Dart Sass"); i >= 0 {
				run := steps[i].Run
				if !strings.Contains(run, "sha256sum --check") || strings.Index(run, "sha256sum") > strings.Index(run, "tar ") {
					t.Errorf("Dart Sass is not checked against its SHA-256 before it is unpacked:\n%s", run)
				}
			}
			if i := idx("The theme's npm packages"); i >= 0 && !strings.HasPrefix(steps[i].Run, "npm ci") {
				t.Errorf("the theme has a package-lock.json: want npm ci, got %q", steps[i].Run)
			}
			if lint == "" {
				return
			}
			c := exec.Command(lint, "-no-color", filepath.Join(dir, filepath.FromSlash(workflowFile)))
			c.Dir = dir
			if out, err := c.CombinedOutput(); err != nil {
				t.Errorf("actionlint: %v\n%s\n%s", err, out, text)
			}
		})
	}
}
