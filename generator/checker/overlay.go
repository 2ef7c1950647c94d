package checker

// SetOverlay makes the Checker read the content file at the repository
// path file (slash-separated, like Page.Path) as src instead of the file
// on disk: an editor's unsaved buffer (evdoc lsp). A nil src reads the
// file from disk again. The page is judged with src at the next Recheck
// of file, which the caller makes; a lazily loaded page is parsed from
// src whenever it is parsed again (its translation's re-check).
func (c *Checker) SetOverlay(file string, src []byte) {
	c.site.SetOverlay(file, src)
}
