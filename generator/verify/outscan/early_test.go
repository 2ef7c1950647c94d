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

	got, err := DirAfter(context.Background(), dir, "/", e)
	if err != nil {
		t.Fatal(err)
	}
	want, err := Dir(context.Background(), dir, "/")
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
	if len(got.Broken) != 1 || !strings.HasPrefix(got.Broken[0], "appended/index.html: link to /missing.png") {
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
	sc, err := DirAfter(context.Background(), dir, "/", none)
	if err != nil || len(sc.Problems) != 1 {
		t.Errorf("DirAfter(nil) = %v, %v; want the #ZgotmplZ", sc, err)
	}
}
