package hugoconf

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/evdoc-lab/evdoc/generator/diag"
)

// tomlQuote writes s as a TOML basic string.
func tomlQuote(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\x00", `\u0000`, "\n", `\n`)
	return `"` + r.Replace(s) + `"`
}

// pathKeyLines are, for every configuration key Hugo accepts that names
// a path (Hugo v0.165's CommonDirs at the root and in a language,
// staticDir0…10, the file caches, module mounts, imports, replacements
// and workspace, output formats' path and baseName, the sitemap's
// filename), a TOML line setting it to V, and the key the finding names.
func pathKeyLines() map[string]string {
	lines := map[string]string{}
	for _, k := range DirKeys {
		lines[k] = k + " = V"
		lines["languages.ko."+k] = "languages.ko." + k + " = V"
	}
	lines["staticdir.1"] = `staticDir = ["static", V]`
	lines["caches.images.dir"] = "caches.images.dir = V"
	lines["module.mounts.0.source"] = `module.mounts = [{source = V, target = "static"}]`
	lines["module.mounts.0.target"] = `module.mounts = [{source = "static", target = V}]`
	lines["module.imports.0.path"] = `module.imports = [{path = V}]`
	lines["module.imports.0.mounts.0.source"] = `module.imports = [{path = "t", mounts = [{source = V, target = "static"}]}]`
	lines["module.replacements.0"] = `module.replacements = [R]` // R: "example.com/m -> V"
	lines["module.workspace"] = "module.workspace = V"
	lines["outputformats.html.path"] = "outputFormats.html.path = V"
	lines["outputformats.html.basename"] = "outputFormats.html.baseName = V"
	lines["sitemap.filename"] = "sitemap.filename = V"
	return lines
}

