package outscan

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// waitRead waits until e has read n files.
func waitRead(t *testing.T, e *Early, n int) {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if _, read := e.Reused(); read >= n {
			return
		}
	}
	_, read := e.Reused()
	t.Fatalf("early read %d files, want %d", read, n)
}

// TestEarlyFilesChangedAfter: a file Early read and that changed after
// is read again, so DirAfter finds what Dir finds: a file rewritten to
// the same size with the same modification time (a look at size and
// time would take the early scan, which has no #ZgotmplZ and another
// claim), a file appended to after Early read its first part, a file
// removed, and one written after Early stopped. Only the files left
// as they were are taken from Early, one of them in a directory made
// while Early ran.
func TestEarlyFilesChangedAfter(t *testing.T) {
	dir := t.TempDir()
	claim := func(line int) string {
		return `<p><a data-ev-at="ko:docs/p.md:` + string(rune('0'+line)) + `:1" data-ev="ev:s/a">1</a></p>`
	}
	rewritten := `<html><body>` + claim(1) + `<a href="#ZgotmplZ">x</a></body></html>`
	before := `<html><body>` + claim(2) + strings.Repeat(" ", len(rewritten)-len(claim(2))-len(`<html><body></body></html>`)) + `</body></html>`
	if len(before) != len(rewritten) {
		t.Fatalf("sizes %d and %d", len(before), len(rewritten))
	}
	files := map[string]string{
		"rewritten/index.html": before,
		"appended/index.html":  `<html><body>` + claim(3),
		"removed/index.html":   `<html><body>` + claim(4) + `</body></html>`,
		"same/index.html":      `<html><body>` + claim(5) + `</body></html>`,
		"index.html":           `<html><body><a href="/same/">s</a></body></html>`,
	}
	for name, b := range files {
		if err := writeFile(filepath.Join(dir, name), []byte(b)); err != nil {
			t.Fatal(err)
		}
	}
	e := StartEarly(context.Background(), dir)
	defer e.Stop()
	waitRead(t, e, len(files))
	// a directory made while Early runs is looked into
	if err := writeFile(filepath.Join(dir, "new/sub/index.html"), []byte(`<html><body>`+claim(8)+`</body></html>`)); err != nil {
		t.Fatal(err)
	}
	waitRead(t, e, len(files)+1)

	p := filepath.Join(dir, "rewritten/index.html")
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(rewritten), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(p, fi.ModTime(), fi.ModTime()); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(filepath.Join(dir, "appended/index.html"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(claim(6) + `<img src="/missing.png"></body></html>`); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if err := os.Remove(filepath.Join(dir, "removed/index.html")); err != nil {
		t.Fatal(err)
	}
	e.Stop()
	if err := writeFile(filepath.Join(dir, "late/index.html"), []byte(`<html><body>`+claim(7)+`</body></html>`)); err != nil {
		t.Fatal(err)
	}

	got, err := DirAfter(context.Background(), dir, nil, e)
	if err != nil {
		t.Fatal(err)
	}
	want, err := Dir(context.Background(), dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("DirAfter = %+v\nDir = %+v", got, want)
	}
	wantClaims := map[string]bool{"1:1|ev:s/a": true, "3:1|ev:s/a": true, "6:1|ev:s/a": true, "5:1|ev:s/a": true, "7:1|ev:s/a": true, "8:1|ev:s/a": true}
	if c := got.Claims[PageKey{"ko", "docs/p.md"}]; !reflect.DeepEqual(c, wantClaims) {
		t.Errorf("claims = %v, want %v", c, wantClaims)
	}
	if len(got.Problems) != 1 || !strings.HasPrefix(got.Problems[0], "rewritten/index.html: contains #ZgotmplZ") {
		t.Errorf("problems = %q, want the rewritten file's #ZgotmplZ", got.Problems)
	}
	if len(got.Broken) != 1 || !strings.HasPrefix(got.Broken[0], "appended/index.html:1:137: link to /missing.png") {
		t.Errorf("broken = %q, want the appended part's link", got.Broken)
	}
	if reused, _ := e.Reused(); reused != 3 {
		t.Errorf("%d files taken from the early scan, want 3 (index.html, same/ and new/sub/)", reused)
	}
}

// TestEarlyStop: Early stops when its context is done, Stop may be
// called twice, and a nil Early reads nothing and DirAfter with it is
// Dir.
func TestEarlyStop(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	e := StartEarly(ctx, filepath.Join(t.TempDir(), "not-yet"))
	cancel()
	select {
	case <-e.done:
	case <-time.After(10 * time.Second):
		t.Fatal("Early still running after its context was canceled")
	}
	e.Stop()
	e.Stop()
	var none *Early
	none.Stop()
	if r, n := none.Reused(); r != 0 || n != 0 {
		t.Errorf("nil Early: Reused() = %d, %d", r, n)
	}
	dir := t.TempDir()
	if err := writeFile(filepath.Join(dir, "index.html"), []byte(`<a href="#ZgotmplZ">x</a>`)); err != nil {
		t.Fatal(err)
	}
	sc, err := DirAfter(context.Background(), dir, nil, none)
	if err != nil || len(sc.Problems) != 1 {
		t.Errorf("DirAfter(nil) = %v, %v; want the #ZgotmplZ", sc, err)
	}
}

// testFiller fills "<evdoc-c d=…>" placeholders with a claim marker of
// language lang once lang's formats file is there (langs).
type testFiller struct{ langs map[string]bool }

func (f testFiller) Fill(rel string, b []byte) ([]byte, bool, error) {
	s := string(b)
	if !strings.Contains(s, "<evdoc-c d=") {
		return b, false, nil
	}
	for _, lang := range []string{"ko", "ja"} {
		ph := `<evdoc-c d="` + lang + `">1</evdoc-c>`
		if strings.Contains(s, ph) {
			if !f.langs[lang] {
				return nil, false, os.ErrNotExist
			}
			s = strings.ReplaceAll(s, ph, `<a data-ev-at="`+lang+`:docs/p.md:1:1" data-ev="ev:s/a">1</a>`)
		}
	}
	return []byte(s), true, nil
}

func (testFiller) Reads(ext string) bool { return ext == ".json" }

// TestEarlyFill: files with claim placeholders are filled in while Hugo
// runs once the formats of their language are there, moved into place
// by DirFill when the file is still the one filled, and filled by DirFill
// when not; the result is Dir's on the filled site.
func TestEarlyFill(t *testing.T) {
	dir, fillDir := t.TempDir(), t.TempDir()
	page := func(lang string) string {
		return `<html><body><p><evdoc-c d="` + lang + `">1</evdoc-c></p></body></html>`
	}
	files := map[string]string{"ko/index.html": page("ko"), "ja/index.html": page("ja"), "changed/index.html": page("ko"), "index.html": `<p>x</p>`}
	for name, b := range files {
		if err := writeFile(filepath.Join(dir, name), []byte(b)); err != nil {
			t.Fatal(err)
		}
	}
	if err := writeFile(filepath.Join(dir, "formats.json"), []byte("ko")); err != nil {
		t.Fatal(err)
	}
	var calls int
	from := func(fs []string) Filler {
		calls++
		langs := map[string]bool{}
		for _, f := range fs {
			b, _ := os.ReadFile(f)
			langs[string(b)] = true
		}
		return testFiller{langs}
	}
	e := StartEarlyFill(context.Background(), dir, fillDir, "formats.json", from)
	defer e.Stop()
	waitRead(t, e, 3) // index.html, ko/, changed/
	if err := writeFile(filepath.Join(dir, "ja", "formats.json"), []byte("ja")); err != nil {
		t.Fatal(err)
	}
	waitRead(t, e, 4)
	// a file Hugo wrote again after it was filled
	if err := os.WriteFile(filepath.Join(dir, "changed/index.html"), []byte(page("ja")), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := DirFill(context.Background(), dir, nil, e, testFiller{map[string]bool{"ko": true, "ja": true}})
	if err != nil {
		t.Fatal(err)
	}
	if reused, _ := e.Reused(); reused != 3 { // index.html, ko/, ja/
		t.Errorf("%d files taken from early, want 3", reused)
	}
	if calls < 2 {
		t.Errorf("formats read %d times", calls)
	}
	for _, name := range []string{"ko/index.html", "ja/index.html", "changed/index.html"} {
		b, _ := os.ReadFile(filepath.Join(dir, name))
		if strings.Contains(string(b), "evdoc-c") {
			t.Errorf("%s not filled: %s", name, b)
		}
	}
	want, err := Dir(context.Background(), dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("DirFill found\n%+v\nDir on the filled site\n%+v", got, want)
	}
	if len(got.Claims[PageKey{"ja", "docs/p.md"}]) != 1 || len(got.Claims[PageKey{"ko", "docs/p.md"}]) != 1 {
		t.Errorf("claims %v", got.Claims)
	}
}
