//go:build unix

package checker

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/evdoc-lab/evdoc/generator/check"
	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/generator/evidence"
	"github.com/evdoc-lab/evdoc/generator/project"
	"github.com/evdoc-lab/evdoc/internal/sitetest"
	"github.com/evdoc-lab/evdoc/internal/txtartest"
)

const setHead = "id = \"p2\"\ntitle = \"t\"\ndate = \"unknown\"\nenvironment = \"e\"\nreport = \"r\"\n"

// TestHostileInputs (faults 3, 4, 9 and 16): links, FIFOs, devices,
// deep nesting, oversized files, raw HTML and invalid UTF-8 are findings
// at file:line:col, reached quickly, never a hang, a crash or a silent
// publication.
func TestHostileInputs(t *testing.T) {
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "evidence.toml"), []byte(setHead+"# secret: hunter2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	deepList := "---\ntitle: d\n---\n\n"
	for i := 0; i < 3000; i++ {
		deepList += strings.Repeat("  ", i) + "- x\n"
	}
	tests := []struct {
		name  string
		setup func(t *testing.T, dir string)
		opt   project.LoadOptions
		want  string // "file:line:col: error: ..." prefix and rule
		rule  diag.RuleID
	}{
		{"manifest links outside", func(t *testing.T, dir string) {
			sitetest.Mkdir(t, dir, "evidence/p2")
			symlink(t, filepath.Join(outside, "evidence.toml"), filepath.Join(dir, "evidence/p2/evidence.toml"))
		}, project.LoadOptions{}, "evidence/p2/evidence.toml:1:1", diag.EvidencePath},
		{"manifest links to /dev/zero", func(t *testing.T, dir string) {
			sitetest.Mkdir(t, dir, "evidence/p2")
			symlink(t, "/dev/zero", filepath.Join(dir, "evidence/p2/evidence.toml"))
		}, project.LoadOptions{}, "evidence/p2/evidence.toml:1:1", diag.EvidencePath},
		{"manifest is a FIFO", func(t *testing.T, dir string) {
			sitetest.Mkdir(t, dir, "evidence/p2")
			mkfifo(t, filepath.Join(dir, "evidence/p2/evidence.toml"))
		}, project.LoadOptions{}, "evidence/p2/evidence.toml:1:1", diag.EvidencePath},
		{"raw file is a FIFO", func(t *testing.T, dir string) {
			sitetest.Mkdir(t, dir, "evidence/p2")
			sitetest.Write(t, dir, "evidence/p2/evidence.toml", setHead+"\n[[read]]\nfile = \"a.stats\"\nformat = \"envoy-stats\"\nname = \"s\"\n")
			mkfifo(t, filepath.Join(dir, "evidence/p2/a.stats"))
		}, project.LoadOptions{}, "evidence/p2/evidence.toml:8:8", diag.EvidencePath},
		{"raw file over the size limit", func(t *testing.T, dir string) {
			sitetest.Mkdir(t, dir, "evidence/p2")
			sitetest.Write(t, dir, "evidence/p2/evidence.toml", setHead+"\n[[read]]\nfile = \"a.stats\"\nformat = \"envoy-stats\"\nname = \"s\"\n")
			sitetest.Write(t, dir, "evidence/p2/a.stats", strings.Repeat("cluster.x.upstream_rq_total: 5\n", 100))
		}, project.LoadOptions{Evidence: evidenceOpts(1000)}, "evidence/p2/evidence.toml:8:8", diag.EvidenceLimit},
		{"deeply nested manifest", func(t *testing.T, dir string) {
			sitetest.Mkdir(t, dir, "evidence/p2")
			sitetest.Write(t, dir, "evidence/p2/evidence.toml", setHead+"x = "+strings.Repeat("[", 2_000_000)+strings.Repeat("]", 2_000_000)+"\n")
		}, project.LoadOptions{}, "evidence/p2/evidence.toml:6:105", diag.EvidenceLimit},
		{"deeply nested raw JSON", func(t *testing.T, dir string) {
			sitetest.Mkdir(t, dir, "evidence/p2")
			sitetest.Write(t, dir, "evidence/p2/evidence.toml", setHead+"\n[[read]]\nfile = \"a.json\"\nformat = \"fortio-json\"\nname = \"s\"\n")
			sitetest.Write(t, dir, "evidence/p2/a.json", "\n"+strings.Repeat("[", 1_000_000))
		}, project.LoadOptions{}, "evidence/p2/a.json:2:101", diag.EvidenceLimit},
		{"figure spec links outside", func(t *testing.T, dir string) {
			sitetest.Mkdir(t, dir, "figures")
			symlink(t, filepath.Join(outside, "evidence.toml"), filepath.Join(dir, "figures/f.toml"))
		}, project.LoadOptions{}, "figures/f.toml:1:1", diag.FigureSpec},
		{"3000-level list", func(t *testing.T, dir string) {
			sitetest.Write(t, dir, "content/ko/docs/deep.md", deepList)
		}, project.LoadOptions{}, "content/ko/docs/deep.md:105:203", diag.PageLimit},
		{"raw HTML", func(t *testing.T, dir string) {
			sitetest.Write(t, dir, "content/ko/docs/h.md", "---\ntitle: h\n---\n\nSee <br> here.\n\n<div>\nblock\n</div>\n\n<!-- a comment is fine -->\n")
		}, project.LoadOptions{}, "content/ko/docs/h.md:5:5", diag.PageHTML},
		{"raw HTML block", func(t *testing.T, dir string) {
			sitetest.Write(t, dir, "content/ko/docs/h.md", "---\ntitle: h\n---\n\n<div>\nblock\n</div>\n")
		}, project.LoadOptions{}, "content/ko/docs/h.md:5:1", diag.PageHTML},
		{"invalid UTF-8", func(t *testing.T, dir string) {
			sitetest.Write(t, dir, "content/ko/docs/u.md", "---\ntitle: u\n---\n\nok \xff\xfe broken\n")
		}, project.LoadOptions{}, "content/ko/docs/u.md:5:4", diag.PageEncoding},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := txtartest.WriteFile(t, "testdata/check/clean.txtar")
			tt.setup(t, dir)
			type result struct {
				s   *project.Site
				err error
			}
			done := make(chan result, 1)
			start := time.Now()
			go func() {
				s, err := project.LoadWith(dir, tt.opt)
				done <- result{s, err}
			}()
			var r result
			select {
			case r = <-done:
			case <-time.After(20 * time.Second):
				t.Fatal("Load did not return in 20 s")
			}
			if r.err != nil {
				t.Fatal(r.err)
			}
			if d := time.Since(start); d > 10*time.Second {
				t.Errorf("Load took %v", d)
			}
			_, ds := Check(r.s, check.DefaultOptions())
			found := false
			for _, d := range ds {
				if d.Rule == tt.rule && strings.HasPrefix(d.String(), tt.want+": error:") {
					found = true
				}
				if strings.Contains(d.Message, "hunter2") {
					t.Errorf("outside file's content leaked into a finding: %s", d)
				}
			}
			if !found {
				t.Errorf("want an error %s at %s; got:\n%s", tt.rule, tt.want, ds)
			}
			if !ds.HasErrors() {
				t.Error("no error: the site would build")
			}
		})
	}
}

