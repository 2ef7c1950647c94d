package checker

import (
	"path"
	"path/filepath"
)

// SetOverlay makes the Checker read the content file at the repository
// path file (slash-separated, like Page.Path) as src instead of the file
// on disk: an editor's unsaved buffer (evdoc lsp). A nil src reads the
// file from disk again. The page is judged with src at the next Recheck
// of file, which the caller makes; a lazily loaded page is parsed from
// src whenever it is parsed again (its translation's re-check).
func (c *Checker) SetOverlay(file string, src []byte) {
	s := c.site
	file = path.Clean(filepath.ToSlash(file))
	if src == nil {
		delete(s.Overlay, file)
		return
	}
	if s.Overlay == nil {
		s.Overlay = map[string][]byte{}
	}
	s.Overlay[file] = src
}
