package evidence

import (
	"path"
	"strings"

	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/generator/evidence/manifest"
)

// Origins of evidence files, the values of origin in evidence.toml.
const (
	// OriginRaw marks a file the lab run itself produced (a tool's output,
	// a report written from the run), kept unchanged in form.
	OriginRaw = "raw"
	// OriginTranscribed marks a file re-typed from a published document
	// (for example the appendix of a published page): its numbers are as
	// exact as the document printed them, and the lab's own output is not
	// available.
	OriginTranscribed = "transcribed"
)

// Provenance says how one evidence file was obtained.
//
// Origin is OriginRaw or OriginTranscribed. Source names the document and
// section a transcribed file was re-typed from (for a raw file it may name
// the run or tool). SourceFile, when set, is the path of a plain-text copy
// of that document relative to the repository root (it may lie outside the
// repository, such as "../shared/seeds/page.txt"); tests compare every
// transcribed value with it.
type Provenance struct {
	Origin     string `json:"origin"`
	Source     string `json:"source,omitempty"`
	SourceFile string `json:"source_file,omitempty"`
	// SourceText is Source per site language (the manifest's
	// [text.LANG] source), for a file whose source is the set's.
	SourceText map[string]string `json:"source_text,omitempty"`
}

// Provenance returns the provenance of file, a repository-relative path of
// one of the set's raw files (or of its manifest): the [[file]] entry for it
// merged over the set's origin, source and source_file. A [[file]] entry
// with a different origin does not inherit the set's source.
func (s *Set) Provenance(file string) Provenance {
	return provenanceOf(&s.Manifest, strings.TrimPrefix(strings.TrimPrefix(file, s.Dir), "/"))
}

func provenanceOf(m *manifest.Manifest, rel string) Provenance {
	p := Provenance{Origin: m.Origin, Source: m.Source, SourceFile: m.SourceFile}
	for _, f := range m.Files {
		if path.Clean(f.Path) != path.Clean(rel) {
			continue
		}
		if f.Origin != "" && f.Origin != p.Origin {
			// A file of another origin does not inherit the set's source.
			p = Provenance{Origin: f.Origin}
		}
		if f.Source != "" {
			p.Source = f.Source
		}
		if f.SourceFile != "" {
			p.SourceFile = f.SourceFile
		}
	}
	if p.Source == m.Source && p.Source != "" {
		for lang, t := range m.Text {
			if t.Source != "" {
				if p.SourceText == nil {
					p.SourceText = map[string]string{}
				}
				p.SourceText[lang] = t.Source
			}
		}
	}
	return p
}

// checkProvenance reports, under diag.EvidenceOrigin, every file of the set (rel
// paths, relative to the set directory) that has no origin, an origin
// other than raw or transcribed, or is transcribed without a source, and
// every [[file]] entry that names a file the set does not read or names
// it twice. Positions point into the manifest (mix, src).
func checkProvenance(m *manifest.Manifest, mix *diag.LineIndex, src []byte, files []string) diag.List {
	var errs diag.List
	valid := func(o string) bool { return o == OriginRaw || o == OriginTranscribed }
	if m.Origin != "" && !valid(m.Origin) {
		errs = append(errs, diag.Errorf(manifest.Locate(mix, src, m.Origin), diag.EvidenceOrigin,
			"origin %q: expected \"raw\" (the lab's own output, unchanged) or \"transcribed\" (re-typed from a published document)", m.Origin))
	}
	read := map[string]bool{}
	for _, f := range files {
		read[f] = true
	}
	seen := map[string]bool{}
	for _, f := range m.Files {
		p := path.Clean(f.Path)
		switch {
		case f.Path == "":
			errs = append(errs, diag.Errorf(manifest.LocateIn(mix, src, "[[file]]", "path"), diag.EvidenceOrigin, "[[file]] entry without path; expected the name of a file the set reads"))
			continue
		case !read[p]:
			errs = append(errs, diag.Errorf(manifest.Locate(mix, src, f.Path), diag.EvidenceOrigin, "[[file]] %q names no file this set reads; expected one of %s", f.Path, strings.Join(files, ", ")))
		case seen[p]:
			errs = append(errs, diag.Errorf(manifest.Locate(mix, src, f.Path), diag.EvidenceOrigin, "[[file]] %q is given twice; expected one entry per file", f.Path))
		}
		seen[p] = true
		if f.Origin != "" && !valid(f.Origin) {
			errs = append(errs, diag.Errorf(manifest.Locate(mix, src, f.Origin), diag.EvidenceOrigin,
				"[[file]] %q: origin %q: expected \"raw\" or \"transcribed\"", f.Path, f.Origin))
		}
	}
	top := diag.Position{File: mix.File(), Line: 1, Column: 1}
	var missing, unsourced []string
	for _, f := range files {
		p := provenanceOf(m, f)
		switch {
		case p.Origin == "":
			missing = append(missing, f)
		case p.Origin == OriginTranscribed && strings.TrimSpace(p.Source) == "":
			unsourced = append(unsourced, f)
		}
	}
	const expect = `expected origin = "raw" (the lab's own output, unchanged) or origin = "transcribed" with source = "document, section" (re-typed from a published document), for the set or per [[file]]`
	switch {
	case m.Origin == "" && len(missing) == len(files):
		errs = append(errs, diag.Errorf(top, diag.EvidenceOrigin, "evidence set %q declares no origin; %s", m.ID, expect))
	default:
		for _, f := range missing {
			errs = append(errs, diag.Errorf(manifest.Locate(mix, src, f), diag.EvidenceOrigin, "evidence set %q declares no origin for %s; %s", m.ID, f, expect))
		}
	}
	for _, f := range unsourced {
		at := manifest.Locate(mix, src, f)
		if provenanceOf(m, f).Origin == m.Origin {
			at = manifest.Locate(mix, src, m.Origin)
		}
		errs = append(errs, diag.Errorf(at, diag.EvidenceOrigin,
			"evidence set %q: %s is transcribed without a source; expected source = \"document, section\" naming what was re-typed", m.ID, f))
	}
	errs.Sort()
	return errs
}
