package translation

import "testing"

func TestFileLanguage(t *testing.T) {
	codes := []string{"ko", "ja", "en"}
	for _, tc := range []struct {
		rel, dirLang  string
		lang, logical string
		section       bool
	}{
		{"docs/x.md", "ko", "ko", "docs/x", false},
		{"docs/x.ja.md", "ko", "ja", "docs/x", false},
		{"docs/_index.ja.md", "ko", "ja", "docs", true},
		{"docs/_index.md", "ja", "ja", "docs", true},
		{"docs/b/index.md", "ko", "ko", "docs/b", false},
		{"docs/b/index.en.md", "ko", "en", "docs/b", false},
		{"docs/v1.2.md", "ko", "ko", "docs/v1.2", false}, // not a language suffix
		{"_index.md", "ko", "ko", "", true},
	} {
		lang, logical, section := FileLanguage(tc.rel, tc.dirLang, codes)
		if lang != tc.lang || logical != tc.logical || section != tc.section {
			t.Errorf("FileLanguage(%q, %q) = %q, %q, %v; want %q, %q, %v", tc.rel, tc.dirLang, lang, logical, section, tc.lang, tc.logical, tc.section)
		}
	}
}

func TestFallbackFile(t *testing.T) {
	ko := Language{Code: "ko", ContentDir: "content/ko"}
	ja := Language{Code: "ja", ContentDir: "content/ja"}
	shared := Language{Code: "ja", ContentDir: "content/ko"}
	for _, tc := range []struct {
		rel  string
		lang Language
		want string
	}{
		{"docs/x.md", ja, "content/ja/docs/x.md"},
		{"docs/x.ko.md", ja, "content/ja/docs/x.md"},
		{"docs/_index.md", ja, "content/ja/docs/_index.md"},
		{"docs/b/index.md", ja, "content/ja/docs/b/index.md"},
		{"docs/x.md", shared, "content/ko/docs/x.ja.md"},
		{"docs/_index.ko.md", shared, "content/ko/docs/_index.ja.md"},
	} {
		f := Fallback{Source: &Page{Rel: tc.rel}, Lang: tc.lang}
		if got := f.File(ko); got != tc.want {
			t.Errorf("File(%q → %s) = %q; want %q", tc.rel, tc.lang.Code, got, tc.want)
		}
	}
}
