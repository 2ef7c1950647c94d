package hugoconf

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// TestPublishURLs reads the settings of Hugo's publish-time URL
// rewriting from a root hugo.toml and from the configuration directory.
func TestPublishURLs(t *testing.T) {
	const langs = "defaultContentLanguage = \"en\"\n[languages.en]\nweight = 1\n"
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  PublishURLs
	}{
		{"default", map[string]string{"hugo.toml": "baseURL = \"https://example.org/\"\n" + langs},
			PublishURLs{RSSFile: "index.xml"}},
		{"canonify", map[string]string{"hugo.toml": "canonifyURLs = true\n" + langs},
			PublishURLs{Rewrite: true, RSSFile: "index.xml"}},
		{"relative off", map[string]string{"hugo.toml": "relativeURLs = false\n" + langs},
			PublishURLs{RSSFile: "index.xml"}},
		{"relative in config dir", map[string]string{"hugo.toml": langs, "config/_default/hugo.yaml": "relativeURLs: true\n"},
			PublishURLs{Rewrite: true, Relative: true, RSSFile: "index.xml"}},
		{"canonify per language", map[string]string{"hugo.toml": langs + "canonifyURLs = true\n"},
			PublishURLs{Rewrite: true, RSSFile: "index.xml"}},
		{"multihost", map[string]string{"hugo.toml": langs + "baseURL = \"https://en.example.org/\"\n"},
			PublishURLs{Multihost: true, BaseURLs: map[string]string{"en": "https://en.example.org/"}, RSSFile: "index.xml"}},
		{"multihost in config dir", map[string]string{"hugo.toml": langs, "config/production/languages.toml": "[en]\nbaseURL = \"https://en.example.org/\"\n"},
			PublishURLs{Multihost: true, BaseURLs: map[string]string{"en": "https://en.example.org/"}, RSSFile: "index.xml"}},
		{"rss base name", map[string]string{"hugo.toml": langs + "[outputFormats.RSS]\nbaseName = \"feed\"\n"},
			PublishURLs{RSSFile: "feed.xml"}},
		{"rss suffix", map[string]string{"hugo.toml": langs + "[mediaTypes.\"application/rss+xml\"]\nsuffixes = [\"rss\"]\n"},
			PublishURLs{RSSFile: "index.rss"}},
		{"rss other media type", map[string]string{"hugo.toml": langs + "[outputFormats.rss]\nmediaType = \"application/xml\"\n"},
			PublishURLs{RSSFile: "index.xml", RSSUnsure: true}},
		{"another format of that name", map[string]string{"hugo.toml": langs + "[outputFormats.feed]\nmediaType = \"application/xml\"\n"},
			PublishURLs{RSSFile: "index.xml", RSSUnsure: true}},
		{"another format of another name", map[string]string{"hugo.toml": langs + "[outputFormats.feed]\nbaseName = \"feed\"\nmediaType = \"application/xml\"\n"},
			PublishURLs{RSSFile: "index.xml"}},
		{"another format of another suffix", map[string]string{"hugo.toml": langs + "[outputFormats.search]\nmediaType = \"application/json\"\n[mediaTypes.\"application/json\"]\nsuffixes = [\"json\"]\n"},
			PublishURLs{RSSFile: "index.xml"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, src := range tc.files {
				p := filepath.Join(dir, filepath.FromSlash(name))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			c, err := LoadConfig(dir)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(c.PublishURLs, tc.want) {
				t.Errorf("PublishURLs = %+v, want %+v", c.PublishURLs, tc.want)
			}
		})
	}
}
