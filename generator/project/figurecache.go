package project

import (
	"github.com/evdoc-lab/evdoc/generator/figure"
	"github.com/evdoc-lab/evdoc/generator/figure/output"
)

// FigureCache keeps rendered figures between stagings, so that a later
// Stage draws again only a figure whose spec, languages or input values
// (each input's reference, value, raw text and position) changed:
// drawing is most of the time a staging takes. The fonts are not part of
// the key: drop the cache when they change. The zero value is ready to
// use; it serves one Stage at a time.
type FigureCache struct {
	m map[string]cachedFigure
}

type cachedFigure struct {
	key   [32]byte
	files []output.File
	rec   *output.Record
}

// Files returns proj.Files(f), from the cache when f's key is unchanged.
// A nil cache renders every time.
func (c *FigureCache) Files(proj *output.Project, f *figure.Spec) ([]output.File, *output.Record, error) {
	if c == nil {
		return proj.Files(f)
	}
	key, ok := proj.InputKey(f)
	if !ok {
		return proj.Files(f) // reports the errors
	}
	if e, ok := c.m[f.Name]; ok && e.key == key {
		return e.files, e.rec, nil
	}
	files, rec, err := proj.Files(f)
	if err != nil {
		return nil, nil, err
	}
	if c.m == nil {
		c.m = map[string]cachedFigure{}
	}
	c.m[f.Name] = cachedFigure{key, files, rec}
	return files, rec, nil
}

// Put keeps files and rec as f's drawing, as Files keeps a drawing it
// made: a later Files of f with the same inputs returns them. It keeps
// nothing and reports false when f's inputs cannot be read. The caller
// vouches that they are the files proj.Files(f) would draw; tests give a
// build the committed drawings of assets/figures this way, which the
// figures' golden tests compare with fresh drawings.
func (c *FigureCache) Put(proj *output.Project, f *figure.Spec, files []output.File, rec *output.Record) bool {
	key, ok := proj.InputKey(f)
	if !ok {
		return false
	}
	if c.m == nil {
		c.m = map[string]cachedFigure{}
	}
	c.m[f.Name] = cachedFigure{key, files, rec}
	return true
}
