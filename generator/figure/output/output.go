package output

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"

	"github.com/evdoc-lab/evdoc/internal/atomicfile"
	"github.com/evdoc-lab/evdoc/internal/safefile"

	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/generator/evidence"
	"github.com/evdoc-lab/evdoc/generator/figure"
	"github.com/evdoc-lab/evdoc/generator/figure/spec"
	"github.com/evdoc-lab/evdoc/generator/figure/typeset"
	"github.com/evdoc-lab/evdoc/internal/crash"
)

// OutputDir is where evdoc figures writes the committed figures, relative
// to the project root: NAME.LANG.png, NAME.LANG.svg, the narrow drawing
// for phones NAME.LANG.narrow.svg and NAME.json (the record of what they
// were drawn from). Hugo reads them as resources.
const OutputDir = "assets/figures"

// Record is NAME.json: what a committed figure was drawn from, so that
// evdoc figures --check can say which evidence change made it stale.
type Record struct {
	Spec       string                `json:"spec"`
	SpecSHA256 string                `json:"spec_sha256"`
	Inputs     []figure.Input        `json:"inputs"`
	Languages  map[string]LangRecord `json:"languages"`
}

// LangRecord describes one language's rendering: its size in CSS px, the
// size of its narrow drawing, the smallest text drawn in either (in px at
// the drawn size, measured as drawn: at least MinFont), the alt text and caption the page shows, and the
// digests of the files.
type LangRecord struct {
	Width        int    `json:"width"`
	Height       int    `json:"height"`
	NarrowWidth  int    `json:"narrow_width"`
	NarrowHeight int    `json:"narrow_height"`
	MinFont      int    `json:"min_font"`
	Alt          string `json:"alt"`
	Caption      string `json:"caption"`
	PNGSHA256    string `json:"png_sha256"`
	SVGSHA256    string `json:"svg_sha256"`
	NarrowSHA256 string `json:"narrow_svg_sha256"`
}

// Project is what rendering every figure needs.
type Project struct {
	Root   string
	Store  *evidence.Store
	Specs  []*figure.Spec
	Langs  []string
	Fonts  map[string]*typeset.Fonts // per language
	OutDir string                    // relative to Root; OutputDir when empty
	// Draw, when not nil, draws a spec in place of Files: a cache of
	// earlier drawings keyed by InputKey (drawing is deterministic, so
	// equal keys give equal files). drawAll calls it from several
	// goroutines at once.
	Draw func(*figure.Spec) ([]File, *Record, error)
}

// InputKey returns a digest of everything that decides the files of f:
// its spec source and file, the project's languages and output
// directory, and the evidence inputs it reads with their positions. ok
// is false when f's inputs cannot be read (drawing it reports why).
func (p *Project) InputKey(f *figure.Spec) (key [32]byte, ok bool) {
	inputs, errs := f.Inputs(p.Store)
	if errs != nil {
		return key, false
	}
	type keyInput struct {
		figure.Input
		Pos any
	}
	var ki []keyInput
	for _, in := range inputs {
		ki = append(ki, keyInput{in, in.Pos})
	}
	b, err := json.Marshal(struct {
		Spec   []byte
		File   string
		Langs  []string
		OutDir string
		Inputs []keyInput
	}{f.Src, f.File, p.Langs, p.OutDir, ki})
	if err != nil {
		return key, false
	}
	return sha256.Sum256(b), true
}

// File is one output file: its path relative to the project root and bytes.
type File struct {
	Path string
	Data []byte
}

