package staging

import (
	"bytes"
	"context"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evdoc-lab/evdoc/generator/check"
	"github.com/evdoc-lab/evdoc/generator/checker"
	"github.com/evdoc-lab/evdoc/generator/project"
	"github.com/evdoc-lab/evdoc/generator/stagedata"
	"github.com/evdoc-lab/evdoc/generator/translation"
	"github.com/evdoc-lab/evdoc/internal/sitetest"
	"go.yaml.in/yaml/v3"
)

// TestStagedEditLinksNameFiles stages the sample project with Hextra's
// params.editURL and PaperMod's params.editPost set: every editURL and
// editPost.URL of a staged evidence page names a regular file of the
// repository (an edit URL of a directory is a 404 on GitHub and
// GitLab), and the evidence index, which shows every set and no single
// file, has no source, Hextra's editURL "./" (the page itself: Hextra
// draws the link on every page, from the page's stage-only file when it
// has no editURL) and PaperMod's edit link disabled.
func TestStagedEditLinksNameFiles(t *testing.T) {
	dir := sitetest.CopyProject(t)
	s, err := project.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	const base = "https://forge.example/o/r/edit/main/content"
	s.Config.Params.EditURLBase = base
	s.Config.Params.EditPostBase = base
	results, _ := checker.Check(s, check.DefaultOptions())
	stage := t.TempDir()
	referenceFiguresMu.Lock()
	s.FigureCache = referenceFigureCache(t, dir) // the edit links are not in a figure
	_, err = Stage(context.Background(), s, stage, stagedata.StageDataOf(results), nil)
	referenceFiguresMu.Unlock()
	if err != nil {
		t.Fatal(err)
	}
	// names returns the repository file the edit URL u names.
	names := func(u string) string {
		p, err := url.Parse(u)
		if err != nil {
			t.Fatalf("edit URL %q: %v", u, err)
		}
		return strings.TrimPrefix(p.Path, "/o/r/edit/main/")
	}
	indexes, links := 0, 0
	err = filepath.WalkDir(stage, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.Contains(filepath.ToSlash(p), "/"+project.EvidenceDir+"/") || !strings.HasSuffix(p, ".md") {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rest, ok := bytes.CutPrefix(b, []byte("---\n"))
		fmText, _, ok2 := bytes.Cut(rest, []byte("\n---\n"))
		if !ok || !ok2 {
			return nil
		}
		var fm map[string]any
		if err := yaml.Unmarshal(fmText, &fm); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		rel, _ := filepath.Rel(stage, p)
		var urls []string
		if u, ok := fm["editURL"].(string); ok {
			urls = append(urls, u)
		}
		ep, _ := fm["editPost"].(map[string]any)
		if u, ok := ep["URL"].(string); ok {
			urls = append(urls, u)
		}
		if fm["evdoc_index"] == true {
			indexes++
			if fm["editURL"] != "./" || ep["URL"] != nil || fm[translation.SourceParam] != nil {
				t.Errorf("%s: the evidence index shows no single file, has %s %v and edit links %q", rel, translation.SourceParam, fm[translation.SourceParam], urls)
			}
			if ep["disabled"] != true {
				t.Errorf("%s: editPost = %v, want PaperMod's edit link disabled", rel, fm["editPost"])
			}
			return nil
		}
		for _, u := range urls {
			links++
			f := names(u)
			fi, err := os.Stat(filepath.Join(dir, filepath.FromSlash(f)))
			if err != nil || !fi.Mode().IsRegular() {
				t.Errorf("%s: edit URL %s names %s, not a file of the repository", rel, u, f)
			}
			if src, _ := fm[translation.SourceParam].(string); path.Clean(src) != f {
				t.Errorf("%s: edit URL %s names %s, the page's %s is %q", rel, u, f, translation.SourceParam, src)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if indexes == 0 || links == 0 {
		t.Fatalf("staged %d evidence index pages and %d edit links of evidence pages, want some of each", indexes, links)
	}
}
