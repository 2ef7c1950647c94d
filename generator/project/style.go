package project

import (
	"errors"
	"io/fs"

	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/generator/style"
	"github.com/evdoc-lab/evdoc/internal/safefile"
)

// loadGlossary reads the project's glossary.toml; a project without one
// has none (nil, no finding).
func loadGlossary(root string) (*style.Glossary, diag.List) {
	src, err := safefile.ReadFile(root, style.GlossaryFile, safefile.SpecMaxSize)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		at := diag.Position{File: style.GlossaryFile, Line: 1, Column: 1}
		return nil, diag.List{diag.Errorf(at, diag.SiteConfig, "%v", err).Spanning(at)}
	}
	return style.ParseGlossary(style.GlossaryFile, src)
}
