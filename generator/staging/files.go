package staging

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"

	"github.com/evdoc-lab/evdoc/internal/crash"
	"github.com/evdoc-lab/evdoc/internal/safefile"
	"go.yaml.in/yaml/v3"
	"golang.org/x/sync/errgroup"
)

// writeJSONFrontMatterPage writes a page whose front matter is JSON (Hugo
// reads a page starting with "{" as JSON front matter). Evidence viewer
// windows use it: their per-line data (one map per raw line, with its
// citations) exceeds the node count Hugo's YAML decoder accepts ("too many
// YAML aliases for non-scalar nodes") once a file is cited a few thousand
// times; the JSON decoder has no such limit.
func writeJSONFrontMatterPage(p string, fm map[string]any, body string) error {
	j, err := json.Marshal(fm)
	if err != nil {
		return err
	}
	return WriteFile(p, append(append(j, '\n'), body...))
}

// writeFrontMatterPage writes a page with YAML front matter fm and body.
func writeFrontMatterPage(p string, fm map[string]any, body string) error {
	y, err := yaml.Marshal(fm)
	if err != nil {
		return err
	}
	return WriteFile(p, append(append(append([]byte("---\n"), y...), []byte("---\n")...), body...))
}

func WriteFile(p string, b []byte) error {
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	return os.WriteFile(p, b, 0o644)
}

// copyFile copies from to to, streaming (a large static file is not
// held in memory).
func copyFile(from, to string) error {
	// A regular file, opened without blocking (a FIFO swapped in is an
	// error, not a copy that never ends).
	in, _, err := safefile.OpenPath(from, 0)
	if err != nil {
		return err
	}
	defer in.Close()
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		return err
	}
	out, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

func CopyTree(from, to string) error { return copyTreeContext(context.Background(), from, to) }

// stageTree copies the regular files under root/dir to stage/dir on a
// pool of GOMAXPROCS workers, stopping at the first error (or ctx's).
// A file for which transform (given its slash-separated path relative
// to root and its content) returns true is written as transform returned
// it instead of copied; transform reads whole files, the others are
// streamed. An entry that is neither a directory nor a regular file (a
// symbolic link, FIFO, socket or device) is not staged (notStaged names
// them).
func stageTree(ctx context.Context, root, stage, dir string, transform func(rel string, b []byte) ([]byte, bool)) error {
	files, err := regularFiles(filepath.Join(root, dir))
	if err != nil {
		return err
	}
	one := func(p string) error {
		rel, _ := filepath.Rel(root, p)
		dst := filepath.Join(stage, rel)
		if strings.HasSuffix(rel, ".md") {
			b, err := safefile.ReadPath(p, safefile.TextMaxSize)
			if err != nil {
				return err
			}
			if out, ok := transform(filepath.ToSlash(rel), b); ok {
				return WriteFile(dst, out)
			}
			return WriteFile(dst, b)
		}
		return copyFile(p, dst)
	}
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(runtime.GOMAXPROCS(0))
	for _, p := range files {
		if gctx.Err() != nil {
			break
		}
		g.Go(func() error {
			defer crash.Guard()
			if err := gctx.Err(); err != nil {
				return err
			}
			return one(p)
		})
	}
	if err := g.Wait(); err != nil {
		return err
	}
	return ctx.Err()
}

// NotStaged describes each entry under root/dir that stageTree does not
// copy (a symbolic link, with its target, a FIFO, socket or device), by
// its slash path relative to root, in path order, and what leaving it out
// means: Hugo builds without it, so a template calling a linked partial
// fails with only "partial not found".
func NotStaged(root, dir string) []string {
	var out []string
	_ = filepath.WalkDir(filepath.Join(root, dir), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Type().IsRegular() {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if d.Type()&fs.ModeSymlink != 0 {
			target, _ := os.Readlink(p)
			out = append(out, fmt.Sprintf("%s is a symbolic link (to %s); %s", rel, target, notStagedNote))
			return nil
		}
		if fi, err := d.Info(); err == nil {
			out = append(out, fmt.Sprintf("%s is not a regular file (%s); %s", rel, fi.Mode().Type(), notStagedNote))
		}
		return nil
	})
	return out
}

const notStagedNote = "not staged, so Hugo builds without it (a template that calls it fails with \"partial not found\", a page or file that links to it is missing); expected a regular file inside the project: copy it in"

// regularFiles returns the paths of the regular files under dir, sorted;
// none when dir does not exist.
func regularFiles(dir string) ([]string, error) {
	if _, err := os.Stat(dir); os.IsNotExist(err) {
		return nil, nil
	}
	var files []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type().IsRegular() {
			files = append(files, p)
		}
		return nil
	})
	sort.Strings(files)
	return files, err
}

// copyTreeContext copies the regular files under from to to, file by
// file; it stops with ctx's error when ctx is done.
func copyTreeContext(ctx context.Context, from, to string) error {
	files, err := regularFiles(from)
	if err != nil {
		return err
	}
	for _, p := range files {
		if err := ctx.Err(); err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		if err := copyFile(p, filepath.Join(to, rel)); err != nil {
			return err
		}
	}
	return nil
}
