package serve

import (
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/evdoc-lab/evdoc/generator/check"
	"github.com/evdoc-lab/evdoc/generator/project"
	"github.com/evdoc-lab/evdoc/generator/staging"
	"github.com/evdoc-lab/evdoc/internal/txtartest"
)

// TestStageEditIsStage: after each edit of a page or an evidence file,
// every file staging.StageEdit writes (the edited pages, the claim and
// set data) is byte for byte the file a whole Stage writes at its path,
// so what serve writes first is what the whole staging leaves. The page
// quotes one value at two precisions and calls a shortcode, which the
// staged page marks (a page staged as written would differ).
func TestStageEditIsStage(t *testing.T) {
	dir := txtartest.WriteFile(t, "testdata/stageedit.txtar")
	ctx := context.Background()
	rc := &IncrementalRechecker{Root: dir, Load: project.LoadOptions{Lazy: true}, Check: check.DefaultOptions()}
	st, err := rc.Recheck(ctx, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if st.Findings.HasErrors() {
		t.Fatalf("the project is not clean to begin with:\n%v", st.Findings)
	}
	first, err := staging.Stage(ctx, st.Site, t.TempDir(), st.Stage, nil)
	if err != nil {
		t.Fatal(err)
	}
	tables := first.Evtables
	if len(tables) == 0 {
		t.Fatal("Stage found no evtable call; the test needs p's")
	}
	cache := &staging.ClaimCache{} // kept from step to step, as serve keeps it
	const call = `{{< evtable set="d" prefix="d" columns="time" >}}`
	sets := ""
	for _, step := range []struct {
		name, file, old, new string
		errors               bool
		setsChange           bool
	}{
		{"evidence value", "evidence/d/report.md", "| A | 12.34 |", "| A | 13.34 |", true, true},
		{"evidence back", "evidence/d/report.md", "| A | 13.34 |", "| A | 12.34 |", false, true},
		{"page claim", "content/ko/docs/p.md", "대략 [12]", "대략 [13]", true, false},
		{"page back", "content/ko/docs/p.md", "대략 [13]", "대략 [12]", false, false},
		{"evtable removed", "content/ko/docs/p.md", call, "표.", false, true},
		{"evtable back", "content/ko/docs/p.md", "표.", call, false, true},
		{"repeats", "content/ko/docs/r.md", "다시", "또", false, false},
		{"other page", "content/ko/docs/q.md", "[6.5]", "[6.4]", true, false},
	} {
		t.Run(step.name, func(t *testing.T) {
			p := filepath.Join(dir, filepath.FromSlash(step.file))
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Contains(b, []byte(step.old)) {
				t.Fatalf("%s lacks %q", step.file, step.old)
			}
			if err := os.WriteFile(p, bytes.Replace(b, []byte(step.old), []byte(step.new), 1), 0o644); err != nil {
				t.Fatal(err)
			}
			changed := []string{step.file}
			if st, err = rc.Recheck(ctx, st, changed); err != nil {
				t.Fatal(err)
			}
			if got := st.Findings.HasErrors(); got != step.errors {
				t.Fatalf("errors %v, want %v:\n%v", got, step.errors, st.Findings)
			}
			pages, ok := editedPages(st, Scope{}, changed)
			if !ok {
				t.Fatalf("an edit of %s is not staged first", step.file)
			}
			edit, read, cached, whole := t.TempDir(), t.TempDir(), t.TempDir(), t.TempDir()
			if err := staging.StageEdit(ctx, st.Site, edit, st.Stage, pages, tables); err != nil {
				t.Fatal(err)
			}
			if err := staging.StageEditCached(ctx, st.Site, cached, st.Stage, pages, tables, cache); err != nil {
				t.Fatal(err)
			}
			if err := staging.StageEdit(ctx, st.Site, read, st.Stage, pages, nil); err != nil {
				t.Fatal(err)
			}
			if _, err := staging.Stage(ctx, st.Site, whole, st.Stage, nil); err != nil {
				t.Fatal(err)
			}
			all := treeFiles(t, whole)
			if got := all["data/evdoc/sets.json"] != sets; got != step.setsChange {
				t.Fatalf("Stage's sets.json changed: %v, want %v; the step does not test what it names", got, step.setsChange)
			}
			sets = all["data/evdoc/sets.json"]
			var got map[string]string
			for _, dir := range []string{edit, read, cached} {
				got = treeFiles(t, dir)
				want := append([]string{"data/evdoc/claims.json", "data/evdoc/sets.json"}, pages...)
				for _, f := range want {
					if _, ok := got[f]; !ok {
						t.Errorf("StageEdit wrote no %s; it wrote %v", f, keys(got))
					}
				}
				for f, b := range got {
					if w, ok := all[f]; !ok {
						t.Errorf("StageEdit wrote %s, which Stage does not", f)
					} else if b != w {
						t.Errorf("%s: StageEdit (evtable calls kept: %v, claim data cached: %v) wrote\n%s\nStage writes\n%s", f, dir != read, dir == cached, clip(b), clip(w))
					}
				}
			}
			if pg, ok := got["content/ko/docs/r.md"]; ok && !strings.Contains(pg, " @=") {
				t.Errorf("the staged page r has no repeat's mark; the test needs it:\n%s", pg)
			}
			if pg, ok := got["content/ko/docs/p.md"]; ok && strings.Contains(pg, "{{") && (!strings.Contains(pg, " ~") || !strings.Contains(pg, " @")) {
				t.Errorf("the staged page p has no precision or position marks; the test needs them:\n%s", pg)
			}
		})
	}
}

// TestChangeBannerOnce: the banner serve writes with the edit first and
// the one the whole staging writes after it are the same bytes, though
// the two are written in different seconds: Hugo would otherwise rebuild
// the open page a second time, and a page shown between the two
// rebuilds would not be the last.
func TestChangeBannerOnce(t *testing.T) {
	ctx := context.Background()
	srv, rc, dir := stagedServer(t, ctx)
	var err error
	p := filepath.Join(dir, "evidence", "d", "report.md")
	b, _ := os.ReadFile(p)
	if err := os.WriteFile(p, bytes.Replace(b, []byte("| A | 12.34 |"), []byte("| A | 13.34 |"), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	srv.state, err = rc.Recheck(ctx, srv.state, []string{"evidence/d/report.md"})
	if err != nil {
		t.Fatal(err)
	}
	srv.checked = time.Now()
	if err := srv.stageEdit(ctx, nil); err != nil {
		t.Fatal(err)
	}
	banner := filepath.Join(srv.served, filepath.FromSlash(BannerFile))
	first, err := os.ReadFile(banner)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(first, []byte(`"failing": true`)) {
		t.Fatalf("the banner staged with the edit does not show its errors:\n%s", first)
	}
	time.Sleep(1100 * time.Millisecond) // the banner shows seconds
	if err := srv.stage(ctx, nil); err != nil {
		t.Fatal(err)
	}
	last, err := os.ReadFile(banner)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(first, last) {
		t.Errorf("the banner changed between the edit's staging and the whole one:\n%s\nthen\n%s", first, last)
	}
	// The edit's staging wrote the evidence viewer's page of report.md
	// (its lines changed) with the claim data: the whole staging after
	// it writes nothing, and Hugo rebuilds once for the save.
	if srv.synced[0] != 0 {
		t.Errorf("the whole staging wrote %d file(s) after the edit's; want none (one Hugo rebuild per save)", srv.synced[0])
	}
}

// TestChangeOneStagingPerSave: after a whole staging, each save of an
// evidence value or of a page's claim is staged whole by the edit's
// staging: the whole staging after it writes no file (each written file
// is a second Hugo rebuild of the save, with a second live reload), and
// the served project is then what a whole staging writes.
func TestChangeOneStagingPerSave(t *testing.T) {
	ctx := context.Background()
	srv, rc, dir := stagedServer(t, ctx)
	for _, step := range []struct{ file, old, new string }{
		{"evidence/d/report.md", "| A | 12.34 |", "| A | 13.34 |"},
		{"evidence/d/report.md", "| A | 13.34 |", "| A | 12.34 |"},
		{"content/ko/docs/p.md", "대략 [12]", "대략 [13]"},
		{"content/ko/docs/p.md", "대략 [13]", "대략 [12]"},
		{"content/ko/docs/q.md", "[6.5]", "[6.4]"},
	} {
		p := filepath.Join(dir, filepath.FromSlash(step.file))
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(b, []byte(step.old)) {
			t.Fatalf("%s lacks %q", step.file, step.old)
		}
		if err := os.WriteFile(p, bytes.Replace(b, []byte(step.old), []byte(step.new), 1), 0o644); err != nil {
			t.Fatal(err)
		}
		if srv.state, err = rc.Recheck(ctx, srv.state, []string{step.file}); err != nil {
			t.Fatal(err)
		}
		pages, ok := editedPages(srv.state, Scope{}, []string{step.file})
		if !ok {
			t.Fatalf("an edit of %s is not staged first", step.file)
		}
		srv.checked = time.Now()
		if err := srv.stageEdit(ctx, pages); err != nil {
			t.Fatal(err)
		}
		if srv.synced[0] == 0 {
			t.Fatalf("%s %q → %q: the edit's staging wrote nothing", step.file, step.old, step.new)
		}
		if !srv.claims.EditComplete() {
			t.Errorf("%s %q → %q: the edit's staging is not called complete; serve would stage the whole project after it", step.file, step.old, step.new)
		}
		edit, before := srv.synced[0], treeFiles(t, srv.served)
		if err := srv.stage(ctx, nil); err != nil {
			t.Fatal(err)
		}
		if srv.synced[0] != 0 {
			var changed []string
			for f, b := range treeFiles(t, srv.served) {
				if before[f] != b {
					changed = append(changed, f)
				}
			}
			t.Errorf("%s %q → %q: the whole staging wrote %d file(s) after the edit's %d: %v; want none", step.file, step.old, step.new, srv.synced[0], edit, changed)
		}
	}
}

// treeFiles returns the regular files under dir by slash path.
func treeFiles(t *testing.T, dir string) map[string]string {
	t.Helper()
	out, err := readTree(dir)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func keys(m map[string]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

func clip(s string) string {
	if len(s) > 600 {
		return s[:600] + "…"
	}
	return s
}

// TestChangeLeavesWholeStageToNextSave: when files changed while an
// edit was re-checked and staged, the whole project is not staged with
// that edit's verdicts (it would read the newer files); the next change
// stages it, even one of files evdoc ignores.
func TestChangeLeavesWholeStageToNextSave(t *testing.T) {
	dir := txtartest.WriteFile(t, "testdata/stageedit.txtar")
	ctx := context.Background()
	rc := &IncrementalRechecker{Root: dir, Load: project.LoadOptions{Lazy: true}, Check: check.DefaultOptions()}
	work := t.TempDir()
	unsent := true
	srv := &server{opt: Options{Root: dir, Out: io.Discard, Log: io.Discard}, rc: rc, dir: work, served: filepath.Join(work, "site"), figures: &project.FigureCache{},
		unsent: func() bool { return unsent }}
	st, err := rc.Recheck(ctx, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	srv.state = st
	if err := srv.stage(ctx, nil); err != nil {
		t.Fatal(err)
	}
	viewer := func() string {
		t.Helper()
		var found string
		_ = filepath.WalkDir(srv.served, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.Contains(filepath.ToSlash(p), "/evidence/d/report") {
				b, _ := os.ReadFile(p)
				found += string(b)
			}
			return nil
		})
		if found == "" {
			t.Fatal("no evidence viewer page of evidence/d/report.md staged")
		}
		return found
	}
	before := viewer()
	p := filepath.Join(dir, "evidence", "d", "report.md")
	b, _ := os.ReadFile(p)
	if err := os.WriteFile(p, bytes.Replace(b, []byte("| A | 12.34 |"), []byte("| A | 13.34 |"), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	srv.change(ctx, []string{"evidence/d/report.md"})
	claims, err := os.ReadFile(filepath.Join(srv.served, "data", "evdoc", "claims.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(claims, []byte("13.34")) {
		t.Errorf("the edit's claim data was not staged first")
	}
	if !srv.partial || viewer() != before {
		t.Fatalf("the whole project was staged though files changed meanwhile (partial %v)", srv.partial)
	}
	unsent = false
	if srv.ignoredBatch([]string{"content/ko/docs/.p.md.swp"}) {
		t.Errorf("a batch of ignored files is left out while a whole staging is owed")
	}
	srv.change(ctx, []string{"content/ko/docs/.p.md.swp"})
	if srv.partial || viewer() == before {
		t.Errorf("the next change, of an ignored file, did not stage the whole project (partial %v)", srv.partial)
	}
}

// TestStageSuperseded: a whole staging during which files changed that
// the state has not re-checked leaves the served project as it was (it
// would show the newer evidence file against the older verdicts), is no
// staging failure in the banner, and leaves the whole staging to the
// next change (partial).
func TestStageSuperseded(t *testing.T) {
	ctx := context.Background()
	srv, rc, dir := stagedServer(t, ctx)
	var err error
	before := treeFiles(t, srv.served)
	p := filepath.Join(dir, "evidence", "d", "report.md")
	b, _ := os.ReadFile(p)
	if err := os.WriteFile(p, bytes.Replace(b, []byte("| A | 12.34 |"), []byte("| A | 13.34 |"), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	// the file is saved; its re-check is still to come
	if err := srv.stage(ctx, func() bool { return true }); !errors.Is(err, errSuperseded) {
		t.Fatalf("stage with files changed meanwhile: %v, want errSuperseded", err)
	}
	if after := treeFiles(t, srv.served); !reflect.DeepEqual(before, after) {
		for f, b := range after {
			if before[f] != b {
				t.Errorf("%s was synced by a staging that files changed during", f)
			}
		}
	}
	if !srv.partial || srv.stageErr != nil {
		t.Errorf("partial %v, staging error %v; want true and none", srv.partial, srv.stageErr)
	}
	if srv.state, err = rc.Recheck(ctx, srv.state, []string{"evidence/d/report.md"}); err != nil {
		t.Fatal(err)
	}
	if err := srv.stage(ctx, func() bool { return false }); err != nil {
		t.Fatal(err)
	}
	if srv.partial || srv.synced[0] == 0 {
		t.Errorf("the next staging: partial %v, %d file(s) written; want false and the changed ones", srv.partial, srv.synced[0])
	}
}

// TestStageFailedWhileSaved: a whole staging that fails on a file being
// saved (an evidence file its writer had truncated: "line 2 is gone")
// before the watcher's event for it came is superseded, not a failure:
// the served project and its banner are left as they were (the banner
// would say the staging failed, over the older verdicts) and the next
// change stages the whole project. The file is hugo.toml replaced by a
// directory, which fails the staging the same way at once.
func TestStageFailedWhileSaved(t *testing.T) {
	ctx := context.Background()
	srv, _, dir := stagedServer(t, ctx)
	var err error
	before := treeFiles(t, srv.served)
	p := filepath.Join(dir, "hugo.toml")
	if err := os.Remove(p); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(p, 0o755); err != nil {
		t.Fatal(err)
	}
	// the watcher reports the change a while after the staging failed
	// (a staging that takes longer is stopped by the report: superseded
	// either way)
	start := time.Now()
	err = srv.stage(ctx, func() bool { return time.Since(start) > 100*time.Millisecond })
	if !errors.Is(err, errSuperseded) {
		t.Fatalf("staging failed on a file whose change the watcher reports %v later: %v, want errSuperseded", time.Since(start).Round(time.Millisecond), err)
	}
	if !srv.partial || srv.stageErr != nil {
		t.Errorf("partial %v, staging error %v; want true and none", srv.partial, srv.stageErr)
	}
	after := treeFiles(t, srv.served)
	if got, want := after[BannerFile], before[BannerFile]; got != want {
		t.Errorf("the banner was written:\n%s\nwant as before:\n%s", got, want)
	}
	// without a watcher's report, the staging fails
	if err := srv.stage(ctx, func() bool { return false }); err == nil || errors.Is(err, errSuperseded) {
		t.Fatalf("staging with hugo.toml a directory and no change reported: %v, want a failure", err)
	}
}

// stagedServer writes testdata/stageedit.txtar's project, checks it and
// stages it whole, as serve does at its start.
func stagedServer(t *testing.T, ctx context.Context) (*server, *IncrementalRechecker, string) {
	t.Helper()
	dir := txtartest.WriteFile(t, "testdata/stageedit.txtar")
	rc := &IncrementalRechecker{Root: dir, Load: project.LoadOptions{Lazy: true}, Check: check.DefaultOptions()}
	work := t.TempDir()
	srv := &server{opt: Options{Root: dir, Out: io.Discard, Log: io.Discard}, rc: rc, dir: work, served: filepath.Join(work, "site"), figures: &project.FigureCache{}, claims: &staging.ClaimCache{}}
	st, err := rc.Recheck(ctx, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	srv.state = st
	if err := srv.stage(ctx, nil); err != nil {
		t.Fatal(err)
	}
	return srv, rc, dir
}

// TestChangeLeavesOutWholeStaging: a save whose edit staging wrote all
// a whole staging would change is not followed by a whole staging (it
// would write nothing, taking the cores from Hugo's rebuild and from the
// next save's re-check); a burst that also changed a file other than a
// page or an evidence file is.
func TestChangeLeavesOutWholeStaging(t *testing.T) {
	ctx := context.Background()
	srv, _, dir := stagedServer(t, ctx)
	var log strings.Builder
	srv.opt.Verbose, srv.opt.Log = true, &log
	for _, step := range []struct {
		files      []string
		old, new   string
		wholeAfter bool
	}{
		{[]string{"evidence/d/report.md"}, "| A | 12.34 |", "| A | 13.34 |", false},
		{[]string{"content/ko/docs/p.md"}, "대략 [12]", "대략 [13]", false},
		{[]string{"content/ko/docs/p.md", "static/extra.css"}, "대략 [13]", "대략 [12]", true},
		{[]string{"evidence/d/report.md"}, "| A | 13.34 |", "| A | 12.34 |", false},
	} {
		log.Reset()
		p := filepath.Join(dir, filepath.FromSlash(step.files[0]))
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, bytes.Replace(b, []byte(step.old), []byte(step.new), 1), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, f := range step.files[1:] {
			if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, f)), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, f), []byte("p { color: red }\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		srv.change(ctx, step.files)
		whole := strings.Contains(log.String(), "evdoc: staged in ")
		if whole != step.wholeAfter || whole == strings.Contains(log.String(), "the edit's staging is the whole project's") {
			t.Errorf("%v %q → %q: whole staging after the edit's: %v, want %v:\n%s", step.files, step.old, step.new, whole, step.wholeAfter, log.String())
		}
		if strings.HasPrefix(step.files[0], "content/") {
			if got, err := os.ReadFile(filepath.Join(srv.served, filepath.FromSlash(step.files[0]))); err != nil || !bytes.Contains(got, []byte(step.new)) {
				t.Errorf("%s: the served page lacks %q (%v)", step.files[0], step.new, err)
			}
		}
	}
}

// TestIgnoredBatch: a batch of files only evdoc and Hugo do not read (a
// log written in the root, editor backups) is left out; one with a page
// or evidence file, or any batch while a whole staging is owed, is not.
func TestIgnoredBatch(t *testing.T) {
	ctx := context.Background()
	srv, _, _ := stagedServer(t, ctx)
	for _, tc := range []struct {
		files   []string
		partial bool
		want    bool
	}{
		{[]string{"serve.log"}, false, true},
		{[]string{"serve.log", "content/ko/docs/.p.md.swp", "README.md"}, false, true},
		{[]string{"serve.log", "content/ko/docs/p.md"}, false, false},
		{[]string{"evidence/d/report.md"}, false, false},
		{[]string{"hugo.toml"}, false, false},
		{[]string{"serve.log"}, true, false},
	} {
		srv.partial = tc.partial
		if got := srv.ignoredBatch(tc.files); got != tc.want {
			t.Errorf("ignoredBatch(%q) with partial %v = %v, want %v", tc.files, tc.partial, got, tc.want)
		}
	}
}
