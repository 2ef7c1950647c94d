package translation

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// RewriteTree rewrites every Markdown file under dir (a staged content
// directory, never the project's own) with HugoMarkdown. It stops with
// ctx's error between files when ctx is done.
func RewriteTree(ctx context.Context, dir string, opt MarkdownOptions) error {
	return filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if cerr := ctx.Err(); cerr != nil {
			return cerr
		}
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
