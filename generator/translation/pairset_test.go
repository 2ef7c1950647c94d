package translation

import (
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/evdoc-lab/evdoc/generator/claim"
	"github.com/evdoc-lab/evdoc/generator/diag"
)

// TestPairSet checks every ko/ja pair of testdata/pairset.txtar: a pair
// labelled agree (the same said in other spellings: 1분 30초 and 90秒, 두
// 번 and 2回, 400KB and 400キロバイト …) has no translation finding; a pair
// labelled with a rule (differing in one way: an arrow reversed, a sign
// lost, △0 against Δ0, an approximation dropped …) has findings, all of
// that rule, the first on the translation's line that differs.
func TestPairSet(t *testing.T) {
	ar, err := txtar.ParseFile("testdata/pairset.txtar")
	if err != nil {
		t.Fatal(err)
	}
	bodies := map[string]string{}
	var names []string
	for _, f := range ar.Files {
		name, lang, ok := strings.Cut(f.Name, ".")
		if !ok || lang != "ko" && lang != "ja" {
			t.Fatalf("%s: want NN-VERDICT-what.ko or .ja", f.Name)
		}
		if _, seen := bodies[name+".ko"]; !seen && lang == "ko" {
			names = append(names, name)
		}
		bodies[name+"."+lang] = string(f.Data)
	}
	rules := map[string]diag.RuleID{"claims": diag.TranslationClaims, "numbers": diag.TranslationNumbers, "approx": diag.TranslationApprox}
	agree, disagree := 0, 0
	md := claim.NewMarkdown()
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			parts := strings.SplitN(name, "-", 3)
			if len(parts) < 3 {
				t.Fatalf("want NN-VERDICT-what")
			}
			var pages [2]*Page
			for i, lang := range []string{"ko", "ja"} {
				body, ok := bodies[name+"."+lang]
				if !ok {
					t.Fatalf("no %s page", lang)
				}
				src := "---\ntitle: t\ntranslationKey: p\n---\n\n" + body
				p, _ := claim.Parse(md, "content/"+lang+"/p.md", []byte(src))
				pages[i] = &Page{Lang: lang, Path: "content/" + lang + "/p.md", Parsed: p, FrontMatter: map[string]any{}}
			}
			ds := CheckPair(PagePair{Source: pages[0], Target: pages[1]}, nil)
			if parts[1] == "agree" {
				agree++
				for _, d := range ds {
					t.Errorf("agreeing pair reported: %s", d)
				}
				return
			}
			want, ok := rules[parts[1]]
			if !ok {
				t.Fatalf("unknown verdict %q", parts[1])
			}
			disagree++
			if len(ds) == 0 {
				t.Fatalf("disagreeing pair (%s) not reported", want)
			}
			for _, d := range ds {
				if d.Rule != want {
					t.Errorf("finding of rule %s, want only %s: %s", d.Rule, want, d)
				}
			}
			// the first line of the translation that differs from the
			// source in its numbers is the line named
			if line := ds[0].Pos.Line; line != 6 {
				t.Errorf("finding on line %d, want line 6 (the first body line): %s", line, ds[0])
			}
		})
	}
	if agree < 30 || disagree < 30 {
		t.Errorf("%d agreeing and %d disagreeing pairs; want 30 of each at least", agree, disagree)
	}
}

