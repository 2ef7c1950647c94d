package safefile

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Resolve returns p made absolute with every symbolic link resolved: the
// longest existing prefix through filepath.EvalSymlinks, the rest (not
// created yet) appended.
func Resolve(p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	var rest []string
	q := abs
	for {
		r, err := filepath.EvalSymlinks(q)
		if err == nil {
			return filepath.Join(append([]string{r}, rest...)...), nil
		}
		if !errors.Is(err, os.ErrNotExist) {
			return "", err
		}
		parent := filepath.Dir(q)
		if parent == q {
			return abs, nil
		}
		rest = append([]string{filepath.Base(q)}, rest...)
		q = parent
	}
}

// Within reports whether p is dir or inside it (both cleaned, absolute).
func Within(p, dir string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && (rel == "." || (rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))))
}

// CheckWrite returns an error unless the directory of the file at p lies
// inside root once every symbolic link is resolved, so a write to p —
// which creates that directory when missing and renames a new file into
// it — stays in the project: a directory of a repository that is a link
// to elsewhere (assets/figures -> ~/.config, themes/evdoc -> /srv) is
// refused, naming the link's target.
func CheckWrite(root, p string) error {
	r, err := Resolve(root)
	if err != nil {
		return err
	}
	d, err := Resolve(filepath.Dir(p))
	if err != nil {
		return err
	}
	if !Within(d, r) {
		return fmt.Errorf("%s leads outside the project (to %s, through a symbolic link); expected a directory inside %s", filepath.Dir(p), d, r)
	}
	return nil
}
