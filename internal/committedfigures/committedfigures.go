// Package committedfigures gives a test's build of the reference site
// (or another project with committed figures) the drawings committed in
// assets/figures instead of drawing them again: drawing is most of a
// build's CPU time under -race. generator/figure/output's golden tests
// compare those drawings with fresh ones.
package committedfigures

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"testing"

	"github.com/evdoc-lab/evdoc/generator/figure"
	"github.com/evdoc-lab/evdoc/generator/figure/output"
	"github.com/evdoc-lab/evdoc/generator/figure/spec"
	"github.com/evdoc-lab/evdoc/generator/project"
)

// Cache returns a FigureCache holding, for each figure of s
// whose committed drawing (assets/figures: NAME.LANG.png, .svg,
// .narrow.svg and the record NAME.json) was drawn from what the figure
// would be drawn from now, those files, so that a build stages them
// instead of drawing the figure again: drawing is most of the reference
// site's build time under -race. For a test that reads a figure only as
// a page shows it (that it loads, its size), or compares two builds,
// the files are the same as drawn ones when the goldens hold.
//
// A committed drawing is taken only when its record names the spec's
// file and source digest, every input (reference, value, raw text and
// position) as the evidence gives it now, the alt text and caption of
// each language, and the digest of each file as read. Whether today's
// drawing code draws exactly those bytes is what generator/figure/output's
// TestReferenceFigures checks; a figure not taken is drawn by the build.
func Cache(t testing.TB, s *project.Site) *project.FigureCache {
	t.Helper()
	proj, err := s.FigureProject()
	if err != nil {
		t.Fatal(err)
	}
	c := &project.FigureCache{}
	for _, f := range s.Figures {
		files, rec, why := Figure(proj, f)
		if why != "" {
			t.Logf("figure %s drawn by the build: its committed drawing %s", f.Name, why)
			continue
		}
		if !c.Put(proj, f, files, rec) {
			t.Logf("figure %s drawn by the build: its inputs cannot be read", f.Name)
		}
	}
	return c
}

// Figure reads f's committed files in the order Files returns
// them, or says why they are not f's drawing from the current inputs.
func Figure(proj *output.Project, f *figure.Spec) ([]output.File, *output.Record, string) {
	read := func(rel string) ([]byte, error) {
		return os.ReadFile(filepath.Join(proj.Root, filepath.FromSlash(rel)))
	}
	digest := func(b []byte) string {
		h := sha256.Sum256(b)
		return hex.EncodeToString(h[:])
	}
	recPath := path.Join(output.OutputDir, f.Name+".json")
	recBytes, err := read(recPath)
	if err != nil {
		return nil, nil, err.Error()
	}
	var rec output.Record
	if err := json.Unmarshal(recBytes, &rec); err != nil {
		return nil, nil, fmt.Sprintf("has a record that does not parse: %v", err)
	}
	if rec.Spec != f.File || rec.SpecSHA256 != digest(f.Src) {
		return nil, nil, "was drawn from another spec"
	}
	inputs, errs := f.Inputs(proj.Store)
	if errs != nil {
		return nil, nil, "cannot be compared: " + errs.Error()
	}
	now, _ := json.Marshal(inputs)
	then, _ := json.Marshal(rec.Inputs)
	if !bytes.Equal(now, then) {
		return nil, nil, "was drawn from other evidence inputs"
	}
	// The record Files gives holds the inputs as read, with the parts of
	// their positions the JSON record leaves out (the staged figure data
	// links the first input's raw line through them).
	rec.Inputs = inputs
	if len(rec.Languages) != len(proj.Langs) {
		return nil, nil, "was drawn for other languages"
	}
	var files []output.File
	for _, lang := range proj.Langs {
		lr, ok := rec.Languages[lang]
		if !ok {
			return nil, nil, "has no drawing for " + lang
		}
		alt, err := f.AltText(proj.Store, lang)
		if err != nil || alt != lr.Alt || spec.Plain(f.Caption, lang) != lr.Caption {
			return nil, nil, "has another alt text or caption in " + lang
		}
		base := path.Join(output.OutputDir, f.Name+"."+lang)
		for _, fd := range []struct{ ext, sum string }{{".png", lr.PNGSHA256}, {".svg", lr.SVGSHA256}, {".narrow.svg", lr.NarrowSHA256}} {
			b, err := read(base + fd.ext)
			if err != nil {
				return nil, nil, err.Error()
			}
			if digest(b) != fd.sum {
				return nil, nil, base + fd.ext + " is not the file its record names"
			}
			files = append(files, output.File{Path: base + fd.ext, Data: b})
		}
	}
	files = append(files, output.File{Path: recPath, Data: recBytes})
	return files, &rec, ""
}
