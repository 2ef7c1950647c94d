package committedfigures

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/evdoc-lab/evdoc/generator/figure/output"
	"github.com/evdoc-lab/evdoc/generator/project"
	"github.com/evdoc-lab/evdoc/internal/sitetest"
)

// TestCommittedFigures: every figure of the reference site is taken from
// its committed drawing (a build given Cache draws none), and for
// the quickest to draw the files and record taken are those Files draws,
// path for path and byte for byte.
func TestCommittedFigures(t *testing.T) {
	t.Parallel()
	dir := sitetest.CopyProject(t)
	s, err := project.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	proj, err := s.FigureProject()
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Figures) == 0 {
		t.Fatal("the reference site has no figure")
	}
	cache := Cache(t, s)
	for _, f := range s.Figures {
		files, rec, why := Figure(proj, f)
		if why != "" {
			t.Errorf("figure %s: its committed drawing %s", f.Name, why)
			continue
		}
		// Files gives what Put kept for the figure's current inputs (a
		// marker, which no drawing gives), and Cache kept the committed
		// files.
		marked := &project.FigureCache{}
		if !marked.Put(proj, f, []output.File{{Path: "marker", Data: []byte("kept")}}, rec) {
			t.Fatalf("figure %s: Put kept nothing", f.Name)
		}
		if got, _, err := marked.Files(proj, f); err != nil || len(got) != 1 || string(got[0].Data) != "kept" {
			t.Errorf("figure %s: Files after Put gave %d files (%v), not the ones kept", f.Name, len(got), err)
		}
		if kept, _, err := cache.Files(proj, f); err != nil || len(kept) != len(files) || !bytes.Equal(kept[len(kept)-1].Data, files[len(files)-1].Data) {
			t.Errorf("figure %s: the cache does not give the committed files (%v)", f.Name, err)
		}
		if f.Name != "d3-failure-rate" {
			continue
		}
		drawn, drawnRec, err := proj.Files(f)
		if err != nil {
			t.Fatal(err)
		}
		if len(files) != len(drawn) {
			t.Fatalf("figure %s: %d committed files, %d drawn", f.Name, len(files), len(drawn))
		}
		for i := range drawn {
			if files[i].Path != drawn[i].Path || !bytes.Equal(files[i].Data, drawn[i].Data) {
				t.Errorf("figure %s: committed %s (%d bytes), drawn %s (%d bytes)", f.Name, files[i].Path, len(files[i].Data), drawn[i].Path, len(drawn[i].Data))
			}
		}
		if !reflect.DeepEqual(rec, drawnRec) {
			a, _ := json.Marshal(rec)
			b, _ := json.Marshal(drawnRec)
			t.Errorf("figure %s: committed record\n%s\ndrawn\n%s\n(JSON; equal JSON differs in a field the JSON leaves out)", f.Name, a, b)
		}
	}
}
