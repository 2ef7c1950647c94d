package txtartest

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/tools/txtar"
)

// recorder is a testing.TB that records failures instead of failing.
type recorder struct {
	testing.TB
	failed []string
}

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, args ...any) {
	r.failed = append(r.failed, fmt.Sprintf(format, args...))
}
func (r *recorder) Fatalf(format string, args ...any) { r.Errorf(format, args...) }

func TestCheckGolden(t *testing.T) {
	if Updating() {
		t.Skip("compares only")
	}
	ar := txtar.Parse([]byte("-- a.md --\nx\n-- want --\nok\n"))
	for _, tt := range []struct {
		ar   *txtar.Archive
		got  string
		fail bool
	}{
		{ar, "ok\n", false},
		{ar, "not ok\n", true},
		{txtar.Parse([]byte("-- a.md --\nx\n")), "ok\n", true}, // no want member
	} {
		r := &recorder{TB: t}
		CheckGolden(r, "case.txtar", tt.ar, []byte(tt.got))
		if (len(r.failed) > 0) != tt.fail {
			t.Errorf("CheckGolden(%q): failures %q, want failure %v", tt.got, r.failed, tt.fail)
		}
	}
}

func TestWriteSkipsWant(t *testing.T) {
	dir := Write(t, txtar.Parse([]byte("-- sub/a.md --\nx\n-- want --\nok\n")))
	if b, err := os.ReadFile(filepath.Join(dir, "sub", "a.md")); err != nil || string(b) != "x\n" {
		t.Errorf("sub/a.md = %q, %v", b, err)
	}
	if _, err := os.Stat(filepath.Join(dir, WantFile)); err == nil {
		t.Errorf("%s written to the project", WantFile)
	}
}
