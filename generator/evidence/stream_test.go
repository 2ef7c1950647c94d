package evidence

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evdoc-lab/evdoc/generator/evidence/raw"
)

// TestLoadStreamsLargeLineFile (issue 15, fault 8): a [[read]] of an
// envoy-stats file larger than a read window is read from the file
// window by window: the selected values, their positions and the set's
// file list are those of a whole read, for two reads of one file too;
// a selected key the file lacks is still reported.
func TestLoadStreamsLargeLineFile(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "evidence", "big")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	key := func(i int) string {
		return fmt.Sprintf("cluster.outbound|80||svc%d.ns.svc.cluster.local.upstream_rq_total", i)
	}
	var b strings.Builder
	offsets := map[int]int{}
	n := 0
	for b.Len() <= raw.DefaultWindow+(1<<20) {
		offsets[n] = b.Len()
		fmt.Fprintf(&b, "%s: %d\n", key(n), n*3)
		n++
	}
	if err := os.WriteFile(filepath.Join(dir, "admin.stats"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	last := n - 1
	manifest := "id = \"big\"\ntitle = \"t\"\ndate = \"2026-07-09\"\nenvironment = \"e\"\nreport = \"r\"\norigin = \"raw\"\n\n" +
		fmt.Sprintf("[[read]]\nfile = \"admin.stats\"\nformat = \"envoy-stats\"\nname = \"a\"\nselect = { %q = \"first\", %q = \"last\" }\n\n", key(0), key(last)) +
		fmt.Sprintf("[[read]]\nfile = \"admin.stats\"\nformat = \"envoy-stats\"\nname = \"b\"\nselect = { %q = \"mid\" }\n", key(last/2))
	if err := os.WriteFile(filepath.Join(dir, "evidence.toml"), []byte(manifest), 0o644); err != nil {
		t.Fatal(err)
	}
	set, errs := LoadSet(root, "evidence/big")
	if set == nil || errs.HasErrors() {
		t.Fatalf("load: %v", errs)
	}
	for name, i := range map[string]int{"a.first": 0, "a.last": last, "b.mid": last / 2} {
		v := set.get(name)
		if v == nil {
			t.Errorf("%s missing", name)
			continue
		}
		if v.Value.String() != fmt.Sprint(i*3) || v.Pos.Line != i+1 || v.Pos.Offset != offsets[i]+len(key(i))+2 {
			t.Errorf("%s = %s at line %d offset %d, want %d at line %d offset %d", name, v.Value, v.Pos.Line, v.Pos.Offset, i*3, i+1, offsets[i]+len(key(i))+2)
		}
	}
	if fmt.Sprint(set.Files) != "[evidence/big/admin.stats]" {
		t.Errorf("files %v, want the dump once", set.Files)
	}
	bad := strings.Replace(manifest, key(last/2), "no.such.stat", 1)
	if err := os.WriteFile(filepath.Join(dir, "evidence.toml"), []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, errs := LoadSet(root, "evidence/big"); !strings.Contains(fmt.Sprint(errs), `has no numeric reading "no.such.stat"`) {
		t.Errorf("a missing selected stat is not reported: %v", errs)
	}
	// Over the size limit: refused before reading, as a whole read is.
	if _, errs := LoadSetWith(root, "evidence/big", Options{MaxFileSize: 1 << 20}); !strings.Contains(fmt.Sprint(errs), "limit") {
		t.Errorf("a file over --max-file-size is not refused: %v", errs)
	}
}