// FuzzSelfParity: a page compared with itself as its own translation
// has no finding, whatever its text (every number, word number,
// transition and claim pairs with itself), and CheckPair does not panic.
// The one mark the two languages read apart, ▲ (a rise in Korean, a
// minus in Japanese accounts), is written + in the Japanese copy: what a
// Korean reader reads in it.
func FuzzSelfParity(f *testing.F) {
	ar, err := txtar.ParseFile("testdata/pairset.txtar")
	if err != nil {
		f.Fatal(err)
	}
	for _, file := range ar.Files {
		f.Add(string(file.Data))
	}
	// the pages of the tool-output page set, without their front matter
	tools, err := filepath.Glob("testdata/pairset-s4/*.txtar")
	if err != nil {
		f.Fatal(err)
	}
	for _, path := range tools {
		ar, err := txtar.ParseFile(path)
		if err != nil {
			f.Fatal(err)
		}
		for _, file := range ar.Files {
			if _, body, ok := strings.Cut(string(file.Data), "\n---\n\n"); ok && strings.HasPrefix(file.Name, "content/") {
				f.Add(body)
			}
		}
	}
	f.Add("| a | b |\n|---|---|\n| [1분 30초](ev:r/t.x) | 두 번 |\n\n# 3 → 5\n\n```\n40초\n```\n")
	md := claim.NewMarkdown()
	f.Fuzz(func(t *testing.T, body string) {
		var pages [2]*Page
		for i, lang := range []string{"ko", "ja"} {
			text := body
			if lang == "ja" {
				text = strings.ReplaceAll(body, "▲", "+")
			}
			src := []byte("---\ntitle: t\ntranslationKey: p\n---\n\n" + text)
			p, _ := claim.Parse(md, "content/"+lang+"/p.md", src)
			pages[i] = &Page{Lang: lang, Path: "content/" + lang + "/p.md", Parsed: p, FrontMatter: map[string]any{}}
		}
		for _, d := range CheckPair(PagePair{Source: pages[0], Target: pages[1]}, nil) {
			t.Errorf("a page against itself: %s", d)
		}
	})
}

// TestSyncNote: a parity finding says what the last evdoc i18n mark
// tells: nothing for a page never marked; that the source is as marked
// (the difference was made in the translation); or, for a stale
// translation, that the source changed in the finding's section.
func TestSyncNote(t *testing.T) {
	md := claim.NewMarkdown()
	page := func(lang, body string, fm map[string]any) *Page {
		src := "---\ntitle: t\ntranslationKey: p\n---\n\n" + body
		p, _ := claim.Parse(md, "content/"+lang+"/p.md", []byte(src))
		if fm == nil {
			fm = map[string]any{}
		}
		return &Page{Lang: lang, Path: "content/" + lang + "/p.md", Parsed: p, FrontMatter: fm}
	}
	ko := "## A\n\n재시도는 [2회](ev:r/t.a)였다.\n\n## B\n\n실패는 [3건](ev:r/t.b)이었다.\n"
	ja := "## A\n\nリトライは[2回](ev:r/t.a)だった。\n\n## B\n\n失敗は[4件](ev:r/t.b)だった。\n"
	s := page("ko", ko, nil)
	old := page("ko", strings.Replace(ko, "[3건]", "[4건]", 1), nil)
	oldBlocks, _ := blockHashes(old)
	for _, tc := range []struct {
		name string
		fm   map[string]any
		want string
	}{
		{"unmarked", nil, ""},
		{"in sync", map[string]any{SourceHashField: SourceHash(s)}, "is as it was when this page was marked in sync"},
		{"stale", map[string]any{SourceHashField: SourceHash(old), SourceBlocksField: strings.Join(oldBlocks, " ")}, "changed in this section since this page was marked in sync"},
	} {
		ds := CheckPair(PagePair{Source: s, Target: page("ja", ja, tc.fm)}, nil)
		var claims []diag.Diagnostic
		for _, d := range ds {
			if d.Rule == diag.TranslationClaims {
				claims = append(claims, d)
			}
		}
		if len(claims) != 1 || claims[0].Pos.Line != 12 {
			t.Fatalf("%s: want one translation-claims finding on line 12: %v", tc.name, ds)
		}
		msg := claims[0].Message
		if tc.want == "" && strings.Contains(msg, "marked in sync") || tc.want != "" && !strings.Contains(msg, tc.want) {
			t.Errorf("%s: %q, want it to say %q", tc.name, msg, tc.want)
		}
	}
}
