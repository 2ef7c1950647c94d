package site

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/yuin/goldmark"
	"go.yaml.in/yaml/v3"

	"github.com/evdoc-lab/evdoc/generator/claim"
	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/generator/translation"
)

// Page is one Markdown content file of one language (see
// translation.Page, which pairs them).
type Page = translation.Page

var yamlLineRe = regexp.MustCompile(`line (\d+)`)

// loadPages reads every .md file under each language's content directory.
func loadPages(root string, cfg *Config, md goldmark.Markdown) ([]*Page, diag.List, error) {
	var (
		pages []*Page
		errs  diag.List
	)
	var codes []string
	for _, lang := range cfg.Ordered() {
		codes = append(codes, lang.Code)
	}
	walked := map[string]bool{}
	for _, lang := range cfg.Ordered() {
		if walked[lang.ContentDir] {
			continue // a content directory shared by languages: suffixes tell
		}
		walked[lang.ContentDir] = true
		dirLang := lang.Code
		dir := filepath.Join(root, lang.ContentDir)
		if _, err := os.Stat(dir); err != nil {
			return nil, nil, fmt.Errorf("content directory of %q: %v", lang.Code, err)
		}
		err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.Type()&fs.ModeSymlink != 0 {
				rel, _ := filepath.Rel(root, p)
				errs = append(errs, diag.Errorf(diag.Position{File: filepath.ToSlash(rel)}, diag.PagePath, "content file is a symbolic link; expected a regular file"))
				return nil
			}
			if d.IsDir() || !strings.HasSuffix(p, ".md") {
				return nil
			}
			src, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			relRepo, _ := filepath.Rel(root, p)
			relContent, _ := filepath.Rel(dir, p)
			serrs, ok := screenPage(filepath.ToSlash(relRepo), src)
			errs = append(errs, serrs...)
			if !ok {
				return nil
			}
			pg, perrs := newPage(dirLang, codes, filepath.ToSlash(relRepo), filepath.ToSlash(relContent), src, md)
			errs = append(errs, perrs...)
			if pg != nil {
				errs = append(errs, rawHTMLFindings(pg)...)
				pages = append(pages, pg)
			}
			return nil
		})
		if err != nil {
			return nil, nil, fmt.Errorf("reading %s: %v", lang.ContentDir, err)
		}
	}
	sort.Slice(pages, func(i, j int) bool { return pages[i].Path < pages[j].Path })
	return pages, errs, nil
}

func newPage(dirLang string, codes []string, repoPath, rel string, src []byte, md goldmark.Markdown) (*Page, diag.List) {
	parsed, errs := claim.Parse(md, repoPath, src)
	pg := &Page{Path: repoPath, Rel: rel, Parsed: parsed, FrontMatter: map[string]any{}}
	pg.Lang, pg.Logical, pg.Section = translation.FileLanguage(rel, dirLang, codes)
	if parsed.FrontMatter != nil {
		if bytes.HasPrefix(src, []byte("+++")) {
			errs = append(errs, diag.Errorf(parsed.Index.Pos(0), diag.PageFrontMatter, "TOML front matter; evdoc reads YAML front matter (---)"))
			return nil, errs
		}
		if err := yaml.Unmarshal(parsed.FrontMatter, &pg.FrontMatter); err != nil {
			// yaml counts lines from the front matter, which starts on the
			// file's second line: report at, and name, file lines.
			pos := parsed.Index.Pos(0)
			msg := err.Error()
			if m := yamlLineRe.FindStringSubmatch(msg); m != nil {
				n, _ := strconv.Atoi(m[1])
				if start := parsed.Index.LineStart(n + 1); start >= 0 {
					pos = parsed.Index.Pos(start)
				}
			}
			msg = yamlLineRe.ReplaceAllStringFunc(msg, func(l string) string {
				n, _ := strconv.Atoi(yamlLineRe.FindStringSubmatch(l)[1])
				return fmt.Sprintf("line %d", n+1)
			})
			errs = append(errs, diag.Errorf(pos, diag.PageFrontMatter, "invalid YAML front matter: %s", strings.TrimSpace(msg)))
			return nil, errs
		}
	}
	pg.Title, _ = pg.FrontMatter["title"].(string)
	pg.Key, _ = pg.FrontMatter["translationKey"].(string)
	pg.ExplicitKey = pg.Key != ""
	if pg.Key == "" {
		pg.Key = pg.Logical
	}
	return pg, errs
}
