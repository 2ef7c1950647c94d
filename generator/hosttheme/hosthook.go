package hosttheme

import (
	"bytes"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
)

// HostLinkHook is the partial (a path under layouts/) evdoc's link render
// hook runs for every link that is not a claim: the host theme's own
// link render hook under another name. Hugo runs one render hook per
// kind, the first in its lookup order (the project's layouts, then the
// themes in list order), and evdoc's component comes first; Hugo has no
// "next hook", so the host's hook is reached as this partial. Without
// it, evdoc's hook renders Goldmark's default link.
const HostLinkHook = "_partials/evdoc/host/render-link.html"

// CopyMark opens every copy WriteHostHooks writes: a template comment
// (it renders nothing, and trims nothing of the host's template) naming
// its source. A file at HostLinkHook without it is the project's own and
// is never replaced.
const CopyMark = "{{/* evdoc: a copy of "

// HostHook returns the host theme's render hook that evdoc's component
// hides (hook: "render-link.html"): the first layouts/_markup/HOOK (or
// layouts/_default/_markup/HOOK, which Hugo still reads) of the themes
// listed after the component, relative to root and slash-separated; ""
// when none has one (the host renders with Hugo's default). A list
// without the component yet (init, before the site lists it first) is
// the host's whole list.
func HostHook(root string, themes []string, hook string) string {
	after := !slices.Contains(themes, Component)
	for _, t := range themes {
		if t == Component {
			after = true
			continue
		}
		if !after {
			continue
		}
		for _, n := range []string{"_markup/" + hook, "_default/_markup/" + hook} {
			rel := path.Join(Dir(root, t), "layouts", n)
			if fi, err := os.Stat(filepath.Join(root, filepath.FromSlash(rel))); err == nil && fi.Mode().IsRegular() {
				return rel
			}
		}
	}
	return ""
}

// HostHookCopy returns the text of the partial HostLinkHook for the
// host's hook src read from the file from: src unchanged after a
// comment naming from, so the partial renders byte for byte what the
// hook renders.
func HostHookCopy(from string, src []byte) []byte {
	var b bytes.Buffer
	b.WriteString(CopyMark)
	b.WriteString(strings.ReplaceAll(from, "*/", "* /"))
	b.WriteString(", the host theme's link render hook, which evdoc's claim hook runs for every other link; evdoc init and evdoc build write it again from the theme */}}")
	b.Write(src)
	return b.Bytes()
}

// SyncHostHooks makes the project (or stage) at dir hold the host's link
// render hook of the theme list as HostLinkHook, read from the project at
// root: written from the theme's current hook, or removed when the theme
// has none, unless dir holds a file there of its own (without
// CopyMark), which is kept. It returns the file written or removed ("" if
// none) and whether it changed dir.
func SyncHostHooks(root, dir string, themes []string) (string, bool, error) {
	dst := filepath.Join(dir, "layouts", filepath.FromSlash(HostLinkHook))
	old, err := os.ReadFile(dst)
	if err == nil && !bytes.HasPrefix(old, []byte(CopyMark)) {
		return "", false, nil // the project's own
	}
	src := HostHook(root, themes, "render-link.html")
	if src == "" {
		if err != nil {
			return "", false, nil
		}
		if err := os.Remove(dst); err != nil {
			return "", false, err
		}
		return "layouts/" + HostLinkHook, true, nil
	}
	b, rerr := os.ReadFile(filepath.Join(root, filepath.FromSlash(src)))
	if rerr != nil {
		return "", false, rerr
	}
	want := HostHookCopy(src, b)
	if err == nil && bytes.Equal(old, want) {
		return "layouts/" + HostLinkHook, false, nil
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return "", false, err
	}
	if err := os.WriteFile(dst, want, 0o644); err != nil {
		return "", false, err
	}
	return "layouts/" + HostLinkHook, true, nil
}
