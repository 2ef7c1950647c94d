package site

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/yuin/goldmark"
	"go.yaml.in/yaml/v3"

	"github.com/evdoc-lab/evdoc/generator/claim"
	"github.com/evdoc-lab/evdoc/generator/diag"
)

// Page is one Markdown content file of one language.
//
// Path is repository-relative ("content/ko/docs/istio/x.md"); Logical is
// the page's path within its content directory without extension, with
// "_index"/"index" files named by their directory ("docs/istio/x",
// "docs/istio", "" for the home page). Key pairs translations: the
// translationKey front matter field, else Logical, as Hugo pairs them.
type Page struct {
	Lang        string
	Path        string
	Rel         string // path within the content directory
	Logical     string
	Key         string
	Section     bool // an _index.md (list page)
	Title       string
	FrontMatter map[string]any
	Parsed      *claim.Page
}

// Body returns the page's Markdown after its front matter.
func (p *Page) Body() []byte { return p.Parsed.Source[p.Parsed.BodyStart:] }

// IsEmpty reports whether the page has front matter but no body: a
// translation placeholder that evdoc fills from the source language.
func (p *Page) IsEmpty() bool { return len(bytes.TrimSpace(p.Body())) == 0 }

// URL returns the page's path relative to its language root, such as
// "/docs/istio/x/" ("/" for the home page).
func (p *Page) URL() string {
	if p.Logical == "" {
		return "/"
	}
	return "/" + p.Logical + "/"
}

var yamlLineRe = regexp.MustCompile(`line (\d+)`)

// loadPages reads every .md file under each language's content directory.
func loadPages(root string, cfg *Config, md goldmark.Markdown) ([]*Page, diag.List, error) {
	var (
		pages []*Page
		errs  diag.List
	)
	for _, lang := range cfg.Ordered() {
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
				errs = append(errs, diag.Errorf(diag.Position{File: filepath.ToSlash(rel)}, "page-path", "content file is a symbolic link; expected a regular file"))
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
			pg, perrs := newPage(lang.Code, filepath.ToSlash(relRepo), filepath.ToSlash(relContent), src, md)
			errs = append(errs, perrs...)
			if pg != nil {
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

func newPage(lang, repoPath, rel string, src []byte, md goldmark.Markdown) (*Page, diag.List) {
	parsed, errs := claim.Parse(md, repoPath, src)
	pg := &Page{Lang: lang, Path: repoPath, Rel: rel, Parsed: parsed, FrontMatter: map[string]any{}}
	base := path.Base(rel)
	dir := path.Dir(rel)
	if dir == "." {
		dir = ""
	}
	switch base {
	case "_index.md":
		pg.Logical, pg.Section = dir, true
	case "index.md":
		pg.Logical = dir
	default:
		pg.Logical = path.Join(dir, strings.TrimSuffix(base, ".md"))
	}
	if parsed.FrontMatter != nil {
		if bytes.HasPrefix(src, []byte("+++")) {
			errs = append(errs, diag.Errorf(parsed.Index.Pos(0), "page-front-matter", "TOML front matter; evdoc reads YAML front matter (---)"))
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
			errs = append(errs, diag.Errorf(pos, "page-front-matter", "invalid YAML front matter: %s", strings.TrimSpace(msg)))
			return nil, errs
		}
	}
	pg.Title, _ = pg.FrontMatter["title"].(string)
	pg.Key, _ = pg.FrontMatter["translationKey"].(string)
	if pg.Key == "" {
		pg.Key = pg.Logical
	}
	return pg, errs
}
