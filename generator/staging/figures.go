package staging

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"

	"github.com/evdoc-lab/evdoc/generator/project"
	"github.com/evdoc-lab/evdoc/generator/viewer"
)

// figureData is what the evfigure shortcode reads of one figure, each
// field by language: the drawings' sizes differ between languages (a
// longer label wraps onto another line in the narrow drawing).
type figureData struct {
	Alt     map[string]string `json:"alt"`
	Caption map[string]string `json:"caption"`
	Width   map[string]int    `json:"width"`
	Height  map[string]int    `json:"height"`
	// NarrowWidth and NarrowHeight are the size of the drawing for
	// phones (NAME.LANG.narrow.svg), MinFont its smallest text in px at
	// the drawn size.
	NarrowWidth  map[string]int `json:"narrow_width"`
	NarrowHeight map[string]int `json:"narrow_height"`
	MinFont      map[string]int `json:"min_font"`
	// Source is the raw line of the figure's first input.
	Source *viewer.Target `json:"source,omitempty"`
}

// stageFigures renders every figure from the current evidence into the
// staged assets/figures (Hugo resources), so the site never shows a stale
// figure, and writes data/evdoc/figures.json for the evfigure shortcode.
func stageFigures(ctx context.Context, s *project.Site, stage string, v *viewer.Viewer, logw io.Writer) error {
	proj, err := s.FigureProject()
	if err != nil {
		return err
	}
	data := map[string]figureData{}
	for _, f := range s.Figures {
		if err := ctx.Err(); err != nil {
			return err
		}
		files, rec, err := s.FigureCache.Files(proj, f)
		if err != nil {
			return err
		}
		fd := figureData{Alt: map[string]string{}, Caption: map[string]string{}, Width: map[string]int{}, Height: map[string]int{},
			NarrowWidth: map[string]int{}, NarrowHeight: map[string]int{}, MinFont: map[string]int{}}
		for lang, lr := range rec.Languages {
			fd.Alt[lang], fd.Caption[lang] = lr.Alt, lr.Caption
			fd.Width[lang], fd.Height[lang] = lr.Width, lr.Height
			fd.NarrowWidth[lang], fd.NarrowHeight[lang], fd.MinFont[lang] = lr.NarrowWidth, lr.NarrowHeight, lr.MinFont
		}
		if len(rec.Inputs) > 0 {
			if t, ok := v.Target(rec.Inputs[0].Pos); ok {
				fd.Source = &t
			}
		}
		for _, file := range files {
			if err := WriteFile(filepath.Join(stage, filepath.FromSlash(file.Path)), file.Data); err != nil {
				return err
			}
			fmt.Fprintf(logw, "evdoc: figure %s (%d bytes)\n", file.Path, len(file.Data))
		}
		data[f.Name] = fd
	}
	b, err := json.MarshalIndent(data, "", " ")
	if err != nil {
		return err
	}
	return WriteFile(filepath.Join(stage, "data", "evdoc", "figures.json"), b)
}