func sum(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

// Files renders spec s in every language and returns its output files
// (PNG and SVG per language, then the record) and the record.
func (p *Project) Files(s *figure.Spec) ([]File, *Record, error) {
	dir := p.OutDir
	if dir == "" {
		dir = OutputDir
	}
	inputs, errs := s.Inputs(p.Store)
	if errs != nil {
		return nil, nil, errs
	}
	rec := &Record{Spec: s.File, SpecSHA256: sum(s.Src), Inputs: inputs, Languages: map[string]LangRecord{}}
	var files []File
	for _, lang := range p.Langs {
		out, err := s.Render(p.Store, lang, p.Fonts[lang])
		if err != nil {
			return nil, nil, err
		}
		narrow, err := s.RenderNarrow(p.Store, lang, p.Fonts[lang])
		if err != nil {
			return nil, nil, err
		}
		alt, err := s.AltText(p.Store, lang)
		if err != nil {
			return nil, nil, err
		}
		base := path.Join(dir, s.Name+"."+lang)
		files = append(files, File{base + ".png", out.PNG}, File{base + ".svg", out.SVG}, File{base + ".narrow.svg", narrow.SVG})
		rec.Languages[lang] = LangRecord{Width: out.Width, Height: out.Height, NarrowWidth: narrow.Width, NarrowHeight: narrow.Height,
			MinFont: int(math.Floor(float64(min(out.MinText, narrow.MinText)))), Alt: alt, Caption: spec.Plain(s.Caption, lang),
			PNGSHA256: sum(out.PNG), SVGSHA256: sum(out.SVG), NarrowSHA256: sum(narrow.SVG)}
	}
	b, err := json.MarshalIndent(rec, "", "  ")
	if err != nil {
		return nil, nil, err
	}
	files = append(files, File{path.Join(dir, s.Name+".json"), append(b, '\n')})
	return files, rec, nil
}

// drawn is one spec's files and record, or why it could not be drawn.
type drawn struct {
	files []File
	rec   *Record
	err   error
}

// drawAll draws every spec, as many side by side as there are cores
// (drawing is CPU work, and specs are independent), and returns the
// results in the order of p.Specs.
func (p *Project) drawAll() []drawn {
	out := make([]drawn, len(p.Specs))
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	for i, s := range p.Specs {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer crash.Guard()
			defer func() { <-sem; wg.Done() }()
			draw := p.Files
			if p.Draw != nil {
				draw = p.Draw
			}
			files, rec, err := draw(s)
			out[i] = drawn{files, rec, err}
		}()
	}
	wg.Wait()
	return out
}

// WriteError is a figure file Write could not write (a full disk, a
// directory leading out of the project), as opposed to a figure that
// cannot be drawn.
type WriteError struct {
	Path string
	Err  error
}

func (e *WriteError) Error() string { return "writing " + e.Path + ": " + e.Err.Error() }

func (e *WriteError) Unwrap() error { return e.Err }

// Write renders every figure and writes the files that changed
// atomically (a temporary file renamed into place). It returns the paths
// written. Nothing is written for a figure that fails to render.
func (p *Project) Write() ([]string, error) {
	var written []string
	for _, d := range p.drawAll() {
		if d.err != nil {
			return written, d.err
		}
		for _, f := range d.files {
			full := filepath.Join(p.Root, filepath.FromSlash(f.Path))
			// Never through a directory link out of the project
			// (assets/figures -> elsewhere).
			if err := safefile.CheckWrite(p.Root, full); err != nil {
				return written, &WriteError{f.Path, err}
			}
			if old, err := safefile.ReadFile(p.Root, f.Path, int64(len(f.Data))); err == nil && bytes.Equal(old, f.Data) {
				continue
			}
			if err := writeAtomic(full, f.Data); err != nil {
				return written, &WriteError{f.Path, err}
			}
			written = append(written, f.Path)
		}
	}
	return written, nil
}

func writeAtomic(name string, b []byte) error { return atomicfile.Write(name, b, 0o644) }

