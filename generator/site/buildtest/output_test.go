package buildtest

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/evdoc-lab/evdoc/generator/site"
	"github.com/evdoc-lab/evdoc/internal/benchsite/benchgen"
	"github.com/evdoc-lab/evdoc/internal/sitetest"
	"github.com/evdoc-lab/evdoc/internal/txtartest"
)

// outputGolden lists the SHA-256 of every file two projects' builds
// write into public/ (TestBuildOutputGolden).
const outputGolden = "testdata/output.golden"

// domGolden lists, for every HTML file of the same builds, the SHA-256
// of the document a reader's browser holds after evdoc.js's load step
// (readerDOM): a change of the claims' markup that leaves the reader's
// page as it was changes output.golden and not this.
const domGolden = "testdata/dom.golden"

// TestBuildOutputGolden builds two projects and compares every file of
// their public/ with the hashes in testdata/output.golden, so that a
// change meant to leave the HTML as it is (the claim render hook's,
// evdoc/claim.html's, staging's) is shown to change no byte, and one
// meant to change it shows which files changed (go test -run
// TestBuildOutputGolden -update rewrites the hashes). The projects: a
// site internal/benchsite generates (4 Korean pages with their Japanese
// translations, 2 pages a set: bound claims of every kind, tables,
// headings); and clean.txtar's project with a page whose claims write
// one value at three precisions, one of them inside a shortcode's inner
// content (its position pinned by staging, its precision marked), an
// exempt claim, a page Japanese falls back to, and a section page that
// shows its pages' .Content and .Plain (and, on the evidence index, its
// own .Content, which the output check requires).
func TestBuildOutputGolden(t *testing.T) {
	t.Parallel() // a project of its own
	skipShort(t)
	synthetic := t.TempDir()
	if err := benchgen.Write(synthetic, benchgen.Options{Pages: 4, Seed: 1, ClaimsPerPage: 60, PagesPerSet: 2}); err != nil {
		t.Fatal(err)
	}
	claims := sitetest.ThemedProject(t, filepath.Join("..", "..", "checker", "testdata", "check", "clean.txtar"))
	sitetest.Write(t, claims, "content/ko/docs/_index.md", "---\ntitle: 문서\n---\n")
	sitetest.Write(t, claims, "content/ko/docs/prec.md", "---\ntitle: 정밀도\n---\n\n계산값은 [약 52%](ev:d3/d3.a.pct), 자세히는 [51.72%](ev:d3/d3.a.pct)다. [2026년](ev:exempt \"연도\")\n\n{{< details >}}\n실패율 [51.7%](ev:d3/d3.a.rate)와 [51.7241%](ev:d3/d3.a.pct)\n{{< /details >}}\n\n{{< details >}}\n실패율 [51.7%](ev:d3/d3.a.rate)와 [51.7241%](ev:d3/d3.a.pct)\n{{< /details >}}\n")
	sitetest.Write(t, claims, "layouts/_shortcodes/details.html", "<div>{{ .Inner | .Page.RenderString }}</div>\n")
	sitetest.Write(t, claims, "layouts/section.html", "{{ define \"main\" }}{{ if .Params.evdoc_index }}{{ .Content }}{{ end }}{{ range .Pages }}<section>{{ .Content }}<p>{{ .Plain }}</p></section>{{ end }}{{ end }}\n")

	var got, dom bytes.Buffer
	for _, p := range []struct{ name, dir string }{{"synthetic", synthetic}, {"claims", claims}} {
		build(t, p.dir, site.BuildOptions{})
		lines, err := hashTree(filepath.Join(p.dir, "public"))
		if err != nil {
			t.Fatal(err)
		}
		if len(lines) < 10 {
			t.Fatalf("%s: only %d files built", p.name, len(lines))
		}
		for _, l := range lines {
			fmt.Fprintf(&got, "%s %s/%s\n", l[0], p.name, l[1])
		}
		lines, err = readerDOMTree(filepath.Join(p.dir, "public"))
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range lines {
			fmt.Fprintf(&dom, "%s %s/%s\n", l[0], p.name, l[1])
		}
	}
	if txtartest.Updating() {
		if err := os.WriteFile(outputGolden, got.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(domGolden, dom.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	compareGolden(t, domGolden, dom.Bytes(), "the reader's DOM (after evdoc.js's load step) of")
	compareGolden(t, outputGolden, got.Bytes(), "")
}

// compareGolden compares got, lines "HASH FILE", with the golden file,
// naming each file whose hash differs (what: what the hash is of).
func compareGolden(t *testing.T, golden string, got []byte, what string) {
	t.Helper()
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (go test -run TestBuildOutputGolden -update writes it)", err)
	}
	if bytes.Equal(got, want) {
		return
	}
	wantHash := map[string]string{}
	for _, l := range strings.Split(strings.TrimSpace(string(want)), "\n") {
		h, f, _ := strings.Cut(l, " ")
		wantHash[f] = h
	}
	for _, l := range strings.Split(strings.TrimSpace(string(got)), "\n") {
		h, f, _ := strings.Cut(l, " ")
		switch w, ok := wantHash[f]; {
		case !ok:
			t.Errorf("%s: a file the golden hashes do not list", f)
		case w != h:
			t.Errorf("%s: %s%s differs from the output the golden hashes were taken of", golden, what, f)
		}
		delete(wantHash, f)
	}
	for f := range wantHash {
		t.Errorf("%s: not built", f)
	}
	t.Errorf("the output differs from %s; if the change is meant, rewrite it with -update", golden)
}

// hashTree returns the hex SHA-256 and slash path of every file under
// dir, sorted by path.
func hashTree(dir string) ([][2]string, error) {
	var out [][2]string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		out = append(out, [2]string{fmt.Sprintf("%x", sha256.Sum256(b)), filepath.ToSlash(rel)})
		return nil
	})
	sort.Slice(out, func(i, j int) bool { return out[i][1] < out[j][1] })
	return out, err
}
