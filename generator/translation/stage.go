package translation

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/BurntSushi/toml"
)

var cjkTableRe = regexp.MustCompile(`(?m)^\s*\[\s*markup\.goldmark\.extensions\.cjk\s*\]\s*(#.*)?$`)

// HugoConfig returns the hugo.toml Hugo should run with so that the
// Markdown HugoMarkdown stages renders as evdoc reads it: goldmark's CJK
// extension with escapedSpace on (added when the file does not set it),
// and the options of that extension evdoc must honour. An explicit
// `enable = false` or `escapedSpace = false` is an error: evdoc cannot
// make emphasis next to CJK punctuation render without it.
func HugoConfig(src []byte) ([]byte, MarkdownOptions, error) {
	var c struct {
		Markup struct {
			Goldmark struct {
				Extensions struct {
					CJK *struct {
						Enable              *bool `toml:"enable"`
						EscapedSpace        *bool `toml:"escapedSpace"`
						EastAsianLineBreaks bool  `toml:"eastAsianLineBreaks"`
					} `toml:"cjk"`
				} `toml:"extensions"`
			} `toml:"goldmark"`
		} `toml:"markup"`
	}
	if _, err := toml.Decode(string(src), &c); err != nil {
		return nil, MarkdownOptions{}, fmt.Errorf("hugo.toml: %v", err)
	}
	cjk := c.Markup.Goldmark.Extensions.CJK
	if cjk == nil {
		if strings.Contains(string(src), "cjk") {
			// set some other way (dotted keys, inline table): leave it
			// to the explicit settings below
			return nil, MarkdownOptions{}, fmt.Errorf("hugo.toml: write markup.goldmark.extensions.cjk as a [markup.goldmark.extensions.cjk] table with enable = true and escapedSpace = true")
		}
		out := append([]byte(nil), src...)
		if len(out) > 0 && out[len(out)-1] != '\n' {
			out = append(out, '\n')
		}
		out = append(out, "\n# Added by evdoc build: emphasis next to CJK punctuation renders (escaped spaces).\n[markup.goldmark.extensions.cjk]\n  enable = true\n  escapedSpace = true\n"...)
		return out, MarkdownOptions{}, nil
	}
	opt := MarkdownOptions{EastAsianLineBreaks: cjk.EastAsianLineBreaks}
	if cjk.Enable != nil && !*cjk.Enable || cjk.EscapedSpace != nil && !*cjk.EscapedSpace {
		return nil, opt, fmt.Errorf("hugo.toml: [markup.goldmark.extensions.cjk] must have enable = true and escapedSpace = true; evdoc writes escaped spaces so that emphasis next to CJK punctuation renders")
	}
	out := string(src)
	loc := cjkTableRe.FindStringIndex(out)
	if loc == nil {
		return nil, opt, fmt.Errorf("hugo.toml: write markup.goldmark.extensions.cjk as a [markup.goldmark.extensions.cjk] table")
	}
	var add string
	if cjk.Enable == nil {
		add += "\n  enable = true"
	}
	if cjk.EscapedSpace == nil {
		add += "\n  escapedSpace = true"
	}
	out = out[:loc[1]] + add + out[loc[1]:]
	return []byte(out), opt, nil
}

// RewriteTree rewrites every Markdown file under dir (a staged content
// directory, never the project's own) with HugoMarkdown.
func RewriteTree(dir string, opt MarkdownOptions) error {
	return filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if os.IsNotExist(err) {
				return nil
			}
			return err
		}
		if d.IsDir() || !strings.HasSuffix(p, ".md") {
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		out, ins := HugoMarkdown(src, opt)
		if len(ins) == 0 {
			return nil
		}
		return os.WriteFile(p, out, 0o644)
	})
}