// Check compares the committed figures with what the evidence and specs
// give now. Each stale or missing figure is one error at its spec naming
// the files and why: the evidence values whose value, raw text or
// position changed since the record, a changed spec, or a missing file.
// Output files with no spec are reported too.
func (p *Project) Check() diag.List {
	dir := p.OutDir
	if dir == "" {
		dir = OutputDir
	}
	var ds diag.List
	known := map[string]bool{}
	all := p.drawAll()
	for i, s := range p.Specs {
		// the spec's first line
		pos, end := s.Index().Pos(0), s.Index().LineEnd(0)
		files, rec, err := all[i].files, all[i].rec, all[i].err
		if err != nil {
			ds = append(ds, diag.Errorf(pos, diag.FigureStale, "figure %q cannot be drawn: %v", s.Name, err).Spanning(end))
			// its committed files are its own, not files of no spec
			known[path.Join(dir, s.Name+".json")] = true
			for _, lang := range p.Langs {
				for _, ext := range []string{".png", ".svg", ".narrow.svg"} {
					known[path.Join(dir, s.Name+"."+lang+ext)] = true
				}
			}
			continue
		}
		var stale []string
		for _, f := range files {
			known[f.Path] = true
			// Bounded: a file larger than the new one is stale anyway.
			old, err := safefile.ReadFile(p.Root, f.Path, int64(len(f.Data))+1)
			var se *safefile.Error
			switch {
			case errors.As(err, &se) && se.Kind == safefile.NotFound:
				stale = append(stale, f.Path+" is missing")
			case errors.As(err, &se) && se.Kind == safefile.TooLarge:
				stale = append(stale, f.Path+" is stale")
			case err != nil:
				stale = append(stale, fmt.Sprintf("%s: %v", f.Path, err))
			case !bytes.Equal(old, f.Data):
				stale = append(stale, f.Path+" is stale")
			}
		}
		if len(stale) == 0 {
			continue
		}
		why := p.why(s, rec, dir)
		ds = append(ds, diag.Errorf(pos, diag.FigureStale, "figure %q: %s; %s; run evdoc figures", s.Name, strings.Join(stale, ", "), why).Spanning(end))
	}
	entries, _ := os.ReadDir(filepath.Join(p.Root, filepath.FromSlash(dir)))
	for _, e := range entries {
		f := path.Join(dir, e.Name())
		if !e.IsDir() && !known[f] && !strings.HasPrefix(e.Name(), ".") {
			ds = append(ds, diag.Errorf(diag.Position{File: f}, diag.FigureStale, "%s belongs to no figure spec; run evdoc figures or delete it", f))
		}
	}
	ds.Sort()
	return ds
}

// why explains a stale figure by comparing its committed record with rec.
func (p *Project) why(s *figure.Spec, rec *Record, dir string) string {
	b, err := safefile.ReadFile(p.Root, path.Join(dir, s.Name+".json"), safefile.SpecMaxSize)
	if err != nil {
		return "no record of what it was drawn from"
	}
	var old Record
	if err := json.Unmarshal(b, &old); err != nil {
		return "its record is unreadable"
	}
	was := map[string]figure.Input{}
	for _, in := range old.Inputs {
		was[in.Ref] = in
	}
	var changes []string
	for _, in := range rec.Inputs {
		o, ok := was[in.Ref]
		switch {
		case !ok:
			changes = append(changes, fmt.Sprintf("now also reads %s", in))
		case o.Value != in.Value || o.Raw != in.Raw:
			changes = append(changes, fmt.Sprintf("evidence %s changed from %s to %s (%s)", in.Ref, o.Raw, in.Raw, in.Pos))
		}
		delete(was, in.Ref)
	}
	var gone []string
	for ref := range was {
		gone = append(gone, ref)
	}
	sort.Strings(gone)
	for _, ref := range gone {
		changes = append(changes, "no longer reads "+ref)
	}
	if old.SpecSHA256 != rec.SpecSHA256 {
		changes = append(changes, "the spec changed")
	}
	if len(changes) == 0 {
		return "same evidence and spec: the renderer or fonts changed"
	}
	return strings.Join(changes, "; ")
}