func evidenceOpts(max int64) evidence.Options { return evidence.Options{MaxFileSize: max} }

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}

func mkfifo(t *testing.T, p string) {
	t.Helper()
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestEvidencePageNameCollisions (fault 9): raw files whose pages would
// overwrite each other, the manifest's page or the set's page are
// errors at the manifest line naming the later file.
func TestEvidencePageNameCollisions(t *testing.T) {
	dir := txtartest.WriteFile(t, "testdata/check/clean.txtar")
	m := setHead + "origin = \"raw\"\n"
	for i, f := range []string{"r.txt", "r-txt", "_index", "evidence-toml", "R.TXT", "R.TXT-p2"} {
		m += "\n[[transcript]]\nfile = \"" + f + "\"\nname = \"n" + strconv.Itoa(i) + "\"\n"
		sitetest.Write(t, dir, "evidence/p2/"+f, "count=1\n")
	}
	sitetest.Write(t, dir, "evidence/p2/evidence.toml", m)
	s, err := project.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	_, ds := Check(s, check.DefaultOptions())
	var got []string
	for _, d := range ds {
		if d.Rule == diag.EvidencePageName {
			got = append(got, d.Pos.String())
		}
	}
	// Files are taken in name order: R.TXT keeps its page, then r.txt
	// (line 9) and r-txt (13) collide with it, _index (17) with the set's
	// page, evidence-toml (21) with the manifest's.
	// R.TXT-p2 (29) would take the name of R.TXT's second window page.
	want := []string{"evidence/p2/evidence.toml:9:8", "evidence/p2/evidence.toml:13:8", "evidence/p2/evidence.toml:17:8", "evidence/p2/evidence.toml:21:8", "evidence/p2/evidence.toml:29:8"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("collisions at %v, want %v\n%s", got, want, ds)
	}
}

// TestEveryReadIsBounded (issue 26, fault 8): the project files evdoc
// reads besides evidence — hugo.toml, evdoc.toml, a configuration
// directory's files, i18n files, pages, layouts — are read only as
// regular files under a size limit: a FIFO (or a link to /dev/zero) is a
// clear error naming it, returned at once, never a read that blocks or
// grows without bound.
func TestEveryReadIsBounded(t *testing.T) {
	for _, rel := range []string{"hugo.toml", "evdoc.toml", "content/ko/docs/fifo.md", "i18n/ko.toml"} {
		t.Run(rel, func(t *testing.T) {
			dir := txtartest.WriteFile(t, "testdata/check/clean.txtar")
			p := filepath.Join(dir, filepath.FromSlash(rel))
			sitetest.Mkdir(t, dir, filepath.Dir(rel))
			os.Remove(p)
			mkfifo(t, p)
			done := make(chan string, 1)
			go func() {
				s, err := project.Load(dir)
				switch {
				case err != nil:
					done <- err.Error()
				default:
					var b strings.Builder
					for _, d := range NewChecker(s, check.Options{}).Diagnostics() {
						b.WriteString(d.String() + "\n")
					}
					done <- b.String()
				}
			}()
			select {
			case msg := <-done:
				if !strings.Contains(msg, "FIFO") {
					t.Errorf("%s is a FIFO: got %q, want an error saying so", rel, msg)
				}
			case <-time.After(20 * time.Second):
				t.Fatalf("loading blocked on %s, a FIFO", rel)
			}
		})
	}
}

// TestCheckAgreesWithBuild (issue 26, fault 10): front matter Hugo
// refuses — a date it cannot read, a url under /evidence/ where evdoc
// publishes the evidence pages — is a check error at the field, so check
// does not pass a page the build then fails on.
func TestCheckAgreesWithBuild(t *testing.T) {
	for _, c := range []struct{ fm, want string }{
		{"date: notadate\n", `content/ko/docs/hb.md:3:7: error: date "notadate" is not a date Hugo can read`},
		{"url: /evidence/p2/result-txt/\n", `content/ko/docs/hb.md:3:6: error: url "/evidence/p2/result-txt/" is under /evidence/`},
		{"url: /ja/evidence/\n", `content/ko/docs/hb.md:3:6: error: url "/ja/evidence/" is under /evidence/`},
		{"url: /docs/evidence-notes/\n", ""},
	} {
		dir := txtartest.WriteFile(t, "testdata/check/clean.txtar")
		sitetest.Write(t, dir, "content/ko/docs/hb.md", "---\ntitle: hb\n"+c.fm+"---\n\n글.\n")
		s, err := project.Load(dir)
		if err != nil {
			t.Fatal(err)
		}
		got := NewChecker(s, check.Options{}).Diagnostics().Error()
		if c.want == "" && strings.Contains(got, "hb.md") || c.want != "" && !strings.Contains(got, c.want) {
			t.Errorf("%q: findings\n%s\nwant %q", c.fm, got, c.want)
		}
	}
}