// confineProject returns a project directory with a link leading out of
// it (link-out, also in themes/, themes/t/ and public/, the bases of
// imports, an import's mounts and output names) and one leading to a directory inside it (link-in), and
// the directory outside it the links name.
func confineProject(t *testing.T) (root, outside string) {
	t.Helper()
	root, outside = t.TempDir(), t.TempDir()
	for _, d := range []string{"content", "themes/t", "public"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, l := range []string{"link-out", "themes/link-out", "themes/t/link-out", "public/link-out"} {
		if err := os.Symlink(outside, filepath.Join(root, filepath.FromSlash(l))); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(root, "content"), filepath.Join(root, "link-in")); err != nil {
		t.Fatal(err)
	}
	return root, outside
}

// TestConfinePathsProperty feeds every path key (pathKeyLines) hostile
// values — .., absolute paths, links leading out, ~, Windows-style paths,
// NUL — and requires LoadConfig to refuse each with a site-config error
// at the key's line naming the key; values inside the project are
// accepted.
func TestConfinePathsProperty(t *testing.T) {
	root, outside := confineProject(t)
	hostile := []string{
		"..", "../..", "../../../../../..", "../../../../../../x", "x/../../../../../../y", "./../../../../../..",
		"/", "/etc", outside, filepath.Join(outside, "x"), root + "/../x",
		"link-out", "link-out/sub", "./link-out",
		"~", "~/x", "~root/x",
		`..\..\..\..\..\x`, `C:\Windows`, `C:/x`, `c:x`, `\\server\share`, `content\ko`,
		"content/\x00x",
	}
	inside := []string{"content", "content/ko", "./x", "a/../b", "sub/dir/", "link-in", "link-in/ko", filepath.Join(root, "content", "ko")}
	keys := pathKeyLines()
	for _, k := range DirKeys {
		if keys[k] == "" || keys["languages.ko."+k] == "" {
			t.Fatalf("key %s is not fed", k)
		}
	}
	head := "defaultContentLanguage = \"ko\"\nlanguages.ko.weight = 1\n"
	load := func(line, v string) (*Config, error) {
		line = strings.ReplaceAll(line, "R", tomlQuote("example.com/m -> "+v))
		src := head + strings.ReplaceAll(line, "V", tomlQuote(v)) + "\n"
		if err := os.WriteFile(filepath.Join(root, "hugo.toml"), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		return LoadConfig(root)
	}
	for key, line := range keys {
		publish := strings.HasPrefix(key, "outputformats") || key == "sitemap.filename"
		for _, v := range hostile {
			if publish && strings.HasPrefix(v, "/") {
				continue // a URL path: publishDir's root
			}
			_, err := load(line, v)
			var ds diag.List
			if !errors.As(err, &ds) {
				t.Errorf("%s = %q: accepted (%v)", key, v, err)
				continue
			}
			found := slices.ContainsFunc(ds, func(d diag.Diagnostic) bool {
				return d.Pos.File == "hugo.toml" && d.Pos.Line == 3 && d.Rule == diag.SiteConfig && d.Severity == diag.Error &&
					strings.Contains(d.Message, key+" = ") && strings.Contains(d.Message, "expected")
			})
			if !found {
				t.Errorf("%s = %q: no error at hugo.toml:3 naming the key:\n%v", key, v, ds)
			}
		}
		for _, v := range inside {
			switch {
			case publish:
				v = strings.TrimPrefix(v, root) // a URL path: under publishDir
			case (strings.Contains(key, "imports") || strings.Contains(key, "replacements")) && filepath.IsAbs(v):
				v = filepath.Join(root, "themes", "t", "x") // inside the import's module
			}
			if _, err := load(line, v); err != nil {
				t.Errorf("%s = %q: refused: %v", key, v, err)
			}
		}
	}
}

// TestConfinePathsFormats: the finding is at the key in YAML, JSON and a
// configuration directory's file too.
func TestConfinePathsFormats(t *testing.T) {
	tests := []struct {
		file, src, want string
	}{
		{"hugo.yaml", "defaultContentLanguage: ko\nlanguages:\n  ko:\n    weight: 1\n    contentDir: ../victim/content/ko\n", "hugo.yaml:5:5"},
		{"hugo.json", "{\"defaultContentLanguage\": \"ko\",\n \"languages\": {\"ko\": {\"weight\": 1,\n   \"contentDir\": \"../victim\"}}}\n", "hugo.json:3:4"},
		{"config/_default/languages.toml", "[ko]\nweight = 1\ncontentDir = \"/tmp\"\n", "config/_default/languages.toml:3:1"},
		{"config/_default/module.yaml", "mounts:\n  - source: ../x\n    target: static\n", "config/_default/module.yaml:2:5"},
		{"hugo.toml", "[languages.ko]\nweight = 1\n[[module.mounts]]\nsource = \"static\"\ntarget = \"static\"\n[[module.mounts]]\n  source = \"/etc\"\n", "hugo.toml:7:3"},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			root := t.TempDir()
			files := map[string]string{tt.file: tt.src}
			if strings.HasPrefix(tt.file, "config/") {
				files["hugo.toml"] = "defaultContentLanguage = \"ko\"\n[languages.ko]\nweight = 1\n"
			}
			for name, src := range files {
				p := filepath.Join(root, filepath.FromSlash(name))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			_, err := LoadConfig(root)
			var ds diag.List
			if !errors.As(err, &ds) || len(ds) != 1 || ds[0].Pos.String() != tt.want || !strings.Contains(ds[0].Message, ", outside ") {
				t.Fatalf("got %v, want one error at %s", err, tt.want)
			}
		})
	}
}

// TestConfineCachePlaceholders: a file cache's dir is judged as Hugo
// resolves its placeholder; evdoc's own cache directory is inside.
func TestConfineCachePlaceholders(t *testing.T) {
	root, _ := confineProject(t)
	cache := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", cache)
	tests := []struct {
		lines string
		ok    bool
	}{
		{`caches.images.dir = ":cacheDir/:project"`, true},
		{`caches.images.dir = ":resourceDir/_gen"`, true},
		{`caches.images.dir = ":cacheDir/../../../../../x"`, false},
		{"resourceDir = \"r\"\ncaches.images.dir = \":resourceDir/../../x\"", false},
		{"cacheDir = " + tomlQuote(filepath.Join(cache, "evdoc", "hugo")), true},
		{"cacheDir = " + tomlQuote(filepath.Join(cache, "other")), false},
		{"cacheDir = " + tomlQuote(filepath.Join(cache, "evdoc", "..", "x")), false},
		{"contentDir = " + tomlQuote(filepath.Join(cache, "evdoc", "c")), false}, // only caches may be in evdoc's cache
	}
	for _, tt := range tests {
		src := "defaultContentLanguage = \"ko\"\nlanguages.ko.weight = 1\n" + tt.lines + "\n"
		if err := os.WriteFile(filepath.Join(root, "hugo.toml"), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := LoadConfig(root)
		if (err == nil) != tt.ok {
			t.Errorf("%s: err = %v, want ok = %v", tt.lines, err, tt.ok)
		}
	}
}

// TestConfineSecurityPolicy: a configuration that adds an entry to one of
// Hugo's security lists is refused at the key; keeping or dropping
// Hugo's default entries is not.
func TestConfineSecurityPolicy(t *testing.T) {
	root := t.TempDir()
	for key, defaults := range hugoSecurityDefaults {
		parts := strings.Split(key, ".")
		table, leaf := "security."+strings.Join(parts[:len(parts)-1], "."), parts[len(parts)-1]
		tests := []struct {
			value string
			ok    bool
		}{
			{`[".*"]`, false},
			{`".*"`, false},
			{`["AWS_SECRET_ACCESS_KEY"]`, false},
			{"[]", true},
			{"true", false},
		}
		if len(defaults) > 0 {
			tests = append(tests, struct {
				value string
				ok    bool
			}{"[" + tomlQuote(defaults[0]) + "]", true}, struct {
				value string
				ok    bool
			}{"[" + tomlQuote(defaults[0]) + `, "x"]`, false})
		}
		for _, tt := range tests {
			src := "defaultContentLanguage = \"ko\"\nlanguages.ko.weight = 1\n[" + table + "]\n" + leaf + " = " + tt.value + "\n"
			if err := os.WriteFile(filepath.Join(root, "hugo.toml"), []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := LoadConfig(root)
			var ds diag.List
			switch {
			case tt.ok && err != nil:
				t.Errorf("security.%s = %s: refused: %v", key, tt.value, err)
			case !tt.ok && (!errors.As(err, &ds) || len(ds) != 1 || ds[0].Pos.String() != "hugo.toml:4:1" || !strings.Contains(ds[0].Message, "widens Hugo's security policy")):
				t.Errorf("security.%s = %s: %v, want one error at hugo.toml:4:1", key, tt.value, err)
			}
		}
	}
}

// TestHugoEnviron: Hugo gets the allow-listed variables and evdoc's own
// settings, never a secret of evdoc's environment nor a HUGO_ variable
// evdoc did not set.
func TestHugoEnviron(t *testing.T) {
	env := []string{"PATH=/bin", "HOME=/h", "LC_ALL=C", "LANG=ko_KR.UTF-8", "AWS_SECRET_ACCESS_KEY=k", "GITHUB_TOKEN=t",
		"HUGO_PARAMS_SECRET=s", "HUGO_ENVIRONMENT=development", "EVDOC_PROBE_SECRET=x", "GOCACHE=/c", "PATHX=1", "=weird"}
	got := HugoEnviron(env, []string{"HUGO_ENVIRONMENT=production", "HUGO_CACHEDIR=/s"})
	want := []string{"PATH=/bin", "HOME=/h", "LC_ALL=C", "LANG=ko_KR.UTF-8", "GOCACHE=/c", "HUGO_ENVIRONMENT=production", "HUGO_CACHEDIR=/s"}
	if !slices.Equal(got, want) {
		t.Errorf("HugoEnviron = %q, want %q", got, want)
	}
}

// FuzzKeyPositions: keyPositions reads any TOML, YAML or JSON text
// without panicking, and every position it gives lies in the file at a
// key's own bytes (a valid line and column).
func FuzzKeyPositions(f *testing.F) {
	f.Add("hugo.toml", "[languages.ko]\ncontentDir = \"../x\"\n[[module.mounts]]\nsource = \"/etc\"\nm = [{a = 1}, [2]]\n")
	f.Add("hugo.yaml", "languages:\n  ko:\n    contentDir: ../x\nmodule:\n  mounts:\n    - source: /etc\n")
	f.Add("hugo.json", "{\"languages\": {\"ko\": {\"contentDir\": \"../x\"}}, \"module\": {\"mounts\": [{\"source\": \"/etc\"}]}}")
	f.Fuzz(func(t *testing.T, name, src string) {
		if len(src) > 4096 {
			return
		}
		ext := []string{".toml", ".yaml", ".json"}[len(name)%3]
		lines := strings.Count(src, "\n") + 1
		for k, p := range keyPositions("hugo"+ext, []byte(src)) {
			if p.Line < 1 || p.Line > lines || p.Column < 1 {
				t.Fatalf("%s: key %q at %v (%d lines)", ext, k, p, lines)
			}
		}
	})
}
