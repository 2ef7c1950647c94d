package evidence

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evdoc-lab/evdoc/generator/evidence/manifest"
)

// TestDuplicateEntryNameAtEachRepeat (issue 15, fault 9): three entries
// named "s" report the second and the third, each at its own line, not
// both at the first.
func TestDuplicateEntryNameAtEachRepeat(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "evidence", "m1")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	mtext := "id = \"m1\"\ntitle = \"t\"\ndate = \"unknown\"\nenvironment = \"e\"\nreport = \"r\"\norigin = \"raw\"\n"
	for i := 0; i < 3; i++ {
		mtext += "\n[[read]]\nfile   = \"a.stats\"\nformat = \"envoy-stats\"\nname   = \"s\"\n"
	}
	if err := os.WriteFile(filepath.Join(dir, manifest.FileName), []byte(mtext), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "a.stats"), []byte("cluster.x.a: 5\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, errs := LoadSet(root, "evidence/m1")
	var got []string
	for _, d := range errs {
		if d.Rule == "evidence-duplicate" {
			got = append(got, d.Pos.String())
		}
	}
	want := []string{"evidence/m1/evidence.toml:16:10", "evidence/m1/evidence.toml:21:10"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("duplicate names reported at %v, want %v (all: %s)", got, want, errs)
	}
}
