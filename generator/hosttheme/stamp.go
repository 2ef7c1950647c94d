package hosttheme

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/evdoc-lab/evdoc/internal/safefile"
)

// ComponentStamp is the file `evdoc init` writes into themes/evdoc beside
// the component: the version of the evdoc that wrote it and the sum of
// the files it wrote (Sum). Hugo does not read it, and it is not part of
// the component's sum.
const ComponentStamp = "evdoc-component.toml"

// Stamp is ComponentStamp's content.
type Stamp struct {
	// Evdoc names the evdoc that wrote the component: its module version
	// (v0.3.0, a pseudo-version) or "(devel)" and the short commit.
	Evdoc string `toml:"evdoc"`
	// Commit is the full commit of the evdoc that wrote the component,
	// when its binary records one: the workflow `evdoc init` writes
	// installs evdoc at this commit.
	Commit string `toml:"commit,omitempty"`
	// Sum is the component's Sum when it was written.
	Sum string `toml:"sum"`
}

// Format returns the stamp file's text.
func (s Stamp) Format() []byte {
	b := fmt.Appendf(nil, "# Written by `evdoc init` with the component; evdoc check and build compare\n# themes/evdoc with their own component. Run `evdoc init` to update both.\nevdoc = %q\n", s.Evdoc)
	if s.Commit != "" {
		b = fmt.Appendf(b, "commit = %q\n", s.Commit)
	}
	return fmt.Appendf(b, "sum = %q\n", s.Sum)
}

// Digests returns the SHA-256 of each file under dir in fsys, by its
// slash path under dir, ComponentStamp at dir's top aside: the component
// as Hugo reads it.
func Digests(fsys fs.FS, dir string) (map[string][sha256.Size]byte, error) {
	out := map[string][sha256.Size]byte{}
	err := fs.WalkDir(fsys, dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel := strings.TrimPrefix(p, dir+"/")
		if rel == ComponentStamp {
			return nil
		}
		b, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		out[rel] = sha256.Sum256(b)
		return nil
	})
	return out, err
}

// dirDigests is Digests of the project's component directory dir, read
// as the repository's input it is: every entry a directory or a regular
// file (a symbolic link, FIFO, socket or device is an error naming it,
// never followed, opened or waited on), each file hashed as it is read,
// up to safefile.TextMaxSize, so a file of any size costs bounded memory
// and time.
func dirDigests(dir string) (map[string][sha256.Size]byte, error) {
	out := map[string][sha256.Size]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if rel == ComponentStamp {
			return nil
		}
		f, _, err := safefile.Open(dir, rel, safefile.TextMaxSize)
		if err != nil {
			return fmt.Errorf("themes/%s/%w", Component, err)
		}
		defer f.Close()
		h := sha256.New()
		n, err := io.Copy(h, io.LimitReader(f, safefile.TextMaxSize+1))
		if err != nil {
			return fmt.Errorf("themes/%s/%s: %w", Component, rel, err)
		}
		if n > safefile.TextMaxSize {
			return fmt.Errorf("themes/%s/%s: grew past the %s limit while being read", Component, rel, safefile.Size(safefile.TextMaxSize))
		}
		out[rel] = [sha256.Size]byte(h.Sum(nil))
		return nil
	})
	return out, err
}

// Sum returns one sum of digests (as Digests returns them): "sha256:"
// and the hexadecimal SHA-256 of each file's path and digest, in path
// order.
func Sum(digests map[string][sha256.Size]byte) string {
	h := sha256.New()
	for _, p := range slices.Sorted(maps.Keys(digests)) {
		d := digests[p]
		fmt.Fprintf(h, "%s\x00%x\n", p, d)
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil))
}

// maxDiffNames caps the files CheckComponent names.
const maxDiffNames = 3

// CheckComponent compares the component Hugo would use in the project at
// root with want, the running evdoc's (version names it), and returns
// what differs, or "" when they are the same or evdoc cannot be sure
// which files Hugo uses: only when the theme list (themes) names the
// component, themesDir is not set, no _vendor/evdoc replaces it and
// themes/evdoc is a directory of the project (not a symbolic link) is it
// compared. The message names the evdoc that wrote themes/evdoc (from its
// ComponentStamp), whether it was changed since, and the first files that
// differ.
func CheckComponent(root string, themes []string, themesDir string, want fs.FS, version string) (string, error) {
	if !slices.Contains(themes, Component) || themesDir != "" || Dir(root, Component) != "themes/"+Component {
		return "", nil
	}
	dir := filepath.Join(root, "themes", Component)
	if fi, err := os.Lstat(dir); err != nil || !fi.IsDir() {
		return "", nil
	}
	wantD, err := Digests(want, ".")
	if err != nil {
		return "", err
	}
	haveD, err := dirDigests(dir)
	if err != nil {
		return "", err
	}
	wantSum, haveSum := Sum(wantD), Sum(haveD)
	if wantSum == haveSum {
		return "", nil
	}
	var diffs []string
	for _, p := range slices.Sorted(maps.Keys(wantD)) {
		if h, ok := haveD[p]; !ok {
			diffs = append(diffs, p+" is missing")
		} else if h != wantD[p] {
			diffs = append(diffs, p+" differs")
		}
	}
	for _, p := range slices.Sorted(maps.Keys(haveD)) {
		if _, ok := wantD[p]; !ok {
			diffs = append(diffs, p+" is not evdoc's")
		}
	}
	n := len(diffs)
	if n > maxDiffNames {
		diffs = append(diffs[:maxDiffNames], fmt.Sprintf("%d more", n-maxDiffNames))
	}
	detail := fmt.Sprintf("%d file(s): %s", n, strings.Join(diffs, ", "))
	var st Stamp
	src, serr := safefile.ReadFile(dir, ComponentStamp, safefile.SpecMaxSize)
	if serr == nil {
		_, serr = toml.Decode(string(src), &st)
	}
	fix := "run `evdoc init` to update it (init replaces themes/evdoc as a whole and keeps every other file of the project)"
	switch {
	case serr != nil || st.Evdoc == "":
		return fmt.Sprintf("themes/evdoc differs from this evdoc's component (evdoc %s) in %s; it has no %s, so it was written by an evdoc older than the stamp, or by hand; %s", version, detail, ComponentStamp, fix), nil
	case st.Sum == haveSum && st.Evdoc == version:
		return fmt.Sprintf("themes/evdoc is the component of another build of evdoc %s, which differs from this one's in %s; %s", version, detail, fix), nil
	case st.Sum == haveSum:
		return fmt.Sprintf("themes/evdoc is the component of evdoc %s, which differs from this evdoc's (evdoc %s) in %s; %s", st.Evdoc, version, detail, fix), nil
	case st.Sum == wantSum:
		return fmt.Sprintf("themes/evdoc was written by this evdoc's component (evdoc %s) and changed since, in %s; %s, and make changes in the project's layouts/ instead, which take precedence over themes", version, detail, fix), nil
	}
	return fmt.Sprintf("themes/evdoc is the component of evdoc %s, changed since, and differs from this evdoc's (evdoc %s) in %s; %s", st.Evdoc, version, detail, fix), nil
}
