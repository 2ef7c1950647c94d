package impact

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/evdoc-lab/evdoc/generator/check"
	"github.com/evdoc-lab/evdoc/generator/claim"
	"github.com/evdoc-lab/evdoc/generator/evidence"
	"github.com/evdoc-lab/evdoc/generator/project"
	"github.com/evdoc-lab/evdoc/internal/safefile"
	"github.com/evdoc-lab/evdoc/internal/txtartest"
)

// TestCompute runs Compute on each testdata/*.txtar: the archive is a
// project whose base/evidence/ is the evidence at the base revision. The
// report (JSON) is compared with want, and a project loaded lazily
// (pages read through Input.Read and parsed through Input.WithParsed, as
// evdoc impact runs it) must give exactly the report of one whose pages
// are all parsed up front.
func TestCompute(t *testing.T) {
	txtartest.Run(t, "testdata/*.txtar", func(t *testing.T, dir string, _ *txtar.Archive) []byte {
		old, _ := evidence.Load(filepath.Join(dir, "base"), project.EvidenceDir)
		compute := func(lazy bool) *Report {
			s, err := project.LoadWith(dir, project.LoadOptions{Lazy: lazy})
			if err != nil {
				t.Fatal(err)
			}
			in := Input{Base: "base", Old: old, New: s.Store, Pages: s.Pages, Figures: s.Figures, Source: s.Config.SourceCode(), Options: check.DefaultOptions()}
			if lazy {
				md := s.Config.NewMarkdown()
				in.Read = func(p *project.Page) ([]byte, error) {
					return safefile.ReadPath(filepath.Join(s.Root, filepath.FromSlash(p.Path)), safefile.TextMaxSize)
				}
				in.WithParsed = func(p *project.Page, fn func(*claim.Page) error) error { return s.WithParsed(p, md, fn) }
			}
			return Compute(in)
		}
		eager, lazy := compute(false), compute(true)
		if !reflect.DeepEqual(eager, lazy) {
			t.Errorf("lazy pages give another report:\neager %+v\nlazy  %+v", eager, lazy)
		}
		if eager.Empty() != (len(eager.Values) == 0) {
			t.Errorf("Empty() = %v with %d changed values", eager.Empty(), len(eager.Values))
		}
		for _, c := range eager.Claims {
			if len(c.Refs) == 0 {
				t.Errorf("%s:%d: a claim listed without the changed value it cites", c.Page, c.Pos.Line)
			}
		}
		out, err := json.MarshalIndent(eager, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		return append(out, '\n')
	})
}

// TestVerdict covers the four verdict changes and Rounds.
func TestVerdict(t *testing.T) {
	for _, tc := range []struct {
		old, new bool
		want     string
	}{{true, true, "still passes"}, {true, false, "now fails"}, {false, true, "now passes"}, {false, false, "still fails"}} {
		if got := (Claim{OldOK: tc.old, NewOK: tc.new}).Verdict(); got != tc.want {
			t.Errorf("OldOK=%v NewOK=%v: %q, want %q", tc.old, tc.new, got, tc.want)
		}
	}
	if (Claim{OldExpected: "1.2초", NewExpected: "1.2초"}).Rounds() || (Claim{NewExpected: "1.3초"}).Rounds() {
		t.Error("Rounds without two different expected literals")
	}
	if !(Claim{OldExpected: "1.2초", NewExpected: "1.3초"}).Rounds() {
		t.Error("no Rounds for 1.2초 → 1.3초")
	}
}

func gitIn(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=t", "-c", "user.email=t@example.org", "-c", "commit.gpgsign=false"}, args...)...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

func writeFiles(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for rel, data := range files {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestExtractTree: the files of a project in a subdirectory of its
// repository come out as the revision has them, not as the work tree
// does; symbolic links are not written; revisions that are options or
// not commits are refused; a directory absent at the revision is absent.
func TestExtractTree(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	repo := t.TempDir()
	gitIn(t, repo, "init", "-q")
	root := filepath.Join(repo, "site")
	writeFiles(t, root, map[string]string{
		"evidence/a/evidence.toml": "id = \"a\"\n",
		"evidence/a/out.txt":       "rps 100\n",
		"evidence/b/c/deep.txt":    "x\n",
		"content/ko/p.md":          "not extracted\n",
	})
	if err := os.Symlink("/etc/passwd", filepath.Join(root, "evidence/a/link.txt")); err != nil {
		t.Fatal(err)
	}
	gitIn(t, repo, "add", "-A")
	gitIn(t, repo, "commit", "-q", "-m", "base")
	base := gitIn(t, repo, "rev-parse", "HEAD")
	writeFiles(t, root, map[string]string{"evidence/a/out.txt": "rps 120\n", "evidence/new.txt": "n\n"})

	ctx := context.Background()
	for _, ref := range []string{"HEAD", base, base[:12]} {
		dst, err := ExtractTree(ctx, root, ref, t.TempDir(), []string{"evidence"})
		if err != nil {
			t.Fatalf("%s: %v", ref, err)
		}
		var got []string
		_ = filepath.WalkDir(dst, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				data, _ := os.ReadFile(p)
				rel, _ := filepath.Rel(dst, p)
				got = append(got, filepath.ToSlash(rel)+"="+string(data))
			}
			return nil
		})
		want := []string{"evidence/a/evidence.toml=id = \"a\"\n", "evidence/a/out.txt=rps 100\n", "evidence/b/c/deep.txt=x\n"}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: extracted %q, want %q", ref, got, want)
		}
	}

	dst, err := ExtractTree(ctx, root, "HEAD", t.TempDir(), []string{"absent"})
	if err != nil {
		t.Fatal(err)
	}
	if ents, _ := os.ReadDir(dst); len(ents) != 0 {
		t.Errorf("a directory absent at the revision gave %d entries", len(ents))
	}

	for _, tc := range []struct{ ref, want string }{
		{"--output=/tmp/x", "expected a commit, branch or tag, not an option"},
		{"no-such-branch", `revision "no-such-branch" is not a commit`},
		{"HEAD:site", "is not a commit"},
	} {
		if _, err := ExtractTree(ctx, root, tc.ref, t.TempDir(), []string{"evidence"}); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ExtractTree(%q): %v, want an error containing %q", tc.ref, err, tc.want)
		}
	}
}

// TestExtractTreeNotARepository: a project outside any git repository is
// an error naming the revision, not an empty tree.
func TestExtractTreeNotARepository(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	dir := t.TempDir()
	t.Setenv("GIT_CEILING_DIRECTORIES", filepath.Dir(dir))
	_, err := ExtractTree(context.Background(), dir, "HEAD", t.TempDir(), []string{"evidence"})
	if err == nil || !bytes.Contains([]byte(err.Error()), []byte(`revision "HEAD"`)) {
		t.Errorf("got %v, want an error naming the revision", err)
	}
}
