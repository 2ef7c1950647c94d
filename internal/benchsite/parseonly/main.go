// Command parseonly is the parse-only baseline of bench/run (issue 14):
// it parses every Markdown page under ROOT/content with goldmark (GFM
// tables and the CJK extension, as Hugo's defaults do) and reads every
// file under ROOT/evidence once, then prints the counts. It is the least
// work any checker of the site must do; `evdoc check` is measured
// against it.
//
// Usage:
//
//	go run ./internal/benchsite/parseonly ROOT
package main

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/text"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: parseonly ROOT")
		os.Exit(2)
	}
	root := os.Args[1]
	md := goldmark.New(goldmark.WithExtensions(extension.GFM, extension.CJK))
	var pages, evFiles, nodes int
	var mdBytes, evBytes int64
	err := filepath.WalkDir(filepath.Join(root, "content"), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".md") {
			return err
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		doc := md.Parser().Parse(text.NewReader(src))
		nodes += doc.ChildCount()
		pages++
		mdBytes += int64(len(src))
		return nil
	})
	if err == nil {
		err = filepath.WalkDir(filepath.Join(root, "evidence"), func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			b, err := os.ReadFile(p)
			evFiles++
			evBytes += int64(len(b))
			return err
		})
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "parseonly:", err)
		os.Exit(1)
	}
	fmt.Printf("parsed %d pages (%.1f MB Markdown, %d top-level blocks), read %d evidence files (%.1f MB)\n",
		pages, float64(mdBytes)/1e6, nodes, evFiles, float64(evBytes)/1e6)
}
